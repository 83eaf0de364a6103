package dev.fabricscope.report;

import dev.fabricscope.render.Units;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.text.Words;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** The summary lines every report format shows, computed once from the snapshot (plain text, not escaped). */
public final class ReportFacts {

    private static final Map<Class<?>, java.lang.reflect.RecordComponent[]> COMPONENTS = new java.util.concurrent.ConcurrentHashMap<>();
    private final MachineSnapshot s;
    private final Map<Long, GpuPair> pairs = new HashMap<>();

    public ReportFacts(MachineSnapshot s) {
        this.s = s;
        for (GpuPair p : s.pairs()) {
            int a = index(p.a());
            int b = index(p.b());
            if (a >= 0 && b >= 0) {
                pairs.putIfAbsent(key(a, b), p);
            }
        }
    }

    private int index(dev.fabricscope.model.PciAddress pci) {
        return s.indexOf(pci);
    }

    private static long key(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    /** The pair joining GPU {@code i} and GPU {@code j} (indices in PCI order), or null. */
    public GpuPair pair(int i, int j) {
        return pairs.get(key(i, j));
    }

    public MachineSnapshot snapshot() {
        return s;
    }

    /** {@code host · OS · kernel … · CPU · 16 CPUs · 1 NUMA node}. */
    public String machine() {
        HostInfo h = s.host();
        String numa = h.numaNodes().isPresent() ? " · " + Words.plural(h.numaNodes().value().size(), "NUMA node") : "";
        return h.hostname().shortDisplay() + " · " + h.os().shortDisplay() + " · kernel " + h.kernel().shortDisplay()
                + " · " + h.architecture().shortDisplay() + " · " + h.cpuModel().shortDisplay() + " · "
                + h.logicalCpus().shortDisplay() + " CPUs" + numa;
    }

    /** Where the snapshot came from. */
    public String origin() {
        ProbeInfo p = s.probe();
        String what = switch (p.origin()) {
            case LIVE -> "live probe";
            case CAPTURED -> "captured from a real machine";
            case SYNTHETIC -> "SYNTHETIC sample (built from public specs, not a real reading)";
            case REPLAYED -> "replayed from a native-call trace recorded";
        };
        return what + (p.probedAt() == null ? "" : " at " + p.probedAt())
                + (p.toolVersion() == null ? "" : " by Fabricscope " + p.toolVersion());
    }

    /** {@code 580.159.04 · CUDA 13.0 · NVML … · NCCL 2.28.9 (path)}, or the driver problem. */
    public String driver() {
        DriverInfo d = s.driver();
        if (!d.driverPresent()) {
            return d.status() + (d.message() == null ? "" : ": " + d.message());
        }
        String nccl = d.nccl().version().isPresent()
                ? d.nccl().version().value() + " (" + d.nccl().path().orElse("path unknown") + ")" : "not found";
        return "driver " + d.driverVersion().shortDisplay() + " · CUDA " + d.cudaDriverVersion().shortDisplay()
                + " · NVML " + d.nvmlVersion().shortDisplay() + " · NCCL " + nccl
                + (d.status() == DriverInfo.Status.PARTIAL ? " · PARTIAL: " + (d.message() == null ? "" : d.message()) : "");
    }

    /** {@code 8× NVIDIA H100 80GB HBM3 (SM 9.0, 80 GiB)}, one group per model, then MIG and virtualization. */
    public String gpus() {
        if (s.gpus().isEmpty()) {
            return "none seen";
        }
        Map<String, Integer> groups = new LinkedHashMap<>();
        for (Gpu g : s.gpus()) {
            String mem = g.memoryTotalBytes().isPresent() ? ", " + Units.gib(g.memoryTotalBytes().value()) : "";
            groups.merge(g.name().orElse("unknown GPU") + " (SM " + g.computeCapability().shortDisplay() + mem + ")", 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        groups.forEach((k, n) -> parts.add(n + "× " + k));
        String out = String.join(" + ", parts);
        long mig = s.gpus().stream().filter(g -> "Enabled".equalsIgnoreCase(g.migMode().orElse(""))).count();
        if (mig > 0) {
            out += " · MIG enabled on " + mig;
        }
        TreeSet<String> virt = new TreeSet<>();
        s.gpus().forEach(g -> virt.add(g.virtualizationMode().shortDisplay()));
        if (!(virt.size() == 1 && virt.contains("None"))) {
            out += " · virtualization " + String.join("/", virt);
        }
        return out;
    }

    /** Per-GPU NVLink state in one line: {@code 18/18 active on all 8 GPUs, NVLink4, 900 GB/s per direction}. */
    public String nvlink() {
        if (s.gpus().isEmpty()) {
            return "no GPUs";
        }
        Map<String, List<String>> byState = new LinkedHashMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            byState.computeIfAbsent(linkState(s.gpus().get(i)), k -> new ArrayList<>()).add("GPU" + i);
        }
        if (byState.size() == 1) {
            String only = byState.keySet().iterator().next();
            return only + (s.gpus().size() > 1 ? " (every GPU)" : "");
        }
        List<String> parts = new ArrayList<>();
        byState.forEach((state, gpus) -> parts.add(String.join(", ", gpus) + ": " + state));
        return String.join("; ", parts);
    }

    /** One GPU's links: {@code 18/18 active, NVLink4, 900 GB/s per direction, 18 to NVSwitch}. */
    public static String linkState(Gpu g) {
        if (g.nvLinks().isEmpty()) {
            return g.nvLinkCount().isPresent() ? "no NVLinks" : "NVLink unknown (" + g.nvLinkCount().missing().describe() + ")";
        }
        List<NvLink> active = g.activeLinks();
        if (active.isEmpty() && g.nvLinks().stream().noneMatch(l -> l.active().isPresent())) {
            return g.nvLinks().size() + " links, state unknown (" + g.nvLinks().get(0).active().missing().describe() + ")";
        }
        StringBuilder sb = new StringBuilder().append(active.size()).append('/').append(g.nvLinks().size()).append(" active");
        active.stream().findFirst().flatMap(l -> l.generation().asOptional()).ifPresent(gen -> sb.append(", NVLink").append(gen));
        double bw = active.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
        if (bw > 0) {
            sb.append(String.format(Locale.ROOT, ", %.0f GB/s per direction", bw));
        }
        long toSwitch = active.stream().filter(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value())).count();
        long toGpu = active.stream().filter(l -> NvLink.REMOTE_GPU.equals(l.remoteType().value())).count();
        if (toSwitch > 0) {
            sb.append(", ").append(toSwitch).append(" to NVSwitch");
        }
        if (toGpu > 0) {
            sb.append(", ").append(toGpu).append(" to GPUs");
        }
        return sb.toString();
    }

    public String nvSwitches() {
        if (s.nvSwitches().isEmpty()) {
            return "none seen";
        }
        long hidden = s.nvSwitches().stream().filter(sw -> !sw.pci().isPresent()).count();
        return s.nvSwitches().size() + " seen" + (hidden > 0 ? " (" + hidden + " without a visible PCI address)" : "");
    }

    /** Multicast, fabric handles, MNNVL fabric state and IMEX channels, summarised over GPUs. */
    public String fabric() {
        if (s.gpus().isEmpty()) {
            return "no GPUs";
        }
        String imex = s.driver().imexChannels().isPresent()
                ? (s.driver().imexChannels().value().isEmpty() ? "no IMEX channels" : Words.plural(s.driver().imexChannels().value().size(), "IMEX channel"))
                : "IMEX " + s.driver().imexChannels().shortDisplay();
        return "multicast " + over(g -> Units.yn(g.cuda().multicast())) + " · fabric handles " + over(g -> Units.yn(g.cuda().fabricHandles()))
                + " · fabric state " + over(g -> g.fabric().state().shortDisplay())
                + " · MNNVL " + over(g -> g.fabric().inMnnvlDomain() ? "yes (clique " + g.fabric().cliqueId().shortDisplay() + ")" : "no")
                + " · " + imex;
    }

    /** P2P over all pairs: {@code all 28 pairs OK (read/write)}, or the pairs that are not. */
    public String p2p() {
        int n = s.gpus().size();
        if (n < 2) {
            return "not applicable (" + Words.plural(n, "GPU") + ")";
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                GpuPair p = pair(i, j);
                String k = p == null ? "not probed" : "read " + p.p2pRead().shortDisplay() + "/write " + p.p2pWrite().shortDisplay()
                        + ", CUDA peer access " + Units.yn(p.cudaCanAccessPeer());
                counts.merge(k, 1, Integer::sum);
            }
        }
        int total = n * (n - 1) / 2;
        List<String> parts = new ArrayList<>();
        counts.forEach((k, c) -> parts.add((total == 1 ? "the one pair" : c == total ? "all " + c + " pairs"
                : c + " of " + total + " pairs") + ": " + k));
        return String.join("; ", parts);
    }

    private String over(java.util.function.Function<Gpu, String> f) {
        TreeSet<String> values = new TreeSet<>();
        s.gpus().forEach(g -> values.add(f.apply(g)));
        return values.size() == 1 ? values.first() : "mixed (" + String.join(", ", values) + ")";
    }

    /** {@code 2 errors · 1 fallback · 9 ok}. */
    public static String verdictCounts(ReportAdvice a) {
        if (a.verdicts().isEmpty()) {
            return a.blocked() == null ? "none" : "none: " + a.blocked();
        }
        return Words.plural(a.count(Outcome.ERROR), "error") + " · " + Words.plural(a.count(Outcome.FALLBACK), "fallback") + " · "
                + a.count(Outcome.OK) + " ok";
    }

    /** Verdicts worst first (errors, fallbacks, ok), stable within each outcome. */
    public static List<Verdict> worstFirst(List<Verdict> verdicts) {
        List<Verdict> v = new ArrayList<>(verdicts);
        v.sort(Comparator.comparingInt(x -> x.outcome().severity()));
        return v;
    }

    public static String checks(ReportChecks c) {
        if (!c.requested()) {
            return "not run (add --with-checks on the machine)";
        }
        if (c.skipped() != null) {
            return "skipped: " + c.skipped();
        }
        if (c.results().isEmpty()) {
            return "none ran";
        }
        List<String> parts = new ArrayList<>();
        c.results().forEach(e -> parts.add(e.check() + " " + e.status()));
        return String.join(" · ", parts);
    }

    /**
     * Every reading the machine did not give, as {@code (where, kind, why)}; the same absence on several links of a
     * GPU is one row ({@code GPU0 links 0–17 active}).
     */
    public List<String[]> unreadable() {
        Map<String, String[]> rows = new LinkedHashMap<>();
        Map<String, List<Integer>> links = new HashMap<>();
        collect(rows, links, "host", s.host(), 0);
        collect(rows, links, "driver", s.driver(), 0);
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            collect(rows, links, "GPU" + i, g, 0);
            for (NvLink l : g.nvLinks()) {
                for (var c : COMPONENTS.computeIfAbsent(NvLink.class, Class::getRecordComponents)) {
                    if (component(l, c) instanceof Reading<?> r && !r.isPresent()) {
                        String kind = r.missing().kind().name().toLowerCase(Locale.ROOT);
                        String key = "GPU" + i + "\u0000" + c.getName() + "\u0000" + kind + "\u0000" + r.missing().describe();
                        rows.putIfAbsent(key, new String[] {"GPU" + i + " " + c.getName(), kind, r.missing().describe()});
                        links.computeIfAbsent(key, k -> new ArrayList<>()).add(l.index());
                    }
                }
            }
        }
        for (int i = 0; i < s.gpus().size(); i++) {
            for (int j = i + 1; j < s.gpus().size(); j++) {
                GpuPair p = pair(i, j);
                if (p != null) {
                    collect(rows, links, "GPU" + i + "–GPU" + j, p, 0);
                }
            }
        }
        List<String[]> out = new ArrayList<>();
        rows.forEach((key, row) -> {
            List<Integer> idx = links.get(key);
            if (idx != null) {
                String[] parts = row[0].split(" ", 2);
                row = new String[] {parts[0] + (idx.size() == 1 ? " link " : " links ") + ranges(idx) + " " + parts[1], row[1], row[2]};
            }
            out.add(row);
        });
        return out;
    }

    /** {@code 0–5, 7, 9–17}. */
    public static String ranges(List<Integer> values) {
        List<Integer> v = new ArrayList<>(new java.util.TreeSet<>(values));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.size(); i++) {
            int start = v.get(i);
            int end = start;
            while (i + 1 < v.size() && v.get(i + 1) == end + 1) {
                end = v.get(++i);
            }
            sb.append(sb.length() == 0 ? "" : ", ").append(start).append(end == start ? "" : "–" + end);
        }
        return sb.toString();
    }

    private static void collect(Map<String, String[]> out, Map<String, List<Integer>> links, String where, Object o, int depth) {
        if (o == null || depth > 6 || o instanceof NvLink) {
            return;
        }
        if (o instanceof Reading<?> r) {
            if (!r.isPresent()) {
                out.put(where + "\u0000" + out.size(), new String[] {where, r.missing().kind().name().toLowerCase(Locale.ROOT), r.missing().describe()});
            }
            return;
        }
        if (o instanceof Record rec) {
            for (var c : COMPONENTS.computeIfAbsent(rec.getClass(), Class::getRecordComponents)) {
                if (c.getType() == dev.fabricscope.model.PciAddress.class) {
                    continue;
                }
                collect(out, links, where + "." + c.getName(), component(o, c), depth + 1);
            }
        } else if (o instanceof List<?> list) {
            for (Object e : list) {
                collect(out, links, where, e, depth + 1);
            }
        }
    }

    /**
     * A GPU's links in runs of consecutive links with the same facts: {@code (links, active, generation, far end,
     * far-end PCI, GB/s per direction)}.
     */
    public static List<String[]> linkGroups(Gpu g) {
        List<String[]> out = new ArrayList<>();
        List<Integer> run = new ArrayList<>();
        String[] last = null;
        for (NvLink l : g.nvLinks()) {
            String[] facts = {Units.yn(l.active()), l.generation().shortDisplay(), l.remoteType().shortDisplay(), l.remotePci().shortDisplay(),
                l.gbpsPerDirection().isPresent() ? String.format(Locale.ROOT, "%.1f", l.gbpsPerDirection().value()) : l.gbpsPerDirection().shortDisplay()};
            if (last != null && !java.util.Arrays.equals(last, facts)) {
                out.add(group(run, last));
                run = new ArrayList<>();
            }
            run.add(l.index());
            last = facts;
        }
        if (last != null) {
            out.add(group(run, last));
        }
        return out;
    }

    private static String[] group(List<Integer> run, String[] facts) {
        String[] row = new String[facts.length + 1];
        row[0] = ranges(run);
        System.arraycopy(facts, 0, row, 1, facts.length);
        return row;
    }

    private static Object component(Object o, java.lang.reflect.RecordComponent c) {
        try {
            return c.getAccessor().invoke(o);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
