package dev.fabricscope.render;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.FabricVerdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The NVLink signals of issue 24 (bandwidth mode, NVLE, firmware, GFM state, fabric cliques, link states, BER) and
 * the per-GPU "links up, fabric up?" verdict, as the text view, the GUI details and the reports show them. Cells
 * keep why a reading is missing short: {@code N/S} the GPU does not support it, {@code no call} the driver lacks the
 * entry point, {@code not rec.} the trace holds no answer (recorded before it was read).
 */
public final class SignalText {

    public static final String LEGEND = "N/S: not supported by the GPU; no call: the driver lacks the entry point;"
            + " not rec.: not in the trace; ?: failed (the JSON names the call and code)";

    private SignalText() {
    }

    /** Whether any GPU of the snapshot carries these signals (snapshots made before them carry placeholders). */
    public static boolean read(MachineSnapshot s) {
        return s.gpus().stream().anyMatch(g -> !NodeText.notRead(g.signals().bwMode()));
    }

    /** A missing reading in one short word, or the value's text. */
    public static String cell(Reading<?> r, java.util.function.Function<Object, String> text) {
        if (r.isPresent()) {
            return text.apply(r.value());
        }
        Missing m = r.missing();
        return switch (m.kind()) {
            case UNSUPPORTED -> "N/S";
            case SYMBOL_MISSING -> "no call";
            case NOT_APPLICABLE -> "N/A";
            case UNAVAILABLE -> m.detail() != null && (m.detail().contains("not recorded") || m.detail().contains("trace holds no answer"))
                    ? "not rec." : "?";
            default -> "?";
        };
    }

    public static String bwMode(Reading<NvLinkSignals.BwMode> r) {
        return cell(r, v -> {
            NvLinkSignals.BwMode m = (NvLinkSignals.BwMode) v;
            return m.mode() + (m.best() ? " (best)" : " (REDUCED)");
        });
    }

    @SuppressWarnings("unchecked")
    public static String list(Reading<? extends List<?>> r) {
        return cell(r, v -> ((List<Object>) v).isEmpty() ? "none" : String.join(", ", ((List<Object>) v).stream().map(String::valueOf).toList()));
    }

    public static String nvle(Reading<Boolean> r) {
        return cell(r, v -> (Boolean) v ? "enabled" : "disabled");
    }

    /** {@code 18 ACTIVE}, {@code 16 ACTIVE, 2 SLEEP (4-5)}, or the one reason none was read. */
    public static String linkStates(NvLinkSignals sig) {
        if (sig.links().isEmpty()) {
            return "none read";
        }
        Map<String, List<Integer>> by = new TreeMap<>();
        for (NvLinkSignals.LinkSignal l : sig.links()) {
            String k = l.state().isPresent() ? l.state().value()
                    : l.state().missing().kind() == Missing.Kind.INVALID ? "value " + l.state().missing().raw() : cell(l.state(), String::valueOf);
            by.computeIfAbsent(k, x -> new ArrayList<>()).add(l.index());
        }
        List<String> parts = new ArrayList<>();
        by.forEach((k, links) -> parts.add(links.size() + " " + k + (by.size() > 1 && !k.equals(NvLinkSignals.LINK_ACTIVE)
                ? " (" + FabricVerdict.ranges(links) + ")" : "")));
        return String.join(", ", parts);
    }

    /** Effective BER over the links: one value when all agree, else the distinct values with their links. */
    public static String ber(NvLinkSignals sig, boolean symbol) {
        if (sig.links().isEmpty()) {
            return "none read";
        }
        Map<String, List<Integer>> by = new LinkedHashMap<>();
        for (NvLinkSignals.LinkSignal l : sig.links()) {
            Reading<NvLinkSignals.Ber> b = symbol ? l.symbolBer() : l.effectiveBer();
            by.computeIfAbsent(cell(b, v -> {
                NvLinkSignals.Ber x = (NvLinkSignals.Ber) v;
                return "m" + x.mantissa() + " e" + x.exponent();
            }), x -> new ArrayList<>()).add(l.index());
        }
        if (by.size() == 1) {
            return by.keySet().iterator().next() + " on all " + sig.links().size();
        }
        List<String> parts = new ArrayList<>();
        by.forEach((k, links) -> parts.add(k + " (" + FabricVerdict.ranges(links) + ")"));
        return String.join("; ", parts);
    }

    /**
     * The signals of the text view: a table of the short ones (identical GPUs folded into one row), then one line of
     * modes, firmware and cliques per group; empty for snapshots made before the signals were read.
     */
    public static String table(MachineSnapshot s) {
        if (!read(s)) {
            return "";
        }
        Map<String, List<Integer>> rows = new LinkedHashMap<>();
        Map<String, List<Integer>> more = new LinkedHashMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            NvLinkSignals sig = s.gpus().get(i).signals();
            rows.computeIfAbsent(String.join("\u0000", cell(sig.systemBwMode(), String::valueOf), bwMode(sig.bwMode()), nvle(sig.nvle()), cell(sig.gfmState(), String::valueOf),
                    linkStates(sig), ber(sig, false)), k -> new ArrayList<>()).add(i);
            more.computeIfAbsent("supported BW modes " + list(sig.supportedBwModes()) + "; NVLink firmware " + list(sig.firmware())
                    + "; fabric cliques (v4) " + list(sig.fabricCliques()), k -> new ArrayList<>()).add(i);
        }
        TextTable t = new TextTable("GPU", "System BW", "BW mode", "NVLE", "GFM", "Link states", "Effective BER");
        rows.forEach((k, gpus) -> {
            String[] c = k.split("\u0000", -1);
            t.row(gpuRange(gpus), c[0], c[1], c[2], c[3], c[4], c[5]);
        });
        StringBuilder sb = new StringBuilder("NVLink signals:\n").append(t.render());
        more.forEach((k, gpus) -> sb.append("  ").append(gpuRange(gpus)).append(": ").append(k).append('\n'));
        return sb.append("  (").append(LEGEND).append(")\n").toString();
    }

    /** {@code GPU0}, {@code GPU0-3}, {@code GPU0-1, GPU4}. */
    static String gpuRange(List<Integer> gpus) {
        return "GPU" + FabricVerdict.ranges(gpus).replace(",", ", GPU");
    }

    /** One line per verdict (GPUs with the same verdict and evidence share one), then its evidence indented. */
    public static String verdicts(MachineSnapshot s, List<FabricVerdict> verdicts) {
        if (s.gpus().isEmpty()) {
            return "";
        }
        Map<String, List<Integer>> by = new LinkedHashMap<>();
        Map<String, FabricVerdict> first = new LinkedHashMap<>();
        for (FabricVerdict v : verdicts) {
            String key = v.summary() + "\n" + String.join("; ", v.evidence());
            by.computeIfAbsent(key, k -> new ArrayList<>()).add(v.gpu());
            first.putIfAbsent(key, v);
        }
        StringBuilder sb = new StringBuilder("NVLink fabric verdict (links up, fabric up?):\n");
        by.forEach((key, gpus) -> {
            FabricVerdict v = first.get(key);
            sb.append("  ").append(gpuRange(gpus))
                    .append(": ").append(v.state().name()).append(" — ").append(v.summary()).append('\n');
            if (!v.evidence().isEmpty()) {
                sb.append("      read: ").append(String.join("; ", v.evidence())).append('\n');
            }
        });
        return sb.toString();
    }
}
