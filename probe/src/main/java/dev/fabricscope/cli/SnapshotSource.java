package dev.fabricscope.cli;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.usecase.OpenSnapshot;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --snapshot FILE | --sample NAME}, shared by every command that reads a machine. */
public final class SnapshotSource {

    @Option(names = "--snapshot", paramLabel = "FILE", description = "A saved snapshot or report (JSON).")
    Path snapshot;

    @Option(names = "--sample", paramLabel = "NAME", completionCandidates = Completions.Samples.class, description = "A bundled sample (see 'fabricscope samples').")
    String sample;

    public boolean given() {
        return snapshot != null || sample != null;
    }

    /** The live checks recorded in the chosen report file, or null (a sample, a bare snapshot, a trace, none ran). */
    public dev.fabricscope.report.RecordedChecks recordedChecks() {
        return snapshot == null ? null : OpenSnapshot.recordedChecks(snapshot);
    }

    /**
     * Loads the chosen machine; when none was chosen, {@code liveProbe}'s machine, or a usage error when that is null.
     * A file that cannot be read is its {@link SnapshotIO.ReadException} (exit 4 by {@link CliExceptionHandler}).
     */
    public MachineSnapshot load(java.util.function.Supplier<MachineSnapshot> liveProbe) throws CommandFailure, SnapshotIO.ReadException {
        if (snapshot != null && sample != null) {
            throw CommandFailure.of(ExitCodes.USAGE, "give either --snapshot or --sample, not both");
        }
        if (sample != null) {
            return Samples.find(sample).orElseThrow(() -> CommandFailure.of(ExitCodes.USAGE, "unknown sample '" + sample
                    + "'; valid: " + String.join(", ", Samples.names()))).snapshot().get();
        }
        if (snapshot != null) {
            return OpenSnapshot.read(snapshot);
        }
        if (liveProbe == null) {
            throw CommandFailure.of(ExitCodes.USAGE, "give --snapshot FILE or --sample NAME");
        }
        return liveProbe.get();
    }
}
