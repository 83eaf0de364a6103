package dev.fabricscope.app.viewmodel;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.ReportChecks;

/**
 * What exports need from the report package ({@code dev.fabricscope.report}): a report for the machine on screen
 * with the advisor's verdicts for the deployment panel's deployment, rendered in one of the report formats, and
 * redaction of identifiers. Nothing is rendered here; the report package does it.
 */
public interface ReportPort {

    /** The report formats, as {@code fabricscope report --format} names them. */
    enum Format {
        JSON("json", "JSON", "*.json"),
        MARKDOWN("md", "Markdown", "*.md"),
        HTML("html", "HTML", "*.html");

        public final String cli;
        public final String title;
        public final String pattern;

        Format(String cli, String title, String pattern) {
            this.cli = cli;
            this.title = title;
            this.pattern = pattern;
        }

        public String extension() {
            return cli;
        }
    }

    /**
     * The report text: the machine's snapshot, the advisor's verdicts for {@code deployment}, live check results,
     * its provenance as the equivalent {@code fabricscope report} command; with identifiers replaced by stable
     * pseudonyms when {@code redact}.
     *
     * @param checks the checks run in the Checks tab on this machine, or null: then the results recorded with the
     *               report the machine was opened from, if any
     * @throws IllegalArgumentException a deployment the advisor rejects (one line)
     */
    String render(LoadedMachine machine, AdvisorPort.Deployment deployment, Format format, boolean redact, ReportChecks checks);

    /** The snapshot with identifiers replaced, as in a redacted report (for snapshot, text and graph exports). */
    MachineSnapshot redact(MachineSnapshot snapshot);
}
