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

    /** Signals a problem already explained to the user, with the exit code to return. */
    public static final class SourceException extends Exception {
        public final int exitCode;

        public SourceException(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }
    }

    public boolean given() {
        return snapshot != null || sample != null;
    }

    /** The live checks recorded in the chosen report file, or null (a sample, a bare snapshot, a trace, none ran). */
    public dev.fabricscope.report.RecordedChecks recordedChecks() {
        return snapshot == null ? null : OpenSnapshot.recordedChecks(snapshot);
    }

    /** Loads the chosen machine; when none was chosen, {@code liveProbe}'s machine, or a usage error when that is null. */
    public MachineSnapshot load(java.util.function.Supplier<MachineSnapshot> liveProbe) throws SourceException {
        if (snapshot != null && sample != null) {
            throw new SourceException("give either --snapshot or --sample, not both", ExitCodes.USAGE);
        }
        if (sample != null) {
            return Samples.find(sample).orElseThrow(() -> new SourceException("unknown sample '" + sample
                    + "'; valid: " + String.join(", ", Samples.names()), ExitCodes.USAGE)).snapshot().get();
        }
        if (snapshot != null) {
            try {
                return OpenSnapshot.read(snapshot);
            } catch (SnapshotIO.ReadException e) {
                throw new SourceException(e.getMessage(), ExitCodes.BAD_INPUT);
            }
        }
        if (liveProbe == null) {
            throw new SourceException("give --snapshot FILE or --sample NAME", ExitCodes.USAGE);
        }
        return liveProbe.get();
    }
}
