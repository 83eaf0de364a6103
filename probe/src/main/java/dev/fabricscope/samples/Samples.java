package dev.fabricscope.samples;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.ProbeInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Bundled sample machines: captured from real hardware (JSON resources) and synthetic (built from public specs). */
public final class Samples {

    /** @param name short lower-case name; @param description one line */
    public record Sample(String name, String description, Supplier<MachineSnapshot> snapshot) {
    }

    private static final Map<String, Sample> ALL = new LinkedHashMap<>();

    static {
        captured("h200-vm", "captured/h200-vm.json",
                "CAPTURED: 1× NVIDIA H200 in a pass-through VM, driver 580.159.04 (NVLink hidden, no multicast)");
        SyntheticSamples.addTo((name, description, snapshot) -> ALL.put(name, new Sample(name, description, snapshot)));
    }

    private Samples() {
    }

    private static void captured(String name, String resource, String description) {
        if (Samples.class.getResource(resource) != null) {
            ALL.put(name, new Sample(name, description, () -> asCaptured(load(resource), description)));
        }
    }

    /** A saved live probe, relabelled: it is a capture from a real machine now, not this machine. */
    private static MachineSnapshot asCaptured(MachineSnapshot s, String description) {
        ProbeInfo p = s.probe();
        ProbeInfo captured = new ProbeInfo(p.toolVersion(), p.probedAt(), p.commandLine(), p.durationMs(),
                ProbeInfo.Origin.CAPTURED, description);
        return s.withProbe(captured);
    }

    private static MachineSnapshot load(String resource) {
        try (InputStream in = Samples.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing sample resource " + resource);
            }
            return SnapshotIO.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
        } catch (IOException | SnapshotIO.ReadException e) {
            throw new IllegalStateException("broken bundled sample " + resource + ": " + e.getMessage(), e);
        }
    }

    public static List<Sample> list() {
        return List.copyOf(ALL.values());
    }

    public static Optional<Sample> find(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }
}
