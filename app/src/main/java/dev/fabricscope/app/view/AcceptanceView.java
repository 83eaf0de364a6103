package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.AcceptanceViewModel;
import dev.fabricscope.app.viewmodel.AcceptanceViewModel.Row;
import dev.fabricscope.app.viewmodel.LoadedMachine;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The field engineer's sign-off: the machine shown against a reference (a bundled sample, or itself), one row per
 * expectation with its measured value and PASS / FAIL / SKIP, the summary line first. The expectations are those of
 * {@code fabricscope check node} without the live checks (the GUI never runs native code; the Checks tab does).
 */
public final class AcceptanceView extends VBox {

    private final AcceptanceViewModel vm;
    private final ComboBox<String> reference = new ComboBox<>();
    private final Label summary = new Label();
    private final TableView<Row> table = new TableView<>();

    public AcceptanceView(AcceptanceViewModel vm) {
        this.vm = vm;
        getStyleClass().add("acceptance-view");
        setSpacing(10);
        setPadding(new Insets(12));
        reference.setId("acceptance-reference");
        reference.getItems().addAll(vm.references());
        reference.getSelectionModel().select(vm.referenceProperty().get());
        summary.setId("acceptance-summary");
        summary.getStyleClass().add("title-4");
        summary.setWrapText(true);
        table.setId("acceptance-table");
        table.setPlaceholder(new Label(""));
        table.getColumns().add(column("Result", Row::result, 70));
        table.getColumns().add(column("Expectation", Row::expectation, 220));
        table.getColumns().add(column("Expected", Row::expected, 240));
        table.getColumns().add(column("Measured", Row::measured, 420));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY);
        TableHeaders.keepWhole(table);
        VBox.setVgrow(table, Priority.ALWAYS);
        HBox top = new HBox(8, new Label("Expected profile:"), reference);
        top.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        getChildren().addAll(top, summary, table,
                new Label("Live checks (preflight, P2P, all-reduce busbw) run with 'fabricscope check node' on the node itself."));
        vm.referenceProperty().bind(reference.valueProperty());
        SafeText.bind(summary.textProperty(), vm.summaryProperty());
        vm.rowsProperty().addListener((o, was, now) -> table.setItems(FXCollections.observableArrayList(now)));
        table.setItems(FXCollections.observableArrayList(vm.rowsProperty().get()));
    }

    private static TableColumn<Row, String> column(String title, java.util.function.Function<Row, String> f, double width) {
        TableColumn<Row, String> c = new TableColumn<>(title);
        c.setCellValueFactory(cd -> new ReadOnlyStringWrapper(f.apply(cd.getValue())));
        c.setPrefWidth(width);
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("danger", "success", "text-muted");
                setText(empty ? null : item);
                // a long value (a GPU model, "no uncorrected errors, no remap failure") wraps, not cut with "…"
                setWrapText(true);
                if (!empty && title.equals("Result")) {
                    getStyleClass().add(item.equals("FAIL") ? "danger" : item.equals("PASS") ? "success" : "text-muted");
                }
            }
        });
        return c;
    }

    public ObjectProperty<LoadedMachine> machineProperty() {
        return vm.machineProperty();
    }

    public ComboBox<String> reference() {
        return reference;
    }

    public List<Row> rows() {
        return List.copyOf(table.getItems());
    }
}
