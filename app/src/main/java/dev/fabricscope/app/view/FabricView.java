package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricPalette;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Orientation;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.HBox;

/** The Fabric tab: toolbar (zoom, fit, export), the graph, and the details of the selected element. */
public final class FabricView extends BorderPane {

    private final FabricCanvas canvas = new FabricCanvas();
    private final DetailsPane details = new DetailsPane("Hover over a GPU, switch, NIC, CPU or link for a summary; click it to see everything known about it here.");
    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final Label zoomLabel = new Label("100 %");
    final Button exportPng = new Button("Export PNG…");
    final Button exportSvg = new Button("Export SVG…");

    public FabricView() {
        getStyleClass().add("fabric-view");
        Button zoomIn = new Button("+");
        zoomIn.setTooltip(new Tooltip("Zoom in (Ctrl +)"));
        zoomIn.setOnAction(e -> zoomIn());
        Button zoomOut = new Button("−");
        zoomOut.setTooltip(new Tooltip("Zoom out (Ctrl −)"));
        zoomOut.setOnAction(e -> zoomOut());
        Button fit = new Button("Fit");
        fit.setTooltip(new Tooltip("Fit the graph to the window (Ctrl 0)"));
        fit.setOnAction(e -> fit());
        Button actual = new Button("100 %");
        actual.setTooltip(new Tooltip("Actual size (Ctrl 1 in the graph)"));
        actual.setOnAction(e -> canvas.actualSize());
        exportPng.setTooltip(new Tooltip("Save the graph as a PNG image (Ctrl E)"));
        exportSvg.setTooltip(new Tooltip("Save the graph as an SVG drawing (Ctrl Shift E)"));
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Label help = new Label("Wheel: zoom · drag: pan · click: details");
        help.getStyleClass().add("text-muted");
        ToolBar bar = new ToolBar(zoomOut, zoomLabel, zoomIn, fit, actual, new Separator(Orientation.VERTICAL), exportPng, exportSvg, spacer, help);
        zoomLabel.setMinWidth(48);
        canvas.zoomProperty().addListener((o, a, b) -> updateZoomLabel());
        SplitPane split = new SplitPane(canvas, details);
        split.setDividerPositions(0.7);
        SplitPane.setResizableWithParent(details, false);
        setTop(bar);
        setCenter(split);
        canvas.selectionProperty().addListener((o, was, now) -> {
            if (now == null) {
                details.show(null, List.of());
            } else {
                details.show(now.headline(), now.details());
            }
        });
        machine.addListener((o, was, now) -> canvas.graphProperty().set(now == null ? null : now.graph()));
    }

    public ObjectProperty<LoadedMachine> machineProperty() {
        return machine;
    }

    public void setPalette(FabricPalette p) {
        canvas.paletteProperty().set(p);
    }

    public FabricCanvas canvas() {
        return canvas;
    }

    public FabricGraph graph() {
        return canvas.graphProperty().get();
    }

    public void zoomIn() {
        canvas.zoomIn();
        updateZoomLabel();
    }

    public void zoomOut() {
        canvas.zoomOut();
        updateZoomLabel();
    }

    public void fit() {
        canvas.fit();
        updateZoomLabel();
    }

    private void updateZoomLabel() {
        zoomLabel.setText(Math.round(canvas.getZoom() * 100) + " %");
    }
}
