package dev.fabricscope.usecase;

import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportDiffer;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Path;

/** What differs between two reports, snapshots or traces, most important first: {@code fabricscope diff} and the app's compare page. */
public final class Compare {

    /** Two files (untrusted), each with the name the differences call it by. */
    public record Request(Path left, String leftName, Path right, String rightName) {
        /** Each side named by its path as given. */
        public static Request of(Path left, Path right) {
            return new Request(left, left.toString(), right, right.toString());
        }
    }

    /** @param diff the differences; {@code diff.identical()} when there are none */
    public record Result(ReportDiff diff) {
        public boolean identical() {
            return diff.identical();
        }
    }

    /** Reads both (one-line {@code UNREADABLE_INPUT} errors) and compares them. */
    public Result compare(Request request) throws UseCaseException {
        Report a = read(request.left());
        Report b = read(request.right());
        return new Result(ReportDiffer.compare(a, request.leftName(), b, request.rightName()));
    }

    private static Report read(Path file) throws UseCaseException {
        try {
            // a trace compares as the snapshot its replay makes; findings are this version's, never the stored ones
            return OpenSnapshot.judged(ReportIO.read(file, OpenSnapshot.TRACES));
        } catch (SnapshotIO.ReadException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
    }
}
