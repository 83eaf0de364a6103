package dev.fabricscope.check.api;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NodeInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.Reading;
import dev.fabricscope.text.Ranges;
import dev.fabricscope.topology.NicPlacement;
import dev.fabricscope.topology.NvLinkCounters;
import dev.fabricscope.topology.PcieTopology;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The field engineer's sign-off: what a node should be (a profile taken from a reference report or a bundled sample)
 * against what it is (its snapshot and the live checks). Each expectation passes, fails (with the measured value that
 * failed it), or is skipped when the node could not tell (a reading missing, a check not run). Pure: no native calls.
 */
public final class NodeAcceptance {

    /** Busbw below this fraction of the links' data bandwidth fails, unless the profile says otherwise. */
    public static final double DEFAULT_MIN_BUSBW_FRACTION = 0.5;

    private NodeAcceptance() {
    }

    public enum Outcome { PASS, FAIL, SKIP }

    /** What a per-GPU expectation measures on a node without GPUs: never a pass (nothing was accepted). */
    static String noGpu(MachineSnapshot s) {
        return s.driver().driverPresent() ? "no GPU on the node: nothing to accept" : "no GPU seen: no NVIDIA driver";
    }

    /** One line of the sign-off. */
    public record Expectation(String name, String expected, String measured, Outcome outcome) {
    }

    /**
     * What the node should be. Null members are not checked.
     *
     * @param source          where the profile came from ({@code sample dgx-h100}, a file name)
     * @param activeLinks     active NVLinks of each GPU, in GPU order
     * @param nvSwitches      PCI-visible switches, or null when the reference could not count them
     * @param rdmaNics        RDMA adapter names with their nearest-GPU letter ({@code mlx5_0 PIX GPU0})
     * @param runningServices services that ran on the reference
     */
    public record Profile(String source, int gpuCount, String gpuModel, List<Integer> activeLinks, Integer nvSwitches,
                          Boolean multicast, String fabricState, String driverVersion, String ncclVersion,
                          List<String> rdmaNics, List<String> runningServices, double minBusbwFraction) {

        public Profile {
            activeLinks = activeLinks == null ? List.of() : List.copyOf(activeLinks);
            rdmaNics = rdmaNics == null ? List.of() : List.copyOf(rdmaNics);
            runningServices = runningServices == null ? List.of() : List.copyOf(runningServices);
        }
    }

    /** The profile a reference machine sets. */
    public static Profile profileOf(MachineSnapshot ref, String source, double minBusbwFraction) {
        List<Gpu> gpus = ref.gpus();
        Set<String> models = gpus.stream().map(g -> g.name().orElse("?")).collect(Collectors.toCollection(LinkedHashSet::new));
        boolean switchesCounted = !ref.nvSwitches().isEmpty() && ref.nvSwitches().stream().allMatch(s -> s.pci().isPresent());
        Set<Boolean> mc = gpus.stream().map(g -> g.cuda().multicast().value()).filter(Objects::nonNull).collect(Collectors.toSet());
        Set<String> fabric = gpus.stream().map(g -> g.fabric().state().value()).filter(Objects::nonNull).collect(Collectors.toSet());
        return new Profile(source, gpus.size(), models.size() == 1 ? models.iterator().next() : null,
                gpus.stream().map(g -> g.activeLinks().size()).toList(), switchesCounted ? ref.nvSwitches().size() : null,
                mc.size() == 1 ? mc.iterator().next() : null, fabric.size() == 1 ? fabric.iterator().next() : null,
                ref.driver().driverVersion().value(), ref.driver().nccl().version().value(),
                ref.node().rdmaNics().stream().map(n -> nicKey(ref, n)).toList(),
                ref.node().services().stream().filter(v -> v.state().equals("running")).map(NodeInfo.ServiceState::name).toList(),
                minBusbwFraction);
    }

    /** {@code mlx5_0 PIX GPU0}: the adapter and where it sits, as a reference states it. */
    static String nicKey(MachineSnapshot s, Nic n) {
        String near = NicPlacement.nearestGpu(s, n);
        return n.name() + (near.equals("?") ? "" : " " + near.replaceAll("(\\S+) \\((\\w+)\\)", "$2 $1"));
    }

    /** Compares the node with the profile; {@code checks} may be null (expectations of the snapshot only). */
    public static List<Expectation> compare(Profile p, MachineSnapshot s, LiveResults checks) {
        List<Expectation> out = new ArrayList<>();
        List<Gpu> gpus = s.gpus();
        String noGpu = noGpu(s);
        if (!s.driver().driverPresent()) {
            out.add(new Expectation("NVIDIA driver", "loaded", s.driver().message() == null ? String.valueOf(s.driver().status())
                    : s.driver().message(), Outcome.FAIL));
        }
        out.add(gpus.isEmpty() ? new Expectation("GPU count", p.gpuCount() == 0 ? "at least 1" : String.valueOf(p.gpuCount()),
                "0: " + noGpu, Outcome.FAIL) : eq("GPU count", String.valueOf(p.gpuCount()), String.valueOf(gpus.size())));
        if (p.gpuModel() != null && gpus.isEmpty()) {
            out.add(new Expectation("GPU model", p.gpuModel(), noGpu, Outcome.FAIL));
        } else if (p.gpuModel() != null) {
            java.util.Map<Integer, String> other = new java.util.TreeMap<>();
            for (int i = 0; i < gpus.size(); i++) {
                if (!p.gpuModel().equals(gpus.get(i).name().orElse("?"))) {
                    other.put(i, gpus.get(i).name().shortDisplay());
                }
            }
            out.add(new Expectation("GPU model", p.gpuModel(), other.isEmpty() ? p.gpuModel() + " ×" + gpus.size() : Ranges.byValue("GPU", other),
                    other.isEmpty() ? Outcome.PASS : Outcome.FAIL));
        }
        out.add(links(p, gpus, noGpu));
        if (p.nvSwitches() != null) {
            boolean counted = s.nvSwitches().stream().allMatch(sw -> sw.pci().isPresent());
            out.add(counted ? eq("NVSwitches", String.valueOf(p.nvSwitches()), String.valueOf(s.nvSwitches().size()))
                    : new Expectation("NVSwitches", String.valueOf(p.nvSwitches()), "not countable here ("
                    + s.nvSwitches().stream().map(NvSwitch::id).collect(Collectors.joining(",")) + " hidden)", Outcome.SKIP));
        }
        if (p.multicast() != null) {
            out.add(allGpus("CUDA multicast", p.multicast() ? "yes" : "no", gpus, g -> g.cuda().multicast().map(b -> b ? "yes" : "no"), noGpu));
        }
        if (p.fabricState() != null) {
            out.add(allGpus("Fabric state", p.fabricState(), gpus, g -> g.fabric().state(), noGpu));
        }
        if (p.driverVersion() != null) {
            out.add(reading("Driver version", p.driverVersion(), s.driver().driverVersion()));
        }
        if (p.ncclVersion() != null) {
            out.add(reading("NCCL version", p.ncclVersion(), s.driver().nccl().version()));
        }
        out.addAll(nics(p, s));
        out.add(linkErrors(gpus));
        out.add(ecc(gpus));
        for (String svc : p.runningServices()) {
            NodeInfo.ServiceState v = s.node().services().stream().filter(x -> x.name().equals(svc)).findFirst().orElse(null);
            String state = v == null ? "unknown" : v.state();
            out.add(new Expectation("Service " + svc, "running", v == null ? "not read" : state + " (" + v.evidence() + ")",
                    state.equals("running") ? Outcome.PASS : state.equals("unknown") ? Outcome.SKIP : Outcome.FAIL));
        }
        out.addAll(live(p, s, checks));
        return out;
    }

    private static Expectation eq(String name, String expected, String measured) {
        return new Expectation(name, expected, measured, expected.equals(measured) ? Outcome.PASS : Outcome.FAIL);
    }

    private static Expectation reading(String name, String expected, Reading<String> r) {
        return r.isPresent() ? eq(name, expected, r.value()) : new Expectation(name, expected, r.display(), Outcome.SKIP);
    }

    private static Expectation allGpus(String name, String expected, List<Gpu> gpus, java.util.function.Function<Gpu, Reading<String>> f,
                                       String noGpu) {
        if (gpus.isEmpty()) {
            return new Expectation(name, expected + " on all GPUs", noGpu, Outcome.FAIL);
        }
        java.util.Map<Integer, String> bad = new java.util.TreeMap<>();
        boolean unknown = false;
        for (int i = 0; i < gpus.size(); i++) {
            Reading<String> r = f.apply(gpus.get(i));
            if (!r.isPresent()) {
                unknown = true;
            } else if (!expected.equals(r.value())) {
                bad.put(i, r.value());
            }
        }
        if (!bad.isEmpty()) {
            return new Expectation(name, expected, Ranges.byValue("GPU", bad), Outcome.FAIL);
        }
        return new Expectation(name, expected, unknown ? "unknown on some GPUs" : expected + " on all GPUs", unknown ? Outcome.SKIP : Outcome.PASS);
    }

    /** Active links per GPU; a failure names each GPU short of links and the inactive link indices. */
    private static Expectation links(Profile p, List<Gpu> gpus, String noGpu) {
        if (gpus.isEmpty()) {
            return new Expectation("NVLinks active", p.activeLinks().isEmpty() ? "per GPU" : p.activeLinks().toString(), noGpu,
                    Outcome.FAIL);
        }
        java.util.Map<Integer, String> byGpu = new java.util.TreeMap<>();
        Set<Integer> expectedCounts = new TreeSet<>(p.activeLinks());
        for (int i = 0; i < Math.max(gpus.size(), p.activeLinks().size()); i++) {
            int want = i < p.activeLinks().size() ? p.activeLinks().get(i) : 0;
            if (i >= gpus.size()) {
                byGpu.put(i, "absent");
                continue;
            }
            Gpu g = gpus.get(i);
            int have = g.activeLinks().size();
            if (have != want) {
                List<Integer> down = g.nvLinks().stream().filter(l -> !Boolean.TRUE.equals(l.active().value())).map(NvLink::index).toList();
                byGpu.put(i, have + "/" + want + (down.isEmpty() ? "" : " (link " + down.stream().map(String::valueOf)
                        .collect(Collectors.joining(",")) + " inactive)"));
            }
        }
        String bad = Ranges.byValue("GPU", byGpu);
        String expected = expectedCounts.size() == 1 ? expectedCounts.iterator().next() + " per GPU" : p.activeLinks().toString();
        // a link whose state the driver did not give is not an inactive link: "0 active" would then pass vacuously
        String unreadable = gpus.stream().flatMap(g -> g.nvLinks().stream()).map(NvLink::active).filter(r -> !r.isPresent())
                .findFirst().map(r -> "link state not readable (" + r.shortDisplay() + ")").orElse(null);
        if (unreadable != null) {
            boolean linksExpected = p.activeLinks().stream().anyMatch(n -> n > 0);
            return new Expectation("NVLinks active", expected, bad.isEmpty() ? unreadable : unreadable + "; " + bad,
                    linksExpected ? Outcome.FAIL : Outcome.SKIP);
        }
        return new Expectation("NVLinks active", expected, bad.isEmpty() ? expected.replace("per GPU", "on every GPU") : bad,
                bad.isEmpty() ? Outcome.PASS : Outcome.FAIL);
    }

    /** Every expected RDMA adapter present, link up, where the reference had it (the nearest GPU's letter). */
    private static List<Expectation> nics(Profile p, MachineSnapshot s) {
        if (p.rdmaNics().isEmpty()) {
            return List.of();
        }
        if (!s.node().nics().isPresent()) {
            return List.of(new Expectation("RDMA NICs", p.rdmaNics().size() + " (" + names(p.rdmaNics()) + ")",
                    s.node().nics().display(), Outcome.SKIP));
        }
        List<Nic> have = s.node().rdmaNics();
        List<String> missing = new ArrayList<>();
        List<String> moved = new ArrayList<>();
        List<String> down = new ArrayList<>();
        for (String want : p.rdmaNics()) {
            String name = want.split(" ")[0];
            Nic n = have.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            if (n == null) {
                missing.add(name);
                continue;
            }
            if (!nicKey(s, n).equals(want)) {
                moved.add(nicKey(s, n) + " (expected " + want + ")");
            }
            if (!n.linkUp()) {
                down.add(name + " " + NicPlacement.ports(n));
            }
        }
        List<Expectation> out = new ArrayList<>();
        String expected = p.rdmaNics().size() + " (" + names(p.rdmaNics()) + ")";
        out.add(new Expectation("RDMA NICs", expected, missing.isEmpty() ? have.size() + " present"
                : have.size() + " present, missing " + String.join(", ", missing), missing.isEmpty() ? Outcome.PASS : Outcome.FAIL));
        boolean anyFound = missing.size() < p.rdmaNics().size();
        out.add(new Expectation("NIC placement (topo -m)", "as the reference", !anyFound ? "no expected NIC present"
                : moved.isEmpty() ? "same" : String.join("; ", moved), !anyFound ? Outcome.SKIP : moved.isEmpty() ? Outcome.PASS : Outcome.FAIL));
        out.add(new Expectation("NIC links up", "all up", !anyFound ? "no expected NIC present" : down.isEmpty() ? "all up"
                : String.join("; ", down), !anyFound ? Outcome.SKIP : down.isEmpty() ? Outcome.PASS : Outcome.FAIL));
        return out;
    }

    private static String names(List<String> keys) {
        List<String> n = keys.stream().map(k -> k.split(" ")[0]).toList();
        return n.size() <= 3 ? String.join(", ", n) : n.get(0) + " … " + n.get(n.size() - 1);
    }

    /**
     * The counters DCGM fails on any rise (replay, recovery; ECC data on NVLink 5) must be 0; corrected CRC and ECC
     * counts are reported, and fail only in a total that could hold a minute at DCGM's CRC fail rate
     * ({@link NvLinkCounters}).
     */
    private static Expectation linkErrors(List<Gpu> gpus) {
        long corrected = 0;
        int read = 0;
        List<String> where = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            NvLinkCounters.GpuCounters c = NvLinkCounters.of(gpus.get(i));
            if (c.verdict() == NvLinkCounters.Verdict.NOT_READ) {
                continue;
            }
            read += c.activeLinks().size();
            for (NvLinkCounters.Total t : c.totals()) {
                corrected += t.counterClass() == NvLinkCounters.CounterClass.MUST_NOT_RISE ? 0 : t.sum();
            }
            for (String r : c.reasons()) {
                where.add("GPU" + i + " " + r);
            }
        }
        if (read == 0) {
            return new Expectation("NVLink replay/recovery errors", "0", "not read", Outcome.SKIP);
        }
        String measured = (where.isEmpty() ? "0" : String.join("; ", where)) + " on " + read + " links"
                + (corrected > 0 && where.isEmpty() ? " (corrected CRC/ECC counts " + corrected + ", below DCGM's thresholds)" : "");
        return new Expectation("NVLink replay/recovery errors", "0", measured, where.isEmpty() ? Outcome.PASS : Outcome.FAIL);
    }

    /** No uncorrectable ECC error since the driver loaded and no failed row remap. */
    private static Expectation ecc(List<Gpu> gpus) {
        List<String> bad = new ArrayList<>();
        int read = 0;
        for (int i = 0; i < gpus.size(); i++) {
            GpuHealth h = gpus.get(i).health();
            if (h.eccVolatileUncorrected().isPresent()) {
                read++;
                if (h.eccVolatileUncorrected().value() > 0) {
                    bad.add("GPU" + i + " " + h.eccVolatileUncorrected().value() + " uncorrected");
                }
            }
            if (h.remappedRows().isPresent()) {
                read++;
                if (h.remappedRows().value().failureOccurred()) {
                    bad.add("GPU" + i + " row remap failed");
                }
                if (h.remappedRows().value().pending()) {
                    bad.add("GPU" + i + " row remap pending (reset the GPU)");
                }
            }
        }
        if (read == 0) {
            return new Expectation("ECC and row remapping", "no uncorrected errors, no remap failure", "not read", Outcome.SKIP);
        }
        return new Expectation("ECC and row remapping", "no uncorrected errors, no remap failure",
                bad.isEmpty() ? "clean" : String.join(", ", bad), bad.isEmpty() ? Outcome.PASS : Outcome.FAIL);
    }

    /** The live checks' results (any may be null when not run). */
    public record LiveResults(PreflightResult preflight, P2pResult p2p, AllReduceResult allReduce, String notRunBecause) {
    }

    private static List<Expectation> live(Profile p, MachineSnapshot s, LiveResults r) {
        String why = r == null ? "expectations only (no live checks)" : r.notRunBecause();
        List<Expectation> out = new ArrayList<>();
        Expectation preflight = status("Preflight", r == null ? null : r.preflight(), why);
        PreflightResult pr = r == null ? null : r.preflight();
        if (pr != null && pr.params() != null && pr.params().worldSize() <= 1) {
            // SGLang returns before the preflight at world size 1; results of older versions said FAILED there
            preflight = new Expectation("Preflight", "PASSED", "SKIPPED — " + PreflightResult.NOT_APPLICABLE
                    + (pr.vote() == null ? "" : "; the driver's answers vote " + pr.vote()), Outcome.SKIP);
        } else if (preflight.outcome() == Outcome.FAIL && !Boolean.TRUE.equals(p.multicast())) {
            // SGLang's preflight votes SKIP without CUDA multicast (and at world size 1): the reference had none either
            preflight = new Expectation("Preflight", "as the reference (no CUDA multicast: SKIP expected)", preflight.measured(), Outcome.SKIP);
        }
        out.add(preflight);
        out.add(status("P2P matrix", r == null ? null : r.p2p(), why));
        out.add(status("All-reduce", r == null ? null : r.allReduce(), why));
        out.add(busbw(p, s, r == null ? null : r.allReduce(), why));
        return out;
    }

    private static Expectation status(String name, CheckResult c, String why) {
        if (c == null) {
            return new Expectation(name, "PASSED", "not run: " + why, Outcome.SKIP);
        }
        String measured = c.status() + (c.summary() == null ? "" : " — " + c.summary());
        return new Expectation(name, "PASSED", measured, c.status() == CheckStatus.PASSED ? Outcome.PASS
                : c.status() == CheckStatus.SKIPPED ? Outcome.SKIP : Outcome.FAIL);
    }

    /** NVLink data bandwidth per direction of the slowest GPU, GB/s (what NCCL's busbw approaches), or 0 without NVLink. */
    public static double theoreticalGBps(MachineSnapshot s) {
        return s.gpus().stream().mapToDouble(g -> g.activeLinks().stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum())
                .min().orElse(0);
    }

    private static Expectation busbw(Profile p, MachineSnapshot s, AllReduceResult r, String why) {
        double theory = theoreticalGBps(s);
        String expected = String.format(Locale.ROOT, "≥ %.0f%% of %.0f GB/s", 100 * p.minBusbwFraction(), theory);
        if (theory <= 0) {
            return new Expectation("NCCL busbw", "≥ " + Math.round(100 * p.minBusbwFraction()) + "% of NVLink", "no NVLink: not compared", Outcome.SKIP);
        }
        if (r == null) {
            return new Expectation("NCCL busbw", expected, "not run: " + why, Outcome.SKIP);
        }
        double best = r.rows().stream().filter(row -> row.impl().equalsIgnoreCase("nccl") && row.totalWrong() == 0)
                .mapToDouble(AllReduceResult.Row::busbw).max().orElse(0);
        if (best <= 0) {
            return new Expectation("NCCL busbw", expected, "no NCCL row", Outcome.SKIP);
        }
        String measured = String.format(Locale.ROOT, "%.1f GB/s (%.0f%%)", best, 100 * best / theory);
        return new Expectation("NCCL busbw", expected, measured, best >= p.minBusbwFraction() * theory ? Outcome.PASS : Outcome.FAIL);
    }

    /**
     * {@code FAIL: 2 of 15 expectations failed (NVLinks active, RDMA NICs); 3 skipped} — the summary line, within 120
     * columns: failed names that do not fit become {@code and 3 more}.
     */
    public static String summary(List<Expectation> e) {
        List<String> failed = e.stream().filter(x -> x.outcome() == Outcome.FAIL).map(Expectation::name).toList();
        long passed = e.stream().filter(x -> x.outcome() == Outcome.PASS).count();
        long skipped = e.stream().filter(x -> x.outcome() == Outcome.SKIP).count();
        if (failed.isEmpty()) {
            return "PASS: " + passed + " of " + e.size() + " expectations met" + (skipped > 0 ? ", " + skipped + " skipped" : "");
        }
        String head = "FAIL: " + failed.size() + " of " + e.size() + " expectations failed (";
        String tail = ")" + (skipped > 0 ? "; " + skipped + " skipped" : "");
        for (int shown = failed.size(); ; shown--) {
            String names = String.join(", ", failed.subList(0, shown)) + (shown < failed.size() ? (shown > 0 ? ", " : "") + "and "
                    + (failed.size() - shown) + " more" : "");
            if (shown == 0 || head.length() + names.length() + tail.length() <= SUMMARY_WIDTH) {
                return head + names + tail;
            }
        }
    }

    /** The terminal width the summary line fits. */
    private static final int SUMMARY_WIDTH = 120;

    public static boolean passed(List<Expectation> e) {
        return e.stream().noneMatch(x -> x.outcome() == Outcome.FAIL);
    }
}
