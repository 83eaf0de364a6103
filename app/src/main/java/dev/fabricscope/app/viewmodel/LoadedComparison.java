package dev.fabricscope.app.viewmodel;

import dev.fabricscope.diff.ReportDiff;
import java.nio.file.Path;

/** Two reports (or snapshots) compared: the files and the differences that matter, most important first. */
public record LoadedComparison(Path left, Path right, ReportDiff diff) {
}
