package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.CheckDisplay;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import java.util.List;
import javafx.beans.property.SimpleStringProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Checks tab: one card per check (preflight, P2P, all-reduce) with Run, progress and Cancel; results as a
 * table and, where the check gives series, a chart (x on a log₂ axis). Disabled, with the reason, when the machine
 * on screen has no GPU to test; a report's own checks are shown read-only, with their date and machine.
 */
public final class ChecksView extends ScrollPane {

    private final ChecksViewModel vm;

    public ChecksView(ChecksViewModel vm) {
        this.vm = vm;
        getStyleClass().addAll("checks-view", "edge-to-edge");
        setFitToWidth(true);
        Label reason = new Label();
        reason.setId("checksDisabledReason");
        SafeText.bind(reason.textProperty(), vm.disabledReasonProperty());
        reason.visibleProperty().bind(vm.disabledReasonProperty().isNotNull());
        reason.managedProperty().bind(reason.visibleProperty());
        reason.setWrapText(true);
        reason.getStyleClass().addAll("placeholder-message", "title-4", "text-muted");
        Label status = new Label();
        SafeText.bind(status.textProperty(), vm.statusProperty());
        status.getStyleClass().add("text-muted");
        status.visibleProperty().bind(vm.statusProperty().isNotEmpty());
        status.managedProperty().bind(status.visibleProperty());
        VBox body = new VBox(14, reason, status);
        body.setPadding(new Insets(18, 22, 22, 22));
        for (CheckDisplay.Kind k : CheckDisplay.Kind.values()) {
            body.getChildren().add(card(k));
        }
        setContent(body);
    }

    private VBox card(CheckDisplay.Kind kind) {
        Label title = new Label(kind.title);
        title.getStyleClass().add("title-4");
        Label desc = new Label(kind.description);
        desc.getStyleClass().add("text-muted");
        desc.setWrapText(true);
        Button run = new Button("Run");
        run.getStyleClass().add("accent");
        run.setId("run-" + kind.name().toLowerCase());
        run.disableProperty().bind(vm.disabledReasonProperty().isNotNull().or(vm.runningProperty()));
        run.setOnAction(e -> vm.run(kind));
        Button cancel = new Button("Cancel");
        cancel.setId("cancel-" + kind.name().toLowerCase());
        ProgressBar bar = new ProgressBar(0);
        bar.setPrefWidth(220);
        Label progress = new Label();
        vm.runningKindProperty().addListener((o, was, k) -> {
            bar.progressProperty().unbind();
            progress.textProperty().unbind();
            if (k == kind) {
                bar.progressProperty().bind(vm.progressProperty());
                SafeText.bind(progress.textProperty(), vm.progressMessageProperty());
            }
        });
        cancel.disableProperty().bind(vm.runningProperty().not());
        cancel.setOnAction(e -> vm.cancel());
        HBox controls = new HBox(10, run, cancel, bar, progress);
        controls.setAlignment(Pos.CENTER_LEFT);
        VBox results = new VBox(8);
        vm.resultProperty(kind).addListener((o, was, r) -> showResult(results, r));
        showResult(results, vm.resultProperty(kind).get()); // a report's own checks are there before the tab is first shown
        VBox card = new VBox(8, title, desc, controls, results);
        card.getStyleClass().add("fact-card");
        card.setPadding(new Insets(12, 14, 12, 14));
        return card;
    }

    private static void showResult(VBox box, CheckDisplay.Result r) {
        box.getChildren().clear();
        if (r == null) {
            return;
        }
        Label summary = new Label((r.passed() ? "✔ " : "✖ ") + r.status() + " — " + r.summary());
        summary.setWrapText(true);
        summary.getStyleClass().add(r.passed() ? "success" : "danger");
        box.getChildren().add(summary);
        if (r.recorded() != null) {
            Label where = new Label("Recorded in the report, " + r.recorded() + " (read-only)");
            where.getStyleClass().addAll("text-muted", "check-recorded");
            where.setWrapText(true);
            box.getChildren().add(where);
        }
        for (String note : r.notes()) {
            Label l = new Label(note);
            l.setWrapText(true);
            l.getStyleClass().add(note.startsWith("SGLang would log") ? "mono" : "text-muted");
            box.getChildren().add(l);
        }
        if (r.heatmap() != null) {
            box.getChildren().add(heatmap(r.heatmap()));
        }
        if (!r.rows().isEmpty()) {
            TableView<List<String>> table = new TableView<>();
            for (int i = 0; i < r.columns().size(); i++) {
                int col = i;
                TableColumn<List<String>, String> c = new TableColumn<>(r.columns().get(i));
                c.setCellValueFactory(cd -> new SimpleStringProperty(col < cd.getValue().size() ? cd.getValue().get(col) : ""));
                table.getColumns().add(c);
            }
            table.getItems().setAll(r.rows());
            table.setPrefHeight(Math.min(440, 48 + 36 * Math.max(3, r.rows().size())));
            box.getChildren().add(table);
        }
        for (CheckDisplay.Chart c : r.charts()) {
            NumberAxis x = sizeAxis(c);
            x.setLabel(c.xLabel() + ", log scale");
            x.setTickLabelFormatter(new javafx.util.StringConverter<>() {
                @Override
                public String toString(Number v) {
                    return bytes(Math.pow(2, v.doubleValue()));
                }

                @Override
                public Number fromString(String s) {
                    return 0;
                }
            });
            NumberAxis y = new NumberAxis();
            y.setLabel(c.yLabel() + (c.logY() ? ", log scale" : ""));
            if (c.logY()) {
                y.setForceZeroInRange(false);
                y.setTickUnit(1);
                y.setTickLabelFormatter(new javafx.util.StringConverter<>() {
                    @Override
                    public String toString(Number v) {
                        double d = Math.pow(10, v.doubleValue());
                        return d >= 1 ? String.format(java.util.Locale.ROOT, "%.0f", d) : String.format(java.util.Locale.ROOT, "%.2g", d);
                    }

                    @Override
                    public Number fromString(String s) {
                        return 0;
                    }
                });
            }
            LineChart<Number, Number> chart = new LineChart<>(x, y);
            chart.setTitle(c.title());
            chart.setCreateSymbols(true);
            chart.setAnimated(false);
            for (CheckDisplay.Series s : c.series()) {
                XYChart.Series<Number, Number> series = new XYChart.Series<>();
                series.setName(s.name());
                for (double[] p : s.points()) {
                    if (c.logY() && p[1] <= 0) {
                        continue;
                    }
                    series.getData().add(new XYChart.Data<>(Math.log(p[0]) / Math.log(2), c.logY() ? Math.log10(p[1]) : p[1]));
                }
                chart.getData().add(series);
                if (s.predicted()) { // the model's curve: dashed, no points, so it never reads as a measurement
                    series.getNode().setStyle("-fx-stroke-dash-array: 8 5;");
                    series.getData().forEach(d -> d.getNode().setVisible(false));
                }
            }
            chart.setPrefHeight(320);
            box.getChildren().add(chart);
        }
    }

    /**
     * The log₂ size axis with a tick on whole powers of two only (8, 64, 512, 4K…, never 2^12.5 = 5793), at most about
     * ten ticks over the sizes charted.
     */
    static NumberAxis sizeAxis(CheckDisplay.Chart c) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (CheckDisplay.Series s : c.series()) {
            for (double[] p : s.points()) {
                if (p[0] > 0) {
                    lo = Math.min(lo, Math.log(p[0]) / Math.log(2));
                    hi = Math.max(hi, Math.log(p[0]) / Math.log(2));
                }
            }
        }
        if (lo > hi) {
            lo = 3;
            hi = 28;
        }
        double low = Math.floor(lo);
        double high = Math.ceil(hi);
        double unit = Math.max(1, Math.ceil((high - low) / 10));
        low = Math.floor(low / unit) * unit;
        high = Math.max(low + unit, Math.ceil(high / unit) * unit);
        NumberAxis x = new NumberAxis(low, high, unit);
        x.setAutoRanging(false);
        return x;
    }

    /** 8, 64K, 1M, 256M: message sizes as nccl-tests' flags write them. */
    static String bytes(double b) {
        return dev.fabricscope.render.CheckSections.size(b);
    }

    /** A GPU × GPU grid coloured by the measured figure relative to the largest one; tooltips give the nominal figure. */
    public static VBox heatmap(CheckDisplay.Heatmap h) {
        javafx.scene.layout.GridPane g = new javafx.scene.layout.GridPane();
        g.setHgap(3);
        g.setVgap(3);
        g.getStyleClass().add("matrix");
        double max = 0;
        for (Double[] row : h.values()) {
            for (Double v : row) {
                if (v != null) {
                    max = Math.max(max, v);
                }
            }
        }
        int n = h.labels().size();
        for (int j = 0; j < n; j++) {
            Label l = new Label(h.labels().get(j));
            l.getStyleClass().add("matrix-header");
            g.add(l, j + 1, 0);
        }
        for (int i = 0; i < n; i++) {
            Label l = new Label(h.labels().get(i));
            l.getStyleClass().add("matrix-header");
            g.add(l, 0, i + 1);
            for (int j = 0; j < n; j++) {
                Double v = h.values()[i][j];
                Double ref = h.reference() == null ? null : h.reference()[i][j];
                Label cell = new Label(v == null ? "—" : v >= 100 ? String.format(java.util.Locale.ROOT, "%.0f", v)
                        : String.format(java.util.Locale.ROOT, "%.1f", v));
                cell.getStyleClass().add("matrix-cell");
                cell.setMinSize(58, 26);
                cell.setAlignment(Pos.CENTER);
                if (v != null && max > 0) {
                    double f = v / max;
                    cell.setStyle(String.format(java.util.Locale.ROOT, "-fx-background-color: rgba(94,148,0,%.2f);", 0.12 + 0.68 * f));
                } else {
                    cell.getStyleClass().add("topo-unknown");
                }
                cell.setTooltip(new javafx.scene.control.Tooltip(h.labels().get(i) + " → " + h.labels().get(j) + ": "
                        + (v == null ? "not measured" : cell.getText() + " " + h.unit())
                        + (ref == null ? "" : " (nominal " + String.format(java.util.Locale.ROOT, "%.0f", ref) + " " + h.unit() + ")")));
                g.add(cell, j + 1, i + 1);
            }
        }
        Label title = new Label(h.title());
        title.getStyleClass().add("details-key");
        VBox box = new VBox(6, title, g);
        box.getStyleClass().add("heatmap");
        return box;
    }
}
