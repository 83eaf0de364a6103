package dev.fabricscope.usecase;

import dev.fabricscope.io.ErrorText;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.report.RecordedChecks;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.topology.SnapshotAnalyzer;
import java.nio.file.Path;

/**
 * Opens a machine saved in a file: a snapshot or a report ({@link SnapshotIO}), or a native-call trace
 * ({@code probe --record}), which reads as the snapshot its replay produces. What every command that takes
 * {@code --snapshot}, the app's File → Open and a cluster folder's nodes share.
 */
public final class OpenSnapshot {

    /** Native-call traces, replayed through the unchanged probe; for readers below the probe ({@code io}, {@code cluster}). */
    public static final SnapshotIO.OtherFormats TRACES = new SnapshotIO.OtherFormats() {
        @Override
        public MachineSnapshot read(byte[] bytes, Path file, SnapshotIO.ReadException notASnapshot) throws SnapshotIO.ReadException {
            return replayTrace(bytes, file, notASnapshot);
        }

        @Override
        public boolean claims(byte[] bytes) {
            return TraceIO.looksLikeTrace(bytes);
        }
    };

    private OpenSnapshot() {
    }

    /**
     * {@code file} as a machine, judged again from its data: the findings are this version's, never the ones the file
     * stored (a report of an older version, or edited, says what its readings mean now). Every failure is one line.
     */
    public static MachineSnapshot read(Path file) throws SnapshotIO.ReadException {
        return judged(SnapshotIO.read(file, TRACES));
    }

    /**
     * The live checks recorded in the report {@code file} holds, with their date and machine; null for a bare
     * snapshot, a trace, a report without checks or a file that does not read (its machine's own reading says why).
     */
    public static RecordedChecks recordedChecks(Path file) {
        try {
            byte[] bytes = SnapshotIO.readBytes(file);
            if (TraceIO.looksLikeTrace(bytes)) {
                return null; // a trace holds no checks: not scanned again as a report
            }
            return RecordedChecks.of(ReportIO.parse(bytes, file.toString()));
        } catch (SnapshotIO.ReadException | RuntimeException e) {
            return null;
        }
    }

    /** {@code s} with the findings this version makes of its readings in place of the stored ones. */
    public static MachineSnapshot judged(MachineSnapshot s) {
        return s.withFindings(SnapshotAnalyzer.findings(s));
    }

    /**
     * A saved report with its machine judged again ({@link #judged(MachineSnapshot)}): what {@code report --from},
     * {@code diff} and the app's Compare show, so a report of an older version (or an edited one) never speaks with the
     * findings it stored. Its advice and check results stay as recorded.
     */
    public static Report judged(Report r) {
        return r.with(judged(r.snapshot()), r.advice(), r.checks(), r.redaction());
    }

    /**
     * The probe replayed over the trace in {@code file} ({@code probe --replay}); a report or snapshot given instead
     * is one line naming what it is and the command that opens it, never a parser's message.
     */
    public static MachineSnapshot replay(Path file) throws SnapshotIO.ReadException {
        byte[] bytes = SnapshotIO.readBytes(file);
        SnapshotIO.checkUtf8(bytes, file.toString());
        if (!TraceIO.looksLikeTrace(bytes)) {
            String what = savedMachine(bytes, file);
            throw new SnapshotIO.ReadException(file + ": " + (what != null
                    ? what + ", not a native-call trace; open it with 'fabricscope show --snapshot " + file + "'"
                    : "not a native-call trace (no \"format\": \"" + NativeTrace.FORMAT + "\"); 'fabricscope probe --record FILE' "
                            + "records one"));
        }
        try {
            return TraceReplay.replay(probeTrace(bytes, file), file.getFileName() == null ? file.toString()
                    : file.getFileName().toString());
        } catch (TraceIO.TraceFormatException e) {
            throw new SnapshotIO.ReadException(e.getMessage());
        }
    }

    /** "a Fabricscope report" or "a Fabricscope snapshot" when {@code bytes} read as one; null otherwise. */
    private static String savedMachine(byte[] bytes, Path file) {
        try {
            boolean report = SnapshotIO.checkEnvelope(bytes, file.toString());
            SnapshotIO.parse(bytes, file.toString());
            return report ? "a Fabricscope report" : "a Fabricscope snapshot";
        } catch (SnapshotIO.ReadException e) {
            return null;
        }
    }

    /** A trace's format is never a report's, so a trace always fails as a snapshot first: no scan of every file for one. */
    private static MachineSnapshot replayTrace(byte[] bytes, Path file, SnapshotIO.ReadException notASnapshot)
            throws SnapshotIO.ReadException {
        if (!TraceIO.looksLikeTrace(bytes)) {
            throw notASnapshot;
        }
        try {
            var trace = probeTrace(bytes, file);
            return TraceReplay.replay(trace, file.getFileName() == null ? file.toString() : file.getFileName().toString());
        } catch (TraceIO.TraceFormatException e) {
            throw new SnapshotIO.ReadException(e.getMessage());
        }
    }

    /** The probe's trace in {@code bytes}; a live check's trace is one line naming the command that replays it. */
    private static NativeTrace probeTrace(byte[] bytes, Path file) throws TraceIO.TraceFormatException, SnapshotIO.ReadException {
        NativeTrace trace = TraceIO.read(bytes, file.toString());
        if (trace.check() != null) {
            String check = ErrorText.oneLineSafe(trace.check().path("name").asText("?"));
            throw new SnapshotIO.ReadException(file + ": a trace of the live check " + check + ", not of a probe; "
                    + "replay it with 'fabricscope check " + check + " --replay " + file + "'");
        }
        return trace;
    }
}
