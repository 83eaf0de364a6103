package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.check.NodeAcceptance;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
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

    static final String ITSELF = "this machine itself";

    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>();
    private final ComboBox<String> reference = new ComboBox<>();
    private final Label summary = new Label();
    private final TableView<NodeAcceptance.Expectation> table = new TableView<>();

    public AcceptanceView() {
        getStyleClass().add("acceptance-view");
        setSpacing(10);
        setPadding(new Insets(12));
        reference.setId("acceptance-reference");
        reference.getItems().add(ITSELF);
        reference.getItems().addAll(Samples.names());
        reference.getSelectionModel().select(ITSELF);
        summary.setId("acceptance-summary");
        summary.getStyleClass().add("title-4");
        summary.setWrapText(true);
        table.setId("acceptance-table");
        table.getColumns().add(column("Result", e -> e.outcome().name(), 70));
        table.getColumns().add(column("Expectation", NodeAcceptance.Expectation::name, 220));
        table.getColumns().add(column("Expected", NodeAcceptance.Expectation::expected, 240));
        table.getColumns().add(column("Measured", NodeAcceptance.Expectation::measured, 420));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY);
        VBox.setVgrow(table, Priority.ALWAYS);
        HBox top = new HBox(8, new Label("Expected profile:"), reference);
        top.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        getChildren().addAll(top, summary, table,
                new Label("Live checks (preflight, P2P, all-reduce busbw) run with 'fabricscope check node' on the node itself."));
        machine.addListener((o, was, now) -> refresh());
        reference.valueProperty().addListener((o, was, now) -> refresh());
        refresh();
    }

    private static TableColumn<NodeAcceptance.Expectation, String> column(String title,
            java.util.function.Function<NodeAcceptance.Expectation, String> f, double width) {
        TableColumn<NodeAcceptance.Expectation, String> c = new TableColumn<>(title);
        c.setCellValueFactory(cd -> new ReadOnlyStringWrapper(f.apply(cd.getValue())));
        c.setPrefWidth(width);
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("danger", "success", "text-muted");
                setText(empty ? null : item);
                if (!empty && title.equals("Result")) {
                    getStyleClass().add(item.equals("FAIL") ? "danger" : item.equals("PASS") ? "success" : "text-muted");
                }
            }
        });
        return c;
    }

    public ObjectProperty<LoadedMachine> machineProperty() {
        return machine;
    }

    public ComboBox<String> reference() {
        return reference;
    }

    public List<NodeAcceptance.Expectation> expectations() {
        return List.copyOf(table.getItems());
    }

    private void refresh() {
        LoadedMachine m = machine.get();
        MachineSnapshot s = m == null ? null : m.snapshot();
        if (s == null) {
            summary.setText("No machine loaded.");
            table.setItems(FXCollections.observableArrayList());
            return;
        }
        String ref = reference.getValue() == null ? ITSELF : reference.getValue();
        MachineSnapshot r = ref.equals(ITSELF) ? s : Samples.find(ref).map(x -> x.snapshot().get()).orElse(s);
        NodeAcceptance.Profile p = NodeAcceptance.profileOf(r, ref.equals(ITSELF) ? ITSELF : "sample " + ref,
                NodeAcceptance.DEFAULT_MIN_BUSBW_FRACTION);
        List<NodeAcceptance.Expectation> e = NodeAcceptance.compare(p, s, null);
        summary.setText(NodeAcceptance.summary(e));
        table.setItems(FXCollections.observableArrayList(e));
    }
}
