package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.ClusterViewModel.Difference;
import dev.fabricscope.app.viewmodel.ClusterViewModel.FailedCheck;
import dev.fabricscope.app.viewmodel.ClusterViewModel.Group;
import dev.fabricscope.app.viewmodel.ClusterViewModel.Tile;
import dev.fabricscope.app.viewmodel.ClusterViewModel.Unreadable;
import dev.fabricscope.app.viewmodel.LoadedCluster;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * The cluster page: a header (folder, counts), a toolbar (name filter, outliers only, advise for the cluster), the
 * nodes as tiles grouped by NVLink domain, and beside them the differences between nodes (most important first;
 * selecting one highlights its outlier nodes) and the files that could not be read. Above the tiles, the nodes whose
 * {@code check node} report failed, each with its failed expectations, as {@code cluster show} lists them.
 *
 * <p>Scales to thousands of nodes: the tiles live in a virtualised {@link ListView} whose rows are domain headers
 * and rows of tiles; only the rows on screen exist as scene-graph nodes, and cells reuse their tiles.
 */
public final class ClusterPage extends BorderPane {

    /** Tiles are at least this wide, and share the rest of a row's width. */
    static final double TILE_MIN_WIDTH = 216;
    static final double TILE_GAP = 8;
    /** The list cell's left and right padding plus room for the vertical scroll bar. */
    static final double ROW_INSETS = 28 + 16;

    /** A row of the tile list: a domain header, or up to {@code perRow} node tiles. */
    sealed interface Row permits Header, Tiles {
    }

    record Header(Group group) implements Row {
    }

    record Tiles(List<Tile> nodes) implements Row {
    }

    private final ClusterViewModel vm;
    private final ListView<Row> grid = new ListView<>();
    private final ListView<Difference> differences = new ListView<>();
    private final ListView<Unreadable> unreadable = new ListView<>();
    private final Label title = new Label();
    private final Label path = new Label();
    private final Label counts = new Label();
    private final Label factsLine = new Label();
    private final Label differencesTitle = new Label();
    private final Label unreadableTitle = new Label();
    private final VBox unreadableBox;
    private final Label nodeChecksTitle = new Label();
    private final VBox nodeChecksBox = new VBox(4);
    private final Button advise = new Button("Advise for this cluster…");
    private final RackCanvas drawing = new RackCanvas();
    private final Label drawingLine = new Label();
    private final VBox drawingBox;
    private final SplitPane split;
    private dev.fabricscope.render.fabric.FabricPalette palette = dev.fabricscope.render.fabric.FabricPalette.LIGHT;
    private java.util.function.Consumer<Boolean> onExportDrawing = png -> { };
    private int perRow = -1;
    private double tileWidth = TILE_MIN_WIDTH;

    public ClusterPage(ClusterViewModel vm) {
        this.vm = vm;
        getStyleClass().add("cluster-page");
        setId("clusterPage");

        title.getStyleClass().add("title-3");
        title.setId("clusterTitle");
        path.getStyleClass().add("text-muted");
        path.setTextOverrun(OverrunStyle.LEADING_ELLIPSIS);
        counts.setId("clusterCounts");
        counts.getStyleClass().add("cluster-counts");
        factsLine.getStyleClass().add("text-muted");
        factsLine.setWrapText(true);
        factsLine.setMinHeight(Region.USE_PREF_SIZE);
        HBox titleRow = new HBox(12, title, path);
        titleRow.setAlignment(Pos.BASELINE_LEFT);
        HBox.setHgrow(path, Priority.ALWAYS);
        VBox header = new VBox(4, titleRow, counts, factsLine, toolbar());
        header.setPadding(new Insets(14, 18, 8, 18));
        header.getStyleClass().add("cluster-header");
        setTop(header);

        grid.setId("clusterGrid");
        grid.getStyleClass().addAll("cluster-grid", "edge-to-edge");
        grid.setFocusTraversable(false);
        grid.setCellFactory(l -> new RowCell());
        grid.setPlaceholder(new Label("No node matches the filter."));
        grid.widthProperty().addListener((o, was, w) -> relayout(false));

        differences.setId("differencesList");
        differences.getStyleClass().add("differences-list");
        differences.setCellFactory(l -> new DifferenceCell(l));
        Label noDiff = new Label("No differences between nodes in driver, CUDA, GPUs, NVLink, fabric, MIG, multicast, NCCL or environment.");
        noDiff.setWrapText(true);
        noDiff.getStyleClass().add("text-muted");
        noDiff.setPadding(new Insets(12));
        differences.setPlaceholder(noDiff);
        differences.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> vm.highlightedProperty().set(now));
        vm.highlightedProperty().addListener((o, was, now) -> {
            if (now == null) {
                differences.getSelectionModel().clearSelection();
            }
            grid.refresh();
            scrollTo(vm.firstHighlighted());
        });
        differencesTitle.getStyleClass().addAll("title-4", "section-title");
        differencesTitle.setWrapText(true); // "Problems (1) and differences (3)" whole in a narrow side pane
        differencesTitle.setMinHeight(Region.USE_PREF_SIZE);
        differencesTitle.setMinWidth(0);
        HBox.setHgrow(differencesTitle, Priority.ALWAYS);
        Hyperlink clear = new Hyperlink("Clear highlight");
        clear.setId("clearHighlight");
        clear.setMinWidth(Region.USE_PREF_SIZE);
        clear.visibleProperty().bind(vm.highlightedProperty().isNotNull());
        clear.setOnAction(e -> vm.highlightedProperty().set(null));
        Label diffHint = new Label("Problems first, then differences. Select one to highlight.");
        diffHint.getStyleClass().add("text-muted");
        diffHint.setWrapText(true);
        diffHint.setMinHeight(Region.USE_PREF_SIZE);
        HBox diffTitleRow = new HBox(8, differencesTitle, clear);
        diffTitleRow.setAlignment(Pos.BASELINE_LEFT);
        VBox diffBox = new VBox(4, diffTitleRow, diffHint, differences);
        VBox.setVgrow(differences, Priority.ALWAYS);

        unreadable.setId("unreadableList");
        unreadable.setCellFactory(l -> new UnreadableCell(l));
        unreadable.setPrefHeight(150);
        unreadableTitle.getStyleClass().addAll("title-4", "section-title");
        unreadableBox = new VBox(4, unreadableTitle, unreadable);
        unreadableBox.managedProperty().bind(unreadableBox.visibleProperty());

        VBox side = new VBox(8, diffBox, unreadableBox);
        VBox.setVgrow(diffBox, Priority.ALWAYS);
        side.setPadding(new Insets(0, 12, 10, 12));
        side.getStyleClass().add("cluster-side");
        side.setMinWidth(260);

        drawingLine.setId("drawingLine");
        drawingLine.getStyleClass().add("text-muted");
        drawingLine.setWrapText(true);
        drawingLine.setMinHeight(Region.USE_PREF_SIZE);
        drawingLine.setPadding(new Insets(4, 8, 4, 8));
        SafeText.bind(drawingLine.textProperty(), vm.drawingLineProperty());
        javafx.scene.control.MenuItem asPng = new javafx.scene.control.MenuItem("as PNG…");
        asPng.setOnAction(e -> onExportDrawing.accept(true));
        javafx.scene.control.MenuItem asSvg = new javafx.scene.control.MenuItem("as SVG…");
        asSvg.setOnAction(e -> onExportDrawing.accept(false));
        javafx.scene.control.MenuButton export = new javafx.scene.control.MenuButton("Export drawing", null, asPng, asSvg);
        export.setId("exportDrawing");
        export.disableProperty().bind(vm.drawingProperty().isNull());
        export.setMinWidth(Region.USE_PREF_SIZE);
        HBox.setHgrow(drawingLine, Priority.ALWAYS);
        drawingLine.setMaxWidth(Double.MAX_VALUE);
        HBox drawingBar = new HBox(8, drawingLine, export);
        drawingBar.setAlignment(Pos.CENTER_LEFT);
        drawingBar.setPadding(new Insets(2, 8, 2, 0));
        drawingBox = new VBox(drawingBar, drawing);
        VBox.setVgrow(drawing, Priority.ALWAYS);
        vm.drawingProperty().addListener((o, was, now) -> repaint());
        split = new SplitPane(grid, side);
        split.setDividerPositions(0.66);
        SplitPane.setResizableWithParent(side, false);
        nodeChecksTitle.setId("nodeChecksTitle");
        nodeChecksTitle.getStyleClass().addAll("title-4", "node-checks-title");
        nodeChecksTitle.setWrapText(true);
        nodeChecksTitle.setMinHeight(Region.USE_PREF_SIZE);
        nodeChecksBox.setId("nodeChecks");
        nodeChecksBox.getStyleClass().add("node-checks");
        nodeChecksBox.setPadding(new Insets(8, 18, 10, 18));
        nodeChecksBox.managedProperty().bind(nodeChecksBox.visibleProperty());
        nodeChecksBox.setVisible(false);
        VBox center = new VBox(nodeChecksBox, split);
        VBox.setVgrow(split, Priority.ALWAYS);
        setCenter(center);
        vm.failedChecksProperty().addListener((o, was, now) -> showNodeChecks());
        vm.nodeChecksLineProperty().addListener((o, was, now) -> showNodeChecks());
        showNodeChecks();

        vm.drawingShownProperty().addListener((o, was, now) -> showDrawing(now));
        showDrawing(vm.drawingShownProperty().get());
        vm.groupsProperty().addListener((o, was, now) -> relayout(true));
        vm.clusterProperty().addListener((o, was, now) -> show(now));
        show(vm.clusterProperty().get());
        advise.setOnAction(e -> vm.adviseCluster());
        vm.currentNodeProperty().addListener((o, was, node) -> {
            // marks the node whose machine views were opened last, and scrolls to it
            grid.refresh();
            if (node != null) {
                scrollTo(node);
            }
        });
    }

    private HBox toolbar() {
        TextField filter = new TextField();
        filter.setId("clusterFilter");
        filter.setPromptText("Filter nodes by name");
        filter.setPrefColumnCount(18);
        filter.textProperty().bindBidirectional(vm.filterProperty());
        ToggleButton outliers = new ToggleButton("Outliers only");
        outliers.setId("outliersOnly");
        outliers.setTooltip(new Tooltip("List only the nodes that differ from the majority in some fact"));
        outliers.selectedProperty().bindBidirectional(vm.outliersOnlyProperty());
        Label listed = new Label();
        listed.setId("clusterListed");
        listed.getStyleClass().add("text-muted");
        SafeText.bind(listed.textProperty(), vm.listedLineProperty());
        advise.setId("adviseCluster");
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        outliers.setMinWidth(Region.USE_PREF_SIZE);
        advise.setMinWidth(Region.USE_PREF_SIZE);
        // a narrow window puts the count on a line of its own rather than cutting it or the buttons
        listed.setWrapText(true);
        listed.setMinHeight(Region.USE_PREF_SIZE);
        listed.setMinWidth(0);
        HBox.setHgrow(listed, Priority.SOMETIMES);
        ToggleButton draw = new ToggleButton("Drawing");
        draw.setId("showDrawing");
        draw.setTooltip(new Tooltip("Draw each NVLink domain: its trays, their links to the switch plane, the odd trays"
                + " (as fabricscope cluster draw)"));
        draw.selectedProperty().bindBidirectional(vm.drawingShownProperty());
        draw.setMinWidth(Region.USE_PREF_SIZE);
        HBox bar = new HBox(8, filter, outliers, draw, listed, spacer, advise);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 0, 0, 0));
        return bar;
    }

    /** The drawing in place of the node tiles, or the tiles again. */
    private void showDrawing(boolean on) {
        javafx.scene.Node want = on ? drawingBox : grid;
        if (split.getItems().get(0) != want) {
            double[] dividers = split.getDividerPositions();
            split.getItems().set(0, want);
            split.setDividerPositions(dividers);
        }
    }

    /** Colours of the drawing (the app's light or dark theme). */
    public void setPalette(dev.fabricscope.render.fabric.FabricPalette p) {
        palette = p;
        repaint();
    }

    private void repaint() {
        dev.fabricscope.render.rack.RackModel m = vm.drawingProperty().get();
        drawing.show(m == null ? null : dev.fabricscope.render.rack.RackLayout.layout(m, palette));
    }

    /** What "Export drawing" does: asks where and writes the drawing, as PNG ({@code true}) or SVG. */
    public void setOnExportDrawing(java.util.function.Consumer<Boolean> action) {
        onExportDrawing = action;
    }

    public RackCanvas drawing() {
        return drawing;
    }

    /** Takes the keyboard focus for the page itself (no tile looks selected; Tab leads to the filter). */
    public void takeFocus() {
        requestFocus();
    }

    public ListView<Row> grid() {
        return grid;
    }

    public ListView<Difference> differences() {
        return differences;
    }

    public ListView<Unreadable> unreadable() {
        return unreadable;
    }

    private void show(LoadedCluster c) {
        if (c == null) {
            title.setText("No cluster open");
            path.setText("");
            counts.setText("");
            factsLine.setText("");
            differences.getItems().clear();
            unreadable.getItems().clear();
            unreadableBox.setVisible(false);
            advise.setDisable(true);
            return;
        }
        title.setText("Cluster " + c.name());
        path.setText(c.dir().toString());
        counts.setText(c.summary());
        factsLine.setText(vm.factsLine());
        String hint = vm.adviseHint();
        advise.setDisable(hint == null);
        advise.setTooltip(hint == null ? null : new Tooltip(hint));
        long problems = vm.differences().stream().filter(d -> d.rank() < 0).count();
        differencesTitle.setText((problems > 0 ? "Problems (" + problems + ") and differences (" + (vm.differences().size() - problems)
                : "Differences between nodes (" + vm.differences().size()) + ")");
        differences.getItems().setAll(vm.differences());
        List<Unreadable> bad = vm.unreadable();
        unreadable.getItems().setAll(bad);
        unreadableTitle.setText("Unreadable files (" + bad.size() + ")");
        unreadableBox.setVisible(!bad.isEmpty());
        relayout(true);
    }

    /** Most failed nodes listed above the tiles; the rest are counted ({@code cluster show} lists them all). */
    static final int FAILED_NODES_SHOWN = 4;

    /** The node checks' headline and, under it, each failed node with its failed expectations; hidden without checks. */
    private void showNodeChecks() {
        String headline = vm.nodeChecksLineProperty().get();
        List<FailedCheck> failed = vm.failedChecks();
        nodeChecksBox.setVisible(!headline.isEmpty());
        nodeChecksBox.getStyleClass().remove("node-checks-failed");
        if (!failed.isEmpty()) {
            nodeChecksBox.getStyleClass().add("node-checks-failed");
        }
        nodeChecksTitle.setText(SafeText.shown(headline));
        List<javafx.scene.Node> rows = new ArrayList<>();
        rows.add(nodeChecksTitle);
        for (FailedCheck f : failed.subList(0, Math.min(failed.size(), FAILED_NODES_SHOWN))) {
            Label node = new Label(SafeText.shown(f.node() + ": " + f.summary()));
            node.getStyleClass().add("node-check-node");
            node.setWrapText(true);
            node.setMinHeight(Region.USE_PREF_SIZE);
            Label expectations = new Label(SafeText.shown(String.join("\n", f.failed())));
            expectations.getStyleClass().add("node-check-expectations");
            expectations.setWrapText(true);
            expectations.setMinHeight(Region.USE_PREF_SIZE);
            expectations.managedProperty().bind(expectations.visibleProperty());
            expectations.setVisible(!f.failed().isEmpty());
            expectations.setPadding(new Insets(0, 0, 0, 16));
            rows.add(node);
            rows.add(expectations);
        }
        if (failed.size() > FAILED_NODES_SHOWN) {
            Label more = new Label("… and " + (failed.size() - FAILED_NODES_SHOWN)
                    + " more failed node(s); their tiles are marked, and fabricscope cluster show lists them all.");
            more.getStyleClass().add("text-muted");
            more.setWrapText(true);
            more.setMinHeight(Region.USE_PREF_SIZE);
            rows.add(more);
        }
        nodeChecksBox.getChildren().setAll(rows);
    }

    /** Rebuilds the rows when the groups change or when the width fits another number of tiles per row. */
    private void relayout(boolean groupsChanged) {
        double room = grid.getWidth() - ROW_INSETS;
        int fits = room <= 0 ? 4 : Math.max(1, (int) ((room + TILE_GAP) / (TILE_MIN_WIDTH + TILE_GAP)));
        double width = room <= 0 ? TILE_MIN_WIDTH : Math.max(TILE_MIN_WIDTH, Math.floor((room - TILE_GAP * (fits - 1)) / fits));
        if (width != tileWidth) {
            tileWidth = width;
            grid.refresh();
        }
        if (!groupsChanged && fits == perRow) {
            return;
        }
        perRow = fits;
        List<Row> rows = new ArrayList<>();
        for (Group g : vm.groups()) {
            rows.add(new Header(g));
            List<Tile> nodes = g.nodes();
            for (int i = 0; i < nodes.size(); i += perRow) {
                rows.add(new Tiles(nodes.subList(i, Math.min(nodes.size(), i + perRow))));
            }
        }
        grid.getItems().setAll(rows);
    }

    private void scrollTo(String node) {
        if (node == null) {
            return;
        }
        List<Row> rows = grid.getItems();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i) instanceof Tiles t && t.nodes().stream().anyMatch(n -> n.name().equals(node))) {
                int row = i;
                // the header above the first row of a group stays in view
                grid.scrollTo(row > 0 && rows.get(row - 1) instanceof Header ? row - 1 : row);
                return;
            }
        }
    }

    // ---- cells

    /** A domain header or a row of tiles; keeps its tiles between uses. */
    private final class RowCell extends ListCell<Row> {
        private final Label groupTitle = new Label();
        private final Label groupDetail = new Label();
        private final Label groupBadge = new Label();
        private final VBox headerBox;
        private final HBox tileBox = new HBox(TILE_GAP);
        private final List<NodeTile> tiles = new ArrayList<>();

        RowCell() {
            getStyleClass().add("cluster-row");
            groupTitle.getStyleClass().add("domain-title");
            groupDetail.getStyleClass().addAll("text-muted", "domain-detail");
            groupBadge.getStyleClass().addAll("badge", "badge-error");
            groupBadge.managedProperty().bind(groupBadge.visibleProperty());
            HBox top = new HBox(10, groupTitle, groupBadge);
            top.setAlignment(Pos.CENTER_LEFT);
            headerBox = new VBox(2, top, groupDetail);
            headerBox.getStyleClass().add("domain-header");
            // the domain's label and counts wrap within the list's width instead of running off to its right
            groupDetail.setWrapText(true);
            groupDetail.setMinHeight(Region.USE_PREF_SIZE);
            headerBox.setMinWidth(0);
            headerBox.prefWidthProperty().bind(widthProperty().subtract(24));
            headerBox.maxWidthProperty().bind(widthProperty().subtract(24));
            tileBox.getStyleClass().add("tile-row");
        }

        @Override
        protected void updateItem(Row row, boolean empty) {
            super.updateItem(row, empty);
            setText(null);
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            if (row instanceof Header h) {
                Group g = h.group();
                groupTitle.setText(g.title());
                groupDetail.setText(g.detail() + (g.nodes().size() < g.nodesInAll()
                        ? " · " + g.nodes().size() + " listed" : ""));
                groupBadge.setText(g.outliers() == 1 ? "1 outlier" : g.outliers() + " outliers");
                groupBadge.setVisible(g.outliers() > 0);
                setGraphic(headerBox);
            } else if (row instanceof Tiles t) {
                LoadedCluster c = vm.clusterProperty().get();
                while (tiles.size() < t.nodes().size()) {
                    NodeTile tile = new NodeTile();
                    tiles.add(tile);
                }
                tileBox.getChildren().setAll(tiles.subList(0, t.nodes().size()));
                for (int i = 0; i < t.nodes().size(); i++) {
                    Tile n = t.nodes().get(i);
                    tiles.get(i).show(n, c.differences(n.name()), vm.isHighlighted(n.name()), n.name().equals(vm.currentNodeProperty().get()));
                }
                setGraphic(tileBox);
            }
        }
    }

    /** One node: its name, its GPUs (or how it differs), a badge with its number of differences. */
    private final class NodeTile extends Button {
        private final Label name = new Label();
        private final Label line = new Label();
        private final Label badge = new Label();
        private final Tooltip tip = new Tooltip();
        private String node;

        NodeTile() {
            getStyleClass().add("node-tile");
            name.getStyleClass().add("node-name");
            line.getStyleClass().add("node-line");
            // a long difference ("GPU models: NVIDIA H100 80GB HBM3") wraps in the tile instead of being cut short
            line.setWrapText(true);
            line.setMinHeight(Region.USE_PREF_SIZE);
            badge.getStyleClass().addAll("badge", "badge-error", "node-badge");
            badge.managedProperty().bind(badge.visibleProperty());
            Region spacer = new Region();
            HBox.setHgrow(spacer, Priority.ALWAYS);
            HBox top = new HBox(6, name, spacer, badge);
            top.setAlignment(Pos.CENTER_LEFT);
            VBox box = new VBox(2, top, line);
            box.setMinWidth(0);
            setGraphic(box);
            setAlignment(Pos.CENTER_LEFT);
            tip.setShowDelay(Duration.millis(400));
            tip.setShowDuration(Duration.seconds(30));
            setTooltip(tip);
            setOnAction(e -> {
                if (node != null) {
                    vm.openNode(node);
                }
            });
        }

        void show(Tile n, List<LoadedCluster.Difference> diffs, boolean highlighted, boolean current) {
            node = n.name();
            setMinWidth(tileWidth);
            setPrefWidth(tileWidth);
            setMaxWidth(tileWidth);
            setId("node-" + n.name());
            name.setText(n.name());
            String gpus = n.gpus();
            boolean checkFailed = vm.checkFailed(n.name());
            if (checkFailed) {
                line.setText("node check failed");
            } else if (diffs.isEmpty()) {
                line.setText(gpus);
            } else {
                LoadedCluster.Difference d = diffs.get(0);
                line.setText(d.field() + ": " + d.value());
            }
            badge.setText(String.valueOf(diffs.size()));
            badge.setVisible(!diffs.isEmpty());
            toggle("node-outlier", !diffs.isEmpty());
            toggle("node-highlight", highlighted);
            toggle("node-current", current);
            toggle("node-check-failed", checkFailed);
            StringBuilder t = new StringBuilder(n.name()).append('\n').append(gpus).append(" · driver ")
                    .append(n.driver()).append('\n').append(n.file());
            if (checkFailed) {
                vm.failedChecks().stream().filter(f -> f.node().equals(n.name())).findFirst().ifPresent(f -> {
                    t.append("\n\nNode check: ").append(f.summary());
                    f.failed().forEach(x -> t.append("\n• ").append(x));
                });
            }
            if (!diffs.isEmpty()) {
                t.append("\n\nDiffers from most nodes in:");
                diffs.forEach(d -> t.append("\n• ").append(d.describe()));
            }
            t.append("\n\nClick to open its fabric view.");
            tip.setText(t.toString());
        }

        private void toggle(String cls, boolean on) {
            if (on && !getStyleClass().contains(cls)) {
                getStyleClass().add(cls);
            } else if (!on) {
                getStyleClass().remove(cls);
            }
        }
    }

    /** A difference: what, how many nodes, the majority value, the other values and their nodes. */
    private static final class DifferenceCell extends ListCell<Difference> {
        private final Label badge = new Label();
        private final Label field = new Label();
        private final Label majority = new Label();
        private final Label others = new Label();
        private final VBox box;

        DifferenceCell(ListView<Difference> list) {
            badge.getStyleClass().add("badge");
            badge.setMinWidth(Region.USE_PREF_SIZE);
            field.getStyleClass().add("difference-field");
            field.setWrapText(true);
            majority.getStyleClass().add("text-muted");
            majority.setWrapText(true);
            others.setWrapText(true);
            others.getStyleClass().add("difference-values");
            HBox top = new HBox(8, badge, field);
            top.setAlignment(Pos.CENTER_LEFT);
            box = new VBox(3, top, majority, others);
            box.setPadding(new Insets(4, 2, 4, 2));
            fitWidth(majority, list);
            fitWidth(others, list);
        }

        @Override
        protected void updateItem(Difference d, boolean empty) {
            super.updateItem(d, empty);
            setText(null);
            if (empty || d == null) {
                setGraphic(null);
                return;
            }
            badge.getStyleClass().removeAll("badge-error", "badge-warning");
            badge.getStyleClass().add(d.warning() ? "badge-warning" : "badge-error");
            badge.setText(d.badge());
            field.setText(d.title());
            majority.setText(d.majority());
            others.setText(d.others());
            setGraphic(box);
        }
    }

    /**
     * Makes a wrapping label in a list cell as wide as the list, so that the cell's height counts its wrapped lines
     * (a cell asks its content for its height without a width).
     */
    private static void fitWidth(Label label, ListView<?> list) {
        label.setMinWidth(0);
        label.prefWidthProperty().bind(list.widthProperty().subtract(ROW_INSETS));
        label.setMaxWidth(Region.USE_PREF_SIZE);
        label.setMinHeight(Region.USE_PREF_SIZE);
    }

    /** An unreadable file and why. */
    private static final class UnreadableCell extends ListCell<Unreadable> {
        private final Label file = new Label();
        private final Label why = new Label();
        private final VBox box = new VBox(2, file, why);

        UnreadableCell(ListView<Unreadable> list) {
            file.getStyleClass().add("difference-field");
            why.getStyleClass().addAll("text-muted", "unreadable-reason");
            why.setWrapText(true);
            fitWidth(why, list);
        }

        @Override
        protected void updateItem(Unreadable n, boolean empty) {
            super.updateItem(n, empty);
            setText(null);
            if (empty || n == null) {
                setGraphic(null);
                return;
            }
            file.setText(n.fileName());
            why.setText(n.why());
            setGraphic(box);
        }
    }
}
