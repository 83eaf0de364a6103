package dev.fabricscope.cli;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.topology.SnapshotAnalyzer;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * While a live probe waits for the driver ({@code cuInit} alone takes ~185 ms), runs what follows the probe — the
 * findings, the JSON writer or the text view, the terminal sanitiser — once over a bundled synthetic machine on a
 * spare core, its output discarded: the JVM loads and compiles that code on first use, so the probe's own output then
 * runs warm (docs/benchmarks.md, issue 31). Nothing of it reaches the probe's result or any output.
 */
final class OutputWarmUp {

    /** Fewer cores than this and the warm-up would compete with the probe itself. */
    static final int MIN_CORES = 4;
    static final String SAMPLE = "dgx-h100";

    private OutputWarmUp() {
    }

    static void start(boolean json, boolean text, boolean wide) {
        // -Dfabricscope.warmUp=off: none (docs/benchmarks.md times the probe with and without it)
        if (Runtime.getRuntime().availableProcessors() < MIN_CORES || "off".equals(System.getProperty("fabricscope.warmUp"))) {
            return;
        }
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                OutputWarmUp.run(json, text, wide);
            }
        }, "fabricscope-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /** One pass over the sample; what it computes is dropped. */
    static void run(boolean json, boolean text, boolean wide) {
        try {
            MachineSnapshot s = Samples.find(SAMPLE).orElseThrow().snapshot().get();
            s = s.withFindings(SnapshotAnalyzer.findings(s));
            PrintWriter sink = dev.fabricscope.text.SafeTerminalWriter.wrap(new PrintWriter(Writer.nullWriter()));
            if (json) {
                sink.print(dev.fabricscope.json.RecordJson.write(s));
            }
            if (text) {
                sink.print(dev.fabricscope.render.SnapshotText.render(s, wide));
            }
            sink.flush();
        } catch (Throwable e) { // NOPMD: a warm-up that fails costs only the time it would have saved
            // nothing to report: the probe itself runs the same code and reports its own failures
        }
    }
}
