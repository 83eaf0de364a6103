package dev.fabricscope.report;

import dev.fabricscope.text.Words;
import dev.fabricscope.render.Units;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.CheckSections;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.text.Escape;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A report as one self-contained HTML file: no scripts, no external resources (a Content-Security-Policy says so to
 * the browser too), the fabric graph as inline SVG, the same content as the Markdown report with every detail
 * section open, and print styles. Every string from the report is escaped.
 */
public final class HtmlReport {

    /** Longest value shown; the JSON report has the rest. */
    static final int MAX_VALUE = 4_000;

    private final Report r;
    private final MachineSnapshot s;
    private final ReportFacts f;
    private final StringBuilder h = new StringBuilder(64 * 1024);

    private HtmlReport(Report r) {
        this.r = r;
        this.s = r.snapshot();
        this.f = new ReportFacts(s);
    }

    public static String render(Report r) {
        return new HtmlReport(r).build();
    }

    /** Element content: escaped, cut, with break opportunities in long unbroken runs. */
    private static String e(String v) {
        return Escape.htmlBreakable(v, MAX_VALUE);
    }

    private String build() {
        String title = "Fabricscope report: " + s.host().hostname().shortDisplay() + " — " + f.gpus();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"Fabricscope ").append(Escape.html(r.toolVersion(), 100)).append("\">\n")
                .append("<title>").append(Escape.html(title, 300)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        header();
        summary();
        graph();
        topology();
        verdicts();
        recommendations();
        checks();
        findings();
        h.append("<h2>Details</h2>\n");
        gpuTable();
        p2p();
        nvlinks();
        fabricTable();
        fabricVerdicts();
        adviceInputs();
        verdictDetails();
        environment();
        pythonStack();
        unreadable();
        provenance();
        h.append("<footer>Made by Fabricscope ").append(e(r.toolVersion())).append(" · ")
                .append(e(r.createdAt())).append(" · ").append(e(r.redaction().describe())).append("</footer>\n</body>\n</html>\n");
        return h.toString();
    }

    private void header() {
        h.append("<header>\n<h1>Fabricscope report: ").append(e(s.host().hostname().shortDisplay())).append("</h1>\n")
                .append("<p class=\"sub\">").append(e(f.gpus())).append("</p>\n");
        if (s.probe().description() != null) {
            h.append("<p class=\"desc\">").append(e(s.probe().description())).append("</p>\n");
        }
        if (r.redaction().applied()) {
            h.append("<p class=\"redacted\">").append(e(r.redaction().describe())).append("</p>\n");
        }
        h.append("</header>\n");
    }

    private void summary() {
        h.append("<section class=\"summary\">\n<dl>\n");
        dt("Machine", f.machine());
        dt("Snapshot", f.origin());
        dt("Driver", f.driver());
        dt("GPUs", f.gpus());
        dt("NVLink", f.nvlink());
        dt("NVSwitches", f.nvSwitches());
        dt("Multicast and fabric", f.fabric());
        dt("P2P", f.p2p());
        ReportView.deployment(r.advice()).ifPresent(d -> dt("Deployment", d));
        dt("Verdicts", ReportFacts.verdictCounts(r.advice()));
        dt("Checks", ReportFacts.checks(r.checks()));
        dt("Report", "made " + (r.createdAt() == null ? "(time unknown)" : r.createdAt()) + " by Fabricscope "
                + (r.toolVersion() == null ? "(version unknown)" : r.toolVersion()) + " · " + r.redaction().describe());
        h.append("</dl>\n</section>\n");
        List<Verdict> worst = ReportFacts.worstFirst(r.advice().verdicts()).stream().filter(v -> v.outcome() != Outcome.OK).toList();
        if (!worst.isEmpty()) {
            h.append("<section class=\"key\">\n<h2>Key verdicts</h2>\n<ul>\n");
            for (Verdict v : worst.subList(0, Math.min(5, worst.size()))) {
                h.append("<li class=\"").append(v.outcome().json()).append("\"><b>").append(e(v.framework())).append("</b> <code>")
                        .append(e(v.knob())).append("</code> = <code>").append(e(ReportView.value(v))).append("</code>: ")
                        .append(e(ReportView.outcome(v)));
                if (v.why() != null) {
                    h.append(" — ").append(e(v.why()));
                }
                h.append("</li>\n");
            }
            h.append("</ul>\n</section>\n");
        }
    }

    private void dt(String label, String value) {
        h.append("<dt>").append(label).append("</dt><dd>").append(e(value)).append("</dd>\n");
    }

    private void graph() {
        String svg = FabricDrawing.svg(s);
        if (svg == null) {
            return;
        }
        h.append("<section class=\"graph\">\n<h2>Fabric</h2>\n<figure>\n").append(svg).append("</figure>\n</section>\n");
    }

    private void topology() {
        List<Gpu> gpus = s.gpus();
        if (gpus.isEmpty()) {
            return;
        }
        if (gpus.size() > MAX_MATRIX_GPUS) {
            h.append("<section>\n<h2>Topology</h2>\n<p class=\"legend\">").append(gpus.size()).append(" GPUs: the matrix is left out above ")
                    .append(MAX_MATRIX_GPUS).append(" GPUs; the pair table below and the JSON report list every pair.</p>\n</section>\n");
            return;
        }
        h.append("<section>\n<h2>Topology <small>(as <code>nvidia-smi topo -m</code>)</small></h2>\n<table class=\"matrix\">\n<tr><th></th>");
        for (int i = 0; i < gpus.size(); i++) {
            h.append("<th>GPU").append(i).append("</th>");
        }
        h.append("<th>CPU affinity</th><th>NUMA affinity</th></tr>\n");
        for (int i = 0; i < gpus.size(); i++) {
            h.append("<tr><th>GPU").append(i).append("</th>");
            for (int j = 0; j < gpus.size(); j++) {
                if (i == j) {
                    h.append("<td class=\"self\">X</td>");
                    continue;
                }
                GpuPair p = f.pair(i, j);
                String t = p == null ? "?" : p.topology().shortDisplay();
                h.append("<td class=\"").append(topologyClass(t)).append("\"");
                if (p != null && !p.topology().isPresent()) {
                    h.append(" title=\"").append(Escape.html(p.topology().missing().describe(), 500)).append("\"");
                }
                h.append('>').append(Escape.html(t, 12)).append("</td>");
            }
            h.append("<td>").append(e(gpus.get(i).cpuAffinity().shortDisplay())).append("</td><td>")
                    .append(e(gpus.get(i).numaNode().shortDisplay())).append("</td></tr>\n");
        }
        h.append("</table>\n<p class=\"legend\">X = self · NV# = # NVLinks (direct or through NVSwitches) · PIX/PXB = PCIe bridge(s) · "
                + "PHB = PCIe host bridge · NODE = host bridges in one NUMA node · SYS = across NUMA nodes · ? = not readable</p>\n</section>\n");
    }

    static String topologyClass(String t) {
        if (t.startsWith("NV")) {
            return "nv";
        }
        return switch (t) {
            case "PIX", "PXB" -> "pix";
            case "PHB", "NODE" -> "node";
            case "SYS" -> "sys";
            default -> "unknown";
        };
    }

    private void verdicts() {
        ReportAdvice a = r.advice();
        h.append("<section>\n<h2>Verdicts</h2>\n");
        ReportView.deployment(a).ifPresent(d -> h.append("<p>For ").append(e(d)).append("</p>\n"));
        if (a.verdicts().isEmpty()) {
            h.append("<p>").append(e(a.blocked() == null ? "No verdicts." : "No verdicts: " + a.blocked())).append("</p>\n</section>\n");
            return;
        }
        h.append("<table class=\"verdicts\">\n<thead><tr><th>Framework</th><th>Knob</th><th>Value</th><th>Outcome</th><th>Why</th></tr></thead>\n");
        for (Verdict v : ReportFacts.worstFirst(a.verdicts())) {
            h.append("<tr class=\"").append(v.outcome().json()).append("\"><td class=\"nw\">").append(Escape.html(v.framework(), 40)).append("</td><td><code>")
                    .append(e(v.knob())).append("</code></td><td><code>").append(e(ReportView.value(v))).append("</code></td><td class=\"outcome\">")
                    .append(e(ReportView.outcome(v))).append("</td><td>").append(e(v.why())).append("</td></tr>\n");
        }
        h.append("</table>\n</section>\n");
    }

    private void recommendations() {
        List<Recommendation> recs = r.advice().recommendations();
        if (recs.isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Recommendations</h2>\n");
        ReportAdvice.Predicted predicted = r.advice().predicted();
        if (predicted != null && predicted.heading() != null) {
            h.append("<p>").append(e(predicted.heading())).append("</p>\n");
        }
        for (Recommendation rec : recs) {
            h.append("<h3>").append(e(rec.framework())).append("</h3>\n");
            if (rec.summary() != null) {
                h.append("<p>").append(e(rec.summary())).append("</p>\n");
            }
            String cmd = ReportView.commandLines(rec);
            if (!cmd.isEmpty()) {
                h.append("<pre>").append(e(cmd)).append("</pre>\n");
            }
            String cost = predicted == null ? null : predicted.recommendations().get(rec.framework());
            if (cost != null) {
                h.append("<p>").append(e(cost)).append("</p>\n");
            }
        }
        h.append("</section>\n");
    }

    private void checks() {
        ReportChecks c = r.checks();
        h.append("<section>\n<h2>Live checks</h2>\n");
        if (c.results().isEmpty()) {
            h.append("<p>").append(e(ReportFacts.checks(c))).append("</p>\n</section>\n");
            return;
        }
        h.append("<table>\n<thead><tr><th>Check</th><th>Status</th><th>Summary</th></tr></thead>\n");
        for (ReportChecks.Entry x : c.results()) {
            h.append("<tr class=\"").append(statusClass(x.status())).append("\"><td>").append(e(x.check())).append("</td><td class=\"outcome\">")
                    .append(e(x.status())).append("</td><td>").append(e(x.summary())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        RecordedChecks recorded = RecordedChecks.of(r);
        h.append("<p>").append(e("Run when this report was " + recorded.provenance() + ".")).append("</p>\n");
        checkTables();
        h.append("</section>\n");
    }

    static String statusClass(String status) {
        return switch (status == null ? "" : status) {
            case "PASSED" -> "ok";
            case "SKIPPED", "CANCELLED" -> "fallback";
            default -> "error";
        };
    }

    private void findings() {
        if (s.findings().isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Findings</h2>\n<table>\n<thead><tr><th>Severity</th><th>Code</th><th>About</th><th>Finding</th></tr></thead>\n");
        for (Finding x : dev.fabricscope.render.FindingFolds.of(s)) {
            String cls = switch (x.severity()) {
                case ERROR -> "error";
                case WARNING -> "fallback";
                case INFO -> "info";
            };
            row(cls, x.severity().name(), x.code(), x.subject(), x.message());
        }
        h.append("</table>\n</section>\n");
    }

    /** Most rows of one table, and GPUs of the topology matrix: the page stays bounded; the JSON report has all. */
    static final int MAX_ROWS = 2_000;
    static final int MAX_MATRIX_GPUS = 64;
    private int rows;
    private int columns;

    private void row(String cls, String... cells) {
        columns = cells.length;
        if (++rows > MAX_ROWS) {
            return;
        }
        h.append(cls == null ? "<tr>" : "<tr class=\"" + cls + "\">");
        for (String c : cells) {
            h.append("<td>").append(e(c)).append("</td>");
        }
        h.append("</tr>\n");
    }

    private void openDetails(String summary, String... headers) {
        rows = 0;
        h.append("<details open>\n<summary>").append(e(summary)).append("</summary>\n");
        if (headers.length > 0) {
            h.append("<table>\n<thead><tr>");
            for (String x : headers) {
                h.append("<th>").append(x).append("</th>");
            }
            h.append("</tr></thead>\n");
        }
    }

    private void closeDetails(boolean table) {
        if (rows > MAX_ROWS) {
            h.append("<tr class=\"unknown\"><td colspan=\"").append(Math.max(1, columns)).append("\">… ").append(rows - MAX_ROWS)
                    .append(" more rows not shown (the JSON report has them all)</td></tr>\n");
        }
        rows = 0;
        h.append(table ? "</table>\n</details>\n" : "</details>\n");
    }

    private void gpuTable() {
        openDetails("GPUs (" + s.gpus().size() + ")", "GPU", "Name", "SM", "SMs", "Memory", "PCI", "NUMA", "CPU affinity", "MIG",
                "Virtualization", "UUID", "Serial", "NVML/CUDA index");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            row(null, "GPU" + i, g.name().shortDisplay(), g.computeCapability().shortDisplay(), g.smCount().shortDisplay(),
                    g.memoryTotalBytes().isPresent() ? Units.gib(g.memoryTotalBytes().value()) : g.memoryTotalBytes().shortDisplay(),
                    g.pci().toString(), g.numaNode().shortDisplay(), g.cpuAffinity().shortDisplay(), g.migMode().shortDisplay(),
                    g.virtualizationMode().shortDisplay(), g.uuid().shortDisplay(), g.serial().shortDisplay(),
                    g.nvmlIndex().shortDisplay() + "/" + g.cudaOrdinal().shortDisplay());
        }
        closeDetails(true);
    }

    private void p2p() {
        int n = s.gpus().size();
        if (n < 2) {
            return;
        }
        openDetails("GPU pairs: topology and P2P (" + n * (n - 1) / 2 + ")", "Pair", "Topology", "NVLinks", "Read", "Write", "NVLink",
                "Atomics", "Prop", "CUDA peer access");
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                GpuPair p = f.pair(i, j);
                if (p == null) {
                    row("unknown", "GPU" + i + "–GPU" + j, "not probed", "", "", "", "", "", "", "");
                    continue;
                }
                row(null, "GPU" + i + "–GPU" + j, p.topology().shortDisplay(), p.nvLinks().shortDisplay(), p.p2pRead().shortDisplay(),
                        p.p2pWrite().shortDisplay(), p.p2pNvlink().shortDisplay(), p.p2pAtomics().shortDisplay(), p.p2pProp().shortDisplay(),
                        Units.yn(p.cudaCanAccessPeer()) + " (rank " + p.cudaPerformanceRank().shortDisplay() + ", atomics "
                                + Units.yn(p.cudaNativeAtomics()) + ")");
            }
        }
        closeDetails(true);
    }

    private void nvlinks() {
        openDetails("NVLinks and NVSwitches");
        if (s.nvSwitches().isEmpty()) {
            h.append("<p>No NVSwitches seen.</p>\n");
        } else {
            h.append("<ul>\n");
            for (NvSwitch x : s.nvSwitches()) {
                h.append("<li>").append(e(x.id())).append(' ').append(e(x.pci().shortDisplay())).append(": ").append(x.totalLinks())
                        .append(" links from ").append(Words.plural(x.gpuLinks().size(), "GPU")).append("</li>\n");
            }
            h.append("</ul>\n");
        }
        h.append("<table>\n<thead><tr><th>GPU</th><th>Links</th><th>Active</th><th>Generation</th><th>Far end</th><th>Far-end PCI</th><th>GB/s per direction</th></tr></thead>\n");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            h.append("<tr class=\"group\"><td>GPU").append(i).append("</td><td colspan=\"6\">").append(e(ReportFacts.linkState(g))).append("</td></tr>\n");
            for (String[] grp : ReportFacts.linkGroups(g)) {
                row(null, "", grp[0], grp[1], grp[2], grp[3], grp[4], grp[5]);
            }
        }
        closeDetails(true);
    }

    private void fabricTable() {
        openDetails("Memory sharing, multicast and MNNVL fabric", "GPU", "VMM", "POSIX FD", "Fabric handles", "Multicast", "GPUDirect RDMA",
                "Fabric state", "Status", "Clique", "Cluster UUID", "Health");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            row(null, "GPU" + i, Units.yn(g.cuda().vmm()), Units.yn(g.cuda().posixFdHandles()), Units.yn(g.cuda().fabricHandles()),
                    Units.yn(g.cuda().multicast()), Units.yn(g.cuda().gpuDirectRdma()), g.fabric().state().shortDisplay(),
                    g.fabric().status().shortDisplay(), g.fabric().cliqueId().shortDisplay(), g.fabric().clusterUuid().shortDisplay(),
                    g.fabric().healthSummary().isPresent() ? g.fabric().healthSummary().value() : g.fabric().healthMask().shortDisplay());
        }
        closeDetails(true);
    }

    /** Issue 24: the per-GPU "links up, fabric up?" verdict (with the P2P check's measurement) and the NVLink signals. */
    private void fabricVerdicts() {
        openDetails("NVLink fabric verdict", "GPU", "Verdict", "Summary", "Read");
        for (dev.fabricscope.topology.FabricVerdict v : ReportVerdicts.of(r)) {
            row(v.state() == dev.fabricscope.topology.FabricVerdict.State.NOT_UP ? "error" : null, "GPU" + v.gpu(), v.state().name(),
                    v.summary(), String.join("; ", v.evidence()));
        }
        closeDetails(true);
        openDetails("NVLink signals", ReportVerdicts.SIGNAL_HEADS);
        for (String[] row : ReportVerdicts.signalRows(s)) {
            row(null, row);
        }
        closeDetails(true);
        h.append("<p class=\"legend\">").append(e(dev.fabricscope.render.SignalText.LEGEND)).append("</p>\n");
        List<String[]> services = dev.fabricscope.render.NodeText.serviceRows(s);
        if (!services.isEmpty()) {
            openDetails("Services", "Service", "State");
            services.forEach(row -> row(row[1].startsWith("not running") && row[1].contains("need it") ? "error" : null, row));
            closeDetails(true);
        }
    }

    private void adviceInputs() {
        List<String[]> rows = ReportView.adviceInputs(r.advice());
        if (rows.isEmpty()) {
            return;
        }
        openDetails("What the advice was computed for");
        h.append("<dl>\n");
        for (String[] x : rows) {
            if (x[0].equals("Reproduce")) {
                h.append("<dt>Reproduce</dt><dd><code>").append(e(x[1])).append("</code></dd>\n");
            } else {
                dd(x[0], x[1]);
            }
        }
        h.append("</dl>\n");
        closeDetails(false);
    }

    private void verdictDetails() {
        if (r.advice().verdicts().isEmpty()) {
            return;
        }
        openDetails("Verdict details (" + r.advice().verdicts().size() + ")");
        for (Verdict v : ReportFacts.worstFirst(r.advice().verdicts())) {
            h.append("<div class=\"verdict ").append(v.outcome().json()).append("\">\n<h4>").append(e(v.framework())).append(" <code>")
                    .append(e(v.knob())).append("</code> = <code>").append(e(ReportView.value(v))).append("</code>");
            if (v.version() != null) {
                h.append(" <small>(rules for ").append(e(v.version())).append(")</small>");
            }
            h.append("</h4>\n<dl>\n");
            dd("Outcome", ReportView.outcome(v));
            dd("When", v.when());
            dd("Message", v.message());
            dd("Why", v.why());
            dd("Fix", v.fix());
            if (v.source() != null) {
                String url = ReportView.sourceUrl(v.source());
                h.append("<dt>Source</dt><dd>");
                if (url != null) {
                    h.append("<a href=\"").append(Escape.html(url)).append("\">").append(e(v.source().toString())).append("</a>");
                } else {
                    h.append(e(v.source().toString()));
                }
                h.append("</dd>\n");
            }
            h.append("</dl>\n</div>\n");
        }
        closeDetails(false);
    }

    private void dd(String label, String value) {
        if (value != null) {
            h.append("<dt>").append(label).append("</dt><dd>").append(e(value)).append("</dd>\n");
        }
    }

    /** Each check's tables ({@link CheckSections}: the preflight's steps, the P2P matrices, the all-reduce by size). */
    private void checkTables() {
        for (ReportChecks.Entry x : r.checks().results()) {
            h.append("<details open>\n<summary>").append(e(x.check() + " — " + x.status() + ": " + x.summary())).append("</summary>\n");
            CheckResult typed = x.typed();
            if (typed == null) {
                h.append("<p>").append(e("The result cannot be shown as tables: " + x.unreadable() + "; as recorded:")).append("</p>\n");
                if (x.result() != null) {
                    h.append("<pre>").append(Escape.html(Escape.cut(Json.write(x.result()), 50_000))).append("</pre>\n");
                }
            }
            for (CheckSections.Section sec : typed == null ? List.<CheckSections.Section>of() : CheckSections.of(typed)) {
                h.append("<h4>").append(e(sec.title())).append("</h4>\n");
                paragraphs(sec.lines());
                if (!sec.head().isEmpty()) {
                    h.append("<table class=\"check\">\n<thead><tr>");
                    sec.head().forEach(c -> h.append("<th>").append(e(c)).append("</th>"));
                    h.append("</tr></thead>\n");
                    rows = 0;
                    for (List<String> row : sec.rows()) {
                        row(null, row.toArray(String[]::new));
                    }
                    if (rows > MAX_ROWS) {
                        h.append("<tr class=\"unknown\"><td colspan=\"").append(Math.max(1, columns)).append("\">… ").append(rows - MAX_ROWS)
                                .append(" more rows not shown (the JSON report has them all)</td></tr>\n");
                    }
                    rows = 0;
                    h.append("</table>\n");
                }
                paragraphs(sec.after());
            }
            h.append("</details>\n");
        }
    }

    private void paragraphs(List<String> lines) {
        for (String l : lines) {
            h.append("<p class=\"check-note\">").append(e(l)).append("</p>\n");
        }
    }

    private void environment() {
        openDetails("Environment (" + s.environment().size() + " variables that steer NCCL, CUDA and the frameworks)", "Variable", "Value");
        for (Map.Entry<String, String> x : s.environment().entrySet()) {
            row(null, x.getKey(), x.getValue());
        }
        closeDetails(true);
    }

    private void pythonStack() {
        List<String[]> rows = dev.fabricscope.render.StackText.rows(s);
        if (rows.isEmpty()) {
            return;
        }
        openDetails("Python environments (" + rows.size() + "; read from their files)", "Environment", "Kind", "Packages",
                "NCCL the frameworks load");
        for (String[] x : rows) {
            row(null, x);
        }
        closeDetails(true);
    }

    private void unreadable() {
        List<String[]> u = f.unreadable();
        openDetails("Values the machine did not give (" + u.size() + ")", "Where", "Kind", "Call and error");
        for (String[] x : u) {
            row(null, x);
        }
        closeDetails(true);
    }

    private void provenance() {
        openDetails("Provenance");
        h.append("<dl>\n");
        dd("Report command", String.join(" ", r.commandLine()));
        dd("Probe command", String.join(" ", s.probe().commandLine()));
        dd("Probe duration", s.probe().durationMs() == null ? "unknown" : s.probe().durationMs() + " ms");
        dd("Schemas", "snapshot " + s.schemaVersion() + ", report " + r.reportVersion());
        dd("CUDA devices", s.driver().cudaDeviceCount().shortDisplay());
        dd("NCCL searched", String.join(", ", s.driver().nccl().searched()));
        h.append("</dl>\n");
        closeDetails(false);
    }

    private static final String CSS = """
            :root { --fg:#1f2328; --muted:#57606a; --line:#d0d7de; --ok:#1a7f37; --okbg:#dafbe1; --warn:#9a6700; --warnbg:#fff8c5;
                    --err:#cf222e; --errbg:#ffebe9; --head:#f6f8fa; }
            * { box-sizing: border-box; }
            body { font: 14px/1.45 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); margin: 24px auto;
                   max-width: 1200px; padding: 0 16px; overflow-wrap: break-word; }
            .nw { white-space: nowrap; }
            h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 1px solid var(--line); }
            h3 { font-size: 15px; margin: 14px 0 6px; } h4 { font-size: 14px; margin: 10px 0 4px; }
            .sub { margin: 0; font-size: 15px; } .desc { color: var(--muted); margin: 4px 0; }
            .redacted { display: inline-block; background: var(--warnbg); padding: 2px 8px; border-radius: 4px; }
            dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
            dt { font-weight: bold; } dd { margin: 0; }
            table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
            th, td { border: 1px solid var(--line); padding: 3px 7px; text-align: left; vertical-align: top; }
            th { background: var(--head); }
            code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
            pre { background: var(--head); padding: 8px; white-space: pre-wrap; border: 1px solid var(--line); }
            tr.ok td.outcome { color: var(--ok); font-weight: bold; }
            tr.fallback td.outcome, tr.fallback td:first-child { color: var(--warn); font-weight: bold; }
            tr.error td.outcome, tr.error td:first-child { color: var(--err); font-weight: bold; }
            tr.group td { background: var(--head); font-weight: bold; }
            table.verdicts td:nth-child(3) { min-width: 7em; } table.verdicts td:nth-child(4) { min-width: 8em; }
            .key li.error { color: var(--err); } .key li.fallback { color: var(--warn); }
            .verdict { border-left: 4px solid var(--line); padding-left: 10px; margin: 8px 0; }
            .verdict.ok { border-color: var(--ok); } .verdict.fallback { border-color: var(--warn); } .verdict.error { border-color: var(--err); }
            table.matrix td, table.matrix th { text-align: center; min-width: 44px; }
            td.self { color: var(--muted); } td.nv { background: var(--okbg); } td.pix { background: #ddf4ff; }
            td.node { background: var(--warnbg); } td.sys { background: var(--errbg); } td.unknown { background: #eaeef2; }
            .legend { color: var(--muted); font-size: 12px; }
            figure { margin: 0; } figure svg { max-width: 100%; height: auto; }
            details { margin: 6px 0 10px; } summary { font-weight: bold; cursor: default; }
            footer { margin-top: 28px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 6px; }
            @media print {
              @page { size: A4 landscape; margin: 10mm; }
              body { margin: 0; max-width: none; font-size: 10pt; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
              h2, h3, h4, summary { break-after: avoid; } tr, .verdict, figure, dl, table.matrix { break-inside: avoid; }
              summary { list-style: none; } summary::-webkit-details-marker { display: none; }
              a { color: inherit; text-decoration: none; }
              table { font-size: 8.5pt; } thead { display: table-header-group; }
            }
            """;
}
