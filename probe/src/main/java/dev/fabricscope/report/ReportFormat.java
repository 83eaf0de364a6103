package dev.fabricscope.report;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The report formats, as {@code fabricscope report --format} names them and the app's File menu offers them: the
 * one list both read.
 */
public enum ReportFormat {
    JSON("json", "JSON", "*.json"),
    MARKDOWN("md", "Markdown", "*.md"),
    HTML("html", "HTML", "*.html");

    /** The name on the command line, also the file extension. */
    public final String cli;
    /** The name for people. */
    public final String title;
    /** A file-name pattern for file dialogs. */
    public final String pattern;

    ReportFormat(String cli, String title, String pattern) {
        this.cli = cli;
        this.title = title;
        this.pattern = pattern;
    }

    public String extension() {
        return cli;
    }

    /** The format a file's extension asks for (.json, .md/.markdown, .html/.htm); JSON otherwise or for none. */
    public static ReportFormat forFile(Path file) {
        if (file == null || file.getFileName() == null) {
            return JSON;
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".md") || name.endsWith(".markdown")) {
            return MARKDOWN;
        }
        if (name.endsWith(".html") || name.endsWith(".htm")) {
            return HTML;
        }
        return JSON;
    }
}
