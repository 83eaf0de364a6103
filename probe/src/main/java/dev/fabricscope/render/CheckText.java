package dev.fabricscope.render;

import dev.fabricscope.check.api.AllReduceMath;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CallStep;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.check.api.NodeCheckResult;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.check.api.WorkspaceSizing;
import dev.fabricscope.io.ErrorText;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** Plain-text rendering of check results (the CLI's default output), {@code check node}'s included. */
public final class CheckText {

    private CheckText() {
    }

    /** A check's result as the terminal shows it with {@code --wide}: nccl-tests' whole table for an all-reduce. */
    public static String render(CheckResult r) {
        return render(r, true);
    }

    /**
     * A check's result; without {@code wide}, within {@link Fit#WIDTH} columns: the all-reduce table leaves out
     * nccl-tests' redop and root columns (always sum, -1: said in its title) and the CUDA-event times, and long lines
     * are wrapped.
     */
    public static String render(CheckResult r, boolean wide) {
        if (!wide) {
            return Fit.wrap(render(r, x -> allReduce(x, false)), Fit.WIDTH);
        }
        return render(r, x -> allReduce(x, true));
    }

    private static String render(CheckResult r, Function<AllReduceResult, String> allReduce) {
        r = dev.fabricscope.text.LongValues.cut(r);
        if (r instanceof PreflightResult p) {
            return preflight(p);
        }
        if (r instanceof P2pResult p) {
            return p2p(p);
        }
        if (r instanceof AllReduceResult a) {
            return allReduce.apply(a);
        }
        throw new IllegalArgumentException("unknown result " + r.getClass());
    }

    /** {@code check node}: the summary line first, then one line per expectation, within 120 columns. */
    public static String render(NodeCheckResult r) {
        return render(r, false);
    }

    /**
     * {@code check node}: the summary line first, then one line per expectation. A measured value too long for its
     * column is cut at a word with {@code …}; with {@code wide}, those values follow the table in full.
     */
    public static String render(NodeCheckResult r, boolean wide) {
        r = dev.fabricscope.text.LongValues.cut(r);
        StringBuilder sb = new StringBuilder(r.summary()).append('\n');
        sb.append("Node: ").append(r.snapshot() == null || r.snapshot().host() == null ? "?" : r.snapshot().host().hostname().shortDisplay())
                .append(" · expected: ").append(r.expectedFrom()).append('\n');
        String[] head = {"Result", "Expectation", "Expected"};
        int[] w = {head[0].length(), head[1].length(), head[2].length()};
        for (NodeAcceptance.Expectation e : r.expectations()) {
            w[0] = Math.max(w[0], e.outcome().name().length());
            w[1] = Math.max(w[1], ErrorText.oneLineSafe(e.name()).length());
            w[2] = Math.max(w[2], ErrorText.oneLineSafe(e.expected()).length());
        }
        int room = Math.max(30, Fit.WIDTH - w[0] - w[1] - w[2] - 6);
        TextTable t = new TextTable("Result", "Expectation", "Expected", "Measured");
        List<String> full = new java.util.ArrayList<>();
        for (NodeAcceptance.Expectation e : r.expectations()) {
            String measured = ErrorText.oneLineSafe(e.measured());
            String cell = Fit.atWord(measured, room);
            if (!cell.equals(measured)) {
                full.add(e.name() + ": " + measured);
            }
            t.row(e.outcome().name(), e.name(), e.expected(), cell);
        }
        sb.append(t.render());
        if (wide && !full.isEmpty()) {
            sb.append("\nIn full:\n");
            full.forEach(f -> sb.append(Fit.wrap("  " + dev.fabricscope.text.Escape.visible(f, false), Fit.WIDTH)));
        } else if (!full.isEmpty()) {
            sb.append("(cut values: --wide or --json)\n");
        }
        return sb.toString();
    }

    private static void footer(StringBuilder sb, CheckResult r, List<String> notes) {
        for (String n : notes) {
            sb.append("Note: ").append(n).append('\n');
        }
        if (r.memory() != null) {
            for (String line : r.memory().lines()) {
                sb.append(line).append('\n');
            }
        }
        sb.append("Status: ").append(r.status()).append(" — ").append(r.summary()).append('\n');
    }

    // --- preflight -------------------------------------------------------------------------------------------

    static String preflight(PreflightResult r) {
        StringBuilder sb = new StringBuilder();
        PreflightResult.Params p = r.params();
        sb.append("SGLang FlashInfer workspace preflight");
        if (p != null) {
            sb.append(String.format(Locale.ROOT, " — world size %d, max tokens %d, hidden %d, %s, %d local GPU(s)",
                    p.worldSize(), p.maxTokens(), p.hidden(), p.dtype(), p.localGpus()));
        }
        sb.append('\n');
        for (PreflightResult.Gpu g : r.gpus()) {
            sb.append('\n').append("GPU").append(g.cudaOrdinal()).append("  ").append(g.name()).append("  ").append(g.pci()).append('\n');
            sb.append("  handle type: ").append(g.handleType()).append(" (").append(g.handleTypeReason()).append(")\n");
            sb.append("  buffers:");
            for (WorkspaceSizing.Buffer b : g.buffers()) {
                sb.append(' ').append(b.name()).append(' ').append(b.logicalBytes()).append(" B → ").append(b.roundedBytes()).append(" B;");
            }
            sb.setLength(sb.length() - 1);
            sb.append('\n');
            int k = 1;
            for (CallStep s : g.steps()) {
                sb.append(String.format(Locale.ROOT, "  %2d. %s%n", k++, s.describe()));
            }
            if (!g.allocationSizes().isEmpty()) {
                sb.append("  allocation sizes: ").append(g.allocationSizes()).append('\n');
            }
            sb.append("  local probe: ").append(g.localOk() ? "OK" : "FAIL").append(g.probeError() == null ? ""
                    : " — RuntimeError: " + g.probeError()).append('\n');
            if (g.withoutMulticastOk() != null) {
                sb.append("  beyond SGLang: the same cuMemCreate sequence without the multicast rounding (SGLang PR #32330's "
                        + "proposal) ").append(g.withoutMulticastOk() ? "succeeds" : "fails").append(":\n");
                for (CallStep s : g.withoutMulticastSteps()) {
                    sb.append("      ").append(s.describe()).append('\n');
                }
            }
            if (g.fabric() != null) {
                sb.append("  fabric handles:\n");
                for (CallStep s : g.fabric().steps()) {
                    sb.append("      ").append(s.describe()).append('\n');
                }
                sb.append("      → ").append(g.fabric().verdict()).append('\n');
            }
        }
        sb.append('\n');
        if (r.vote() != null) {
            sb.append("Vote (AND over ranks): ").append(r.vote()).append('\n');
        }
        if (!r.frameworkLog().isEmpty()) {
            sb.append("SGLang would log:\n");
            for (String line : r.frameworkLog()) {
                sb.append("  ").append(line).append('\n');
            }
        }
        sb.append("Result: ").append(r.conclusion()).append('\n');
        footer(sb, r, r.notes());
        return sb.toString();
    }

    // --- p2p -------------------------------------------------------------------------------------------------

    static String p2p(P2pResult r) {
        StringBuilder sb = new StringBuilder();
        P2pResult.Params p = r.params();
        sb.append("P2P matrix");
        if (p != null) {
            sb.append(String.format(Locale.ROOT, " — cuMemcpyAsync %d MiB × %d, pointer chase %d hops", p.bufferBytes() >> 20,
                    p.repetitions(), p.latencyHops()));
        }
        CheckSections.Section local = CheckSections.local(r, List.of());
        sb.append("\n\n").append(local.title()).append(":\n").append(local.table());
        local.after().forEach(l -> sb.append("  ").append(l).append('\n'));
        if (r.local().size() > 1) {
            sb.append('\n');
            for (CheckSections.Section m : CheckSections.matrices(r)) {
                sb.append(m.title()).append(":\n").append(m.table()).append('\n');
                m.after().forEach(l -> sb.append("  ").append(l).append('\n'));
            }
        }
        sb.append('\n');
        footer(sb, r, r.notes());
        return sb.toString();
    }

    static String num(Double v) {
        return CheckSections.num(v);
    }

    // --- all-reduce ------------------------------------------------------------------------------------------

    static String allReduce(AllReduceResult r, boolean wide) {
        StringBuilder sb = new StringBuilder();
        AllReduceResult.Params p = r.params();
        if (p != null) {
            sb.append(String.format(Locale.ROOT, "# fabricscope check allreduce: world size %d, %d .. %d bytes ×2, %s, "
                    + "warm-up %d, iters %d%s%n", p.worldSize(), p.minBytes(), p.maxBytes(), String.join(" ", p.dtypes()),
                    p.warmup(), p.iters(), p.modes() == null ? "" : ", modes " + String.join(" ", p.modes())
                    + (p.modes().contains("graph") ? " (graph launches " + p.graphLaunches() + ")" : "")
                    + ", host threads " + p.hostThreads()));
        }
        for (AllReduceResult.Impl impl : r.impls()) {
            sb.append("#\n# ").append(impl.name()).append(": ").append(impl.status()).append(" — ").append(impl.detail()).append('\n');
            for (String mode : List.of("plain", "graph")) {
                List<AllReduceResult.Row> rows = r.rows().stream()
                        .filter(x -> x.impl().equals(impl.name()) && x.modeName().equals(mode)).toList();
                if (!rows.isEmpty()) {
                    table(sb, impl.name() + ", " + (mode.equals("graph") ? "CUDA-graph replay (as nccl-tests -G)" : "plain launches")
                            + (wide ? "" : "; redop sum, root -1; CUDA-event times: --wide"), rows, wide);
                }
            }
        }
        sb.append("#\n");
        footer(sb, r, r.notes());
        return sb.toString();
    }

    /**
     * nccl-tests' table (size, count, type, redop, root, then time/algbw/busbw/#wrong out of place and in place, then
     * the CUDA-event times); without {@code wide}, no redop, root or event columns.
     */
    static void table(StringBuilder sb, String title, List<AllReduceResult.Row> rows, boolean wide) {
        boolean inPlace = rows.stream().anyMatch(x -> x.inPlaceTimeUs() != null);
        boolean events = wide && rows.stream().anyMatch(x -> x.eventTimeUs() != null);
        String col = "  %9s  %7s  %7s  %6s";
        String lead = wide ? "# %10s  %12s  %8s  %6s  %4s" : "# %10s  %12s  %8s%s%s";
        sb.append("#\n# ").append(title).append('\n');
        // column titles centred over the two 37-character groups, as nccl-tests does
        sb.append(("#" + " ".repeat(wide ? 61 : 47) + String.format(Locale.ROOT, "%-39s", "out-of-place")
                + (inPlace ? String.format(Locale.ROOT, "%-37s", "in-place") : "")
                + (events ? "CUDA events" : "")).stripTrailing()).append('\n');
        String ev = events ? "  %9s  %9s" : "";
        sb.append(String.format(Locale.ROOT, lead + col + (inPlace ? col : "") + ev + "%n", "size",
                "count", "type", wide ? "redop" : "", wide ? "root" : "", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
                "#wrong", "out", "in"));
        sb.append(String.format(Locale.ROOT, lead + col + (inPlace ? col : "") + ev + "%n", "(B)",
                "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)"));
        double busSum = 0;
        int busN = 0;
        for (AllReduceResult.Row x : rows) {
            String type = AllReduceMath.DType.parse(x.dtype()).ncclTestsName;
            sb.append(wide ? String.format(Locale.ROOT, "  %10d  %12d  %8s  %6s  %4d", x.bytes(), x.count(), type, "sum", -1)
                    : String.format(Locale.ROOT, "  %10d  %12d  %8s", x.bytes(), x.count(), type));
            sb.append(String.format(Locale.ROOT, "  %9.2f  %7.2f  %7.2f  %6d", x.timeUs(), x.algbw(), x.busbw(), x.wrong()));
            busSum += x.busbw();
            busN++;
            if (inPlace) {
                if (x.inPlaceTimeUs() != null) {
                    sb.append(String.format(Locale.ROOT, "  %9.2f  %7.2f  %7.2f  %6d", x.inPlaceTimeUs(), x.inPlaceAlgbw(),
                            x.inPlaceBusbw(), x.inPlaceWrong()));
                    busSum += x.inPlaceBusbw();
                    busN++;
                } else {
                    sb.append(String.format(Locale.ROOT, col, "-", "-", "-", "-"));
                }
            }
            if (events) {
                sb.append(String.format(Locale.ROOT, "  %9s  %9s", us(x.eventTimeUs()), us(x.inPlaceEventTimeUs())));
            }
            sb.append('\n');
        }
        long wrong = rows.stream().mapToLong(AllReduceResult.Row::totalWrong).sum();
        sb.append(String.format(Locale.ROOT, "# Out of bounds values : %d %s%n", wrong, wrong == 0 ? "OK" : "FAILED"));
        // as nccl-tests: the mean of every busbw figure printed (out-of-place and in-place)
        sb.append(String.format(Locale.ROOT, "# Avg bus bandwidth    : %.4g%n", busSum / busN));
    }

    private static String us(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}
