package dev.fabricscope.render;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.FactKey;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The human text view of advice, answer first: a one-line verdict, the deployment checks, machine and deployment,
 * the recommendations, then per framework a table (worst first; ok rows only with {@code all}) and the details.
 * Every line fits {@link #MAX_WIDTH} columns.
 */
public final class AdviceText {

    /** No line is wider than this. */
    public static final int MAX_WIDTH = 120;
    private static final int WIDTH = 110;
    private static final int CELL = 44;
    private static final Map<String, String> NAMES = Map.of("sglang", "SGLang", "vllm", "vLLM", "flashinfer", "FlashInfer", "nccl", "NCCL");

    private AdviceText() {
    }

    public static String render(AdviceResult r) {
        return render(r, false);
    }

    /** @param all also list the ok verdicts (hidden by default) */
    public static String render(AdviceResult r, boolean all) {
        return render(r, all, null);
    }

    /**
     * Words to show beside the recommendations, made by the caller (the use case that joins the advice with the
     * cost model): a heading under "Recommended:" and one line per framework.
     */
    public record Beside(String heading, Map<String, String> lines) {
        public Beside {
            lines = lines == null ? Map.of() : Map.copyOf(lines);
        }
    }

    /**
     * @param all    also list the ok verdicts (hidden by default)
     * @param beside the predicted cost per recommendation, or null
     */
    public static String render(AdviceResult r, boolean all, Beside beside) {
        r = dev.fabricscope.text.LongValues.cut(r);
        StringBuilder sb = new StringBuilder();
        EffectiveDeployment d = r.deployment();
        wrap(sb, "Verdict: " + r.summary(), "  ");
        for (String c : r.checks()) {
            wrap(sb, "Deployment check: " + c, "  ");
        }
        machine(sb, r.machine(), d);
        wrap(sb, "Deployment: " + d.summary(), "  ");
        for (String note : d.notes().values()) {
            wrap(sb, "  derived: " + note, "    ");
        }
        if (!d.flags().isEmpty() || !d.env().isEmpty()) {
            List<String> given = new ArrayList<>();
            d.flags().forEach((k, v) -> given.add("--flag " + k + "=" + v));
            d.env().forEach((k, v) -> given.add("--env " + k + "=" + v));
            wrap(sb, "  settings: " + String.join(" ", given), "    ");
        }
        sb.append("Rules: ").append(r.versions().entrySet().stream()
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparingInt(List.of("sglang", "vllm", "flashinfer", "nccl")::indexOf)))
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(" · ")))
                .append("  (--framework-version selects older rules)\n");
        for (String note : r.ruleNotes()) {
            wrap(sb, "  " + note, "    ");
        }
        Map<String, List<Verdict>> byFw = new LinkedHashMap<>();
        for (Verdict v : r.verdicts()) {
            byFw.computeIfAbsent(v.framework(), k -> new ArrayList<>()).add(v);
        }
        sb.append("\nRecommended:\n");
        if (beside != null && beside.heading() != null && !r.recommendations().isEmpty()) {
            wrap(sb, "  (" + beside.heading() + ")", "   ");
        }
        for (String fw : byFw.keySet()) {
            Recommendation rec = r.recommendation(fw).orElse(null);
            if (rec == null) {
                continue;
            }
            String set = String.join(" ", rec.flags());
            String env = rec.env().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
            String drops = String.join("; ", rec.dropCommands());
            String cmd = ((drops.isEmpty() ? "" : drops + "; ") + (env.isEmpty() ? "" : env + " ") + set).strip().replaceFirst(";$", "");
            wrap(sb, "  " + NAMES.getOrDefault(fw, fw) + ": " + (cmd.isEmpty() ? "(no changes)" : cmd), "    ");
            wrap(sb, "    " + rec.summary(), "    ");
            String cost = beside == null ? null : beside.lines().get(fw);
            if (cost != null) {
                wrap(sb, "    " + cost, "      ");
            }
        }
        for (Map.Entry<String, List<Verdict>> e : byFw.entrySet()) {
            framework(sb, e.getKey(), e.getValue(), all);
        }
        // snapshot values (GPU names, versions, paths) reach this text: never pass control characters to the terminal
        return dev.fabricscope.text.Escape.visible(sb.toString(), true);
    }

    private static void machine(StringBuilder sb, MachineFacts m, EffectiveDeployment d) {
        String head = m.smPhrase() + (m.gpuName() != null ? " · " + m.gpuName() : "") + " · " + m.origin();
        wrap(sb, "Machine: " + head, "  ");
        List<String> facts = new ArrayList<>();
        facts.add("platform " + m.platform().value());
        facts.add(m.gpusPerNode().value() == null ? "GPUs per node unknown" : m.gpusPerNode().value() + " GPU" + (m.gpusPerNode().value() == 1 ? "" : "s") + " per node");
        if (m.nodes().origin() == Fact.Origin.ASSUMED) {
            facts.add(m.nodes().value() + (m.nodes().value() == 1 ? " node" : " nodes"));
        }
        facts.add("NVSwitch " + yn(m.nvswitch()));
        facts.add("all-NVLink " + yn(m.allNvlink()));
        facts.add("P2P " + yn(m.p2p()));
        facts.add("multicast " + yn(m.multicast()));
        facts.add("fabric handles " + yn(m.fabricHandles()));
        facts.add("MNNVL fabric " + yn(m.mnnvlFabric()));
        if (m.ncclVersion().value() != null) {
            facts.add("NCCL " + m.ncclVersion().value());
        }
        if (m.torchCuda().probed()) {
            facts.add("torch CUDA " + m.torchCuda().value() + " (read)");
        }
        if (m.flashinfer().probed()) {
            facts.add("FlashInfer " + (Boolean.TRUE.equals(m.flashinfer().value()) ? "installed" : "not installed") + " (read)");
        }
        wrap(sb, "  " + String.join(" · ", facts), "  ");
        List<String> whatIf = new ArrayList<>();
        for (FactKey k : FactKey.values()) {
            if (m.get(k).origin() == Fact.Origin.ASSUMED) {
                whatIf.add(k.key + "=" + m.get(k).value());
            }
        }
        if (!whatIf.isEmpty()) {
            wrap(sb, "  what-if (--assume): " + String.join(", ", whatIf), "    ");
        }
        List<String> generic = new ArrayList<>();
        for (FactKey k : FactKey.values()) {
            Fact<?> f = m.get(k);
            boolean irrelevant = k == FactKey.NODES && d.given().contains("nodes")
                    || k == FactKey.SM && f.value() == null && !"cuda".equals(m.platform().value());
            if (irrelevant || f.origin() == Fact.Origin.PROBED || f.origin() == Fact.Origin.ASSUMED) {
                continue;
            }
            String detail = f.detail();
            int taken = detail.indexOf("; taken as ");
            boolean plain = taken >= 0 && (detail.startsWith("not read") || detail.startsWith("not given") || detail.startsWith("not visible"));
            if (f.origin() == Fact.Origin.UNKNOWN && plain) {
                generic.add(k.key + " " + detail.substring(taken + 11));
            } else {
                wrap(sb, "  " + (f.origin() == Fact.Origin.UNKNOWN ? "unknown: " : "derived: ") + k.key + " — " + detail, "    ");
            }
        }
        if (!generic.isEmpty()) {
            wrap(sb, "  not known, taken as: " + String.join("; ", generic), "    ");
        }
    }

    private static String yn(Fact<Boolean> f) {
        String v = Boolean.TRUE.equals(f.value()) ? "yes" : "no";
        return f.origin() == Fact.Origin.UNKNOWN ? v + "?" : v;
    }

    private static void framework(StringBuilder sb, String fw, List<Verdict> verdicts, boolean all) {
        List<Verdict> shown = all ? verdicts : verdicts.stream().filter(v -> v.outcome() != Outcome.OK).toList();
        long hidden = verdicts.size() - shown.size();
        sb.append('\n').append(NAMES.getOrDefault(fw, fw)).append(" (rules: ").append(verdicts.get(0).version()).append(")")
                .append(hidden > 0 ? ": " + hidden + " ok not shown (--all lists them)" : "").append('\n');
        if (shown.isEmpty()) {
            return;
        }
        TextTable t = new TextTable("  OUTCOME", "KNOB", "VALUE", "RESOLVED");
        for (Verdict v : shown) {
            t.row("  " + v.outcome().json(), cell(v.knob()), cell(v.value()), v.resolved() == null ? "—" : cell(v.resolved()));
        }
        for (String line : t.render().split("\n")) {
            sb.append(line.length() > MAX_WIDTH ? line.substring(0, MAX_WIDTH - 1) + "…" : line.stripTrailing()).append('\n');
        }
        for (Verdict v : shown) {
            if (v.outcome() != Outcome.OK || v.message() != null || v.userSet()) {
                details(sb, v);
            }
        }
    }

    private static String cell(String s) {
        String v = s == null ? "" : s;
        return v.length() > CELL ? v.substring(0, CELL - 1) + "…" : v;
    }

    private static void details(StringBuilder sb, Verdict v) {
        sb.append('\n');
        boolean saysDefault = v.userSet() || v.value() == null || v.value().contains("default") || v.value().contains("auto-enabled");
        wrap(sb, "  " + v.outcome().json().toUpperCase() + "  " + v.knob() + (v.value() == null ? "" : "=" + v.value()) + (saysDefault ? "" : " (default)")
                + (v.resolved() != null ? "  → " + v.resolved() : ""), "    ");
        if (v.message() != null) {
            wrap(sb, "    says:   " + (v.errorClass() != null ? v.errorClass() + ": " : "") + v.message(), "            ");
        } else if (v.errorClass() != null) {
            wrap(sb, "    raises: " + v.errorClass(), "            ");
        }
        if (v.when() != null) {
            wrap(sb, "    when:   " + v.when(), "            ");
        }
        if (v.why() != null) {
            wrap(sb, "    why:    " + v.why(), "            ");
        }
        if (v.fix() != null) {
            wrap(sb, "    fix:    " + v.fix(), "            ");
        }
        if (v.source() != null) {
            source(sb, v.source().toString());
        }
    }

    /** {@code repo@commit:path:line}: past the width, the repository and commit on one line, the file and line below. */
    private static final java.util.regex.Pattern AT_COMMIT = java.util.regex.Pattern.compile("^(\\S+@[0-9a-f]{7,40}):(\\S.*)$");

    static void source(StringBuilder sb, String source) {
        java.util.regex.Matcher m = AT_COMMIT.matcher(source);
        if (("    source: " + source).length() > WIDTH && m.matches()) {
            sb.append("    source: ").append(m.group(1)).append('\n');
            wrap(sb, "            " + m.group(2), "            ");
        } else {
            wrap(sb, "    source: " + source, "            ");
        }
    }

    /** Appends {@code text} wrapped at {@link #WIDTH} on spaces, continuation lines indented by {@code indent}. */
    static void wrap(StringBuilder sb, String text, String indent) {
        String rest = text;
        boolean first = true;
        while (true) {
            String line = first ? rest : indent + rest;
            if (line.length() <= WIDTH) {
                sb.append(line).append('\n');
                return;
            }
            int cut = line.lastIndexOf(' ', WIDTH);
            if (cut <= indent.length() + 10) {
                cut = line.indexOf(' ', WIDTH);
                if (cut < 0 || cut > MAX_WIDTH) {
                    cut = WIDTH; // a long word (a path, a JSON value): split it
                    sb.append(line, 0, cut).append('\n');
                    rest = line.substring(cut);
                    first = false;
                    continue;
                }
            }
            sb.append(line, 0, cut).append('\n');
            rest = line.substring(cut + 1).stripLeading();
            first = false;
        }
    }
}
