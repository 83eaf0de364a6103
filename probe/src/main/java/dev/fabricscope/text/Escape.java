package dev.fabricscope.text;

/**
 * The one sanitiser for untrusted text (a report, a driver's string) on its way to a terminal, a page, a drawing or a
 * label, and its escaping for HTML and GitHub Markdown. Control, format (bidi, zero-width) and separator characters,
 * and lone surrogates, are shown as {@code \}{@code uXXXX} so nothing invisible reaches the output; long values are
 * cut and say by how much. Depends on nothing, so every layer may use it.
 */
public final class Escape {

    private Escape() {
    }

    /**
     * Cuts {@code s} to {@code max} characters (never inside a surrogate pair), saying how many were left out:
     * {@code NVIDIA H200 NNN… (99000 more characters)}. The one wording of a cut value in every text output and the app.
     */
    public static String cut(String s, int max) {
        if (s == null) {
            return "";
        }
        if (s.length() <= max) {
            return s;
        }
        int end = max;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "… (" + (s.length() - end) + " more characters)";
    }

    /** Room {@link #fit} leaves for the marker: "… (" + up to ten digits + " more characters)". */
    public static final int MARKER_ROOM = 30;

    /**
     * {@code s} in at most {@code max} characters, the marker included ({@link #cut} to {@code max - }{@value
     * #MARKER_ROOM}), so fitting what was fitted changes nothing.
     */
    public static String fit(String s, int max) {
        return s == null || s.length() <= max ? s : cut(s, Math.max(1, max - MARKER_ROOM));
    }

    /**
     * The one rule for what must never reach a terminal, page, drawing or label as itself: C0 and C1 controls, DEL,
     * format characters (bidi overrides such as U+202E, zero-width joiners, the BOM), line and paragraph separators,
     * lone surrogates and the U+FFF0–U+FFFF specials. {@code \n} and {@code \t} are left to the caller.
     */
    public static boolean invisible(char c) {
        int t = Character.getType(c);
        return t == Character.CONTROL || t == Character.FORMAT || t == Character.LINE_SEPARATOR
                || t == Character.PARAGRAPH_SEPARATOR || t == Character.SURROGATE || t == Character.UNASSIGNED && c >= 0xfff0;
    }

    /** {@code c} as the visible escape {@code \}{@code uXXXX}. */
    public static String escaped(char c) {
        return String.format("\\u%04x", (int) c);
    }

    /** Invisible and line-breaking characters as {@code \}{@code uXXXX}; newlines and tabs kept when {@code multiline}. */
    public static String visible(String s, boolean multiline) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean bad;
            if (c == '\n' || c == '\t') {
                bad = !multiline;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (sb != null) {
                    sb.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            } else {
                bad = invisible(c);
            }
            if (bad && sb == null) {
                sb = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (sb != null) {
                if (!bad) {
                    sb.append(c);
                } else if (c == '\n' || c == '\t') {
                    sb.append(' ');
                } else {
                    sb.append(escaped(c));
                }
            }
        }
        return sb == null ? s : sb.toString();
    }

    /** Text for HTML element content and double- or single-quoted attribute values. */
    public static String html(String s) {
        String v = visible(s, true);
        StringBuilder sb = new StringBuilder(v.length() + 16);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            appendHtml(sb, c);
        }
        return sb.toString();
    }

    private static void appendHtml(StringBuilder sb, char c) {
        switch (c) {
            case '&' -> sb.append("&amp;");
            case '<' -> sb.append("&lt;");
            case '>' -> sb.append("&gt;");
            case '"' -> sb.append("&quot;");
            case '\'' -> sb.append("&#39;");
            default -> sb.append(c);
        }
    }

    /** Longest run without a break opportunity in {@link #htmlBreakable}. */
    static final int RUN = 24;

    /**
     * HTML element content, cut to {@code max}, with a {@code <wbr>} every {@value #RUN} characters of a run without
     * spaces or hyphens, so a long token wraps instead of widening its table.
     */
    public static String htmlBreakable(String s, int max) {
        String v = visible(cut(s, max), true);
        StringBuilder sb = new StringBuilder(v.length() + 16);
        int run = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (Character.isWhitespace(c) || c == '-') {
                run = 0;
            } else if (++run > RUN && !Character.isLowSurrogate(c)) {
                sb.append("<wbr>");
                run = 1;
            }
            appendHtml(sb, c);
        }
        return sb.toString();
    }

    /** HTML text, cut to {@code max} characters first. */
    public static String html(String s, int max) {
        return html(cut(s, max));
    }

    /**
     * Inline GitHub Markdown text (a paragraph, list item or table cell): one line, every character Markdown or
     * HTML would interpret escaped, {@code @mention}s defused with a zero-width space, cut to {@code max}.
     */
    public static String md(String s, int max) {
        String v = visible(cut(s, max), false);
        StringBuilder sb = new StringBuilder(v.length() + 16);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '\\', '`', '*', '_', '[', ']', '|', '~', '#', '$', '!', '{', '}' -> sb.append('\\').append(c);
                case '@' -> sb.append("@\u200b");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A fenced code block holding {@code content} verbatim: the fence is longer than any backtick run inside. */
    public static String mdFence(String content, String info) {
        String v = visible(content, true);
        int run = 0;
        int longest = 0;
        for (int i = 0; i < v.length(); i++) {
            run = v.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(Math.max(3, longest + 1));
        return fence + (info == null ? "" : info) + "\n" + v + (v.endsWith("\n") ? "" : "\n") + fence + "\n";
    }

    /** {@code url} with every character outside a conservative safe set percent-encoded (only https links are made). */
    public static String url(String url) {
        if (url == null || !url.startsWith("https://")) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (byte b : url.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~/:#!$+,;=%?".indexOf(c) >= 0)) {
                sb.append((char) c);
            } else {
                sb.append('%').append(String.format("%02X", c));
            }
        }
        return sb.toString();
    }

    /** JSON text with lone surrogates written as escapes, so it encodes as UTF-8 and still reads back the same. */
    public static String jsonSafe(String json) {
        StringBuilder sb = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            boolean lone = Character.isHighSurrogate(c) ? !(i + 1 < json.length() && Character.isLowSurrogate(json.charAt(i + 1)))
                    : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(json.charAt(i - 1)));
            if (lone && sb == null) {
                sb = new StringBuilder(json.length() + 16).append(json, 0, i);
            }
            if (sb != null) {
                if (lone) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? json : sb.toString();
    }
}
