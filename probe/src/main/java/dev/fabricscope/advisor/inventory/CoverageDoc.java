package dev.fabricscope.advisor.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** docs/upstream-coverage.md, rendered from the inventory (UpstreamCoverageDocTest keeps the file equal to this). */
public final class CoverageDoc {

    static final int WIDTH = 120;
    static final String REGENERATE = "mvn -o -q -pl probe test -Dtest=UpstreamCoverageDocTest -Dfabricscope.writeDocs=true";

    private CoverageDoc() {
    }

    public static String render(UpstreamInventory inv) {
        List<String> out = new ArrayList<>();
        out.add("# Upstream coverage");
        out.add("");
        para(out, "Generated from `probe/src/main/resources/dev/fabricscope/advisor/inventory/upstream-inventory.json` by "
                + "`CoverageDoc`; do not edit by hand. After changing the inventory, regenerate with `" + REGENERATE + "`.");
        para(out, "Every `raise`, assertion, warning that falls back and silent disable of the upstream files the advisor's "
                + "rules cite (issue 23, item 3), each with the rule that models it (`modelledBy`, a class and member of "
                + "`dev.fabricscope.advisor`) or why none does (`notModelled`). A not-modelled branch that could apply to the "
                + "machine and deployment is reported as `unknown` (\"not modelled: ...\"), never as ok; one marked internal "
                + "is reached by no machine fact or deployment choice.");
        out.add("## Commits read");
        out.add("");
        out.add("| repository | commit | date | how it was read |");
        out.add("|---|---|---|---|");
        for (Pin p : inv.pins()) {
            out.add("| `" + p.repo() + "` | `" + p.commit() + "` | " + (p.date() != null ? p.date() : "not known: " + p.dateNote())
                    + " | " + p.read() + " |");
        }
        out.add("");
        out.add("## Counts");
        out.add("");
        out.add("| framework | entries | modelled | not modelled, could apply | not modelled, internal |");
        out.add("|---|---|---|---|---|");
        Map<String, int[]> counts = new TreeMap<>();
        for (InventoryEntry e : inv.entries()) {
            int[] c = counts.computeIfAbsent(e.framework(), k -> new int[4]);
            c[0]++;
            c[e.modelled() ? 1 : e.appliesWhen().internal() != null ? 3 : 2]++;
        }
        counts.forEach((fw, c) -> out.add("| " + fw + " | " + c[0] + " | " + c[1] + " | " + c[2] + " | " + c[3] + " |"));
        out.add("");
        out.add("## When a not-modelled branch could apply (`appliesWhen`)");
        out.add("");
        para(out, "Every test given must hold, and one of `anyOf` where that is given. A value that is not known (a fact the "
                + "machine did not give, a TP size the user did not name) rules nothing out.");
        for (String line : List.of(
                "`frameworks`: the advice (sglang, vllm, flashinfer, nccl) whose start-up reaches the branch; default: "
                        + "those its `anyOf` alternatives name, else the entry's own framework. An alternative that names "
                        + "frameworks holds only for them.",
                "`facts`: `--assume` keys (`sm`, `nvswitch`, `multicast`, `mnnvl-fabric`, `fabric-handles`, `all-nvlink`, ...) "
                        + "to predicates over the fact's value.",
                "`flags`, `env`: framework flags (as `advise --flag` names them, without dashes) and environment variables to "
                        + "predicates over the value given; one not given has no value.",
                "`tp`, `nodes`, `dcp`, `model`: predicates over the deployment (nodes: the deployment's, else the machine's).",
                "`internal`: why no machine fact or deployment choice reaches the branch; it never applies.",
                "Predicates: `*` (given), `unset`, `>N`, `>=N`, `<N`, `<=N` (numbers; versions such as `9.0`), `in a,b`, "
                        + "`not in a,b`, `!=x`, or a value (equal, ignoring case; true/false match 1/0). A flag or variable "
                        + "not given satisfies `unset`, `!=x` and `not in`.")) {
            wrap(out, "- ", "  ", line);
        }
        out.add("");
        if (!inv.pending().isEmpty()) {
            out.add("## Cited files not enumerated yet");
            out.add("");
            for (PendingFile p : inv.pending()) {
                wrap(out, "- ", "  ", "`" + p.repo() + "` `" + p.path() + "`: " + p.reason());
            }
            out.add("");
        }
        out.add("## Branches");
        Map<String, List<InventoryEntry>> byFile = new LinkedHashMap<>();
        for (InventoryEntry e : inv.entries()) {
            byFile.computeIfAbsent(e.repo() + "@" + e.commit() + " " + e.path(), k -> new ArrayList<>()).add(e);
        }
        byFile.forEach((file, entries) -> {
            InventoryEntry first = entries.get(0);
            out.add("");
            out.add("### " + first.path());
            out.add("");
            out.add("`" + first.repo() + "` at `" + first.commit().substring(0, 12) + "`");
            out.add("");
            entries.stream().sorted(java.util.Comparator.comparingInt(InventoryEntry::line)).forEach(e -> {
                String verdict = e.modelled() ? "modelled by `" + e.modelledBy() + "`"
                        : e.appliesWhen().internal() != null ? "internal: " + e.appliesWhen().internal()
                        : "not modelled: " + e.notModelled();
                wrap(out, "- ", "  ", "L" + e.line() + " " + e.kind().json() + (e.function() == null ? "" : " in `" + e.function() + "`")
                        + " when " + oneLine(e.condition()) + (e.message().isEmpty() ? "" : "; says \"" + oneLine(e.message()) + "\"")
                        + ". " + verdict);
            });
        });
        return String.join("\n", out) + "\n";
    }

    private static String oneLine(String s) {
        return s.replace("\r", " ").replace("\n", " / ").replace("\t", " ");
    }

    private static void para(List<String> out, String text) {
        wrap(out, "", "", text);
        out.add("");
    }

    /** Words of {@code text} in lines of at most {@link #WIDTH} columns (a single longer word stands alone). */
    static void wrap(List<String> out, String first, String rest, String text) {
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String word : text.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!empty && line.length() + 1 + word.length() > WIDTH) {
                out.add(line.toString());
                line = new StringBuilder(rest);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(word);
            empty = false;
        }
        out.add(line.toString());
    }
}
