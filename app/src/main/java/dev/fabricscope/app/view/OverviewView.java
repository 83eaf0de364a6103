package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Finding;
import dev.fabricscope.render.FindingFolds;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.fabric.FabricBoxes;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.geometry.Insets;
import javafx.geometry.VPos;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The Overview tab: where the machine comes from, findings first, host / driver / NCCL facts, the GPU table. */
public final class OverviewView extends ScrollPane {

    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final Label source = new Label();
    private final Label description = new Label();
    private final VBox findings = new VBox(6);
    private final FlowPane facts = new FlowPane(14, 14);
    private final TableView<Gpu> gpus = new TableView<>();
    private final VBox body;

    public OverviewView() {
        getStyleClass().addAll("overview", "edge-to-edge");
        setFitToWidth(true);
        source.getStyleClass().add("title-3");
        source.setWrapText(true);
        description.setWrapText(true);
        description.getStyleClass().add("text-muted");
        findings.getStyleClass().add("findings");
        Label findingsTitle = section("Findings");
        Label factsTitle = section("Machine");
        Label gpusTitle = section("GPUs");
        buildTable();
        body = new VBox(10, source, description, findingsTitle, findings, factsTitle, facts, gpusTitle, gpus);
        body.setPadding(new Insets(18, 22, 22, 22));
        VBox.setVgrow(gpus, Priority.ALWAYS);
        setContent(body);
        // no "No content in table" while the machine is on its way: the table shows once there is one
        gpus.setPlaceholder(new Label(""));
        gpus.visibleProperty().bind(machine.isNotNull());
        gpus.managedProperty().bind(gpus.visibleProperty());
        machine.addListener((o, was, now) -> show(now));
        show(null);
    }

    public ObjectProperty<LoadedMachine> machineProperty() {
        return machine;
    }

    public TableView<Gpu> gpuTable() {
        return gpus;
    }

    private static Label section(String text) {
        Label l = new Label(text);
        l.getStyleClass().addAll("title-4", "section-title");
        return l;
    }

    private void show(LoadedMachine m) {
        findings.getChildren().clear();
        facts.getChildren().clear();
        if (m == null) {
            source.setText("No machine loaded yet");
            description.setText("What is being opened shows in the status bar below. Open a report, a sample or a cluster folder from the File menu meanwhile.");
            gpus.getItems().clear();
            return;
        }
        MachineSnapshot s = m.snapshot();
        ProbeInfo p = s.probe();
        source.setText(switch (m.source()) {
            case LIVE -> "Live machine " + m.host() + " — probed " + m.probedAt()
                    + (p != null && p.durationMs() != null ? " in " + p.durationMs() + " ms" : "");
            case FILE -> m.replayed() ? "Trace of " + m.host() + " recorded at " + m.probedAt() + ", replayed"
                    : "Report from " + m.host() + " at " + m.probedAt();
            case SAMPLE -> "Sample " + m.sample() + (p != null && p.origin() == ProbeInfo.Origin.SYNTHETIC ? " — SYNTHETIC" : " — captured");
        });
        String desc = m.source() == LoadedMachine.Source.FILE ? m.file().toString() : "";
        if (p != null && p.description() != null) {
            desc = desc.isEmpty() ? p.description() : desc + "\n" + p.description();
        }
        if (p != null && p.toolVersion() != null) {
            desc = (desc.isEmpty() ? "" : desc + "\n") + "Fabricscope " + p.toolVersion()
                    + (p.commandLine().isEmpty() ? "" : " · " + String.join(" ", p.commandLine()));
        }
        description.setText(desc);
        // on a live machine without a driver the banner above says so once; the findings do not repeat it
        boolean bannerSaysIt = m.source() == LoadedMachine.Source.LIVE && s.driver() != null && !s.driver().driverPresent();
        // the same finding on several GPUs is one row about all of them (GPU0–7), as show and the reports fold it
        List<Finding> shown = FindingFolds.of(s).stream().filter(f -> !(bannerSaysIt && DRIVER_FINDINGS.contains(f.code()))).toList();
        if (shown.isEmpty()) {
            Label none = new Label(shown.size() < s.findings().size() ? "Nothing else to report (the driver is named above)."
                    : "Nothing to report: no warnings for this machine.");
            none.getStyleClass().add("text-muted");
            findings.getChildren().add(none);
        }
        for (Finding f : shown) {
            findings.getChildren().add(findingRow(f));
        }
        facts.getChildren().addAll(hostCard(s.host()), driverCard(s.driver()), ncclCard(s.driver()));
        List<String[]> services = m.services();
        if (!services.isEmpty()) {
            facts.getChildren().add(card("Services", services.toArray(String[][]::new)));
        }
        if (s.pythonStack() != null) {
            facts.getChildren().add(stackCard(s));
        }
        gpus.getItems().setAll(s.gpus());
        gpus.setPrefHeight(Math.max(130, 48 + 40 * Math.max(2, s.gpus().size())));
        if (s.gpus().isEmpty()) {
            gpus.setPlaceholder(new Label(s.driver() != null && !s.driver().driverPresent()
                    ? "No GPUs: the NVIDIA driver is not there to list them." : "No GPUs in this snapshot"));
        }
    }

    /** The findings a missing or partial driver raises; the live banner states them. */
    static final java.util.Set<String> DRIVER_FINDINGS = java.util.Set.of("no-driver", "partial-driver");

    private static HBox findingRow(Finding f) {
        Label badge = new Label(f.severity().name());
        badge.getStyleClass().addAll("badge", "badge-" + f.severity().name().toLowerCase(Locale.ROOT));
        badge.setMinWidth(Region.USE_PREF_SIZE);
        javafx.scene.layout.StackPane badgeBox = new javafx.scene.layout.StackPane(badge);
        badgeBox.setAlignment(javafx.geometry.Pos.TOP_LEFT);
        badgeBox.setMinWidth(Region.USE_PREF_SIZE);
        badgeBox.setPrefWidth(84);
        String words = f.message();
        List<String> raw = List.of();
        if (DRIVER_FINDINGS.contains(f.code()) && f.message() != null && f.message().contains(": ")) {
            words = f.message().substring(0, f.message().indexOf(": "));
            raw = List.of(f.message().substring(f.message().indexOf(": ") + 2));
        }
        Label text = new Label((f.subject() == null ? "" : f.subject() + ": ") + words);
        text.setWrapText(true);
        text.setTooltip(new Tooltip(f.code()));
        VBox textBox = new VBox(2, text, new DetailsToggle(raw));
        HBox.setHgrow(textBox, Priority.ALWAYS);
        HBox row = new HBox(10, badgeBox, textBox);
        row.getStyleClass().add("finding-row");
        return row;
    }

    private static VBox card(String title, String[][] rows) {
        return card(title, rows, List.of());
    }

    /** A titled card of key/value rows; {@code raw}: the calls and errors behind its "not available" values. */
    private static VBox card(String title, String[][] rows, List<String> raw) {
        GridPane g = new GridPane();
        g.setHgap(12);
        g.setVgap(4);
        for (int i = 0; i < rows.length; i++) {
            Label k = new Label(rows[i][0]);
            k.getStyleClass().add("details-key");
            k.setMinWidth(Region.USE_PREF_SIZE);
            GridPane.setValignment(k, VPos.TOP);
            Label v = new Label(rows[i][1]);
            v.setWrapText(true);
            v.setMaxWidth(360);
            v.setMinHeight(Region.USE_PREF_SIZE);
            g.addRow(i, k, v);
        }
        Label t = new Label(title);
        t.getStyleClass().add("card-title");
        VBox box = new VBox(8, t, g, new DetailsToggle(raw));
        box.getStyleClass().add("fact-card");
        box.setPadding(new Insets(12, 14, 12, 14));
        box.setPrefWidth(400);
        return box;
    }

    /** A reading for a card, in words: the value, or why it is missing without the raw call (which goes to {@code raw}). */
    static String words(Reading<?> r, List<String> raw) {
        if (r == null) {
            return "unknown";
        }
        if (r.isPresent()) {
            return String.valueOf(r.value());
        }
        raw.add(r.missing().describe());
        return switch (r.missing().kind()) {
            case UNSUPPORTED, SYMBOL_MISSING -> "not supported here";
            case NOT_APPLICABLE -> "not applicable";
            case UNAVAILABLE -> "not available";
            case INVALID -> "invalid answer";
            case ERROR -> "could not be read";
        };
    }

    /** An enum-like state ({@code NOT_SUPPORTED}) in words ({@code not supported}). */
    static String stateWords(String state) {
        return state == null ? "" : state.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static VBox hostCard(HostInfo h) {
        if (h == null) {
            return card("Host", new String[][] {{"Host", "unknown"}});
        }
        List<String> raw = new java.util.ArrayList<>();
        String numa = words(h.numaNodes(), raw);
        if (h.numaNodes().isPresent()) {
            List<HostInfo.NumaNode> all = h.numaNodes().value();
            List<HostInfo.NumaNode> memoryOnly = all.stream().filter(n -> n.cpus() == null || n.cpus().isBlank()).toList();
            numa = all.stream().filter(n -> !memoryOnly.contains(n)).map(n -> n.id() + ": " + n.cpus()).collect(Collectors.joining(" · "));
            if (!memoryOnly.isEmpty()) {
                numa += (numa.isEmpty() ? "" : " · ") + memoryOnly.size() + " without CPUs (" + memoryOnly.get(0).id()
                        + (memoryOnly.size() > 1 ? "–" + memoryOnly.get(memoryOnly.size() - 1).id() : "") + ", e.g. GPU memory)";
            }
        }
        return card("Host", new String[][] {
                {"Hostname", words(h.hostname(), raw)}, {"OS", words(h.os(), raw)}, {"Kernel", words(h.kernel(), raw)},
                {"CPU", words(h.cpuModel(), raw) + " · " + h.logicalCpus().shortDisplay() + " logical CPUs"},
                {"NUMA nodes", numa}}, raw);
    }

    private static VBox driverCard(DriverInfo d) {
        if (d == null) {
            return card("Driver", new String[][] {{"Driver", "unknown"}});
        }
        List<String> raw = new java.util.ArrayList<>();
        if (d.message() != null) {
            raw.add(d.message());
        }
        String imex = d.imexChannels().isPresent()
                ? (d.imexChannels().value().isEmpty() ? "none" : String.join(", ", d.imexChannels().value())) : words(d.imexChannels(), raw);
        return card("NVIDIA driver", new String[][] {
                {"Status", statusWords(d.status())}, {"Driver", words(d.driverVersion(), raw)},
                {"CUDA driver", words(d.cudaDriverVersion(), raw)}, {"NVML", words(d.nvmlVersion(), raw)},
                {"CUDA devices", words(d.cudaDeviceCount(), raw)}, {"IMEX channels", imex}}, raw);
    }

    static String statusWords(DriverInfo.Status s) {
        return switch (s) {
            case OK -> "loaded";
            case NOT_FOUND -> "not found";
            case INIT_FAILED -> "installed but not usable";
            case PARTIAL -> "partly usable";
            default -> stateWords(s.name());
        };
    }

    private static VBox ncclCard(DriverInfo d) {
        if (d == null || d.nccl() == null) {
            return card("NCCL", new String[][] {{"NCCL", "unknown"}});
        }
        List<String> raw = new java.util.ArrayList<>();
        return card("NCCL", new String[][] {
                {"Version", words(d.nccl().version(), raw)}, {"Library", words(d.nccl().path(), raw)},
                {"Searched", d.nccl().searched().isEmpty() ? "—" : String.join("\n", d.nccl().searched())}}, raw);
    }

    /** The Python environments (read from their files), one row each, as the text view lists them. */
    private static VBox stackCard(dev.fabricscope.model.MachineSnapshot s) {
        List<String[]> rows = dev.fabricscope.render.StackText.rows(s);
        String[][] cells = new String[rows.size()][];
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            cells[i] = new String[] {r[0], (r[1].isEmpty() ? "" : r[1] + "\n") + r[2] + (r[3].isEmpty() ? "" : "\nNCCL loaded: " + r[3])};
        }
        return stackedCard("Python stack", cells);
    }

    /**
     * A card whose keys are long (an environment's path): each key on a line of its own above its value, both as wide
     * as the card, instead of a key column that leaves the values a sliver.
     */
    private static VBox stackedCard(String title, String[][] rows) {
        Label t = new Label(title);
        t.getStyleClass().add("card-title");
        VBox box = new VBox(8, t);
        for (String[] r : rows) {
            Label k = new Label(r[0]);
            k.getStyleClass().add("details-key");
            k.setWrapText(true);
            k.setMinHeight(Region.USE_PREF_SIZE);
            Label v = new Label(r[1]);
            v.setWrapText(true);
            v.setMinHeight(Region.USE_PREF_SIZE);
            box.getChildren().add(new VBox(2, k, v));
        }
        box.getStyleClass().add("fact-card");
        box.setPadding(new Insets(12, 14, 12, 14));
        box.setPrefWidth(400);
        box.setId("pythonStackCard");
        return box;
    }

    private void buildTable() {
        gpus.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        gpus.getStyleClass().add("gpu-table");
        gpus.getColumns().add(column("GPU", g -> label(g), 60));
        gpus.getColumns().add(column("Name", g -> g.name().display(), 190));
        gpus.getColumns().add(column("CC", g -> g.computeCapability().shortDisplay(), 50));
        gpus.getColumns().add(column("Memory", g -> g.memoryTotalBytes().isPresent()
                ? String.format(Locale.ROOT, "%.0f GiB", g.memoryTotalBytes().value() / (1024.0 * 1024 * 1024)) : g.memoryTotalBytes().shortDisplay(), 80));
        gpus.getColumns().add(column("PCI", g -> g.pci().toString(), 110));
        gpus.getColumns().add(column("NUMA", g -> g.numaNode().shortDisplay(), 55));
        gpus.getColumns().add(column("MIG", g -> g.migMode().shortDisplay(), 75));
        gpus.getColumns().add(column("Virtualization", g -> g.virtualizationMode().shortDisplay(), 110));
        gpus.getColumns().add(column("Multicast", g -> yn(g.cuda().multicast()), 80));
        gpus.getColumns().add(column("Fabric", g -> g.fabric().state().isPresent() ? stateWords(g.fabric().state().value()) : g.fabric().state().shortDisplay(), 110));
        gpus.getColumns().add(column("NVLinks", g -> shortLinks(g), 150));
        WrappingCells.apply(gpus);
        TableHeaders.keepWhole(gpus);
        gpus.setRowFactory(t -> {
            TableRow<Gpu> row = new TableRow<>();
            row.setOnMouseEntered(e -> {
                Gpu g = row.getItem();
                row.setTooltip(g == null ? null
                        : new Tooltip(g.name().display() + "\nUUID " + g.uuid().display() + "\nNVLinks: " + nvlinkText(g)));
            });
            return row;
        });
    }

    private String label(Gpu g) {
        LoadedMachine m = machine.get();
        return m == null ? "?" : m.snapshot().label(g.pci());
    }

    private static String nvlinkText(Gpu g) {
        return FabricBoxes.nvlinkSummary(g);
    }

    private static String shortLinks(Gpu g) {
        String full = FabricBoxes.nvlinkSummary(g);
        return full.startsWith("state unknown") ? "unknown (hover)" : full.replace(" active", "").replace(" per direction", "")
                .replaceAll(", NVLink\\d", "");
    }

    private static String yn(Reading<Boolean> r) {
        return r.isPresent() ? (r.value() ? "yes" : "no") : r.shortDisplay();
    }

    private static TableColumn<Gpu, String> column(String title, Function<Gpu, String> value, double width) {
        TableColumn<Gpu, String> c = new TableColumn<>(title);
        c.setCellValueFactory(cd -> new SimpleStringProperty(value.apply(cd.getValue())));
        c.setPrefWidth(width);
        return c;
    }

    static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    static List<String> lines(String s) {
        return s == null ? List.of() : s.lines().toList();
    }
}
