package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.controlsfx.control.StatusBar;

/** The bars around the main window's pages: the no-driver banner, the error bar, the cluster bar and the status bar. */
final class MainBars {

    private MainBars() {
    }

    /** "No NVIDIA driver found", with the loader's words behind a toggle and the ways on: a report, a sample, again. */
    static VBox banner(MainViewModel vm, Runnable openReport, Consumer<Node> openSampleMenu) {
        Label icon = new Label("⚠");
        icon.getStyleClass().add("banner-icon");
        Label msg = new Label();
        msg.setId("noDriverBanner");
        SafeText.bind(msg.textProperty(), vm.noDriverMessageProperty());
        msg.setWrapText(true);
        msg.getStyleClass().add("banner-text");
        HBox.setHgrow(msg, Priority.ALWAYS);
        Button report = new Button("Open report…");
        report.setId("bannerOpenReport");
        report.setOnAction(e -> openReport.run());
        Button sample = new Button("Open sample…");
        sample.setId("bannerOpenSample");
        sample.setOnAction(e -> openSampleMenu.accept(sample));
        Button again = new Button("Probe again");
        again.setOnAction(e -> vm.probeLive());
        Hyperlink details = new Hyperlink("Details");
        details.setId("noDriverDetailsToggle");
        Label raw = new Label();
        raw.setId("noDriverDetails");
        raw.getStyleClass().add("mono");
        raw.setWrapText(true);
        SafeText.bind(raw.textProperty(), vm.noDriverDetailsProperty());
        raw.setVisible(false);
        raw.managedProperty().bind(raw.visibleProperty());
        details.setOnAction(e -> {
            raw.setVisible(!raw.isVisible());
            details.setText(raw.isVisible() ? "Hide details" : "Details");
        });
        HBox top = new HBox(10, icon, msg, details, report, sample, again);
        top.setAlignment(Pos.CENTER_LEFT);
        FlowPane chips = new FlowPane(6, 4);
        Label try_ = new Label("Or look at a sample machine:");
        try_.getStyleClass().add("text-muted");
        chips.getChildren().add(try_);
        for (MainViewModel.SampleChoice s : vm.samples()) {
            Hyperlink h = new Hyperlink(s.name());
            h.setId("sample-" + s.name());
            h.setTooltip(new Tooltip(s.description()));
            h.setOnAction(e -> vm.openSample(s.name()));
            chips.getChildren().add(h);
        }
        VBox box = new VBox(4, top, raw, chips);
        box.getStyleClass().add("no-driver-banner");
        box.setPadding(new Insets(10, 16, 8, 16));
        box.visibleProperty().bind(vm.noDriverMessageProperty().isNotNull().and(vm.pageProperty().isEqualTo(MainViewModel.Page.MACHINE)));
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    static HBox errorBar(MainViewModel vm) {
        Label msg = new Label();
        msg.setId("errorBar");
        SafeText.bind(msg.textProperty(), vm.errorProperty());
        msg.setWrapText(true);
        HBox.setHgrow(msg, Priority.ALWAYS);
        HBox box = new HBox(10, new Label("✖"), msg);
        box.getStyleClass().add("error-bar");
        box.setPadding(new Insets(6, 16, 6, 16));
        box.setAlignment(Pos.CENTER_LEFT);
        box.visibleProperty().bind(vm.errorProperty().isNotNull());
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    /** "← Cluster NAME" and which node is shown; only while the machine shown is a node of the open cluster. */
    static HBox clusterBar(MainViewModel vm, ClusterViewModel cluster) {
        Button back = new Button("← Back to cluster");
        back.setId("backToCluster");
        back.setTooltip(new Tooltip("Back to the cluster's NVLink domains (Ctrl+7)"));
        back.setOnAction(e -> vm.showCluster());
        back.setMinWidth(Region.USE_PREF_SIZE); // the way back is never cut to "…"; the node line gives way first
        Label where = new Label();
        where.setId("clusterNodeLabel");
        where.setMinWidth(0);
        where.setWrapText(true); // "differs from most nodes in …" can be long: whole, on two lines if need be
        where.setMinHeight(Region.USE_PREF_SIZE);
        HBox.setHgrow(where, Priority.ALWAYS);
        SafeText.bind(where.textProperty(), cluster.nodeLineProperty());
        where.getStyleClass().add("cluster-bar-text");
        HBox bar = new HBox(10, back, where);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 12, 6, 12));
        bar.getStyleClass().add("cluster-bar");
        bar.visibleProperty().bind(vm.clusterNodeProperty().isNotNull());
        bar.managedProperty().bind(bar.visibleProperty());
        return bar;
    }

    /** The last thing that happened, the background task's progress with Cancel, and what is shown. */
    static StatusBar statusBar(MainViewModel vm) {
        StatusBar bar = new StatusBar();
        bar.setId("statusBar");
        SafeText.bind(bar.textProperty(), vm.statusProperty());
        bar.progressProperty().bind(vm.progressProperty());
        Button cancel = new Button("Cancel");
        cancel.setId("cancelButton");
        cancel.visibleProperty().bind(vm.busyProperty());
        cancel.managedProperty().bind(cancel.visibleProperty());
        cancel.setOnAction(e -> vm.cancel());
        Label source = new Label();
        SafeText.bind(source.textProperty(), vm.sourceProperty());
        source.getStyleClass().add("text-muted");
        Region gap = new Region();
        gap.setMinWidth(8);
        bar.getRightItems().addAll(cancel, gap, source);
        return bar;
    }
}
