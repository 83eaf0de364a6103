package dev.fabricscope.app.viewmodel;

import dev.fabricscope.text.Words;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.Inconsistency;
import dev.fabricscope.cluster.NodeCheckSummary;
import dev.fabricscope.cluster.NvlinkClique;
import dev.fabricscope.cluster.NvlinkDomain;
import dev.fabricscope.render.ClusterText;
import dev.fabricscope.render.rack.RackModel;
import dev.fabricscope.usecase.DrawCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.HashMap;
import java.util.Set;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The cluster page's state: which nodes are listed (name filter, outliers only), grouped by NVLink domain, which
 * difference is highlighted on the node tiles, and which node was opened last; and the page's commands: open a node's
 * machine views, advise over the whole cluster. UI-thread state over the immutable {@link LoadedCluster} that the
 * {@link MainViewModel} has open; the grouping is linear in the node count.
 */
public final class ClusterViewModel {

    /**
     * Nodes listed together: one clique of a multi-node (MNNVL) NVLink domain (a domain of one clique is one group), or
     * all nodes that are each their own domain.
     *
     * @param cliqueId    the clique's id ({@code <ClusterUUID>.<CliqueId>}), or null for the single-node group
     * @param nodes       the nodes listed (after the filter), sorted by name
     * @param nodesInAll  the group's nodes before the filter
     * @param outliers    listed nodes that differ from the majority in some fact
     */
    public record Group(String cliqueId, String title, String detail, List<Tile> nodes, int nodesInAll, int gpus,
                        int outliers) {
        public boolean mnnvl() {
            return cliqueId != null;
        }
    }

    /** A node as its tile shows it: its name, its GPUs in a few words, its driver version, its report file. */
    public record Tile(String name, String gpus, String driver, String file) {
    }

    /**
     * A difference between nodes as the list shows it, most important ({@code rank}) first.
     *
     * @param title    what differs, and in which NVLink domain unless cluster-wide
     * @param badge    "1 node", "12 nodes" (the outliers) or "3 values" (no majority)
     * @param majority "Most nodes (17): 580.126.20" or "No majority: 3 different values"
     * @param others   the other values with their nodes, one per line (at most four, six names each)
     * @param warning  an environment variable (a warning) rather than a machine fact (an error)
     */
    public record Difference(int rank, String field, String title, String badge, String majority, String others,
                             List<String> outliers, boolean warning) {
    }

    /**
     * A node whose {@code check node} report failed, as {@code cluster show} words it.
     *
     * @param summary the check's summary line ({@code FAIL: 2 of 13 expectations failed (…)})
     * @param failed  each failed expectation, {@code FAIL GPU count: expected 8, measured 4}
     */
    public record FailedCheck(String node, String summary, List<String> failed) {
    }

    /** A node report that could not be read: the file, its name, and why. */
    public record Unreadable(String file, String fileName, String why) {
    }

    private final ObjectProperty<LoadedCluster> cluster = new SimpleObjectProperty<>(this, "cluster");
    private final StringProperty filter = new SimpleStringProperty(this, "filter", "");
    private final BooleanProperty outliersOnly = new SimpleBooleanProperty(this, "outliersOnly");
    private final ObjectProperty<Difference> highlighted = new SimpleObjectProperty<>(this, "highlighted");
    private final ReadOnlyObjectWrapper<List<Difference>> differences = new ReadOnlyObjectWrapper<>(this, "differences", List.of());
    private final Map<String, Tile> tiles = new HashMap<>();
    private final ReadOnlyObjectWrapper<List<Group>> groups = new ReadOnlyObjectWrapper<>(this, "groups", List.of());
    private final ReadOnlyIntegerWrapper listed = new ReadOnlyIntegerWrapper(this, "listed");
    private final ReadOnlyStringWrapper currentNode = new ReadOnlyStringWrapper(this, "currentNode");
    private final ReadOnlyStringWrapper nodeLine = new ReadOnlyStringWrapper(this, "nodeLine", "");
    private final ReadOnlyStringWrapper listedLine = new ReadOnlyStringWrapper(this, "listedLine", "");
    private final ReadOnlyObjectWrapper<List<FailedCheck>> failedChecks = new ReadOnlyObjectWrapper<>(this, "failedChecks", List.of());
    private final ReadOnlyStringWrapper nodeChecksLine = new ReadOnlyStringWrapper(this, "nodeChecksLine", "");
    private Set<String> failedNodes = Set.of();
    private Set<String> highlightedNodes = Set.of();
    private LoadedCluster shownCluster;
    private final MainViewModel main;
    private final AdvisorViewModel advisorVm;
    private final BooleanProperty drawingShown = new SimpleBooleanProperty(this, "drawingShown");
    private final ReadOnlyObjectWrapper<RackModel> drawing = new ReadOnlyObjectWrapper<>(this, "drawing");
    private final ReadOnlyStringWrapper drawingLine = new ReadOnlyStringWrapper(this, "drawingLine", "");
    private LoadedCluster drawn;
    private DrawingImageWriter drawingPng;

    /** Draws the cluster drawing into a PNG file (needs the UI toolkit, so the app supplies it). */
    public interface DrawingImageWriter {
        void write(dev.fabricscope.render.rack.RackScene scene, java.nio.file.Path file) throws java.io.IOException;
    }

    public ClusterViewModel(MainViewModel main, AdvisorViewModel advisorVm) {
        this.main = main;
        this.advisorVm = advisorVm;
        cluster.addListener((o, was, now) -> {
            highlighted.set(null);
            currentNode.set(null);
            differences.set(now == null ? List.of() : differences(now.view()));
            showNodeChecks(now);
        });
        // after the node checks, so that the tiles of the new groups know which nodes failed
        for (Observable o : List.of(cluster, filter, outliersOnly)) {
            o.addListener(x -> regroup());
        }
        highlighted.addListener((o, was, now) -> highlightedNodes = now == null ? Set.of() : new HashSet<>(now.outliers()));
        cluster.bind(main.clusterProperty());
        cluster.addListener((o, was, now) -> draw());
        drawingShown.addListener((o, was, now) -> draw());
        showNodeChecks(cluster.get());
        listedLine.bind(Bindings.createStringBinding(() -> cluster.get() == null ? "" : String.format(Locale.ROOT,
                "%,d of %,d nodes listed · click a node to open its fabric view", listed.get(), cluster.get().view().readable().size()),
                listed, cluster));
        nodeLine.bind(Bindings.createStringBinding(() -> nodeLine(main.getCluster(), main.getClusterNode()),
                main.clusterNodeProperty(), main.clusterProperty()));
    }

    /** The cluster the main view-model has open (bound to it). */
    public ReadOnlyObjectProperty<LoadedCluster> clusterProperty() { return cluster; }
    /** The node whose machine views were opened last from this page, or null. */
    public ReadOnlyStringProperty currentNodeProperty() { return currentNode.getReadOnlyProperty(); }
    /** While a node of the cluster is shown: which node, and where it differs from most nodes; else empty. */
    public ReadOnlyStringProperty nodeLineProperty() { return nodeLine.getReadOnlyProperty(); }
    /** Lists only nodes whose name contains this (any case). */
    public StringProperty filterProperty() { return filter; }
    /** Lists only nodes that differ from the majority in some fact. */
    public BooleanProperty outliersOnlyProperty() { return outliersOnly; }
    /** The difference whose outlier nodes are highlighted, or null. */
    public ObjectProperty<Difference> highlightedProperty() { return highlighted; }
    /** The differences between the nodes, most important first. */
    public ReadOnlyObjectProperty<List<Difference>> differencesProperty() { return differences.getReadOnlyProperty(); }
    public List<Difference> differences() { return differences.get(); }
    public ReadOnlyObjectProperty<List<Group>> groupsProperty() { return groups.getReadOnlyProperty(); }
    public List<Group> groups() { return groups.get(); }
    /** "20 of 21 nodes listed · click a node to open its fabric view"; empty without a cluster. */
    public ReadOnlyStringProperty listedLineProperty() { return listedLine.getReadOnlyProperty(); }
    /** How many nodes the groups list. */
    public ReadOnlyIntegerProperty listedProperty() { return listed.getReadOnlyProperty(); }

    /** The nodes whose {@code check node} report failed, in the cluster's order; empty when none failed. */
    public ReadOnlyObjectProperty<List<FailedCheck>> failedChecksProperty() { return failedChecks.getReadOnlyProperty(); }
    public List<FailedCheck> failedChecks() { return failedChecks.get(); }
    /**
     * "Node checks: 2 of 3 checked node(s) failed:" or "…all 3 checked node(s) passed."; empty when no node report
     * of the folder is a {@code check node} report.
     */
    public ReadOnlyStringProperty nodeChecksLineProperty() { return nodeChecksLine.getReadOnlyProperty(); }

    /** The page shows the drawing of the NVLink domains instead of the node tiles. */
    public BooleanProperty drawingShownProperty() { return drawingShown; }
    /** The drawing's model of the open cluster, once its node reports were read again for their links; else null. */
    public ReadOnlyObjectProperty<RackModel> drawingProperty() { return drawing.getReadOnlyProperty(); }
    /** "Reading 18 node reports for their links…", then what the drawing shows in a line; empty when not shown. */
    public ReadOnlyStringProperty drawingLineProperty() { return drawingLine.getReadOnlyProperty(); }

    /**
     * Reads the open cluster's drawing ({@link DrawCluster}: each node's report again, for its per-link readings) in
     * the background, once per cluster and only while the drawing is shown.
     */
    private void draw() {
        LoadedCluster c = cluster.get();
        if (!drawingShown.get() || c == drawn) {
            return;
        }
        drawn = c;
        drawing.set(null);
        if (c == null) {
            drawingLine.set("");
            return;
        }
        drawingLine.set(String.format(Locale.ROOT, "Reading %,d node reports for their links…", c.view().readable().size()));
        main.tasks().background(() -> {
            RackModel m;
            try {
                m = DrawCluster.model(c.view());
            } catch (RuntimeException e) {
                String why = "Cannot draw the cluster: " + e.getMessage();
                main.tasks().ui(() -> {
                    if (drawn == c) {
                        drawingLine.set(why);
                    }
                });
                return;
            }
            main.tasks().ui(() -> {
                if (drawn == c) {
                    drawing.set(m);
                    drawingLine.set(drawingSummary(m));
                }
            });
        });
    }

    /** How the app writes the drawing as PNG; without one, PNG export says it is not available. */
    public void setDrawingImageWriter(DrawingImageWriter w) {
        drawingPng = w;
    }

    /** A file name for the drawing: {@code cluster-<folder>-drawing.png}. */
    public String drawingFileName(boolean png) {
        LoadedCluster c = cluster.get();
        String name = c == null ? "cluster" : c.name().replaceAll("[^A-Za-z0-9._-]+", "_");
        return "cluster-" + name + "-drawing." + (png ? "png" : "svg");
    }

    /**
     * Writes the drawing shown to {@code target} as PNG (twice the size, crisp in documents) or SVG (as
     * {@code cluster draw} writes it), in {@code palette}; says on the status line what was written or why not.
     * Runs on the UI thread (a PNG is painted by the toolkit).
     */
    public void exportDrawing(java.nio.file.Path target, dev.fabricscope.render.fabric.FabricPalette palette, boolean png) {
        RackModel m = drawing.get();
        if (m == null) {
            main.report("No drawing to export yet: show the drawing first.");
            return;
        }
        var scene = dev.fabricscope.render.rack.RackLayout.layout(m, palette);
        try {
            if (png) {
                if (drawingPng == null) {
                    main.report("PNG export is not available here; export the drawing as SVG.");
                    return;
                }
                drawingPng.write(scene, target);
            } else {
                dev.fabricscope.io.OutputFile.write(target, dev.fabricscope.render.rack.RackSvg.render(scene));
            }
            main.report("Saved the cluster drawing to " + target);
        } catch (java.io.IOException e) {
            main.report("Cannot write " + target + ": " + dev.fabricscope.io.OutputFile.reason(e));
        }
    }

    /**
     * "1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays (rack1-tray07, rack1-tray12) · 0 nodes outside any
     * domain", the words of the drawing's title ({@link RackModel#counts}).
     */
    static String drawingSummary(RackModel m) {
        List<String> odd = m.domains().stream().flatMap(d -> d.odd().stream()).map(RackModel.Tray::name).toList();
        return m.counts() + (odd.isEmpty() ? "" : " (" + names(odd, 6) + ")")
                + " · " + Words.grouped(m.outside().size(), "node") + " outside any domain";
    }

    /** Whether {@code node}'s {@code check node} report failed. */
    public boolean checkFailed(String node) {
        return failedNodes.contains(node);
    }

    /** Whether {@code node} is an outlier of the highlighted difference. */
    public boolean isHighlighted(String node) {
        return highlightedNodes.contains(node);
    }

    /** The first listed node among the highlighted difference's outliers, or null. */
    public String firstHighlighted() {
        for (Group g : groups.get()) {
            for (Tile n : g.nodes()) {
                if (highlightedNodes.contains(n.name())) {
                    return n.name();
                }
            }
        }
        return null;
    }

    // ---- Commands

    /** Opens a node of the cluster on its Fabric tab. */
    public void openNode(String name) {
        currentNode.set(name);
        main.openClusterNode(name, () -> main.showTab(MainViewModel.MachineTab.FABRIC));
    }

    /**
     * The Advisor tab for a deployment over every readable node of the cluster, as {@code advise --cluster} does: the
     * representative node's GPUs, the node count, and the cluster-wide facts (shared MNNVL domain, multicast and
     * fabric handles on every node) as what-if assumptions, shown in the deployment panel.
     */
    public void adviseCluster() {
        LoadedCluster c = main.getCluster();
        if (c == null || c.facts() == null) {
            return;
        }
        var facts = c.facts();
        currentNode.set(facts.representative().name());
        main.openClusterNode(facts.representative().name(), () -> {
            advisorVm.showCluster(facts);
            main.showTab(MainViewModel.MachineTab.ADVISOR);
            main.report("Advising over " + facts.nodesUsed() + " nodes of cluster " + c.name() + ": " + facts.summary());
        });
    }

    private void showNodeChecks(LoadedCluster c) {
        if (c == null || c.view().nodeChecks().isEmpty()) {
            failedChecks.set(List.of());
            failedNodes = Set.of();
            nodeChecksLine.set("");
            return;
        }
        List<NodeCheckSummary> failed = c.view().failedChecks();
        failedChecks.set(failed.stream().map(f -> new FailedCheck(f.node(), f.summary(),
                f.failed().stream().map(ClusterText::failedExpectation).toList())).toList());
        failedNodes = failed.stream().map(NodeCheckSummary::node).collect(java.util.stream.Collectors.toUnmodifiableSet());
        nodeChecksLine.set(ClusterText.nodeChecksHeadline(failed.size(), c.view().nodeChecks().size()));
    }

    private static String nodeLine(LoadedCluster c, String node) {
        if (c == null || node == null) {
            return "";
        }
        var diffs = c.differences(node);
        return "Node " + node + " of cluster " + c.name() + (diffs.isEmpty() ? " · matches the majority of nodes"
                : " · differs from most nodes in " + diffs.stream().map(d -> d.inconsistency().field())
                        .collect(java.util.stream.Collectors.joining(", ")));
    }

    private void regroup() {
        LoadedCluster c = cluster.get();
        if (c == null) {
            groups.set(List.of());
            listed.set(0);
            return;
        }
        String f = filter.get() == null ? "" : filter.get().strip().toLowerCase(Locale.ROOT);
        boolean onlyOutliers = outliersOnly.get();
        List<Group> out = new ArrayList<>();
        if (c != shownCluster) {
            tiles.clear();
            shownCluster = c;
        }
        List<Tile> singles = new ArrayList<>();
        List<String> disagreeing = new ArrayList<>();
        int singlesInAll = 0;
        int singleGpus = 0;
        int n = 0;
        int mnnvlIndex = 0;
        for (NvlinkDomain d : c.view().domains()) {
            if (d.mnnvl()) {
                // one group per clique of the domain: a clique is what a multi-node job can span
                mnnvlIndex++;
                for (NvlinkClique q : d.cliques()) {
                    List<Tile> shown = shown(c, q.nodes(), f, onlyOutliers);
                    if (!shown.isEmpty()) {
                        out.add(new Group(q.id(), cliqueTitle(d, q, mnnvlIndex), q.gfdLabel() + " · "
                                        + Words.grouped(q.nodes().size(), "node") + " · " + Words.grouped(q.gpus(), "GPU"),
                                List.copyOf(shown), q.nodes().size(), q.gpus(), outliers(c, shown)));
                        n += shown.size();
                    }
                }
            } else {
                List<Tile> shown = shown(c, d.nodes(), f, onlyOutliers);
                singles.addAll(shown);
                singlesInAll += d.nodes().size();
                singleGpus += d.gpus();
                if (d.note() != null) {
                    disagreeing.add(String.join(", ", d.nodes()));
                }
            }
        }
        if (!singles.isEmpty()) {
            singles.sort(java.util.Comparator.comparing(Tile::name));
            out.add(new Group(null, "Single-node NVLink domains",
                    "no multi-node NVLink fabric: each node is an NVLink domain of its own · "
                            + Words.grouped(singlesInAll, "node") + " · " + Words.grouped(singleGpus, "GPU")
                            + (disagreeing.isEmpty() ? "" : " · (!) GPUs disagree on their NVLink domain, so GPU Feature "
                            + "Discovery labels no clique: " + names(disagreeing, 6)),
                    List.copyOf(singles), singlesInAll, singleGpus, outliers(c, singles)));
            n += singles.size();
        }
        groups.set(List.copyOf(out));
        listed.set(n);
    }

    /** The tiles of {@code names} the filter lets through. */
    private List<Tile> shown(LoadedCluster c, List<String> names, String filter, boolean onlyOutliers) {
        List<Tile> shown = new ArrayList<>();
        for (String name : names) {
            ClusterNode node = c.node(name);
            if (node != null && (filter.isEmpty() || name.toLowerCase(Locale.ROOT).contains(filter))
                    && (!onlyOutliers || !c.differences(name).isEmpty())) {
                shown.add(tiles.computeIfAbsent(name, k -> tile(node)));
            }
        }
        return shown;
    }

    /**
     * "NVLink domain 1 · multi-node NVLink (MNNVL)" for a domain of one clique, else "NVLink domain 1 · main clique 32766
     * of 2" and "NVLink domain 1 · clique 32767, a partition of its own (no job spans it and the main clique)".
     */
    static String cliqueTitle(NvlinkDomain d, NvlinkClique q, int number) {
        String domain = "NVLink domain " + number + " · ";
        if (d.cliques().size() == 1) {
            return domain + "multi-node NVLink (MNNVL)";
        }
        return domain + (q == d.mainClique() ? "main clique " + q.cliqueId() + " of " + d.cliques().size()
                : "clique " + q.cliqueId() + ", a partition of its own (no job spans it and the main clique)");
    }

    private static Tile tile(ClusterNode n) {
        return new Tile(n.name(), gpuLine(n.summary()), n.summary().driver().driverVersion().shortDisplay(), n.file());
    }

    /** The files of the cluster that could not be read, and why. */
    public List<Unreadable> unreadable() {
        LoadedCluster c = cluster.get();
        return c == null ? List.of() : c.view().unreadable().stream().map(n -> {
            java.nio.file.Path p = java.nio.file.Path.of(n.file());
            return new Unreadable(n.file(), p.getFileName() == null ? n.file() : p.getFileName().toString(), n.error());
        }).toList();
    }

    /** What the advisor makes of the cluster (without the folder), or why it cannot advise; empty without a cluster. */
    public String factsLine() {
        LoadedCluster c = cluster.get();
        if (c == null) {
            return "";
        }
        if (c.facts() == null) {
            return c.factsProblem();
        }
        String prefix = c.dir() + ": ";
        String s = c.facts().summary();
        return "Advisor view of the cluster: " + (s.startsWith(prefix) ? s.substring(prefix.length()) : s);
    }

    /** What "Advise for this cluster…" would do, or null when it cannot (no readable node). */
    public String adviseHint() {
        LoadedCluster c = cluster.get();
        if (c == null || c.facts() == null) {
            return null;
        }
        return "Opens the Advisor tab for a deployment over all " + c.facts().nodesUsed() + " nodes: GPUs as on "
                + c.facts().representative().name() + ", with " + c.facts().assumptions().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * The list beside the tiles: first the problems each node's own data shows (also where every node shares them, so
     * no difference would show them; as {@code cluster show} words them), then what differs between nodes.
     */
    static List<Difference> differences(dev.fabricscope.cluster.ClusterView v) {
        List<Difference> out = new ArrayList<>();
        for (dev.fabricscope.cluster.NodeProblem p : v.problems()) {
            out.add(problem(p));
        }
        v.inconsistencies().stream().map(ClusterViewModel::difference).forEach(out::add);
        return List.copyOf(out);
    }

    static Difference problem(dev.fabricscope.cluster.NodeProblem p) {
        String badge = p.everyNode() ? "every node" : p.nodes().size() == 1 ? "1 node" : String.format(Locale.ROOT, "%,d nodes", p.nodes().size());
        String where = dev.fabricscope.render.ClusterText.where(p);
        return new Difference(-1, p.code(), p.message(), badge, p.severity() + " in each node's own data: " + where
                + (p.everyNode() ? " (the nodes agree, so no difference shows it)" : ""),
                p.everyNode() ? "" : names(p.nodes(), 6), p.nodes(), p.severity() != dev.fabricscope.model.Finding.Severity.ERROR);
    }

    static Difference difference(Inconsistency d) {
        boolean env = d.field().startsWith("environment ");
        String badge = !d.hasMajority() ? d.byValue().size() + " values"
                : d.outliers().size() == 1 ? "1 node" : String.format(Locale.ROOT, "%,d nodes", d.outliers().size());
        String title = d.field() + ("cluster".equals(d.scope()) ? "" : " (in " + d.scope() + ")");
        int most = d.byValue().getOrDefault(d.majority(), List.of()).size();
        String majority = d.hasMajority() ? "Most nodes (" + most + "): " + d.majority()
                : "No majority: " + d.byValue().size() + " different values";
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (Map.Entry<String, List<String>> e : d.byValue().entrySet()) {
            if (e.getKey().equals(d.majority())) {
                continue;
            }
            if (shown == 4) {
                sb.append("\n… and ").append(d.byValue().size() - 1 - shown).append(" more values");
                break;
            }
            sb.append(shown == 0 ? "" : "\n").append(e.getKey()).append(": ").append(names(e.getValue(), 6));
            shown++;
        }
        return new Difference(d.rank(), d.field(), title, badge, majority, sb.toString(), d.outliers(), env);
    }

    static String names(List<String> names, int max) {
        return names.size() <= max ? String.join(", ", names)
                : String.join(", ", names.subList(0, max)) + ", … (" + names.size() + " in all)";
    }

    private static int outliers(LoadedCluster c, List<Tile> nodes) {
        return (int) nodes.stream().filter(x -> !c.differences(x.name()).isEmpty()).count();
    }

    /** "4 × GB200" or "8 × H100 80GB HBM3": a node's GPUs in a few words; "no GPUs" when it has none. */
    public static String gpuLine(dev.fabricscope.cluster.NodeSummary s) {
        if (s.gpus().isEmpty()) {
            return "no GPUs";
        }
        Set<String> models = new java.util.TreeSet<>();
        s.gpus().forEach(g -> models.add(g.name().orElse("unknown GPU").replaceFirst("^NVIDIA ", "")));
        return s.gpus().size() + " × " + String.join(" + ", models);
    }
}
