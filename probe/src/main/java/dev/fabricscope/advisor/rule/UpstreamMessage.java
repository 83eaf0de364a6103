package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.SourceRef;

/**
 * A framework's own words, verbatim (printf placeholders where upstream formats values in), with where upstream the
 * text was read. The enums implementing this hold every message a verdict can quote.
 */
public interface UpstreamMessage {

    /** The text as upstream prints it, with {@code %s}/{@code %d} where it formats values in. */
    String text();

    /** Where the text was read. */
    SourceRef source();

    /** The text with its placeholders filled in (the text itself when there are no arguments). */
    default String format(Object... args) {
        return args.length == 0 ? text() : String.format(text(), args);
    }
}
