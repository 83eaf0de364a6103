package dev.fabricscope.render;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CallStep;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.text.Escape;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * A check result as titled tables with lines of prose: the preflight's steps, the P2P matrices, the all-reduce's time
 * and bus bandwidth by message size per implementation and mode. What {@code show} prints of a report's checks (as
 * text within 120 columns, {@link #text}) and what the Markdown and HTML reports draw as their own tables; the
 * terminal's {@code check p2p} renders its matrices from here too ({@link CheckText}).
 */
public final class CheckSections {

    private CheckSections() {
    }

    /**
     * One part of a result.
     *
     * @param title    what the part shows
     * @param lines    prose before the table (each line one sentence or fact)
     * @param head     the table's column heads; empty for no table
     * @param rows     the table's rows, as many cells as {@code head}
     * @param flexible the columns that may be cut at a word to fit a width (the others never are)
     * @param after    prose after the table (where figures come from, outcomes)
     * @param optional a column left out of text too narrow for the table (the others stay), or -1
     */
    public record Section(String title, List<String> lines, List<String> head, List<List<String>> rows, Set<Integer> flexible,
                          List<String> after, int optional) {
        public Section {
            lines = List.copyOf(lines);
            head = List.copyOf(head);
            rows = rows.stream().map(List::copyOf).toList();
            flexible = Set.copyOf(flexible);
            after = List.copyOf(after);
        }

        Section(String title, List<String> lines, List<String> head, List<List<String>> rows, Set<Integer> flexible,
                List<String> after) {
            this(title, lines, head, rows, flexible, after, -1);
        }

        static Section prose(String title, List<String> lines) {
            return new Section(title, lines, List.of(), List.of(), Set.of(), List.of());
        }

        /** This section without column {@code c}. */
        Section without(int c) {
            java.util.function.Function<List<String>, List<String>> drop = row -> {
                List<String> x = new ArrayList<>(row);
                if (c < x.size()) {
                    x.remove(c);
                }
                return x;
            };
            Set<Integer> flex = new java.util.HashSet<>();
            flexible.forEach(i -> {
                if (i != c) {
                    flex.add(i > c ? i - 1 : i);
                }
            });
            return new Section(title, lines, drop.apply(head), rows.stream().map(drop).toList(), flex, after, -1);
        }

        /** The table as {@link TextTable} text, uncut (cells at {@link TextTable#MAX_CELL}). */
        public String table() {
            TextTable t = new TextTable(head.toArray(String[]::new));
            rows.forEach(r -> t.row(r.toArray()));
            return t.render();
        }
    }

    /** The sections of {@code r}; a result of no known type gives its status and summary only. */
    public static List<Section> of(CheckResult r) {
        if (r instanceof PreflightResult p) {
            return preflight(p);
        }
        if (r instanceof P2pResult p) {
            return p2p(p);
        }
        if (r instanceof AllReduceResult a) {
            return allReduce(a);
        }
        return List.of(Section.prose(r.check(), List.of(r.status() + " — " + r.summary())));
    }

    /** The sections as terminal text within {@code width} columns: tables cut in their flexible columns, prose wrapped. */
    public static String text(List<Section> sections, int width) {
        StringBuilder sb = new StringBuilder();
        for (Section s : sections) {
            sb.append(s.title()).append(":\n");
            for (String l : s.lines()) {
                sb.append(Fit.wrap("  " + Escape.visible(l, false), width));
            }
            if (!s.head().isEmpty()) {
                Section shown = s;
                if (s.optional() >= 0 && Fit.widest(s.table()) > width - 2) {
                    shown = s.without(s.optional());
                }
                for (String l : fitted(shown, width - 2).lines().toList()) {
                    sb.append("  ").append(l).append('\n');
                }
                if (shown != s) {
                    sb.append("  (").append(s.head().get(s.optional())).append(": --wide or the JSON report)\n");
                }
            }
            for (String l : s.after()) {
                sb.append(Fit.wrap("  " + Escape.visible(l, false), width));
            }
        }
        return sb.toString();
    }

    /** The table of {@code s} as {@link TextTable} text, its flexible columns cut at a word until it fits {@code width}. */
    static String fitted(Section s, int width) {
        int n = s.head().size();
        int[] w = new int[n];
        List<List<String>> all = new ArrayList<>();
        all.add(s.head());
        all.addAll(s.rows());
        for (List<String> row : all) {
            for (int i = 0; i < n && i < row.size(); i++) {
                w[i] = Math.max(w[i], TextTable.cell(row.get(i)).length());
            }
        }
        int total = 2 * (n - 1);
        for (int x : w) {
            total += x;
        }
        while (total > width) {
            int widest = -1;
            for (int i : s.flexible()) {
                if (i < n && w[i] > Math.max(12, s.head().get(i).length()) && (widest < 0 || w[i] > w[widest])) {
                    widest = i;
                }
            }
            if (widest < 0) {
                break; // nothing left to cut: the table is as narrow as it can be
            }
            int cut = Math.min(total - width, w[widest] - Math.max(12, s.head().get(widest).length()));
            w[widest] -= cut;
            total -= cut;
        }
        TextTable t = new TextTable(s.head().toArray(String[]::new));
        for (List<String> row : s.rows()) {
            Object[] cells = new Object[row.size()];
            for (int i = 0; i < row.size(); i++) {
                String v = TextTable.cell(row.get(i));
                cells[i] = i < n && s.flexible().contains(i) ? Fit.atWord(v, w[i]) : v;
            }
            t.row(cells);
        }
        return t.render();
    }

    // --- preflight -------------------------------------------------------------------------------------------

    static List<Section> preflight(PreflightResult r) {
        List<String> lines = new ArrayList<>();
        PreflightResult.Params p = r.params();
        if (p != null) {
            lines.add(String.format(Locale.ROOT, "world size %d, max tokens %d, hidden %d, %s, %d local GPU(s)",
                    p.worldSize(), p.maxTokens(), p.hidden(), p.dtype(), p.localGpus()));
        }
        List<List<String>> rows = new ArrayList<>();
        for (PreflightResult.Gpu g : r.gpus()) {
            String gpu = "GPU" + g.cudaOrdinal();
            lines.add(gpu + " " + g.name() + " " + g.pci() + ": handle type " + g.handleType() + " (" + g.handleTypeReason() + ")");
            int k = 1;
            for (CallStep s : g.steps()) {
                rows.add(step(gpu, String.valueOf(k++), s));
            }
            int f = 1;
            for (CallStep s : g.fabric() == null ? List.<CallStep>of() : g.fabric().steps()) {
                rows.add(step(gpu, "f" + f++, s));
            }
            int m = 1;
            for (CallStep s : g.withoutMulticastSteps()) {
                rows.add(step(gpu, "w" + m++, s));
            }
        }
        List<String> after = new ArrayList<>();
        for (PreflightResult.Gpu g : r.gpus()) {
            String gpu = "GPU" + g.cudaOrdinal();
            after.add(gpu + " local probe: " + (g.localOk() ? "OK" : "FAIL") + (g.probeError() == null ? "" : " — RuntimeError: "
                    + g.probeError()));
            if (g.withoutMulticastOk() != null) {
                after.add(gpu + " without the multicast rounding (steps w, SGLang PR #32330's proposal): "
                        + (g.withoutMulticastOk() ? "succeeds" : "fails"));
            }
            if (g.fabric() != null) {
                after.add(gpu + " fabric handles (steps f): " + g.fabric().verdict());
            }
        }
        if (r.vote() != null) {
            after.add("Vote (AND over ranks): " + r.vote());
        }
        r.frameworkLog().forEach(l -> after.add("SGLang would log: " + l));
        if (r.conclusion() != null) {
            after.add("Result: " + r.conclusion());
        }
        r.notes().forEach(n -> after.add("Note: " + n));
        memory(r, after);
        return List.of(new Section("Preflight steps (as SGLang's FlashInfer workspace preflight makes them)", lines,
                List.of("GPU", "#", "Call", "Arguments", "Answer", "Meaning"), rows, Set.of(3, 5), after, 3));
    }

    private static List<String> step(String gpu, String n, CallStep s) {
        return List.of(gpu, n, s.call(), s.arguments() == null ? "" : s.arguments(),
                s.codeName() + " (" + s.code() + ")" + (s.value() == null ? "" : " = " + s.value()), s.note() == null ? "" : s.note());
    }

    private static void memory(CheckResult r, List<String> lines) {
        if (r.memory() != null) {
            lines.addAll(r.memory().lines());
        }
    }

    // --- p2p -------------------------------------------------------------------------------------------------

    static List<Section> p2p(P2pResult r) {
        List<Section> out = new ArrayList<>();
        List<String> params = new ArrayList<>();
        if (r.params() != null) {
            params.add(String.format(Locale.ROOT, "cuMemcpyAsync %d MiB × %d, pointer chase %d hops", r.params().bufferBytes() >> 20,
                    r.params().repetitions(), r.params().latencyHops()));
        }
        out.add(local(r, params));
        if (r.local().size() > 1) {
            out.addAll(matrices(r));
        }
        List<String> notes = new ArrayList<>();
        r.notes().forEach(x -> notes.add("Note: " + x));
        memory(r, notes);
        if (!notes.isEmpty()) {
            out.add(Section.prose("P2P notes", notes));
        }
        return out;
    }

    /** Device-local figures per GPU, with where each peak comes from. */
    static Section local(P2pResult r, List<String> lines) {
        List<List<String>> rows = new ArrayList<>();
        for (P2pResult.Local l : r.local()) {
            rows.add(List.of("GPU" + l.gpu(), l.name(), num(l.copyGBps()), num(l.readWriteGBps()), num(l.theoreticalGBps()),
                    l.readWriteGBps() != null && l.theoreticalGBps() != null
                            ? String.format(Locale.ROOT, "%.0f%%", 100 * l.readWriteGBps() / l.theoreticalGBps()) : "-",
                    num(l.latencyNs())));
        }
        return new Section("Device-local (GB/s = 1e9 B/s)", lines,
                List.of("GPU", "Name", "copy GB/s", "read+write GB/s", "peak GB/s", "% of peak", "latency ns"), rows, Set.of(1),
                peakSources(r));
    }

    /** Where each GPU's peak comes from (after the device-local table). */
    private static List<String> peakSources(P2pResult r) {
        List<String> out = new ArrayList<>();
        for (P2pResult.Local l : r.local()) {
            if (l.theoreticalSource() != null) {
                out.add("GPU" + l.gpu() + " peak: " + l.theoreticalSource());
            }
        }
        return out;
    }

    /** The GPU × GPU matrices: peer access, copy bandwidth one way and both ways, latency, nominal bandwidth. */
    static List<Section> matrices(P2pResult r) {
        int n = r.local().size();
        List<Section> out = new ArrayList<>();
        out.add(matrix("Peer access (cuDeviceCanAccessPeer, row = source)", r, n, pr -> pr.access() ? "yes" : "no", List.of()));
        out.add(matrix("Unidirectional copy GB/s (row = source, written to column)", r, n, pr -> num(pr.uniGBps()), List.of()));
        out.add(matrix("Bidirectional copy GB/s (both directions at once, summed)", r, n, pr -> num(pr.bidiGBps()), List.of()));
        out.add(matrix("Latency ns (row's SM reading column's memory)", r, n, pr -> num(pr.latencyNs()), List.of()));
        out.add(matrix("Theoretical GB/s per direction (from the snapshot)", r, n, pr -> num(pr.theoreticalUniGBps()), pairSources(r)));
        return out;
    }

    /** Per pair, where its nominal figure comes from (after the matrices). */
    private static List<String> pairSources(P2pResult r) {
        java.util.Map<String, String> sources = new java.util.TreeMap<>();
        for (P2pResult.Pair pr : r.pairs()) {
            sources.put("GPU" + pr.src() + "→GPU" + pr.dst(), pr.theoreticalSource() + (pr.note() == null ? "" : "; " + pr.note()));
        }
        List<String> out = new ArrayList<>();
        sources.forEach((k, v) -> out.add(k + ": " + v));
        return out;
    }

    private static Section matrix(String title, P2pResult r, int n, Function<P2pResult.Pair, String> cell, List<String> after) {
        List<String> head = new ArrayList<>();
        head.add("");
        for (int j = 0; j < n; j++) {
            head.add("GPU" + j);
        }
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<String> row = new ArrayList<>();
            row.add("GPU" + i);
            for (int j = 0; j < n; j++) {
                if (i == j) {
                    row.add("X");
                    continue;
                }
                final int src = i;
                final int dst = j;
                row.add(r.pairs().stream().filter(pr -> pr.src() == src && pr.dst() == dst).findFirst().map(cell).orElse("-"));
            }
            rows.add(row);
        }
        return new Section(title, List.of(), head, rows, Set.of(), after);
    }

    static String num(Double v) {
        if (v == null) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    // --- all-reduce ------------------------------------------------------------------------------------------

    static List<Section> allReduce(AllReduceResult r) {
        List<Section> out = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        AllReduceResult.Params p = r.params();
        if (p != null) {
            lines.add(String.format(Locale.ROOT, "world size %d, %d .. %d bytes ×2, %s, warm-up %d, iters %d%s", p.worldSize(),
                    p.minBytes(), p.maxBytes(), String.join(" ", p.dtypes()), p.warmup(), p.iters(), p.modes() == null ? ""
                            : ", modes " + String.join(" ", p.modes()) + (p.modes().contains("graph") ? " (graph launches "
                            + p.graphLaunches() + ")" : "") + ", host threads " + p.hostThreads()));
        }
        for (AllReduceResult.Impl impl : r.impls()) {
            lines.add(label(impl.name()) + ": " + impl.status() + " — " + impl.detail());
        }
        long wrong = r.rows().stream().mapToLong(AllReduceResult.Row::totalWrong).sum();
        if (!r.rows().isEmpty()) {
            lines.add("Out of bounds values: " + wrong + (wrong == 0 ? " OK (every result exact)" : " FAILED"));
            lines.add("Out of place, host clock per operation as nccl-tests; in-place and CUDA-event timings are in the JSON "
                    + "report and in 'fabricscope check allreduce'.");
        }
        out.add(Section.prose("All-reduce", lines));
        Set<String> dtypes = new LinkedHashSet<>();
        r.rows().forEach(x -> dtypes.add(x.dtype()));
        for (String dtype : dtypes) {
            List<AllReduceResult.Row> rows = r.rows().stream().filter(x -> x.dtype().equals(dtype)).toList();
            out.add(bySize("All-reduce " + dtype + ": time per operation, µs", rows, AllReduceResult.Row::timeUs));
            out.add(bySize("All-reduce " + dtype + ": bus bandwidth, GB/s", rows, AllReduceResult.Row::busbw));
        }
        List<String> notes = new ArrayList<>();
        r.notes().forEach(x -> notes.add("Note: " + x));
        memory(r, notes);
        if (!notes.isEmpty()) {
            out.add(Section.prose("All-reduce notes", notes));
        }
        return out;
    }

    /** One row per message size, one column per implementation and mode (in the order run). */
    private static Section bySize(String title, List<AllReduceResult.Row> rows, Function<AllReduceResult.Row, Double> value) {
        Set<String> columns = new LinkedHashSet<>();
        java.util.TreeMap<Long, java.util.Map<String, AllReduceResult.Row>> bySize = new java.util.TreeMap<>();
        for (AllReduceResult.Row x : rows) {
            String col = label(x.impl()) + " " + x.modeName();
            columns.add(col);
            bySize.computeIfAbsent(x.bytes(), b -> new java.util.HashMap<>()).put(col, x);
        }
        List<String> head = new ArrayList<>();
        head.add("size");
        head.addAll(columns);
        List<List<String>> out = new ArrayList<>();
        bySize.forEach((bytes, cells) -> {
            List<String> row = new ArrayList<>();
            row.add(size(bytes));
            for (String c : columns) {
                AllReduceResult.Row x = cells.get(c);
                row.add(x == null ? "-" : (x.totalWrong() > 0 ? "✖ " : "") + String.format(Locale.ROOT, "%.2f", value.apply(x)));
            }
            out.add(row);
        });
        return new Section(title, List.of(), head, out, Set.of(), List.of());
    }

    /** NCCL, one-shot, two-shot: the implementations as people name them. */
    public static String label(String impl) {
        return switch (impl) {
            case "nccl" -> "NCCL";
            case "oneshot" -> "one-shot";
            case "twoshot" -> "two-shot";
            default -> impl;
        };
    }

    /** 8, 64K, 1M, 256M: message sizes as nccl-tests' flags write them. */
    public static String size(double b) {
        long v = Math.round(b);
        String[] units = {"", "K", "M", "G"};
        int u = 0;
        while (u < 3 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + units[u];
    }
}
