package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: every text command answers in its first line and fits 120 columns by default, on every bundled sample;
 * exit codes a script can rely on.
 */
class ScriptableOutputTest {

    @TempDir
    Path tmp;

    static void fits(String what, String text) {
        assertFalse(text.isBlank(), what + " printed nothing");
        text.lines().forEach(l -> assertTrue(l.codePointCount(0, l.length()) <= 120,
                what + ": " + l.length() + " columns: " + l));
    }

    private Path report(String sample) throws Exception {
        Path p = tmp.resolve(sample + ".json");
        if (!Files.exists(p)) {
            CliTest.Run r = CliTest.run("report", "--sample", sample, "--out", p.toString());
            assertEquals(0, r.code(), r.err());
        }
        return p;
    }

    @Test
    void everyCommandOnEverySampleFits120Columns() throws Exception {
        fits("samples", CliTest.run("samples").out());
        fits("--help", CliTest.run("--help").out());
        List<String> names = Samples.names();
        for (String name : names) {
            CliTest.Run show = CliTest.run("show", "--sample", name);
            assertEquals(0, show.code(), show.err());
            fits("show " + name, show.out());
            fits("advise " + name, CliTest.run("advise", "--sample", name).out());
            fits("advise --all " + name, CliTest.run("advise", "--sample", name, "--all").out());
        }
        for (String a : names) {
            for (String b : names) {
                CliTest.Run d = CliTest.run("diff", report(a).toString(), report(b).toString());
                assertEquals(0, d.code(), d.err());
                fits("diff " + a + " " + b, d.out());
            }
        }
        Path cluster = tmp.resolve("cluster");
        Files.createDirectories(cluster);
        int i = 0;
        for (String name : names) {
            i++;
            SyntheticCluster.write(cluster, SyntheticCluster.node(SyntheticCluster.sample(name), "node-" + name, i), name + ".json");
        }
        fits("cluster show", CliTest.run("cluster", "show", cluster.toString()).out());
    }

    @Test
    void showAnswersFirstAndFoldsIdenticalGpus() {
        String out = CliTest.run("show", "--sample", "dgx-h100").out();
        String first = out.lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("8× NVIDIA H100 80GB HBM3 · NVLink 18 active per GPU via 4 NVSwitches · multicast yes — 1 info: "), first);
        assertTrue(out.indexOf("Findings") < out.indexOf("Topology"), "what matters before the details");
        assertTrue(out.contains("all 28 pairs OK"), out);
        assertTrue(out.contains("GPU0–7: 18/18 active"), out);
        String wide = CliTest.run("show", "--sample", "dgx-h100", "--wide").out();
        assertTrue(wide.contains("GPU-00000000-0000-4000-8000-000000010007"), "--wide keeps the UUIDs");
        assertTrue(wide.lines().anyMatch(l -> l.length() > 120), "--wide does not fold");
    }

    @Test
    void diffFoldsPerGpuAndPerLinkChangesAndCanFailAScript() throws Exception {
        CliTest.Run d = CliTest.run("diff", report("dgx-h100").toString(), report("hgx-b200").toString(), "--exit-code");
        assertEquals(ExitCodes.DIFFERENT, d.code());
        assertTrue(d.out().startsWith("Differ: "), d.out());
        assertTrue(d.out().contains("GPU0–7  model"), d.out());
        assertTrue(d.out().contains("GPU0–7  links 0–17 generation"), d.out());
        assertTrue(d.out().lines().count() < 60, "folded: " + d.out().lines().count() + " lines");
        CliTest.Run all = CliTest.run("diff", report("dgx-h100").toString(), report("hgx-b200").toString(), "--all");
        assertEquals(0, all.code());
        assertTrue(all.out().lines().count() > 200, "--all lists one row per GPU and link");
        CliTest.Run same = CliTest.run("diff", report("dgx-h100").toString(), report("dgx-h100").toString(), "--exit-code");
        assertEquals(0, same.code());
        assertTrue(same.out().startsWith("No differences."), same.out());
    }

    @Test
    void clusterShowNamesNoMajorityOfOneAndExitsForScripts() throws Exception {
        Path dir = tmp.resolve("four-models");
        Files.createDirectories(dir);
        String[] models = {"dgx-h100", "hgx-b200", "dgx-a100", "l40s-4x"};
        for (int i = 0; i < models.length; i++) {
            SyntheticCluster.write(dir, SyntheticCluster.node(SyntheticCluster.sample(models[i]), "n" + i, i + 1), "n" + i + ".json");
        }
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("majority (1 of"), "a majority of one is no majority: " + r.out());
        assertTrue(r.out().contains("GPU count: 1 node differs from the majority (3 of 4: 8)"), "a real odd one out is named");
        assertTrue(r.out().contains("GPU models: 4 different values, none held by most nodes"), r.out());
        assertEquals(ExitCodes.DIFFERENT, CliTest.run("cluster", "show", dir.toString(), "--fail-on-outliers").code());

        Path same = tmp.resolve("same");
        Files.createDirectories(same);
        MachineSnapshot h = SyntheticCluster.sample("dgx-h100");
        SyntheticCluster.write(same, SyntheticCluster.node(h, "a", 1), "a.json");
        SyntheticCluster.write(same, SyntheticCluster.node(h, "b", 2), "b.json");
        CliTest.Run ok = CliTest.run("cluster", "show", same.toString(), "--fail-on-outliers");
        assertEquals(0, ok.code(), ok.out());
        assertTrue(ok.out().startsWith("2 nodes, 16 GPUs: all nodes match"), ok.out());
        Files.writeString(same.resolve("broken.json"), "");
        CliTest.Run bad = CliTest.run("cluster", "show", same.toString());
        assertEquals(ExitCodes.BAD_INPUT, bad.code(), "an unreadable file fails a script");
        assertTrue(bad.out().contains("empty file"), bad.out());
    }

    @Test
    void emptyFileSaysEmpty() throws Exception {
        Path empty = Files.writeString(tmp.resolve("empty.json"), "  \n");
        CliTest.Run r = CliTest.run("show", "--snapshot", empty.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertTrue(r.err().contains("empty file"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void missingPdshIsAnEnvironmentErrorInOneLine() {
        boolean pdsh = List.of(System.getenv().getOrDefault("PATH", "").split(":")).stream()
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, "pdsh")));
        assumeTrue(!pdsh && System.getenv("FABRICSCOPE_PDSH") == null, "pdsh is installed here");
        CliTest.Run r = CliTest.run("cluster", "collect", "--pdsh", "node[1-2]", "--out", tmp.resolve("c").toString());
        assertEquals(ExitCodes.ENVIRONMENT, r.code());
        assertEquals("fabricscope: pdsh not found on PATH; install pdsh (or set FABRICSCOPE_PDSH), or use --slurm", r.err().strip());
    }

    @Test
    void samplesAsJson() throws Exception {
        var list = Json.mapper().readTree(CliTest.run("samples", "--json").out());
        List<String> names = new ArrayList<>();
        list.forEach(n -> names.add(n.get("name").asText()));
        assertEquals(Samples.names(), names);
        assertEquals("captured", list.get(0).get("origin").asText());
    }

    @Test
    void versionSaysCommitBuildDateJavaAndJavaFx() {
        String v = CliTest.run("--version").out();
        assertTrue(v.startsWith("fabricscope " + dev.fabricscope.Version.release()), v);
        assertTrue(v.contains("\ncommit:  "), v);
        assertTrue(v.contains("\nbuilt:   "), v);
        assertTrue(v.contains("\nJava:    " + System.getProperty("java.runtime.version")), v);
        assertTrue(v.contains("\nJavaFX:  "), v);
    }

    @Test
    void completionAndManPageComeFromTheSameModelAsHelp() {
        String completion = BuildDocs.completion(Main.commandLine());
        assertTrue(completion.contains("complete -F _complete_fabricscope") || completion.contains("_complete_fabricscope"), completion);
        assertTrue(completion.contains("--fail-on-outliers") && completion.contains("--exit-code"), "every option completes");
        String man = BuildDocs.manPage(Main.commandLine());
        assertTrue(man.startsWith(".TH FABRICSCOPE 1"), man);
        assertTrue(man.contains(".SS fabricscope cluster show"), man);
        assertTrue(man.contains(".SH EXIT STATUS") && man.contains("6  the inputs differ"), man);
    }
}
