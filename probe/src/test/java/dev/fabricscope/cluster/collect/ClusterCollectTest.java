package dev.fabricscope.cluster.collect;

import dev.fabricscope.cluster.ClusterAnalysis;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.read.ClusterReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fabricscope.cli.ExitCodes;
import dev.fabricscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cluster collect} for real: through a running Slurm (started by .ci/run) and through a pdsh stand-in. */
class ClusterCollectTest {

    @TempDir
    Path tmp;

    private static String remote() {
        return Paths.get(System.getProperty("java.home"), "bin", "java") + " -cp " + System.getProperty("java.class.path")
                + " dev.fabricscope.cli.Main probe --json";
    }

    private static boolean slurmUp() {
        try {
            Process p = new ProcessBuilder("sinfo", "-h", "-o", "%T").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("(?s).*(idle|mixed|allocated).*");
        } catch (Exception e) {
            return false;
        }
    }

    private static int cli(StringWriter out, String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        return cl.execute(args);
    }

    @Test
    void collectsOneReportPerNodeThroughSlurm() throws Exception {
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(slurmUp(), "CI must run this end to end: .ci/run starts Slurm with .ci/slurm-up.sh");
        }
        assumeTrue(slurmUp(), "no running Slurm (.ci/run starts one with .ci/slurm-up.sh)");
        Path out = tmp.resolve("cluster");
        StringWriter text = new StringWriter();
        int rc = cli(text, "cluster", "collect", "--slurm", "--nodes", "1", "--timeout", "120", "--out", out.toString(),
                "--remote-command", remote());
        assertEquals(ExitCodes.OK, rc, text.toString());
        assertTrue(Files.exists(out.resolve(ClusterReader.MANIFEST)));
        ClusterView v = ClusterAnalysis.analyse(out.toString(), ClusterReader.read(out));
        assertEquals(1, v.readable().size(), text.toString());
        assertTrue(text.toString().contains("through slurm"), text.toString());
        StringWriter shown = new StringWriter();
        // this build machine has no NVIDIA driver: its node's own data is a problem, named although no node differs
        assertEquals(ExitCodes.CHECK_FAILED, cli(shown, "cluster", "show", out.toString()), shown.toString());
        assertTrue(shown.toString().contains("1 node(s)"), shown.toString());
        assertTrue(shown.toString().toLowerCase().contains("driver"), shown.toString());
    }

    @Test
    void pdshOutputIsSplitPerHostAndFailuresAreListed() throws Exception {
        Path fake = tmp.resolve("pdsh");
        // Stand-in for pdsh: runs the command locally for each host of -w, prefixing lines the way pdsh does;
        // host "down01" fails the way pdsh reports an unreachable node.
        Files.writeString(fake, """
                #!/bin/sh
                while [ $# -gt 1 ]; do case "$1" in -w) hosts="$2"; shift 2;; -u) shift 2;; -S) shift;; *) break;; esac; done
                cmd="$1"; rc=0
                for h in $(echo "$hosts" | tr ',' ' '); do
                  if [ "$h" = down01 ]; then echo "pdsh@ci: down01: ssh exited with exit code 255" >&2; rc=255; continue; fi
                  sh -c "$cmd" 2>/tmp/pdsh-err.$$ | sed "s/^/$h: /"; sed "s/^/$h: /" /tmp/pdsh-err.$$ >&2; rm -f /tmp/pdsh-err.$$
                done
                exit $rc
                """);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path out = tmp.resolve("pd");
        PdshCollector c = new PdshCollector(out, List.of(remote().split(" ")), 120, "node01,node02,down01", fake.toString());
        CollectResult r = c.collect();
        assertEquals(3, r.nodes().size());
        assertEquals(2, r.okCount(), r.toString());
        CollectResult.NodeOutcome down = r.nodes().stream().filter(n -> n.node().equals("down01")).findFirst().orElseThrow();
        assertEquals("failed", down.status());
        assertTrue(down.reason().contains("ssh exited with exit code 255"), down.reason());
        assertEquals(2, ClusterReader.read(out).size());
    }

    @Test
    void demuxSplitsPdshLinesByHost() {
        var m = PdshCollector.demux("a: {\nb: {\na: }\nb: }\n");
        assertEquals("{\n}\n", m.get("a").toString());
        assertEquals("{\n}\n", m.get("b").toString());
    }

    @Test
    void usageErrors() {
        StringWriter w = new StringWriter();
        assertEquals(ExitCodes.USAGE, cli(w, "cluster", "collect", "--out", tmp.toString()));
        assertEquals(ExitCodes.USAGE, cli(w, "cluster", "collect", "--slurm", "--pdsh", "a", "--out", tmp.toString()));
        assertEquals(ExitCodes.USAGE, cli(w, "cluster", "collect", "--pdsh", "a", "--nodes", "2", "--out", tmp.toString()));
        assertEquals(ExitCodes.BAD_INPUT, cli(w, "cluster", "show", tmp.resolve("nope").toString()));
    }
}
