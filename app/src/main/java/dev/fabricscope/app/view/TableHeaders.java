package dev.fabricscope.app.view;

import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Control;
import javafx.scene.control.Labeled;
import javafx.scene.control.skin.TableColumnHeader;

/**
 * Column headers drawn whole: each column of a table is at least as wide as its title, so a narrow window shrinks
 * (and wraps) the cells, never cuts "Memory" to "Mem…". Measured once the table's skin has styled its headers.
 */
final class TableHeaders {

    /** Room beside a title in its header: padding and the sort arrow. */
    private static final double AIR = 22;

    private TableHeaders() {
    }

    /** Keeps every column of {@code table} (a TableView or TreeTableView) at least as wide as its header's title. */
    static void keepWhole(Control table) {
        table.skinProperty().addListener((o, was, skin) -> Platform.runLater(() -> fit(table)));
        table.sceneProperty().addListener((o, was, scene) -> Platform.runLater(() -> fit(table)));
        if (table.getSkin() != null) {
            Platform.runLater(() -> fit(table));
        }
    }

    private static void fit(Control table) {
        table.applyCss();
        for (Node n : table.lookupAll(".column-header")) {
            if (n instanceof TableColumnHeader h && h.getTableColumn() != null) {
                Node label = h.lookup(".label");
                if (label instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
                    double w = Math.ceil(l.prefWidth(-1) + AIR);
                    if (h.getTableColumn().getMinWidth() < w) {
                        h.getTableColumn().setMinWidth(w);
                    }
                }
            }
        }
    }
}
