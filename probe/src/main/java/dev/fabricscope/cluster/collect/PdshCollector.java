package dev.fabricscope.cluster.collect;

import dev.fabricscope.io.OutputFile;
import dev.fabricscope.io.SnapshotIO;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pdsh -w HOSTS -S …}: for clusters without Slurm. pdsh prefixes every output line with {@code host: };
 * the lines are split back into one report per host.
 */
public final class PdshCollector extends NodeCollector {

    private final String hosts;
    private final String pdsh;

    public PdshCollector(Path outDir, List<String> remoteCommand, int timeoutSeconds, String hosts, String pdshExecutable) {
        super(outDir, remoteCommand, timeoutSeconds);
        this.hosts = hosts;
        this.pdsh = pdshExecutable;
    }

    @Override
    public List<String> command() {
        List<String> cmd = new ArrayList<>(List.of(pdsh, "-S", "-w", hosts, "-u", String.valueOf(timeoutSeconds + 30)));
        // pdsh hands the remote side one string: quote each argument for the remote shell.
        StringBuilder remote = new StringBuilder();
        for (String a : wrapped()) {
            remote.append(remote.length() == 0 ? "" : " ").append('\'').append(a.replace("'", "'\\''")).append('\'');
        }
        cmd.add(remote.toString());
        return cmd;
    }

    /** Splits pdsh's {@code host: line} stream into per-host text. */
    static Map<String, StringBuilder> demux(String text) {
        Map<String, StringBuilder> out = new LinkedHashMap<>();
        for (String line : text.split("\n", -1)) {
            int colon = line.indexOf(": ");
            if (colon <= 0) {
                continue;
            }
            out.computeIfAbsent(line.substring(0, colon), k -> new StringBuilder()).append(line.substring(colon + 2)).append('\n');
        }
        return out;
    }

    @Override
    protected String scheduler() {
        return "pdsh";
    }

    @Override
    protected List<CollectResult.NodeOutcome> outcomes(int rc, Path out, Path err, SnapshotIO.OtherFormats others)
            throws IOException {
        Map<String, StringBuilder> stdout = demux(read(out));
        Map<String, StringBuilder> stderr = demux(read(err));
        List<String> hostsSeen = new ArrayList<>(stdout.keySet());
        stderr.keySet().stream().filter(h -> !h.startsWith("pdsh@") && !hostsSeen.contains(h)).forEach(hostsSeen::add);
        // pdsh's own errors: "pdsh@me: host: ssh exited with exit code 255"
        Map<String, String> pdshErrors = new LinkedHashMap<>();
        for (String line : read(err).split("\n")) {
            if (line.startsWith("pdsh@")) {
                String rest = line.substring(line.indexOf(": ") + 2);
                int c = rest.indexOf(": ");
                if (c > 0) {
                    pdshErrors.put(rest.substring(0, c), rest.substring(c + 2));
                    if (!hostsSeen.contains(rest.substring(0, c))) {
                        hostsSeen.add(rest.substring(0, c));
                    }
                }
            }
        }
        List<CollectResult.NodeOutcome> outcomes = new ArrayList<>();
        for (String host : hostsSeen) {
            Path json = outDir.resolve(host.replaceAll("[^A-Za-z0-9._-]", "_") + ".json");
            StringBuilder body = stdout.get(host);
            if (body != null) {
                OutputFile.write(json, body.toString()); // the one writer: atomic, one line when it cannot
            }
            String e = stderr.getOrDefault(host, new StringBuilder()) + (pdshErrors.containsKey(host) ? pdshErrors.get(host) + "\n" : "");
            outcomes.add(judge(host, json, e, others));
        }
        if (outcomes.isEmpty()) {
            throw new IOException("pdsh reached no host: " + lastLine(err, "(no message)"));
        }
        return outcomes;
    }
}
