package dev.fabricscope.app.viewmodel;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.report.RecordedChecks;
import dev.fabricscope.usecase.OpenSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * A machine on screen: its snapshot, where it came from, and its fabric graph (laid out off the FX thread).
 *
 * @param file   the report or snapshot file, or null
 * @param sample the sample's name, or null
 * @param trace  the native-call trace the live probe recorded (trace JSON, unredacted), or null
 * @param recorded the live checks the report file holds, with their date and machine (shown read-only), or null
 */
public record LoadedMachine(MachineSnapshot snapshot, Source source, Path file, String sample, FabricGraph graph,
                            String trace, RecordedChecks recorded) {

    public LoadedMachine(MachineSnapshot snapshot, Source source, Path file, String sample, FabricGraph graph) {
        this(snapshot, source, file, sample, graph, null, null);
    }

    public LoadedMachine(MachineSnapshot snapshot, Source source, Path file, String sample, FabricGraph graph, String trace) {
        this(snapshot, source, file, sample, graph, trace, null);
    }

    /** A machine opened from {@code file}, with the live checks the file records (when it is a report holding some). */
    public static LoadedMachine fromFile(MachineSnapshot snapshot, Path file, FabricGraph graph) {
        return new LoadedMachine(snapshot, Source.FILE, file, null, graph, null, OpenSnapshot.recordedChecks(file));
    }

    public enum Source { LIVE, FILE, SAMPLE }

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.systemDefault());

    /** Window title: what is shown. */
    public String title() {
        return "Fabricscope — " + subject();
    }

    /** "live machine", "report from HOST at TIME", "trace of HOST recorded at TIME" or "sample NAME (synthetic)". */
    public String subject() {
        return switch (source) {
            case LIVE -> "live machine";
            case FILE -> fileKind() + " " + host() + (replayed() ? " recorded at " : " at ") + probedAt();
            case SAMPLE -> "sample " + sample + (snapshot.probe() != null && snapshot.probe().origin() == ProbeInfo.Origin.SYNTHETIC
                    ? " (synthetic)" : " (captured from " + host() + " at " + probedAt() + ")");
        };
    }

    /**
     * The Services card: each NVIDIA service ({name, what is said of it}) as {@code show}'s Services lines say it —
     * fabric manager (with its version where read), IMEX, and NVLSM where NVLink5 GPUs need it; empty when none was read.
     */
    public java.util.List<String[]> services() {
        return dev.fabricscope.render.NodeText.serviceRows(snapshot);
    }

    /** Whether the file was a native-call trace, replayed to make this snapshot. */
    public boolean replayed() {
        return snapshot.probe() != null && snapshot.probe().origin() == ProbeInfo.Origin.REPLAYED;
    }

    /** "trace of" for a replayed native-call trace, else "report from" (a report or a snapshot). */
    public String fileKind() {
        return replayed() ? "trace of" : "report from";
    }

    public String host() {
        return snapshot.host() == null ? "unknown host" : snapshot.host().hostname().orElse("unknown host");
    }

    /** The probe time in local time, or "unknown time". */
    public String probedAt() {
        ProbeInfo p = snapshot.probe();
        if (p == null || p.probedAt() == null) {
            return "unknown time";
        }
        try {
            return WHEN.format(Instant.parse(p.probedAt()));
        } catch (DateTimeParseException e) {
            return p.probedAt();
        }
    }

    /** Whether this is the machine the app runs on, with a usable driver and at least one GPU. */
    public boolean liveWithGpus() {
        return source == Source.LIVE && snapshot.driver() != null && snapshot.driver().driverPresent() && !snapshot.gpus().isEmpty();
    }
}
