package dev.fabricscope.app.viewmodel;

import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The Acceptance tab's state: the machine shown against a reference (a bundled sample, or itself), one row per
 * expectation of {@code fabricscope check node} without the live checks, and the summary line. Computed on the UI
 * thread when the machine or the reference changes (a few dozen comparisons).
 */
public final class AcceptanceViewModel {

    /** The reference that is the machine itself. */
    public static final String ITSELF = "this machine itself";

    /** One expectation: PASS / FAIL / SKIP, its name, the expected and the measured value. */
    public record Row(String result, String expectation, String expected, String measured) {
    }

    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final StringProperty reference = new SimpleStringProperty(this, "reference", ITSELF);
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary");
    private final ReadOnlyObjectWrapper<List<Row>> rows = new ReadOnlyObjectWrapper<>(this, "rows", List.of());

    public AcceptanceViewModel() {
        machine.addListener((o, was, now) -> refresh());
        reference.addListener((o, was, now) -> refresh());
        refresh();
    }

    public ObjectProperty<LoadedMachine> machineProperty() { return machine; }
    /** {@link #ITSELF} or a sample's name; null means itself. */
    public StringProperty referenceProperty() { return reference; }
    public ReadOnlyStringProperty summaryProperty() { return summary.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<List<Row>> rowsProperty() { return rows.getReadOnlyProperty(); }

    /** What the machine can be compared with: itself, then every bundled sample. */
    public List<String> references() {
        List<String> out = new ArrayList<>();
        out.add(ITSELF);
        out.addAll(Samples.names());
        return out;
    }

    private void refresh() {
        LoadedMachine m = machine.get();
        MachineSnapshot s = m == null ? null : m.snapshot();
        if (s == null) {
            summary.set("No machine loaded.");
            rows.set(List.of());
            return;
        }
        String ref = reference.get() == null ? ITSELF : reference.get();
        MachineSnapshot r = ref.equals(ITSELF) ? s : Samples.find(ref).map(x -> x.snapshot().get()).orElse(s);
        NodeAcceptance.Profile p = NodeAcceptance.profileOf(r, ref.equals(ITSELF) ? ITSELF : "sample " + ref,
                NodeAcceptance.DEFAULT_MIN_BUSBW_FRACTION);
        List<NodeAcceptance.Expectation> e = NodeAcceptance.compare(p, s, null);
        summary.set(NodeAcceptance.summary(e));
        rows.set(e.stream().map(x -> new Row(x.outcome().name(), x.name(), x.expected(), x.measured())).toList());
    }
}
