package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Reading;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * The Matrices tab: the {@code nvidia-smi topo -m} letters and every P2P capability as coloured GPU × GPU grids.
 * Each cell's tooltip names the pair and, for an unknown cell, the call that failed.
 */
public final class MatricesView extends ScrollPane {

    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final VBox body = new VBox(12);
    private final ObjectProperty<dev.fabricscope.app.viewmodel.CheckDisplay.Heatmap> measured = new SimpleObjectProperty<>(this, "measured");

    /** A P2P capability shown as one grid. */
    record Capability(String title, String help, Function<GpuPair, Reading<?>> value) {
    }

    static final List<Capability> CAPABILITIES = List.of(
            new Capability("P2P read", "nvmlDeviceGetP2PStatus(READ)", GpuPair::p2pRead),
            new Capability("P2P write", "nvmlDeviceGetP2PStatus(WRITE)", GpuPair::p2pWrite),
            new Capability("P2P over NVLink", "nvmlDeviceGetP2PStatus(NVLINK)", GpuPair::p2pNvlink),
            new Capability("P2P atomics", "nvmlDeviceGetP2PStatus(ATOMICS)", GpuPair::p2pAtomics),
            new Capability("PCIe P2P (prop)", "nvmlDeviceGetP2PStatus(PROP)", GpuPair::p2pProp),
            new Capability("CUDA peer access", "cuDeviceCanAccessPeer", GpuPair::cudaCanAccessPeer),
            new Capability("CUDA native atomics", "cuDeviceGetP2PAttribute(NATIVE_ATOMIC_SUPPORTED)", GpuPair::cudaNativeAtomics),
            new Capability("CUDA performance rank", "cuDeviceGetP2PAttribute(PERFORMANCE_RANK): lower is faster", GpuPair::cudaPerformanceRank));

    public MatricesView() {
        getStyleClass().addAll("matrices", "edge-to-edge");
        setFitToWidth(true);
        body.setPadding(new Insets(18, 22, 22, 22));
        setContent(body);
        machine.addListener((o, was, now) -> show(now));
        measured.addListener((o, was, now) -> show(machine.get()));
        show(null);
    }

    /** The P2P check's measured bandwidth, once it has run on this machine or as the report on screen recorded it; null hides it. */
    public ObjectProperty<dev.fabricscope.app.viewmodel.CheckDisplay.Heatmap> measuredProperty() {
        return measured;
    }

    public ObjectProperty<LoadedMachine> machineProperty() {
        return machine;
    }

    private void show(LoadedMachine m) {
        body.getChildren().clear();
        if (m == null || m.snapshot().gpus().isEmpty()) {
            Label l = new Label(m == null ? "No machine loaded." : "No GPUs in this snapshot: nothing to compare.");
            l.getStyleClass().add("text-muted");
            body.getChildren().add(l);
            return;
        }
        MachineSnapshot s = m.snapshot();
        Label t = new Label("Topology (as nvidia-smi topo -m)");
        t.getStyleClass().addAll("title-4", "section-title");
        body.getChildren().addAll(t, topology(s), legend());
        Label p = new Label("Peer-to-peer capabilities");
        p.getStyleClass().addAll("title-4", "section-title");
        FlowPane grids = new FlowPane(22, 18);
        if (s.gpus().size() < 2) {
            Label one = new Label("One GPU: there is no pair to compare.");
            one.getStyleClass().add("text-muted");
            grids.getChildren().add(one);
        }
        for (Capability c : s.gpus().size() < 2 ? List.<Capability>of() : CAPABILITIES) {
            grids.getChildren().add(capability(s, c));
        }
        body.getChildren().addAll(p, grids);
        Label measuredTitle = new Label("Measured P2P bandwidth");
        measuredTitle.getStyleClass().addAll("title-4", "section-title");
        body.getChildren().add(measuredTitle);
        if (measured.get() != null) {
            body.getChildren().add(ChecksView.heatmap(measured.get()));
        } else {
            Label hint = new Label(m.recorded() != null
                    ? "This report recorded no P2P check: run it in the Checks tab on the live machine to see measured bandwidth here."
                    : "Run the P2P check in the Checks tab (live machine only) to see measured bandwidth here.");
            hint.getStyleClass().add("text-muted");
            body.getChildren().add(hint);
        }
    }

    private static GridPane topology(MachineSnapshot s) {
        List<Gpu> gpus = s.gpus();
        GridPane g = grid();
        for (int j = 0; j < gpus.size(); j++) {
            g.add(header("GPU" + j), j + 1, 0);
        }
        g.add(header("CPU affinity"), gpus.size() + 1, 0);
        g.add(header("NUMA"), gpus.size() + 2, 0);
        for (int i = 0; i < gpus.size(); i++) {
            g.add(header("GPU" + i), 0, i + 1);
            for (int j = 0; j < gpus.size(); j++) {
                Label cell;
                if (i == j) {
                    cell = cell("X", "topo-x", "GPU" + i + " itself");
                } else {
                    GpuPair p = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                    Reading<String> r = p == null ? Reading.unavailable("pair not in the snapshot") : p.topology();
                    String text = r.isPresent() ? r.value() : "?";
                    cell = cell(text, topoClass(text), "GPU" + i + " ↔ GPU" + j + ": " + describeTopo(r)
                            + (p != null && p.pcieLevel().isPresent() ? "\nPCIe path: " + p.pcieLevel().value() : ""));
                }
                cell.setMinSize(52, 28);
                g.add(cell, j + 1, i + 1);
            }
            Label aff = new Label(gpus.get(i).cpuAffinity().shortDisplay());
            aff.getStyleClass().add("matrix-text");
            Label numa = new Label(gpus.get(i).numaNode().shortDisplay());
            numa.getStyleClass().add("matrix-text");
            g.add(aff, gpus.size() + 1, i + 1);
            g.add(numa, gpus.size() + 2, i + 1);
        }
        return g;
    }

    private static String describeTopo(Reading<String> r) {
        if (!r.isPresent()) {
            return r.display();
        }
        String v = r.value();
        if (v.startsWith("NV")) {
            return v + " — a bonded set of " + v.substring(2) + " NVLinks";
        }
        return v + " — " + switch (v) {
            case "PIX" -> "at most a single PCIe bridge";
            case "PXB" -> "multiple PCIe bridges, not through the host bridge";
            case "PHB" -> "through a PCIe host bridge (the CPU)";
            case "NODE" -> "between PCIe host bridges within a NUMA node";
            case "SYS" -> "across the SMP interconnect between NUMA nodes";
            default -> "unknown letter";
        };
    }

    static String topoClass(String letter) {
        if (letter.startsWith("NV")) {
            return "topo-nv";
        }
        return switch (letter) {
            case "PIX", "PXB" -> "topo-pix";
            case "PHB", "NODE" -> "topo-node";
            case "SYS" -> "topo-sys";
            default -> "topo-unknown";
        };
    }

    /** The letters' legend; a narrow window flows it onto a second line rather than cutting its words. */
    private static javafx.scene.layout.FlowPane legend() {
        javafx.scene.layout.FlowPane h = new javafx.scene.layout.FlowPane(8, 4);
        h.setAlignment(Pos.CENTER_LEFT);
        h.getChildren().addAll(cell("NV#", "topo-nv", "NVLink"), small("NVLink"), cell("PIX", "topo-pix", "PCIe switch"),
                small("PCIe switch (PIX/PXB)"), cell("NODE", "topo-node", "host bridge"), small("host bridge (PHB/NODE)"),
                cell("SYS", "topo-sys", "SMP interconnect"), small("across NUMA nodes"), cell("?", "topo-unknown", "unknown"),
                small("not readable (hover for the call)"));
        return h;
    }

    private static VBox capability(MachineSnapshot s, Capability c) {
        List<Gpu> gpus = s.gpus();
        GridPane g = grid();
        for (int j = 0; j < gpus.size(); j++) {
            g.add(header(String.valueOf(j)), j + 1, 0);
        }
        for (int i = 0; i < gpus.size(); i++) {
            g.add(header(String.valueOf(i)), 0, i + 1);
            for (int j = 0; j < gpus.size(); j++) {
                Label cell;
                if (i == j) {
                    cell = cell("", "topo-x", "GPU" + i);
                } else {
                    GpuPair p = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                    Reading<?> r = p == null ? Reading.unavailable("pair not in the snapshot") : c.value().apply(p);
                    String text = shortValue(r);
                    cell = cell(text, p2pClass(r), "GPU" + i + " ↔ GPU" + j + " · " + c.title() + ": " + r.display() + "\n" + c.help());
                }
                cell.setMinSize(34, 24);
                g.add(cell, j + 1, i + 1);
            }
        }
        Label title = new Label(c.title());
        title.getStyleClass().add("card-title");
        title.setTooltip(new Tooltip(c.help()));
        VBox box = new VBox(6, title, g);
        box.getStyleClass().add("fact-card");
        box.setPadding(new Insets(10, 12, 12, 12));
        return box;
    }

    static String shortValue(Reading<?> r) {
        if (!r.isPresent()) {
            return "?";
        }
        Object v = r.value();
        if (v instanceof Boolean b) {
            return b ? "yes" : "no";
        }
        return String.valueOf(v);
    }

    static String p2pClass(Reading<?> r) {
        if (!r.isPresent()) {
            return "topo-unknown";
        }
        Object v = r.value();
        if (v instanceof Boolean b) {
            return b ? "p2p-ok" : "p2p-no";
        }
        if (v instanceof Integer) {
            return "p2p-rank";
        }
        String s = String.valueOf(v).toUpperCase(Locale.ROOT);
        return switch (s) {
            case "OK" -> "p2p-ok";
            case "U" -> "topo-unknown";
            default -> "p2p-no";
        };
    }

    private static GridPane grid() {
        GridPane g = new GridPane();
        g.setHgap(3);
        g.setVgap(3);
        g.getStyleClass().add("matrix");
        return g;
    }

    private static Label header(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("matrix-header");
        l.setMinWidth(24);
        l.setAlignment(Pos.CENTER);
        return l;
    }

    private static Label small(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("text-muted");
        return l;
    }

    private static Label cell(String text, String styleClass, String tooltip) {
        Label l = new Label(text);
        l.getStyleClass().addAll("matrix-cell", styleClass);
        l.setAlignment(Pos.CENTER);
        l.setMinSize(44, 24);
        // created on first hover: a Tooltip per cell up front would cost hundreds of popup windows
        l.setOnMouseEntered(e -> {
            if (l.getTooltip() == null) {
                Tooltip t = new Tooltip(tooltip);
                t.setShowDelay(javafx.util.Duration.millis(150));
                l.setTooltip(t);
            }
        });
        l.getProperties().put("tooltip-text", tooltip);
        return l;
    }
}
