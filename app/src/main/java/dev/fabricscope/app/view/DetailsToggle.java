package dev.fabricscope.app.view;

import java.util.Collection;
import java.util.LinkedHashSet;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * "Show details" under a message said in words: reveals the raw calls, error codes and paths behind it, each once.
 */
public final class DetailsToggle extends VBox {

    private final Hyperlink toggle = new Hyperlink("Show details");
    private final Label raw = new Label();

    public DetailsToggle(Collection<String> lines) {
        super(2);
        getStyleClass().add("details-toggle");
        raw.getStyleClass().addAll("mono", "details-raw");
        raw.setWrapText(true);
        raw.setText(String.join("\n", new LinkedHashSet<>(lines)));
        raw.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        raw.setVisible(false);
        raw.managedProperty().bind(raw.visibleProperty());
        toggle.setOnAction(e -> setShown(!raw.isVisible()));
        getChildren().addAll(toggle, raw);
        setVisible(!lines.isEmpty());
        managedProperty().bind(visibleProperty());
    }

    public void setShown(boolean shown) {
        raw.setVisible(shown);
        toggle.setText(shown ? "Hide details" : "Show details");
    }

    public boolean isShown() {
        return raw.isVisible();
    }

    public Hyperlink toggle() {
        return toggle;
    }

    public Label raw() {
        return raw;
    }
}
