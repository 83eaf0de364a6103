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

    /**
     * A cell for names ({@code --enforce-disable-flashinfer-allreduce-fusion}, {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2}):
     * too long for the column, a name continues on the next line after a {@code -}, {@code _}, {@code .}, {@code /},
     * {@code =}, {@code :} or a space, or before a {@code (}, never in the middle of a word ({@code _set_envs_and_config} too).
     */
    public static <S> TableCell<S, String> nameCell(TableColumn<S, String> column) {
        TableCell<S, String> cell = new TableCell<>();
        wrap(cell, column.widthProperty(), (name, room) -> breakName(name, room, cell.getFont()));
        return cell;
    }

    /** {@code name} with a newline after the last separator that keeps each line within {@code room} pixels. */
    static String breakName(String name, double room, javafx.scene.text.Font font) {
        if (name == null || name.contains("\n")) {
            return name;
        }
        Text measure = new Text();
        measure.setFont(font);
        java.util.function.ToDoubleFunction<String> width = t -> {
            measure.setText(t);
            return measure.getLayoutBounds().getWidth();
        };
        if (width.applyAsDouble(name) <= room) {
            return name;
        }
        StringBuilder out = new StringBuilder();
        String line = "";
        for (String piece : name.split("(?<=[-_./=(: ])(?=[^-_./=(: ])|(?<=[^ ])(?=\\()")) {
            if (!line.isEmpty() && width.applyAsDouble(line + piece) > room) {
                out.append(line).append('\n');
                line = piece;
            } else {
                line += piece;
            }
        }
        return out.append(line).toString();
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
        wrap(cell, width, (t, room) -> t);
    }

    /**
     * As {@link #wrap(Cell, javafx.beans.value.ObservableDoubleValue)}, the shown text shaped by {@code shape} given the
     * room it has in pixels.
     */
    static void wrap(Cell<?> cell, javafx.beans.value.ObservableDoubleValue width,
                     java.util.function.BiFunction<String, Double, String> shape) {
        Text text = new Text();
        text.getStyleClass().add("wrapping-cell-text");
        javafx.beans.binding.DoubleBinding room = javafx.beans.binding.Bindings.createDoubleBinding(() -> Math.max(20, width.get() - 14), width);
        text.wrappingWidthProperty().bind(room);
        text.fillProperty().bind(cell.textFillProperty());
        text.fontProperty().bind(cell.fontProperty());
        SafeText.bind(text.textProperty(), javafx.beans.binding.Bindings.createStringBinding(
                () -> cell.isEmpty() || cell.getItem() == null ? null : shape.apply(ShownText.cell(String.valueOf(cell.getItem())), room.get()),
                cell.itemProperty(), cell.emptyProperty(), room, cell.fontProperty()));
        // a little air above and below: the row is as tall as the wrapped text
        javafx.scene.layout.StackPane box = new javafx.scene.layout.StackPane(text);
        box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        box.setPadding(new javafx.geometry.Insets(4, 0, 4, 0));
        cell.setGraphic(box);
        cell.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        cell.setText(null);
    }
}
