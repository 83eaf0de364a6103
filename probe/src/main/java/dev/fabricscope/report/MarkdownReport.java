package dev.fabricscope.report;

import dev.fabricscope.text.Words;
import dev.fabricscope.render.Units;
import static dev.fabricscope.text.Escape.md;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.render.CheckSections;
import dev.fabricscope.render.FindingFolds;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.render.TextTable;
import dev.fabricscope.text.Escape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A report as GitHub Markdown, paste-ready for an issue: a one-screen summary, the topology matrix, verdicts,
 * recommendations and checks, then the full details in collapsed {@code <details>} blocks. The whole stays under
 * GitHub's 65,536-character limit: when it would not, the least important parts are cut (rows first, then whole
 * blocks) and a note at the top says what was left out.
 */
public final class MarkdownReport {

    /** GitHub's limit on an issue or comment body, in characters. */
    public static final int GITHUB_LIMIT = 65_536;
    /** What a report aims for by default: under GitHub's limit with room for a few lines of the reporter's own. */
    public static final int TARGET = 60_000;
    /** Kept free for the truncation note and the footer. */
    private static final int RESERVE = 2_000;
    /** Longest value in a table cell or summary line. */
    static final int CELL = 160;
    /** Longest value in a detail paragraph (a verdict's message, why, fix). */
    static final int PARAGRAPH = 1_500;

    private final Report r;
    private final MachineSnapshot s;
    private final ReportFacts f;
    private final int limit;

    private MarkdownReport(Report r, int limit) {
        this.r = r;
        this.s = r.snapshot();
        this.f = new ReportFacts(s);
        this.limit = limit;
    }

    public static String render(Report r) {
        return render(r, TARGET);
    }

    /** Rendered within {@code limit} characters (tests use small limits to exercise truncation). */
    public static String render(Report r, int limit) {
        return new MarkdownReport(r, limit).build();
    }

    /**
     * A part of the document: a fixed head and tail with rows between; the budget is spent on blocks in priority
     * order (0 first), rows one at a time, and the blocks are then written in document order.
     */
    private record Block(String name, int priority, String head, List<String> rows, String tail) {
        int fixed() {
            return head.length() + tail.length();
        }
    }

    private String build() {
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Block("summary", 0, summary(), List.of(), ""));
        blocks.add(topology());
        blocks.add(verdicts());
        blocks.add(recommendations());
        blocks.add(checks());
        blocks.addAll(checkTables());
        blocks.add(findings());
        blocks.add(new Block("details heading", 3, "\n### Details\n", List.of(), ""));
        blocks.add(okVerdicts());
        blocks.add(gpuTable());
        blocks.add(p2p());
        blocks.add(nvlinks());
        blocks.add(fabricTable());
        blocks.add(fabricVerdicts());
        blocks.add(adviceInputs());
        blocks.add(verdictDetails());
        blocks.add(environment());
        blocks.add(pythonStack());
        blocks.add(unreadable());
        blocks.add(provenance());

        int budget = Math.max(0, limit - RESERVE);
        List<Block> byPriority = new ArrayList<>(blocks);
        byPriority.sort(Comparator.comparingInt(Block::priority));
        java.util.Map<Block, String> written = new java.util.IdentityHashMap<>();
        List<String> omitted = new ArrayList<>();
        for (Block b : byPriority) {
            String cutNote = b.rows().isEmpty() ? "" : "\n_… rows cut here to stay under GitHub's limit._\n";
            if (b.fixed() + cutNote.length() > budget) {
                omitted.add(b.name());
                continue;
            }
            StringBuilder sb = new StringBuilder(b.head());
            int left = budget - b.fixed() - cutNote.length();
            int taken = 0;
            for (String row : b.rows()) {
                if (row.length() > left) {
                    break;
                }
                sb.append(row);
                left -= row.length();
                taken++;
            }
            if (taken < b.rows().size()) {
                omitted.add(b.name() + " (" + (b.rows().size() - taken) + " of " + b.rows().size() + " rows)");
                sb.append(cutNote).append(b.tail());
            } else {
                sb.append(b.tail());
            }
            budget -= sb.length();
            written.put(b, sb.toString());
        }
        StringBuilder out = new StringBuilder(limit);
        for (Block b : blocks) {
            String w = written.get(b);
            if (w == null) {
                continue;
            }
            out.append(w);
            if (b.name().equals("summary") && !omitted.isEmpty()) {
                out.append("\n> [!NOTE]\n> Shortened to stay under ").append(String.format("%,d", limit))
                        .append(" characters (GitHub's limit is ").append(String.format("%,d", GITHUB_LIMIT)).append("). Left out: ").append(md(String.join("; ", omitted), 1_200))
                        .append(". The JSON report (`--format json`) has everything.\n");
            }
        }
        out.append("\n<sub>Made by Fabricscope ").append(md(r.toolVersion(), 40)).append(" · ")
                .append("`fabricscope report --format md`</sub>\n");
        String text = out.toString();
        return text.length() <= limit ? text : text.substring(0, limit);
    }

    // ---- the one-screen summary ----

    private String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append("## Fabricscope report: ").append(md(s.host().hostname().shortDisplay(), 80)).append(" — ")
                .append(md(f.gpus(), 200)).append("\n\n");
        if (s.probe().description() != null) {
            sb.append("> ").append(md(s.probe().description(), 400)).append("\n\n");
        }
        item(sb, "Machine", f.machine());
        item(sb, "Snapshot", f.origin());
        item(sb, "Driver", f.driver());
        item(sb, "GPUs", f.gpus());
        item(sb, "NVLink", f.nvlink());
        item(sb, "NVSwitches", f.nvSwitches());
        item(sb, "Multicast and fabric", f.fabric());
        item(sb, "P2P", f.p2p());
        ReportAdvice a = r.advice();
        ReportView.deployment(a).ifPresent(d -> item(sb, "Deployment", d));
        item(sb, "Verdicts", ReportFacts.verdictCounts(a));
        item(sb, "Checks", ReportFacts.checks(r.checks()));
        item(sb, "Report", "made " + (r.createdAt() == null ? "(time unknown)" : r.createdAt()) + " by Fabricscope "
                + (r.toolVersion() == null ? "(version unknown)" : r.toolVersion()) + " · " + r.redaction().describe());
        List<Verdict> worst = ReportFacts.worstFirst(a.verdicts()).stream().filter(v -> v.outcome() != Outcome.OK).toList();
        if (!worst.isEmpty()) {
            sb.append("\n**Key verdicts**\n\n");
            for (Verdict v : worst.subList(0, Math.min(5, worst.size()))) {
                sb.append("- ").append(icon(v.outcome())).append(" **").append(md(v.framework(), 30)).append("** ")
                        .append(md(v.knob(), 80)).append(" = ").append(md(v.value() == null ? "(default)" : v.value(), 60))
                        .append(": ").append(md(ReportView.outcome(v), 120));
                if (v.why() != null) {
                    sb.append(" — ").append(md(v.why(), 240));
                }
                sb.append('\n');
            }
            if (worst.size() > 5) {
                sb.append("- … ").append(worst.size() - 5).append(" more below\n");
            }
        }
        List<Finding> serious = FindingFolds.of(s).stream().filter(x -> x.severity() != Finding.Severity.INFO).toList();
        if (!serious.isEmpty()) {
            sb.append("\n**Findings**\n\n");
            for (Finding x : serious.subList(0, Math.min(5, serious.size()))) {
                sb.append("- ").append(x.severity() == Finding.Severity.ERROR ? "❌" : "⚠️").append(' ')
                        .append(md(x.subject() == null ? "" : x.subject() + ": ", 60)).append(md(x.message(), 300)).append('\n');
            }
            if (serious.size() > 5) {
                sb.append("- … ").append(serious.size() - 5).append(" more under Findings\n");
            }
        }
        return sb.toString();
    }

    private static void item(StringBuilder sb, String label, String value) {
        sb.append("- **").append(label).append(":** ").append(md(value, 400)).append('\n');
    }

    static String icon(Outcome o) {
        return switch (o) {
            case OK -> "✅";
            case FALLBACK -> "⚠️";
            case ERROR -> "❌";
            case UNKNOWN -> "❔";
            case NOT_APPLICABLE -> "➖";
        };
    }

    // ---- main sections ----

    private Block topology() {
        if (s.gpus().size() < 1) {
            return new Block("topology", 1, "", List.of(), "");
        }
        TextTable t = SnapshotText.topologyTable(s, Escape::cut);
        String legend = "X = self · NV# = # NVLinks (direct or through NVSwitches) · PIX/PXB = PCIe bridge(s) · "
                + "PHB = PCIe host bridge · NODE = host bridges in one NUMA node · SYS = across NUMA nodes · ? = not readable";
        return new Block("topology matrix", 1, "\n### Topology (as `nvidia-smi topo -m`)\n\n"
                + Escape.mdFence(t.render(), "text") + "\n" + legend + "\n", List.of(), "");
    }

    private Block verdicts() {
        ReportAdvice a = r.advice();
        if (a.verdicts().isEmpty()) {
            return new Block("verdicts", 1, "\n### Verdicts\n\n" + md(a.blocked() == null ? "No verdicts." : "No verdicts: " + a.blocked(), PARAGRAPH) + "\n",
                    List.of(), "");
        }
        String head = "\n### Verdicts" + ReportView.deployment(a).map(d -> " for " + md(d, 300)).orElse("") + "\n\n"
                + "| | Framework | Knob | Value | Outcome | Why |\n|---|---|---|---|---|---|\n";
        List<String> rows = new ArrayList<>();
        long ok = a.verdicts().stream().filter(v -> v.outcome() == Outcome.OK).count();
        for (Verdict v : ReportFacts.worstFirst(a.verdicts())) {
            if (v.outcome() != Outcome.OK) {
                rows.add(verdictRow(v));
            }
        }
        if (rows.isEmpty()) {
            return new Block("verdicts", 1, "\n### Verdicts" + ReportView.deployment(a).map(d -> " for " + md(d, 300)).orElse("")
                    + "\n\nEvery verdict is ok (" + ok + ", listed below).\n", List.of(), "");
        }
        return new Block("verdicts table", 1, head, rows, ok == 0 ? "" : "\n" + ok + " ok verdicts are folded below.\n");
    }

    /** The ok verdicts, folded: they matter least and are most of the rows. */
    private Block okVerdicts() {
        List<String> rows = new ArrayList<>();
        for (Verdict v : r.advice().verdicts()) {
            if (v.outcome() == Outcome.OK) {
                rows.add(verdictRow(v));
            }
        }
        if (rows.isEmpty()) {
            return new Block("ok verdicts", 8, "", List.of(), "");
        }
        return details("ok verdicts", 8, "Ok verdicts (" + rows.size() + ")",
                "| | Framework | Knob | Value | Outcome | Why |\n|---|---|---|---|---|---|\n", rows);
    }

    private String verdictRow(Verdict v) {
        return "| " + icon(v.outcome()) + " | " + md(v.framework(), 30) + " | " + md(v.knob(), 80) + " | "
                + md(ReportView.value(v), 60) + " | " + md(ReportView.outcome(v), CELL) + " | " + md(v.why(), 400) + " |\n";
    }

    private Block recommendations() {
        List<Recommendation> recs = r.advice().recommendations();
        ReportAdvice.Predicted predicted = r.advice().predicted();
        if (recs.isEmpty()) {
            return new Block("recommendations", 2, "", List.of(), "");
        }
        List<String> rows = new ArrayList<>();
        for (Recommendation rec : recs) {
            StringBuilder sb = new StringBuilder("\n**").append(md(rec.framework(), 30)).append("**");
            if (rec.summary() != null) {
                sb.append(": ").append(md(rec.summary(), PARAGRAPH));
            }
            sb.append("\n\n");
            String cmd = ReportView.commandLines(rec);
            if (!cmd.isEmpty()) {
                sb.append(Escape.mdFence(Escape.cut(cmd, 4_000), "sh"));
            }
            String cost = predicted == null ? null : predicted.recommendations().get(rec.framework());
            if (cost != null) {
                sb.append(md(cost, PARAGRAPH)).append("\n");
            }
            rows.add(sb.toString());
        }
        String head = predicted == null || predicted.heading() == null ? "" : "\n" + md(predicted.heading(), PARAGRAPH) + "\n";
        return new Block("recommendations", 2, "\n### Recommendations\n" + head, rows, "");
    }

    private Block checks() {
        ReportChecks c = r.checks();
        if (c.results().isEmpty()) {
            return new Block("checks", 1, "\n### Live checks\n\n" + md(ReportFacts.checks(c), PARAGRAPH) + "\n", List.of(), "");
        }
        List<String> rows = new ArrayList<>();
        for (ReportChecks.Entry e : c.results()) {
            rows.add("| " + md(e.check(), 40) + " | " + md(e.status(), 20) + " | " + md(e.summary(), 400) + " |\n");
        }
        return new Block("checks table", 1, "\n### Live checks\n\n| Check | Status | Summary |\n|---|---|---|\n", rows,
                "\n" + md("Run when this report was " + RecordedChecks.of(r).provenance() + ".", PARAGRAPH) + "\n");
    }

    private Block findings() {
        if (s.findings().isEmpty()) {
            return new Block("findings", 2, "", List.of(), "");
        }
        List<String> rows = new ArrayList<>();
        for (Finding x : FindingFolds.of(s)) {
            rows.add("| " + md(x.severity().name(), 10) + " | " + md(x.code(), 60) + " | " + md(x.subject(), 60) + " | "
                    + md(x.message(), 600) + " |\n");
        }
        return new Block("findings", 2, "\n### Findings\n\n| Severity | Code | About | Finding |\n|---|---|---|---|\n", rows, "");
    }

    // ---- details ----

    private static Block details(String name, int priority, String summary, String head, List<String> rows) {
        String open = "\n<details><summary>" + Escape.html(summary) + "</summary>\n\n";
        if (rows.isEmpty() && (head.isEmpty() || head.startsWith("|"))) {
            return new Block(name, priority, open + "None.\n", List.of(), "\n</details>\n");
        }
        return new Block(name, priority, open + head, rows, "\n</details>\n");
    }

    private Block gpuTable() {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            rows.add(cells("GPU" + i, g.name().shortDisplay(), g.computeCapability().shortDisplay(), g.smCount().shortDisplay(),
                    g.memoryTotalBytes().isPresent() ? Units.gib(g.memoryTotalBytes().value()) : g.memoryTotalBytes().shortDisplay(),
                    g.pci().toString(), g.numaNode().shortDisplay(), g.cpuAffinity().shortDisplay(), g.migMode().shortDisplay(),
                    g.virtualizationMode().shortDisplay(), g.uuid().shortDisplay(), g.serial().shortDisplay(),
                    g.nvmlIndex().shortDisplay() + "/" + g.cudaOrdinal().shortDisplay()));
        }
        return details("GPU table", 4, "GPUs (" + s.gpus().size() + ")",
                "| GPU | Name | SM | SMs | Memory | PCI | NUMA | CPU affinity | MIG | Virtualization | UUID | Serial | NVML/CUDA index |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", rows);
    }

    private Block p2p() {
        int n = s.gpus().size();
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                GpuPair p = f.pair(i, j);
                if (p == null) {
                    rows.add(cells("GPU" + i + "–GPU" + j, "?", "", "", "", "", "", "", ""));
                    continue;
                }
                rows.add(cells("GPU" + i + "–GPU" + j, p.topology().shortDisplay(), p.nvLinks().shortDisplay(),
                        p.p2pRead().shortDisplay(), p.p2pWrite().shortDisplay(), p.p2pNvlink().shortDisplay(),
                        p.p2pAtomics().shortDisplay(), p.p2pProp().shortDisplay(),
                        Units.yn(p.cudaCanAccessPeer()) + " (rank " + p.cudaPerformanceRank().shortDisplay() + ", atomics "
                                + Units.yn(p.cudaNativeAtomics()) + ")"));
            }
        }
        return details("P2P pairs", 6, "GPU pairs: topology and P2P (" + rows.size() + ")",
                "NVML `nvmlDeviceGetP2PStatus` (OK, CNS chipset, GNS GPU, TNS topology, NS not supported) and CUDA peer access.\n\n"
                        + "| Pair | Topology | NVLinks | Read | Write | NVLink | Atomics | Prop | CUDA peer access |\n"
                        + "|---|---|---|---|---|---|---|---|---|\n", rows);
    }

    private Block nvlinks() {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            rows.add(cells("GPU" + i, "", ReportFacts.linkState(g), "", "", "", ""));
            for (String[] grp : ReportFacts.linkGroups(g)) {
                rows.add(cells("", grp[0], grp[1], grp[2], grp[3], grp[4], grp[5]));
            }
        }
        StringBuilder sw = new StringBuilder();
        for (NvSwitch x : s.nvSwitches()) {
            sw.append("- ").append(md(x.id(), 20)).append(' ').append(md(x.pci().shortDisplay(), 40)).append(": ")
                    .append(x.totalLinks()).append(" links from ").append(Words.plural(x.gpuLinks().size(), "GPU")).append('\n');
        }
        return details("NVLinks", 7, "NVLinks and NVSwitches",
                (sw.length() == 0 ? "No NVSwitches seen.\n\n" : "NVSwitches:\n\n" + sw + "\n")
                        + "| GPU | Links | Active | Generation | Far end | Far-end PCI | GB/s per direction |\n|---|---|---|---|---|---|---|\n", rows);
    }

    private Block fabricTable() {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            rows.add(cells("GPU" + i, Units.yn(g.cuda().vmm()), Units.yn(g.cuda().posixFdHandles()),
                    Units.yn(g.cuda().fabricHandles()), Units.yn(g.cuda().multicast()),
                    Units.yn(g.cuda().gpuDirectRdma()), g.fabric().state().shortDisplay(), g.fabric().status().shortDisplay(),
                    g.fabric().cliqueId().shortDisplay(), g.fabric().clusterUuid().shortDisplay(),
                    g.fabric().healthSummary().isPresent() ? g.fabric().healthSummary().value() : g.fabric().healthMask().shortDisplay()));
        }
        return details("memory sharing and fabric", 5, "Memory sharing, multicast and MNNVL fabric",
                "| GPU | VMM | POSIX FD | Fabric handles | Multicast | GPUDirect RDMA | Fabric state | Status | Clique | Cluster UUID | Health |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|---|\n", rows);
    }

    /** Issue 24: the per-GPU "links up, fabric up?" verdict (with the P2P check's measurement) and the NVLink signals. */
    private Block fabricVerdicts() {
        List<String> rows = new ArrayList<>();
        for (dev.fabricscope.topology.FabricVerdict v : ReportVerdicts.of(r)) {
            rows.add(cells("GPU" + v.gpu(), v.state().name(), v.summary(), String.join("; ", v.evidence())));
        }
        StringBuilder signals = new StringBuilder("\n\nNVLink signals (" + dev.fabricscope.render.SignalText.LEGEND + "):\n\n");
        signals.append(cells(ReportVerdicts.SIGNAL_HEADS)).append("|").append("---|".repeat(ReportVerdicts.SIGNAL_HEADS.length)).append('\n');
        for (String[] row : ReportVerdicts.signalRows(s)) {
            signals.append(cells(row));
        }
        List<String[]> services = dev.fabricscope.render.NodeText.serviceRows(s);
        if (!services.isEmpty()) {
            signals.append("\n\nServices (fabric manager, IMEX, NVLSM where NVLink5 needs it):\n\n| Service | State |\n|---|---|\n");
            services.forEach(row -> signals.append(cells(row)));
        }
        Block b = details("NVLink fabric verdict", 5, "NVLink fabric verdict and signals",
                "| GPU | Verdict | Summary | Read |\n|---|---|---|---|\n", rows);
        return new Block(b.name(), b.priority(), b.head(), b.rows(), signals + b.tail());
    }

    private Block adviceInputs() {
        List<String> rows = new ArrayList<>();
        for (String[] x : ReportView.adviceInputs(r.advice())) {
            rows.add(x[0].equals("Reproduce") ? "| Reproduce | see below |\n" : cells(x[0], x[1]));
        }
        String again = ReportView.reproduce(r.advice());
        String tail = again == null ? "" : "\nSame verdicts again (with this report saved as REPORT.json):\n\n" + Escape.mdFence(Escape.cut(again, 4_000), "sh");
        Block b = details("advice inputs", 8, "What the advice was computed for", "| | |\n|---|---|\n", rows);
        return new Block(b.name(), b.priority(), b.head(), b.rows(), tail + b.tail());
    }

    private Block verdictDetails() {
        List<String> rows = new ArrayList<>();
        for (Verdict v : ReportFacts.worstFirst(r.advice().verdicts())) {
            StringBuilder sb = new StringBuilder("\n**").append(icon(v.outcome())).append(' ').append(md(v.framework(), 30))
                    .append(' ').append(md(v.knob(), 80)).append(" = ").append(md(ReportView.value(v), 80)).append("**")
                    .append(v.version() == null ? "" : " (rules for " + md(v.version(), 40) + ")").append("\n\n");
            line(sb, "Outcome", ReportView.outcome(v));
            line(sb, "When", v.when());
            line(sb, "Message", v.message());
            line(sb, "Why", v.why());
            line(sb, "Fix", v.fix());
            if (v.source() != null) {
                String url = ReportView.sourceUrl(v.source());
                String text = md(v.source().toString(), 400);
                sb.append("- Source: ").append(url == null ? text : "[" + text + "](" + url + ")").append('\n');
            }
            rows.add(sb.toString());
        }
        return details("verdict details", 8, "Verdict details (" + rows.size() + ")", "", rows);
    }

    private static void line(StringBuilder sb, String label, String value) {
        if (value != null) {
            sb.append("- ").append(label).append(": ").append(md(value, PARAGRAPH)).append('\n');
        }
    }

    /**
     * One block per check: its tables ({@link CheckSections}: the preflight's steps, the P2P matrices, the all-reduce by
     * size), each section a row the budget may cut; a result this version cannot read is given as recorded.
     */
    private List<Block> checkTables() {
        List<Block> out = new ArrayList<>();
        for (ReportChecks.Entry e : r.checks().results()) {
            String head = "\n<details><summary>Live check " + md(e.check(), 40) + " — " + md(e.status(), 20) + " (tables)</summary>\n\n";
            List<String> rows = new ArrayList<>();
            CheckResult typed = e.typed();
            if (typed == null) {
                rows.add(md("The result cannot be shown as tables: " + e.unreadable() + "; as recorded:", PARAGRAPH) + "\n\n"
                        + (e.result() == null ? "" : Escape.mdFence(Escape.cut(Json.write(e.result()), 20_000), "json")));
            }
            for (CheckSections.Section sec : typed == null ? List.<CheckSections.Section>of() : CheckSections.of(typed)) {
                StringBuilder sb = new StringBuilder("\n**").append(md(sec.title(), CELL)).append("**\n\n");
                sec.lines().forEach(l -> sb.append(md(l, PARAGRAPH)).append("  \n"));
                if (!sec.head().isEmpty()) {
                    sb.append('\n').append(cells(sec.head().toArray(String[]::new)));
                    sb.append("|---".repeat(sec.head().size())).append("|\n");
                    sec.rows().forEach(row -> sb.append(cells(row.toArray(String[]::new))));
                    sb.append('\n');
                }
                sec.after().forEach(l -> sb.append(md(l, PARAGRAPH)).append("  \n"));
                rows.add(sb.toString());
            }
            out.add(new Block(e.check() + " tables", 9, head, rows, "\n</details>\n"));
        }
        return out;
    }

    private Block environment() {
        List<String> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : s.environment().entrySet()) {
            rows.add("| " + md(e.getKey(), 80) + " | " + md(e.getValue(), 400) + " |\n");
        }
        return details("environment", 10, "Environment (" + rows.size() + " variables that steer NCCL, CUDA and the frameworks)",
                "| Variable | Value |\n|---|---|\n", rows);
    }

    private Block pythonStack() {
        List<String> rows = new ArrayList<>();
        if (s.pythonStack() == null) {
            return new Block("python environments", 10, "", List.of(), ""); // a snapshot from before the stack was read
        }
        for (String[] x : dev.fabricscope.render.StackText.rows(s)) {
            rows.add(cells(x));
        }
        return details("python environments", 10, "Python environments (" + rows.size() + "; read from their files)",
                "| Environment | Kind | Packages | NCCL the frameworks load |\n|---|---|---|---|\n", rows);
    }

    private Block unreadable() {
        List<String> rows = new ArrayList<>();
        for (String[] u : f.unreadable()) {
            rows.add(cells(u[0], u[1], u[2]));
        }
        return details("unreadable values", 12, "Values the machine did not give (" + rows.size() + ")",
                "| Where | Kind | Call and error |\n|---|---|---|\n", rows);
    }

    private Block provenance() {
        StringBuilder sb = new StringBuilder();
        sb.append("- Report command: ").append(md(String.join(" ", r.commandLine()), 600)).append('\n');
        sb.append("- Probe command: ").append(md(String.join(" ", s.probe().commandLine()), 600)).append('\n');
        sb.append("- Probe duration: ").append(s.probe().durationMs() == null ? "unknown" : s.probe().durationMs() + " ms").append('\n');
        sb.append("- Snapshot schema ").append(s.schemaVersion()).append(", report schema ").append(r.reportVersion()).append('\n');
        sb.append("- CUDA devices: ").append(md(s.driver().cudaDeviceCount().shortDisplay(), 20)).append('\n');
        sb.append("- NCCL searched: ").append(md(String.join(", ", s.driver().nccl().searched()), 1_000)).append('\n');
        return details("provenance", 11, "Provenance", sb.toString(), List.of());
    }

    private static String cells(String... values) {
        StringBuilder sb = new StringBuilder("|");
        for (String v : values) {
            sb.append(' ').append(md(v, CELL)).append(" |");
        }
        return sb.append('\n').toString();
    }
}
