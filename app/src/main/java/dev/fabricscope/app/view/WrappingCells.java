package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.ShownText;
import javafx.scene.control.Cell;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;

/**
 * Table cells that wrap their text onto more lines instead of cutting it with an ellipsis; the row grows to fit.
 * The text is a {@link Text} graphic whose wrapping width follows the column, coloured like the cell's own text; a
 * value longer than a cell holds is cut as the CLI's tables cut it ({@link ShownText#cell}), so one hostile value
 * cannot push the row's other cells off the screen.
 */
public final class WrappingCells {

    private WrappingCells() {
    }

    /** A cell for one column whose values are plain strings. */
    public static <S> TableCell<S, String> cell(TableColumn<S, String> column) {
        TableCell<S, String> cell = new TableCell<>();
        wrap(cell, column.widthProperty());
        return cell;
    }

    /** Gives every string column of {@code table} that still has the default cell factory wrapping cells. */
    @SuppressWarnings("unchecked")
    public static <S> void apply(TableView<S> table) {
        TableColumn<S, ?> probe = new TableColumn<>();
        for (TableColumn<S, ?> c : table.getColumns()) {
            if (c.getCellFactory() == probe.getCellFactory()) {
                TableColumn<S, String> sc = (TableColumn<S, String>) c;
                sc.setCellFactory(WrappingCells::cell);
            }
        }
    }

    /** Makes {@code cell} show its item's text as a wrapping graphic as wide as {@code width} allows. */
    static void wrap(Cell<?> cell, javafx.beans.value.ObservableDoubleValue width) {
        Text text = new Text();
        text.getStyleClass().add("wrapping-cell-text");
        text.wrappingWidthProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                () -> Math.max(20, width.get() - 14), width));
        text.fillProperty().bind(cell.textFillProperty());
        text.fontProperty().bind(cell.fontProperty());
        SafeText.bind(text.textProperty(), javafx.beans.binding.Bindings.createStringBinding(
                () -> cell.isEmpty() || cell.getItem() == null ? null : ShownText.cell(String.valueOf(cell.getItem())),
                cell.itemProperty(), cell.emptyProperty()));
        // a little air above and below: the row is as tall as the wrapped text
        javafx.scene.layout.StackPane box = new javafx.scene.layout.StackPane(text);
        box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        box.setPadding(new javafx.geometry.Insets(4, 0, 4, 0));
        cell.setGraphic(box);
        cell.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        cell.setText(null);
    }
}
