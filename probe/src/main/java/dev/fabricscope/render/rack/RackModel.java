package dev.fabricscope.render.rack;

import dev.fabricscope.text.Words;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.NodeSummary;
import dev.fabricscope.cluster.NodeSummary.GpuSummary;
import dev.fabricscope.cluster.NvlinkClique;
import dev.fabricscope.cluster.NvlinkDomain;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.text.Escape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the cluster drawing shows: one panel per NVLink domain (the trays that share an MNNVL cluster UUID, whatever
 * their clique), each tray
 * with its GPUs and its links bundled (count and rate), the domain's switch plane (seen on PCI, or inferred from the
 * links), and why a tray stands out; the nodes outside any multi-node domain as a plain row. Pure: built from the
 * merged cluster view and each node's links, no file or device read here.
 *
 * @param domains one per MNNVL cluster UUID, most trays first
 * @param outside nodes outside MNNVL (no cluster UUID, or GPUs that disagree on it), by name
 */
public record RackModel(String directory, List<Domain> domains, List<Outside> outside) {

    /** Longest node name or value drawn; a name that long already runs off its box. */
    static final int MAX_TEXT = 64;

    public RackModel {
        domains = List.copyOf(domains);
        outside = List.copyOf(outside);
    }

    /**
     * One NVLink domain: the trays of one MNNVL cluster UUID, in one clique or several (partitions of the domain).
     *
     * @param gfdLabel     {@code nvidia.com/gpu.clique=<ClusterUUID>.<CliqueId>} of the main clique (most trays are in it):
     *                     the domain as GFD names it
     * @param clique       that main clique
     * @param otherCliques the domain's other cliques (their trays are odd), ascending
     * @param links        links per tray most trays have up (and their rate), the yardstick for odd trays
     */
    public record Domain(String clusterUuid, long clique, String gfdLabel, List<Long> otherCliques, List<Tray> trays,
                         SwitchPlane switches, Bundle links) {
        public Domain {
            otherCliques = List.copyOf(otherCliques);
            trays = List.copyOf(trays);
        }

        public int gpus() {
            return trays.stream().mapToInt(t -> t.gpus().size()).sum();
        }

        public List<Tray> odd() {
            return trays.stream().filter(Tray::isOdd).toList();
        }

        /** Cliques of the domain, the main one with the others. */
        public int cliques() {
            return 1 + otherCliques.size();
        }
    }

    /**
     * A compute tray (a node) of a domain.
     *
     * @param gpus   each GPU's links
     * @param bundle the tray's links to the switch plane, all GPUs together
     * @param odd    why the tray differs from the domain (links down, fabric state, health, clique, GPU count); empty
     *               when it does not
     * @param note   what the drawing could not read for this tray (its per-link readings), or null
     */
    public record Tray(String name, long clique, List<TrayLinks> gpus, Bundle bundle, List<String> odd, String note) {
        public Tray {
            gpus = List.copyOf(gpus);
            odd = List.copyOf(odd);
        }

        public boolean isOdd() {
            return !odd.isEmpty();
        }
    }

    /**
     * Links bundled: how many are up of how many, at what nominal rate.
     *
     * @param links links in all, or -1 when not known
     * @param gbps  GB/s per direction of each link, or null when unknown or mixed
     */
    public record Bundle(int up, int links, Double gbps) {
        /** {@code 72/72 links · 50 GB/s each}; {@code 68 links up · rate unknown} without a link count or rate. */
        public String label() {
            String count = links < 0 ? up + " links up" : up + "/" + links + " links";
            return count + " · " + (gbps == null ? "rate unknown" : number(gbps) + " GB/s each");
        }

        /** Nominal GB/s per direction of the links up together, or null when the rate is unknown. */
        public Double total() {
            return gbps == null ? null : gbps * up;
        }
    }

    /**
     * The NVLink switch plane of a domain.
     *
     * @param trays        switch trays (or NVSwitches when seen on PCI), -1 when not known
     * @param chipsPerTray NVLink switch chips per switch tray, or 0 when not known
     * @param inferred     true when no tray sees the switches and the plane is derived from the links
     * @param basis        how the plane was found, one sentence
     */
    public record SwitchPlane(int trays, int chipsPerTray, boolean inferred, String basis) {
    }

    /** A node in no multi-node NVLink domain: its name, its GPUs in a few words, and why it stands apart. */
    public record Outside(String name, String gpus, String why) {
    }

    /**
     * One node's links as read from its full snapshot, or only what its summary holds.
     *
     * @param switchesSeen NVSwitches the node sees on PCI (an NVL72 tray sees none: they sit in switch trays)
     * @param note         what could not be read (the snapshot, and why), or null
     */
    public record NodeLinks(List<TrayLinks> gpus, int switchesSeen, String note) {
        public static NodeLinks of(MachineSnapshot s) {
            int seen = (int) s.nvSwitches().stream().filter(w -> w.pci().isPresent()).count();
            return new NodeLinks(TrayLinks.of(s), seen, null);
        }

        public static NodeLinks summaryOnly(NodeSummary s, String why) {
            return new NodeLinks(TrayLinks.ofSummary(s), 0, why);
        }
    }

    // ---- building

    /**
     * GB200 NVL72 (NVIDIA GB200 NVL72 datasheet; Blackwell architecture whitepaper): 18 NVLink5 links per GPU, one to
     * each of the rack's 18 NVLink switch chips, two chips per NVLink switch tray, 9 switch trays. The trays' OS does
     * not see these switches on PCI, so the plane is inferred from this layout when the links match it.
     */
    static final int NVL72_LINKS_PER_GPU = 18;
    static final int NVL72_GENERATION = 5;
    static final int NVL72_SWITCH_TRAYS = 9;
    static final int NVL72_CHIPS_PER_TRAY = 2;

    /** The drawing's model of {@code view}, each readable node's links from {@code links} (never null). */
    public static RackModel of(ClusterView view, Function<ClusterNode, NodeLinks> links) {
        List<Outside> outside = new ArrayList<>();
        List<Domain> domains = new ArrayList<>();
        Map<String, ClusterNode> nodes = new LinkedHashMap<>();
        view.readable().forEach(n -> nodes.put(n.name(), n));
        for (NvlinkDomain d : view.domains()) {
            if (!d.mnnvl()) {
                for (String name : d.nodes()) {
                    ClusterNode n = nodes.get(name);
                    outside.add(new Outside(tame(name), n == null ? "?" : gpuWords(n.summary()),
                            d.note() != null ? d.note() : "no multi-node NVLink fabric"));
                }
            } else {
                domains.add(domain(d, nodes, links));
            }
        }
        domains.sort(Comparator.comparing((Domain d) -> -d.trays().size()).thenComparing(Domain::clusterUuid));
        outside.sort(Comparator.comparing(Outside::name));
        return new RackModel(view.directory(), domains, outside);
    }

    private static Domain domain(NvlinkDomain domain, Map<String, ClusterNode> nodes, Function<ClusterNode, NodeLinks> linksOf) {
        NvlinkClique main = domain.mainClique();
        List<Long> others = domain.cliques().stream().map(NvlinkClique::cliqueId).filter(c -> !c.equals(main.cliqueId()))
                .sorted().toList();
        record Member(ClusterNode node, long clique, NodeLinks links) {
        }
        List<Member> members = new ArrayList<>();
        for (NvlinkClique d : domain.cliques()) {
            for (String name : d.nodes()) {
                ClusterNode n = nodes.get(name);
                if (n != null) {
                    members.add(new Member(n, d.cliqueId(), linksOf.apply(n)));
                }
            }
        }
        members.sort(Comparator.comparing(m -> m.node().name()));
        Bundle usual = majority(members.stream().map(m -> bundle(m.links().gpus())).toList());
        int usualGpus = majority(members.stream().map(m -> m.node().summary().gpus().size()).toList());
        // the fabric health most of the domain's GPUs report (null: none reads it): a tray differing from it is odd
        String usualHealth = majority(members.stream().flatMap(m -> m.node().summary().gpus().stream())
                .map(g -> g.fabric().healthSummary().orElse(null)).filter(java.util.Objects::nonNull).toList());
        List<Tray> trays = new ArrayList<>();
        for (Member m : members) {
            List<String> odd = oddness(m.node().summary(), m.links(), m.clique(), main, usual, usualGpus, usualHealth);
            trays.add(new Tray(tame(m.node().name()), m.clique(), m.links().gpus(), bundle(m.links().gpus()), odd,
                    m.links().note() == null ? null : tame(m.links().note())));
        }
        return new Domain(tame(domain.clusterUuid()), main.cliqueId(), tame(main.gfdLabel()), others, trays,
                switchPlane(members.stream().map(Member::links).toList()), usual);
    }

    static Bundle bundle(List<TrayLinks> gpus) {
        int up = gpus.stream().mapToInt(TrayLinks::up).sum();
        boolean known = gpus.stream().allMatch(g -> g.links() >= 0);
        int links = known ? gpus.stream().mapToInt(TrayLinks::links).sum() : -1;
        List<Double> rates = gpus.stream().filter(g -> g.up() > 0).map(TrayLinks::gbps).distinct().toList();
        Double gbps = rates.size() == 1 ? rates.get(0) : null;
        return new Bundle(up, links, gbps);
    }

    /** Why a tray differs from its domain, each in a few words; empty when it does not. */
    static List<String> oddness(NodeSummary s, NodeLinks links, long clique, NvlinkClique main, Bundle usual, int usualGpus,
                                String usualHealth) {
        List<String> out = new ArrayList<>();
        int down = links.gpus().stream().mapToInt(TrayLinks::down).sum();
        if (down > 0) {
            List<String> where = links.gpus().stream().filter(g -> g.down() > 0)
                    .map(g -> "GPU" + g.gpu() + " " + g.up() + "/" + g.links()).toList();
            out.add(down + (down == 1 ? " link" : " links") + " down (" + String.join(", ", where) + ")");
        } else {
            Bundle b = bundle(links.gpus());
            if (b.up() != usual.up()) {
                out.add(b.up() + " links up, the domain's trays " + usual.up());
            }
        }
        Bundle b = bundle(links.gpus());
        if (b.up() > 0 && usual.gbps() != null && b.gbps() != null && !b.gbps().equals(usual.gbps())) {
            out.add("links at " + number(b.gbps()) + " GB/s, the domain's at " + number(usual.gbps()));
        }
        if (s.gpus().size() != usualGpus) {
            out.add(s.gpus().size() + " GPUs, the domain's trays " + usualGpus);
        }
        addPerGpu(out, s, "fabric state", f -> f.state().orElse(null), FabricInfo.COMPLETED);
        if (usualHealth != null) {
            addPerGpu(out, s, "fabric health", f -> f.healthSummary().orElse(null), usualHealth);
        }
        if (clique != main.cliqueId()) {
            out.add("clique " + clique + ", not the domain's main clique " + main.cliqueId() + ": a partition of its own;"
                    + " no job spans both; GFD labels it " + NvlinkClique.GFD_CLIQUE_LABEL + "=" + main.clusterUuid() + "." + clique);
        }
        return out.stream().map(RackModel::tame).toList();
    }

    /**
     * "fabric state IN_PROGRESS (GPU1, GPU3)" for the GPUs whose value is read and is not {@code expected}: a domain's
     * GPUs are COMPLETED by definition, and health is held against what most of the domain's GPUs report (a domain whose
     * GPUs all answer NOT_SUPPORTED or all UNHEALTHY has no odd tray for it; {@code cluster show} names a problem every
     * node shares).
     */
    private static void addPerGpu(List<String> out, NodeSummary s, String what, Function<FabricInfo, String> value,
                                  String expected) {
        Map<String, List<String>> byValue = new TreeMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            GpuSummary g = s.gpus().get(i);
            String v = value.apply(g.fabric());
            if (v != null && !v.equals(expected)) {
                byValue.computeIfAbsent(v, k -> new ArrayList<>()).add("GPU" + i);
            }
        }
        byValue.forEach((v, gpus) -> out.add(what + " " + v + " (" + String.join(", ", gpus) + ")"));
    }

    static SwitchPlane switchPlane(List<NodeLinks> trays) {
        int seen = trays.stream().mapToInt(NodeLinks::switchesSeen).max().orElse(0);
        if (seen > 0) {
            return new SwitchPlane(seen, 0, false, seen + " NVSwitch" + (seen == 1 ? "" : "es") + " seen on PCI by the trays");
        }
        List<TrayLinks> gpus = trays.stream().flatMap(t -> t.gpus().stream()).filter(g -> g.toSwitch() >= 0).toList();
        if (gpus.isEmpty()) {
            return new SwitchPlane(-1, 0, true, "switch plane not known: no tray's per-link readings were read");
        }
        int toSwitch = majority(gpus.stream().map(TrayLinks::toSwitch).toList());
        int generation = majority(gpus.stream().map(TrayLinks::generation).toList());
        if (toSwitch == 0) {
            return new SwitchPlane(0, 0, true, "no GPU link reaches an NVSwitch");
        }
        if (toSwitch == NVL72_LINKS_PER_GPU && generation == NVL72_GENERATION) {
            return new SwitchPlane(NVL72_SWITCH_TRAYS, NVL72_CHIPS_PER_TRAY, true, "inferred: no tray sees its NVLink"
                    + " switches on PCI; 18 NVLink5 links per GPU reach the 18 switch chips of a GB200 NVL72, two per"
                    + " switch tray (GB200 NVL72 datasheet)");
        }
        return new SwitchPlane(-1, 0, true, "inferred from " + toSwitch + " links per GPU to NVSwitches no tray sees"
                + " on PCI; how many switch trays is not known for NVLink" + (generation == 0 ? "" : generation)
                + " with " + toSwitch + " switch links per GPU");
    }

    /** The value most of {@code values} have (the first seen among equals); null for none. */
    static <T> T majority(List<T> values) {
        Map<T, Integer> count = new LinkedHashMap<>();
        values.forEach(v -> count.merge(v, 1, Integer::sum));
        return count.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    static String gpuWords(NodeSummary s) {
        if (s.gpus().isEmpty()) {
            return "no GPUs";
        }
        java.util.Set<String> models = new java.util.TreeSet<>();
        s.gpus().forEach(g -> models.add(g.name().orElse("unknown GPU").replaceFirst("^NVIDIA ", "")));
        return tame(s.gpus().size() + " × " + String.join(" + ", models));
    }

    /** A string from a file, cut and with invisible characters shown. */
    static String tame(String s) {
        return s == null ? null : Escape.visible(Escape.fit(s, MAX_TEXT * 3), false);
    }

    static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v)
                .replaceAll("0+$", "");
    }

    /** Trays in all domains. */
    public int trays() {
        return domains.stream().mapToInt(d -> d.trays().size()).sum();
    }

    /** Cliques in all domains. */
    public int cliques() {
        return domains.stream().mapToInt(Domain::cliques).sum();
    }

    /** "1 NVLink domain": one per MNNVL cluster UUID, as {@code cluster show} counts them. */
    public String domainCount() {
        return Words.grouped(domains.size(), "NVLink domain");
    }

    /** Odd trays in all domains. */
    public int oddTrays() {
        return domains.stream().mapToInt(d -> d.odd().size()).sum();
    }

    /**
     * "1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays": what the drawing's title, the cluster page's
     * header, {@code cluster draw} and the HTML page say of it.
     */
    public String counts() {
        return domainCount() + " · " + Words.grouped(trays(), "tray") + " · "
                + Words.grouped(domains.stream().mapToInt(Domain::gpus).sum(), "GPU") + " · " + Words.grouped(cliques(), "clique")
                + " · " + Words.grouped(oddTrays(), "odd tray");
    }
}
