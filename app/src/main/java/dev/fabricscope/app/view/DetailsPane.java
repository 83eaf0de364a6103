package dev.fabricscope.app.view;

import dev.fabricscope.render.fabric.FabricGraph.Detail;
import java.util.List;
import java.util.stream.Collectors;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** A titled key/value list with a copy button; shows a hint when empty. */
public final class DetailsPane extends VBox {

    private final Label heading = new Label();
    private final GridPane grid = new GridPane();
    private final Label hint;
    private final Button copy = new Button("Copy");
    private List<Detail> shown = List.of();

    public DetailsPane(String emptyHint) {
        getStyleClass().add("details-pane");
        setSpacing(8);
        setPadding(new Insets(12));
        heading.getStyleClass().addAll("title-4", "details-heading");
        heading.setWrapText(true);
        hint = new Label(emptyHint);
        hint.setWrapText(true);
        hint.getStyleClass().add("text-muted");
        grid.setHgap(10);
        grid.setVgap(5);
        ColumnConstraints key = new ColumnConstraints();
        key.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints value = new ColumnConstraints();
        value.setHgrow(Priority.ALWAYS);
        value.setFillWidth(true);
        grid.getColumnConstraints().addAll(key, value);
        ScrollPane scroll = new ScrollPane(grid);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("edge-to-edge");
        VBox.setVgrow(scroll, Priority.ALWAYS);
        copy.setOnAction(e -> {
            ClipboardContent c = new ClipboardContent();
            c.putString(heading.getText() + "\n" + shown.stream().map(d -> d.key() + ": " + d.value()).collect(Collectors.joining("\n")));
            Clipboard.getSystemClipboard().setContent(c);
        });
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(8, heading, spacer, copy);
        getChildren().addAll(top, hint, scroll);
        show(null, List.of());
    }

    public void show(String title, List<Detail> details) {
        shown = details;
        grid.getChildren().clear();
        boolean empty = title == null;
        heading.setText(empty ? "Details" : title);
        hint.setVisible(empty);
        hint.setManaged(empty);
        copy.setDisable(empty);
        int row = 0;
        for (Detail d : details) {
            Label k = new Label(d.key());
            k.getStyleClass().add("details-key");
            k.setMinWidth(Region.USE_PREF_SIZE);
            GridPane.setValignment(k, javafx.geometry.VPos.TOP);
            Label v = new Label(d.value());
            v.setWrapText(true);
            v.getStyleClass().add("details-value");
            if (d.value() != null && d.value().startsWith(dev.fabricscope.render.fabric.NodeDetails.NON_ZERO)) {
                // past a threshold (render.NodeDetails): highlighted, the marker dropped
                v.setText(d.value().substring(1).strip());
                v.getStyleClass().add("warning");
                k.getStyleClass().add("warning");
                v.setId("nonzero-" + d.key().replaceAll("\\W+", "-").toLowerCase(java.util.Locale.ROOT));
            }
            if (d.key().equals("WARNING") || d.key().equals("ERROR")) {
                v.getStyleClass().add(d.key().equals("ERROR") ? "danger" : "warning");
                k.getStyleClass().add(d.key().equals("ERROR") ? "danger" : "warning");
            }
            grid.addRow(row++, k, v);
        }
    }
}
