package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.LoadedComparison;
import dev.fabricscope.app.viewmodel.LoadedComparison.Group;
import dev.fabricscope.app.viewmodel.LoadedComparison.Item;
import java.util.List;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * Two reports side by side: which machine each is, then every difference that matters (as
 * {@link LoadedComparison} lists them), grouped by kind, most important first, with report A's value beside report B's.
 */
public final class ComparePage extends BorderPane {

    /** A row of the table: a kind of difference ({@code item} null), or one difference of that kind. */
    public record Row(Group group, Item item) {
    }

    private final TreeTableView<Row> table = new TreeTableView<>();
    private final TreeTableColumn<Row, Row> what = new TreeTableColumn<>("Difference");
    private final TreeTableColumn<Row, Row> left = new TreeTableColumn<>("A");
    private final TreeTableColumn<Row, Row> right = new TreeTableColumn<>("B");
    private final Label summary = new Label();
    private final VBox leftCard = new VBox(2);
    private final VBox rightCard = new VBox(2);
    private final Label detailTitle = new Label();
    private final Label detailLeft = new Label();
    private final Label detailRight = new Label();
    final Button back = new Button("← Back");
    final Button swap = new Button("Swap A and B");
    final Button other = new Button("Compare other reports…");

    public ComparePage(ReadOnlyObjectProperty<LoadedComparison> comparison) {
        getStyleClass().add("compare-page");
        setId("comparePage");
        Label title = new Label("Compare reports");
        title.getStyleClass().add("title-3");
        summary.setId("compareSummary");
        summary.getStyleClass().add("cluster-counts");
        back.setId("compareBack");
        swap.setId("compareSwap");
        other.setId("compareOther");
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox titleRow = new HBox(12, title, summary, spacer, swap, other, back);
        titleRow.setAlignment(Pos.CENTER_LEFT);
        // at 1024 px the title and the buttons keep their words; the summary wraps onto a second line instead
        for (javafx.scene.control.Control c : List.of(title, swap, other, back)) {
            c.setMinWidth(Region.USE_PREF_SIZE);
        }
        summary.setWrapText(true);
        summary.setMinWidth(120);
        summary.setMinHeight(Region.USE_PREF_SIZE);
        HBox.setHgrow(summary, Priority.SOMETIMES);
        leftCard.setId("compareLeft");
        rightCard.setId("compareRight");
        for (VBox card : List.of(leftCard, rightCard)) {
            card.getStyleClass().add("fact-card");
            card.setPadding(new Insets(8, 12, 8, 12));
            HBox.setHgrow(card, Priority.ALWAYS);
            card.setMaxWidth(Double.MAX_VALUE);
        }
        HBox cards = new HBox(12, leftCard, rightCard);
        VBox header = new VBox(10, titleRow, cards);
        header.setPadding(new Insets(14, 18, 12, 18));
        header.getStyleClass().add("cluster-header");
        setTop(header);

        what.setPrefWidth(340);
        what.setMinWidth(300); // a category's title with its count, whole ("Multicast, memory sharing and fabric (8)")
        left.setPrefWidth(380);
        right.setPrefWidth(380);
        for (TreeTableColumn<Row, Row> c : List.of(what, left, right)) {
            c.setCellValueFactory(f -> new SimpleObjectProperty<>(f.getValue().getValue()));
            c.setSortable(false);
        }
        what.setCellFactory(c -> new WhatCell());
        left.setCellFactory(c -> new ValueCell(true, left));
        right.setCellFactory(c -> new ValueCell(false, right));
        table.getColumns().setAll(List.of(what, left, right));
        table.setShowRoot(false);
        table.setId("compareTable");
        table.getStyleClass().add("compare-table");
        table.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label none = new Label("No differences that matter between the two reports.");
        none.getStyleClass().addAll("title-4", "text-muted");
        table.setPlaceholder(none);
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> showDetails(now == null ? null : now.getValue()));
        detailTitle.getStyleClass().add("card-title");
        detailTitle.setWrapText(true);
        for (Label l : List.of(detailLeft, detailRight)) {
            l.setWrapText(true);
            l.getStyleClass().add("mono");
            l.setMaxWidth(Double.MAX_VALUE);
            HBox.setHgrow(l, Priority.ALWAYS);
            l.setMinHeight(Region.USE_PREF_SIZE);
        }
        detailLeft.setId("compareDetailA");
        detailRight.setId("compareDetailB");
        detailLeft.prefWidthProperty().bind(widthProperty().subtract(60).divide(2));
        detailRight.prefWidthProperty().bind(widthProperty().subtract(60).divide(2));
        HBox values = new HBox(16, detailLeft, detailRight);
        VBox details = new VBox(6, detailTitle, values);
        details.setPadding(new Insets(8, 14, 10, 14));
        details.getStyleClass().add("compare-details");
        details.visibleProperty().bind(detailTitle.textProperty().isNotEmpty());
        details.managedProperty().bind(details.visibleProperty());
        VBox center = new VBox(table, details);
        VBox.setVgrow(table, Priority.ALWAYS);
        BorderPane.setMargin(center, new Insets(8, 12, 12, 12));
        setCenter(center);

        comparison.addListener((o, was, now) -> show(now));
        show(comparison.get());
    }

    public TreeTableView<Row> table() {
        return table;
    }

    public void setOnBack(Runnable r) {
        back.setOnAction(e -> r.run());
    }

    public void setOnSwap(Runnable r) {
        swap.setOnAction(e -> r.run());
    }

    public void setOnCompareOther(Runnable r) {
        other.setOnAction(e -> r.run());
    }

    private void show(LoadedComparison c) {
        showDetails(null);
        TreeItem<Row> root = new TreeItem<>();
        if (c == null) {
            table.setRoot(root);
            summary.setText("");
            card(leftCard, "A", null);
            card(rightCard, "B", null);
            return;
        }
        LoadedComparison.Side a = c.side(true);
        LoadedComparison.Side b = c.side(false);
        card(leftCard, "A", a);
        card(rightCard, "B", b);
        left.setText("A · " + a.name());
        right.setText("B · " + b.name());
        summary.setText(c.summary());
        for (Group g : c.groups()) {
            TreeItem<Row> group = new TreeItem<>(new Row(g, null));
            group.setExpanded(true);
            for (Item it : g.items()) {
                group.getChildren().add(new TreeItem<>(new Row(g, it)));
            }
            root.getChildren().add(group);
        }
        table.setRoot(root);
    }

    /** The selected difference in full (values in the table are cut to the column). */
    private void showDetails(Row r) {
        if (r == null || r.item() == null) {
            detailTitle.setText("");
            return;
        }
        Item c = r.item();
        detailTitle.setText(c.subject() + " · " + c.item());
        detailLeft.setText("A: " + shown(c.before()));
        detailRight.setText("B: " + shown(c.after()));
    }

    /** A value as shown: "(none)" when that report lacks it, "(empty)" for an empty text. */
    static String shown(String v) {
        return v == null ? "(none)" : v.isEmpty() ? "(empty)" : v;
    }

    private static void card(VBox card, String letter, LoadedComparison.Side side) {
        card.getChildren().clear();
        Label badge = new Label(letter);
        badge.getStyleClass().addAll("badge", "A".equals(letter) ? "badge-info" : "badge-ok");
        Label name = new Label(side == null ? "—" : side.name());
        name.getStyleClass().add("card-title");
        HBox top = new HBox(8, badge, name);
        top.setAlignment(Pos.CENTER_LEFT);
        card.getChildren().add(top);
        if (side != null) {
            Label machine = new Label(side.machine());
            Label taken = new Label((side.taken() == null ? "probe time unknown" : "probed " + side.taken()) + " · " + side.path());
            taken.getStyleClass().add("text-muted");
            taken.setTooltip(new Tooltip(side.path()));
            taken.setWrapText(true); // a long path wraps in its card, whole
            taken.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
            machine.setWrapText(true);
            machine.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
            card.getChildren().addAll(machine, taken);
        }
    }

    /** A kind of difference (bold, with its count), or what one difference is about. */
    private static final class WhatCell extends TreeTableCell<Row, Row> {
        @Override
        protected void updateItem(Row r, boolean empty) {
            super.updateItem(r, empty);
            getStyleClass().remove("diff-category");
            setTooltip(null);
            // a long subject (a knob name, GPU0–3, GPU5) wraps onto more lines rather than being cut
            setWrapText(true);
            if (empty || r == null) {
                setText(null);
                return;
            }
            if (r.item() == null) {
                setText(r.group().title() + " (" + r.group().items().size() + ")");
                getStyleClass().add("diff-category");
                setTooltip(new Tooltip(getText()));
            } else {
                String text = r.item().subject() + " · " + r.item().item();
                setText(text);
                setTooltip(new Tooltip(text));
            }
        }
    }

    /** One side's value: "(none)" when only the other report has it; coloured by what changed. */
    private static final class ValueCell extends TreeTableCell<Row, Row> {
        private final boolean isLeft;

        ValueCell(boolean isLeft, TreeTableColumn<Row, Row> column) {
            this.isLeft = isLeft;
            // long values wrap onto more lines instead of being cut with an ellipsis
            javafx.scene.text.Text text = new javafx.scene.text.Text();
            text.wrappingWidthProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                    () -> Math.max(20, column.getWidth() - 14), column.widthProperty()));
            text.fillProperty().bind(textFillProperty());
            text.fontProperty().bind(fontProperty());
            setGraphic(text);
            setContentDisplay(javafx.scene.control.ContentDisplay.GRAPHIC_ONLY);
        }

        private void show(String s) {
            ((javafx.scene.text.Text) getGraphic()).setText(s);
        }

        @Override
        protected void updateItem(Row r, boolean empty) {
            super.updateItem(r, empty);
            getStyleClass().removeAll("diff-worse", "diff-better", "diff-neutral", "diff-none");
            setTooltip(null);
            if (empty || r == null || r.item() == null) {
                show(null);
                return;
            }
            String v = isLeft ? r.item().before() : r.item().after();
            if (v == null || v.isEmpty()) {
                show(shown(v));
                getStyleClass().add("diff-none");
                return;
            }
            show(v.length() > 2000 ? v.substring(0, 2000) + " … [" + (v.length() - 2000) + " more characters]" : v);
            // coloured by meaning, on B (what it became): worse red, better green, neither grey
            getStyleClass().add(isLeft ? "diff-neutral" : switch (r.item().meaning()) {
                case WORSE -> "diff-worse";
                case BETTER -> "diff-better";
                case NEUTRAL -> "diff-neutral";
            });
        }
    }
}
