package dev.fabricscope.report;

import dev.fabricscope.render.Units;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.diff.ReportDiff.Category;
import dev.fabricscope.diff.ReportDiff.Change;
import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.PythonEnvironment;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Compares two reports. GPUs are matched by position in PCI order ({@code GPU0} with {@code GPU0}), as the same
 * machine keeps its order across driver updates and two machines of one model share it; verdicts by framework and
 * knob; checks by name; NVSwitches by their label. Readings compare by value, or by the kind of absence when missing
 * (a different error message alone is not a difference that matters).
 */
public final class ReportDiffer {

    private final List<Change> out = new ArrayList<>();

    private ReportDiffer() {
    }

    public static ReportDiff compare(Report a, String nameA, Report b, String nameB) {
        ReportDiffer d = new ReportDiffer();
        MachineSnapshot sa = a.snapshot();
        MachineSnapshot sb = b.snapshot();
        d.versions(sa.driver(), sb.driver());
        d.pythonStack(sa, sb);
        d.gpus(sa, sb);
        d.nvlinks(sa, sb);
        d.nvSwitches(sa, sb);
        d.fabric(sa, sb);
        d.p2p(sa, sb);
        d.verdicts(a.advice(), b.advice());
        d.recommendations(a.advice(), b.advice());
        d.deployment(a.advice(), b.advice());
        d.checks(a.checks(), b.checks());
        d.findings(sa, sb);
        d.machine(a, b);
        return new ReportDiff(side(a, nameA), side(b, nameB), d.out);
    }

    /** Two snapshots, as bare reports. */
    public static ReportDiff compare(MachineSnapshot a, String nameA, MachineSnapshot b, String nameB) {
        return compare(Reports.fromSnapshot(a), nameA, Reports.fromSnapshot(b), nameB);
    }

    private static ReportDiff.Side side(Report r, String name) {
        ReportFacts f = new ReportFacts(r.snapshot());
        return new ReportDiff.Side(name, r.snapshot().host().hostname().shortDisplay() + " · " + f.gpus(), r.snapshot().probe().probedAt());
    }

    private void add(Category c, String subject, String item, String before, String after) {
        if (!Objects.equals(before, after)) {
            out.add(new Change(c, subject, item, before, after));
        }
    }

    static String val(Reading<?> r) {
        if (r == null) {
            return null;
        }
        if (r.isPresent()) {
            Object v = r.value();
            if (v instanceof Boolean b) {
                return b ? "yes" : "no";
            }
            return v instanceof List<?> l ? String.join(", ", l.stream().map(String::valueOf).toList()) : String.valueOf(v);
        }
        return "unknown (" + r.missing().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")";
    }

    private void versions(DriverInfo a, DriverInfo b) {
        Category c = Category.VERSIONS;
        add(c, "driver", "status", a.status().name(), b.status().name());
        add(c, "driver", "driver version", val(a.driverVersion()), val(b.driverVersion()));
        add(c, "driver", "CUDA driver version", val(a.cudaDriverVersion()), val(b.cudaDriverVersion()));
        add(c, "driver", "NVML version", val(a.nvmlVersion()), val(b.nvmlVersion()));
        add(c, "NCCL", "version", val(a.nccl().version()), val(b.nccl().version()));
        add(c, "NCCL", "library", val(a.nccl().path()), val(b.nccl().path()));
    }

    /** The frameworks' Python environment: torch, its CUDA, the NCCL loaded, SGLang / vLLM / FlashInfer (when both sides read it). */
    private void pythonStack(MachineSnapshot a, MachineSnapshot b) {
        if (a.pythonStack() == null || b.pythonStack() == null) {
            return;
        }
        String x = a.pythonStack().summary(a.environment(), a.driver() == null ? null : a.driver().nccl());
        String y = b.pythonStack().summary(b.environment(), b.driver() == null ? null : b.driver().nccl());
        add(Category.VERSIONS, "Python stack", "torch / CUDA / NCCL loaded / frameworks", x, y);
        String ea = a.pythonStack().frameworkEnvironment().map(PythonEnvironment::prefix).orElse(null);
        String eb = b.pythonStack().frameworkEnvironment().map(PythonEnvironment::prefix).orElse(null);
        add(Category.VERSIONS, "Python stack", "the frameworks' environment", ea, eb);
    }

    private void gpus(MachineSnapshot a, MachineSnapshot b) {
        Category c = Category.GPUS;
        add(c, "GPUs", "count", String.valueOf(a.gpus().size()), String.valueOf(b.gpus().size()));
        int n = Math.max(a.gpus().size(), b.gpus().size());
        for (int i = 0; i < n; i++) {
            Gpu x = i < a.gpus().size() ? a.gpus().get(i) : null;
            Gpu y = i < b.gpus().size() ? b.gpus().get(i) : null;
            String g = "GPU" + i;
            if (x == null || y == null) {
                add(c, g, "present", x == null ? null : describe(x), y == null ? null : describe(y));
                continue;
            }
            add(c, g, "model", val(x.name()), val(y.name()));
            add(c, g, "compute capability", val(x.computeCapability()), val(y.computeCapability()));
            add(c, g, "architecture", val(x.architecture()), val(y.architecture()));
            add(c, g, "memory", mem(x), mem(y));
            add(c, g, "SMs", val(x.smCount()), val(y.smCount()));
            add(c, g, "MIG mode", val(x.migMode()), val(y.migMode()));
            add(c, g, "virtualization", val(x.virtualizationMode()), val(y.virtualizationMode()));
            add(c, g, "PCI address", x.pci().toString(), y.pci().toString());
        }
    }

    private static String describe(Gpu g) {
        return g.name().orElse("GPU") + " (SM " + g.computeCapability().shortDisplay() + ", " + g.pci() + ")";
    }

    private static String mem(Gpu g) {
        return g.memoryTotalBytes().isPresent() ? Units.gib(g.memoryTotalBytes().value()) : val(g.memoryTotalBytes());
    }

    private void nvlinks(MachineSnapshot a, MachineSnapshot b) {
        Category c = Category.NVLINK;
        int n = Math.min(a.gpus().size(), b.gpus().size());
        for (int i = 0; i < n; i++) {
            Gpu x = a.gpus().get(i);
            Gpu y = b.gpus().get(i);
            String g = "GPU" + i;
            add(c, g, "NVLinks", ReportFacts.linkState(x), ReportFacts.linkState(y));
            add(c, g, "link count", val(x.nvLinkCount()), val(y.nvLinkCount()));
            Map<Integer, NvLink> lx = links(x);
            Map<Integer, NvLink> ly = links(y);
            Set<Integer> idx = new LinkedHashSet<>(lx.keySet());
            idx.addAll(ly.keySet());
            for (int k : idx) {
                NvLink p = lx.get(k);
                NvLink q = ly.get(k);
                if (p == null || q == null) {
                    add(c, g, "link " + k, p == null ? null : linkLine(p), q == null ? null : linkLine(q));
                    continue;
                }
                add(c, g, "link " + k + " active", val(p.active()), val(q.active()));
                add(c, g, "link " + k + " far end", val(p.remoteType()), val(q.remoteType()));
                add(c, g, "link " + k + " generation", val(p.generation()), val(q.generation()));
            }
        }
    }

    private static Map<Integer, NvLink> links(Gpu g) {
        Map<Integer, NvLink> m = new LinkedHashMap<>();
        g.nvLinks().forEach(l -> m.putIfAbsent(l.index(), l));
        return m;
    }

    private static String linkLine(NvLink l) {
        return "active " + val(l.active()) + ", to " + val(l.remoteType());
    }

    private void nvSwitches(MachineSnapshot a, MachineSnapshot b) {
        Category c = Category.NVSWITCHES;
        add(c, "NVSwitches", "count", String.valueOf(a.nvSwitches().size()), String.valueOf(b.nvSwitches().size()));
        Map<String, NvSwitch> x = new LinkedHashMap<>();
        a.nvSwitches().forEach(s -> x.putIfAbsent(s.id(), s));
        Map<String, NvSwitch> y = new LinkedHashMap<>();
        b.nvSwitches().forEach(s -> y.putIfAbsent(s.id(), s));
        Set<String> ids = new LinkedHashSet<>(x.keySet());
        ids.addAll(y.keySet());
        for (String id : ids) {
            NvSwitch p = x.get(id);
            NvSwitch q = y.get(id);
            if (p == null || q == null) {
                add(c, id, "present", p == null ? null : switchLine(p), q == null ? null : switchLine(q));
                continue;
            }
            add(c, id, "PCI address", val(p.pci()), val(q.pci()));
            add(c, id, "links", p.totalLinks() + " from " + p.gpuLinks().size() + " GPUs", q.totalLinks() + " from " + q.gpuLinks().size() + " GPUs");
        }
    }

    private static String switchLine(NvSwitch s) {
        return val(s.pci()) + ", " + s.totalLinks() + " links";
    }

    private void fabric(MachineSnapshot a, MachineSnapshot b) {
        Category c = Category.FABRIC;
        int n = Math.min(a.gpus().size(), b.gpus().size());
        for (int i = 0; i < n; i++) {
            String g = "GPU" + i;
            CudaAttributes x = a.gpus().get(i).cuda();
            CudaAttributes y = b.gpus().get(i).cuda();
            add(c, g, "multicast", val(x.multicast()), val(y.multicast()));
            add(c, g, "fabric handles", val(x.fabricHandles()), val(y.fabricHandles()));
            add(c, g, "VMM", val(x.vmm()), val(y.vmm()));
            add(c, g, "POSIX FD handles", val(x.posixFdHandles()), val(y.posixFdHandles()));
            add(c, g, "GPUDirect RDMA", val(x.gpuDirectRdma()), val(y.gpuDirectRdma()));
            FabricInfo p = a.gpus().get(i).fabric();
            FabricInfo q = b.gpus().get(i).fabric();
            add(c, g, "fabric state", val(p.state()), val(q.state()));
            add(c, g, "fabric status", val(p.status()), val(q.status()));
            add(c, g, "fabric health", val(p.healthSummary()), val(q.healthSummary()));
            add(c, g, "MNNVL domain", p.inMnnvlDomain() ? "yes" : "no", q.inMnnvlDomain() ? "yes" : "no");
            add(c, g, "clique", val(p.cliqueId()), val(q.cliqueId()));
            add(c, g, "cluster UUID", val(p.clusterUuid()), val(q.clusterUuid()));
            signals(c, g, a.gpus().get(i).signals(), b.gpus().get(i).signals());
            hostLink(c, g, a.gpus().get(i).hostLink(), b.gpus().get(i).hostLink());
        }
        if (!notRead(a.node().fabricManagerVersion()) && !notRead(b.node().fabricManagerVersion())) {
            add(c, "node", "fabric manager version", val(a.node().fabricManagerVersion()), val(b.node().fabricManagerVersion()));
        }
        services(c, a.node(), b.node());
        List<dev.fabricscope.topology.FabricVerdict> va = dev.fabricscope.topology.FabricVerdict.of(a);
        List<dev.fabricscope.topology.FabricVerdict> vb = dev.fabricscope.topology.FabricVerdict.of(b);
        for (int i = 0; i < n; i++) {
            add(c, "GPU" + i, "links up, fabric up?", va.get(i).state().name() + ": " + va.get(i).summary(),
                    vb.get(i).state().name() + ": " + vb.get(i).summary());
        }
        add(c, "driver", "IMEX channels", val(a.driver().imexChannels()), val(b.driver().imexChannels()));
    }

    /**
     * The services' states (running / not running / unknown) and NVLSM's installation; a service one side did not read
     * (NVLSM before it was read) says nothing rather than "changed".
     */
    private void services(Category c, dev.fabricscope.model.NodeInfo x, dev.fabricscope.model.NodeInfo y) {
        for (dev.fabricscope.model.NodeInfo.ServiceState p : x.services()) {
            dev.fabricscope.model.NodeInfo.ServiceState q = y.service(p.name());
            if (q != null) {
                add(c, "node", p.name(), p.state(), q.state());
            }
        }
        if (!notRead(x.nvlsmInstalled()) && !notRead(y.nvlsmInstalled())) {
            add(c, "node", "NVLSM installed", val(x.nvlsmInstalled()), val(y.nvlsmInstalled()));
        }
    }

    /** Issue 24's NVLink signals; a snapshot made before they were read says nothing rather than "changed". */
    private void signals(Category c, String g, dev.fabricscope.model.NvLinkSignals x, dev.fabricscope.model.NvLinkSignals y) {
        if (notRead(x.bwMode()) || notRead(y.bwMode())) {
            return;
        }
        add(c, g, "NVLink bandwidth mode (system)", val(x.systemBwMode()), val(y.systemBwMode()));
        add(c, g, "NVLink bandwidth mode", dev.fabricscope.render.SignalText.bwMode(x.bwMode()), dev.fabricscope.render.SignalText.bwMode(y.bwMode()));
        add(c, g, "NVLink encryption (NVLE)", val(x.nvle()), val(y.nvle()));
        add(c, g, "NVLink firmware", val(x.firmware()), val(y.firmware()));
        add(c, g, "GFM state", val(x.gfmState()), val(y.gfmState()));
        add(c, g, "fabric cliques (v4)", val(x.fabricCliques()), val(y.fabricCliques()));
        add(c, g, "link states", dev.fabricscope.render.SignalText.linkStates(x), dev.fabricscope.render.SignalText.linkStates(y));
        add(c, g, "effective BER", dev.fabricscope.render.SignalText.ber(x, false), dev.fabricscope.render.SignalText.ber(y, false));
    }

    /** NVLink-C2C and the GPU's own NUMA node (issue 27), where both sides read them. */
    private void hostLink(Category c, String g, dev.fabricscope.model.HostLink x, dev.fabricscope.model.HostLink y) {
        if (!x.read() || !y.read()) {
            return;
        }
        add(c, g, "NVLink-C2C mode", dev.fabricscope.render.HostLinkText.mode(x), dev.fabricscope.render.HostLinkText.mode(y));
        add(c, g, "C2C links", dev.fabricscope.render.HostLinkText.links(x), dev.fabricscope.render.HostLinkText.links(y));
        add(c, g, "C2C speed per link", dev.fabricscope.render.HostLinkText.bandwidth(x), dev.fabricscope.render.HostLinkText.bandwidth(y));
        add(c, g, "GPU's own NUMA node", val(x.memoryNumaNode()), val(y.memoryNumaNode()));
    }

    /** The NUMA nodes holding memory and no CPU, with their sizes: {@code 2 (185 GiB), 10 (185 GiB)}. */
    private static String memoryNodes(HostInfo h) {
        List<HostInfo.NumaNode> nodes = h.cpuLessMemoryNodes();
        return nodes.isEmpty() ? "none" : nodes.stream().map(n -> n.id() + (n.memTotalBytes().isPresent()
                ? " (" + Units.gib(n.memTotalBytes().value()) + ")" : ""))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static boolean notRead(Reading<?> r) {
        return dev.fabricscope.render.NodeText.notRead(r);
    }

    private void p2p(MachineSnapshot a, MachineSnapshot b) {
        Category c = Category.P2P;
        ReportFacts fa = new ReportFacts(a);
        ReportFacts fb = new ReportFacts(b);
        int n = Math.min(a.gpus().size(), b.gpus().size());
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                GpuPair x = fa.pair(i, j);
                GpuPair y = fb.pair(i, j);
                String p = "GPU" + i + "–GPU" + j;
                if (x == null || y == null) {
                    add(c, p, "probed", x == null ? null : "yes", y == null ? null : "yes");
                    continue;
                }
                add(c, p, "topology", val(x.topology()), val(y.topology()));
                add(c, p, "NVLinks", val(x.nvLinks()), val(y.nvLinks()));
                add(c, p, "P2P read", val(x.p2pRead()), val(y.p2pRead()));
                add(c, p, "P2P write", val(x.p2pWrite()), val(y.p2pWrite()));
                add(c, p, "P2P over NVLink", val(x.p2pNvlink()), val(y.p2pNvlink()));
                add(c, p, "P2P atomics", val(x.p2pAtomics()), val(y.p2pAtomics()));
                add(c, p, "P2P prop", val(x.p2pProp()), val(y.p2pProp()));
                add(c, p, "CUDA peer access", val(x.cudaCanAccessPeer()), val(y.cudaCanAccessPeer()));
                add(c, p, "CUDA performance rank", val(x.cudaPerformanceRank()), val(y.cudaPerformanceRank()));
                add(c, p, "CUDA native atomics", val(x.cudaNativeAtomics()), val(y.cudaNativeAtomics()));
            }
        }
    }

    private void verdicts(ReportAdvice a, ReportAdvice b) {
        Category c = Category.VERDICTS;
        add(c, "advisor", "blocked", a.blocked(), b.blocked());
        Map<String, Verdict> x = byKey(a.verdicts(), v -> v.framework() + " " + v.knob());
        Map<String, Verdict> y = byKey(b.verdicts(), v -> v.framework() + " " + v.knob());
        for (String k : union(x.keySet(), y.keySet())) {
            Verdict p = x.get(k);
            Verdict q = y.get(k);
            if (p == null || q == null) {
                add(c, k, "verdict", p == null ? null : verdictLine(p), q == null ? null : verdictLine(q));
                continue;
            }
            add(c, k, "outcome", ReportView.outcome(p), ReportView.outcome(q));
            add(c, k, "value", ReportView.value(p), ReportView.value(q));
            add(c, k, "message", p.message(), q.message());
            add(c, k, "rules version", p.version(), q.version());
        }
    }

    private static String verdictLine(Verdict v) {
        return ReportView.value(v) + ": " + ReportView.outcome(v);
    }

    private void recommendations(ReportAdvice a, ReportAdvice b) {
        Category c = Category.RECOMMENDATIONS;
        Map<String, Recommendation> x = byKey(a.recommendations(), Recommendation::framework);
        Map<String, Recommendation> y = byKey(b.recommendations(), Recommendation::framework);
        for (String k : union(x.keySet(), y.keySet())) {
            Recommendation p = x.get(k);
            Recommendation q = y.get(k);
            add(c, k, "recommended", p == null ? null : ReportView.commandLines(p).replace('\n', ';'),
                    q == null ? null : ReportView.commandLines(q).replace('\n', ';'));
        }
    }

    private void deployment(ReportAdvice a, ReportAdvice b) {
        add(Category.DEPLOYMENT, "deployment", "as advised", ReportView.deployment(a).orElse(null), ReportView.deployment(b).orElse(null));
    }

    private void checks(ReportChecks a, ReportChecks b) {
        Category c = Category.CHECKS;
        add(c, "checks", "state", ReportFacts.checks(a), ReportFacts.checks(b));
        Map<String, ReportChecks.Entry> x = byKey(a.results(), ReportChecks.Entry::check);
        Map<String, ReportChecks.Entry> y = byKey(b.results(), ReportChecks.Entry::check);
        for (String k : union(x.keySet(), y.keySet())) {
            ReportChecks.Entry p = x.get(k);
            ReportChecks.Entry q = y.get(k);
            add(c, k, "status", p == null ? null : p.status(), q == null ? null : q.status());
            if (p != null && q != null) {
                add(c, k, "summary", p.summary(), q.summary());
            }
        }
    }

    private void findings(MachineSnapshot a, MachineSnapshot b) {
        Function<Finding, String> key = f -> f.code() + (f.subject() == null ? "" : " · " + f.subject());
        Map<String, Finding> x = byKey(a.findings(), key);
        Map<String, Finding> y = byKey(b.findings(), key);
        for (String k : union(x.keySet(), y.keySet())) {
            Finding p = x.get(k);
            Finding q = y.get(k);
            add(Category.FINDINGS, k, "finding", p == null ? null : p.severity() + ": " + p.message(),
                    q == null ? null : q.severity() + ": " + q.message());
        }
    }

    private void machine(Report a, Report b) {
        Category c = Category.MACHINE;
        HostInfo x = a.snapshot().host();
        HostInfo y = b.snapshot().host();
        add(c, "host", "name", val(x.hostname()), val(y.hostname()));
        add(c, "host", "OS", val(x.os()), val(y.os()));
        add(c, "host", "kernel", val(x.kernel()), val(y.kernel()));
        add(c, "host", "CPU", val(x.cpuModel()), val(y.cpuModel()));
        add(c, "host", "logical CPUs", val(x.logicalCpus()), val(y.logicalCpus()));
        add(c, "host", "NUMA nodes", x.numaNodes().map(l -> l.stream().map(nn -> nn.id() + ":" + nn.cpus()).toList()).shortDisplay(),
                y.numaNodes().map(l -> l.stream().map(nn -> nn.id() + ":" + nn.cpus()).toList()).shortDisplay());
        if (!notRead(x.nodesWithMemory()) && !notRead(y.nodesWithMemory())) {
            add(c, "host", "NUMA nodes with memory and no CPU", memoryNodes(x), memoryNodes(y));
        }
        for (String k : union(a.snapshot().environment().keySet(), b.snapshot().environment().keySet())) {
            add(c, "environment", k, a.snapshot().environment().get(k), b.snapshot().environment().get(k));
        }
        add(c, "snapshot", "origin", a.snapshot().probe().origin().name(), b.snapshot().probe().origin().name());
        add(c, "snapshot", "Fabricscope version", a.snapshot().probe().toolVersion(), b.snapshot().probe().toolVersion());
        add(c, "report", "redaction", a.redaction().describe(), b.redaction().describe());
    }

    private static <T> Map<String, T> byKey(List<T> list, Function<T, String> key) {
        Map<String, T> m = new LinkedHashMap<>();
        list.forEach(t -> m.putIfAbsent(key.apply(t), t));
        return m;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new LinkedHashSet<>(a);
        u.addAll(b);
        return u;
    }
}
