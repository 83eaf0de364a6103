package dev.fabricscope.io;

import dev.fabricscope.text.Escape;

/**
 * How an error names what it quotes from a file or device: one short line, controls escaped, a key in a path quoted
 * when it is no plain name. Used by the readers and writers of {@code io} and by every command's error line.
 */
public final class ErrorText {

    private ErrorText() {
    }

    /** Longest error message: a hostile file's names and values are quoted in errors, never in full. */
    static final int MAX_MESSAGE = 600;

    /** Jackson's location text ({@code [Source: REDACTED (…); line: 1, column: 30]}) says nothing to a user. */
    private static final java.util.regex.Pattern JACKSON_SOURCE =
            java.util.regex.Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

    /** Control characters shown as escapes, the whole cut to {@link #MAX_MESSAGE}: an error is always one short line. */
    public static String oneLineSafe(String message) {
        String m = message == null ? "unknown error" : JACKSON_SOURCE.matcher(message).replaceAll("line $1, column $2");
        StringBuilder sb = new StringBuilder(Math.min(m.length(), MAX_MESSAGE + 16));
        for (int i = 0; i < m.length() && sb.length() < MAX_MESSAGE; i++) {
            char c = m.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < m.length() && Character.isLowSurrogate(m.charAt(i + 1))) {
                sb.append(c).append(m.charAt(++i));
            } else if (c == '\n' || c == '\t' || Escape.invisible(c)) {
                sb.append(Escape.escaped(c));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= MAX_MESSAGE && m.length() > MAX_MESSAGE) {
            sb.append("…");
        }
        return sb.toString();
    }

    /** A map key or field name as it appears in an error path: plain names as they are, others quoted and cut. */
    public static String pathKey(String key) {
        if (key.matches("[A-Za-z0-9_:.\\-]{1,64}")) {
            return key;
        }
        String k = key.length() > 40 ? key.substring(0, 40) + "…" : key;
        return "[\"" + oneLineSafe(k).replace("\"", "\\\"") + "\"]";
    }
}
