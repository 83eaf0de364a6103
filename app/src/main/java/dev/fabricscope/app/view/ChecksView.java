package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.ChecksPort;
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
 * on screen has no GPU to test.
 */
public final class ChecksView extends ScrollPane {

    private final ChecksViewModel vm;

    public ChecksView(ChecksViewModel vm) {
        this.vm = vm;
        getStyleClass().addAll("checks-view", "edge-to-edge");
        setFitToWidth(true);
        Label reason = new Label();
        reason.setId("checksDisabledReason");
        reason.textProperty().bind(vm.disabledReasonProperty());
        reason.visibleProperty().bind(vm.disabledReasonProperty().isNotNull());
        reason.managedProperty().bind(reason.visibleProperty());
        reason.setWrapText(true);
        reason.getStyleClass().addAll("placeholder-message", "title-4", "text-muted");
        Label status = new Label();
        status.textProperty().bind(vm.statusProperty());
        status.getStyleClass().add("text-muted");
        VBox body = new VBox(14, reason, status);
        body.setPadding(new Insets(18, 22, 22, 22));
        for (ChecksPort.Kind k : ChecksPort.Kind.values()) {
            body.getChildren().add(card(k));
        }
        setContent(body);
    }

    private VBox card(ChecksPort.Kind kind) {
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
        vm.taskProperty().addListener((o, was, t) -> {
            boolean mine = t != null && vm.getRunningKind() == kind;
            bar.progressProperty().unbind();
            progress.textProperty().unbind();
            if (t != null && mine) {
                bar.progressProperty().bind(t.progressProperty());
                progress.textProperty().bind(t.messageProperty());
            }
        });
        cancel.disableProperty().bind(vm.runningProperty().not());
        cancel.setOnAction(e -> vm.cancel());
        HBox controls = new HBox(10, run, cancel, bar, progress);
        controls.setAlignment(Pos.CENTER_LEFT);
        VBox results = new VBox(8);
        vm.resultProperty(kind).addListener((o, was, r) -> showResult(results, r));
        VBox card = new VBox(8, title, desc, controls, results);
        card.getStyleClass().add("fact-card");
        card.setPadding(new Insets(12, 14, 12, 14));
        return card;
    }

    private static void showResult(VBox box, ChecksPort.Result r) {
        box.getChildren().clear();
        if (r == null) {
            return;
        }
        Label summary = new Label((r.passed() ? "✔ " : "✖ ") + r.summary());
        summary.getStyleClass().add(r.passed() ? "success" : "danger");
        TableView<List<String>> table = new TableView<>();
        for (int i = 0; i < r.columns().size(); i++) {
            int col = i;
            TableColumn<List<String>, String> c = new TableColumn<>(r.columns().get(i));
            c.setCellValueFactory(cd -> new SimpleStringProperty(col < cd.getValue().size() ? cd.getValue().get(col) : ""));
            table.getColumns().add(c);
        }
        table.getItems().setAll(r.rows());
        table.setPrefHeight(Math.min(420, 36 + 28 * Math.max(3, r.rows().size())));
        box.getChildren().addAll(summary, table);
        if (!r.series().isEmpty()) {
            NumberAxis x = new NumberAxis();
            x.setLabel(r.xLabel() + " (log₂)");
            x.setForceZeroInRange(false);
            NumberAxis y = new NumberAxis();
            y.setLabel(r.yLabel());
            LineChart<Number, Number> chart = new LineChart<>(x, y);
            chart.setCreateSymbols(true);
            chart.setAnimated(false);
            for (ChecksPort.Series s : r.series()) {
                XYChart.Series<Number, Number> series = new XYChart.Series<>();
                series.setName(s.name());
                for (double[] p : s.points()) {
                    series.getData().add(new XYChart.Data<>(Math.log(p[0]) / Math.log(2), p[1]));
                }
                chart.getData().add(series);
            }
            chart.setPrefHeight(320);
            VBox.setVgrow(chart, Priority.SOMETIMES);
            box.getChildren().add(chart);
        }
    }
}
