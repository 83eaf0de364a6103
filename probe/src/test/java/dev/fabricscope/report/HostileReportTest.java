package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.render.DiffText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hostile strings in every field: nothing they carry becomes markup, a script, a broken table or an invisible character. */
class HostileReportTest {

    private static final Set<String> HTML_TAGS = Set.of("html", "head", "meta", "title", "style", "body", "header", "h1", "h2",
            "h3", "h4", "p", "section", "dl", "dt", "dd", "ul", "li", "b", "code", "table", "tr", "th", "td", "small", "details",
            "summary", "pre", "div", "a", "footer", "figure", "thead", "wbr",
            // the fabric graph's SVG
            "svg", "g", "rect", "text", "path", "line", "circle", "tspan", "defs", "marker", "polygon", "polyline", "desc");
    private static final Set<String> MD_TAGS = Set.of("details", "summary", "sub");

    static Report hostile(String sample) throws Exception {
        return ReportFixtures.hostile(ReportFixtures.report(sample));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100", "h200-vm", "gb200-nvl72-tray"})
    void hostileStringsReachEveryField(String sample) throws Exception {
        Report r = hostile(sample);
        String json = ReportIO.toJson(r);
        assertTrue(json.contains("<script>alert('x')</script>"), "the JSON keeps values verbatim");
        assertTrue(r.snapshot().host().hostname().value().length() > 10, r.snapshot().host().hostname().value());
        for (var v : r.advice().verdicts()) {
            assertFalse(v.why().startsWith("synthetic"), v.why());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100", "h200-vm", "gb200-nvl72-tray"})
    void jsonRoundTripsExactly(String sample) throws Exception {
        Report r = hostile(sample);
        assertEquals(r, ReportIO.parse(ReportIO.toJson(r), "again"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100", "h200-vm", "gb200-nvl72-tray"})
    void htmlHasOnlyItsOwnMarkup(String sample) throws Exception {
        for (Report r : List.of(hostile(sample), Redactor.redact(hostile(sample)))) {
            String html = HtmlReport.render(r);
            noInvisible(html, "html");
            Matcher m = Pattern.compile("<(/?)([A-Za-z][A-Za-z0-9-]*)").matcher(html);
            List<String> open = new ArrayList<>();
            while (m.find()) {
                String tag = m.group(2).toLowerCase(Locale.ROOT);
                assertTrue(HTML_TAGS.contains(tag), "unexpected tag <" + m.group(1) + tag + "> at " + m.start() + ": "
                        + html.substring(Math.max(0, m.start() - 80), Math.min(html.length(), m.start() + 80)));
            }
            String lower = html.toLowerCase(Locale.ROOT);
            assertFalse(lower.contains("<script"), "script");
            Matcher tags = Pattern.compile("<[a-z][a-z0-9-]*([^>]*)>").matcher(lower);
            while (tags.find()) {
                String attrs = tags.group(1);
                assertFalse(Pattern.compile("\\son[a-z]+\\s*=|\\ssrc\\s*=|url\\(|javascript:").matcher(attrs).find(), "attribute: " + cut(tags.group()));
            }
            String css = lower.substring(lower.indexOf("<style>"), lower.indexOf("</style>"));
            assertFalse(css.contains("url(") || css.contains("@import"), "the style loads nothing");
            assertFalse(Pattern.compile("href\\s*=\\s*[\"']?\\s*javascript").matcher(lower).find(), "javascript: URL");
            assertFalse(Pattern.compile("href\\s*=\\s*[\"'](?!https://github\\.com/)").matcher(lower).find(), "a link off GitHub");
            assertFalse(lower.contains("<!--"), "comment");
            assertEquals(1, count(lower, "<style"), "only the report's own style element");
            assertEquals(count(lower, "<details"), count(lower, "</details>"));
            assertEquals(count(lower, "<table"), count(lower, "</table>"));
            assertTrue(r.redaction().applied() || html.replace("<wbr>", "").contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), "hostile text shown, escaped");
            assertTrue(html.contains(" more characters)"), "long values cut and say so");
            assertTrue(html.length() < 5_000_000, "bounded: " + html.length());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100", "h200-vm", "gb200-nvl72-tray"})
    void markdownHasOnlyItsOwnStructure(String sample) throws Exception {
        for (Report r : List.of(hostile(sample), Redactor.redact(hostile(sample)))) {
            String md = MarkdownReport.render(r);
            assertTrue(md.length() <= MarkdownReport.GITHUB_LIMIT, "length " + md.length());
            noInvisible(md.replace("\u200b", ""), "markdown");
            checkMarkdown(md);
        }
    }

    /** Tables keep their column count; fences close; outside code only the report's own HTML tags appear. */
    static void checkMarkdown(String md) {
        String fence = null;
        int columns = -1;
        int lineNo = 0;
        int details = 0;
        for (String line : md.split("\n", -1)) {
            lineNo++;
            if (fence != null) {
                if (line.startsWith(fence) && line.substring(fence.length()).isBlank()) {
                    fence = null;
                }
                continue;
            }
            Matcher f = Pattern.compile("^(`{3,})").matcher(line);
            if (f.find()) {
                fence = f.group(1);
                columns = -1;
                continue;
            }
            if (line.startsWith("|")) {
                int cells = unescapedPipes(line);
                if (columns < 0) {
                    columns = cells;
                }
                assertEquals(columns, cells, "line " + lineNo + " breaks its table: " + cut(line));
            } else {
                columns = -1;
            }
            assertFalse(Pattern.compile("@(?!\u200b)[A-Za-z]").matcher(line).find(), "an @mention outside code at line " + lineNo + ": " + cut(line));
            details += count(line, "<details>") - count(line, "</details>");
            assertTrue(details >= 0 && details <= 1, "details blocks unbalanced at line " + lineNo);
            Matcher m = Pattern.compile("<(/?)([A-Za-z][A-Za-z0-9-]*)").matcher(line);
            while (m.find()) {
                assertTrue(MD_TAGS.contains(m.group(2).toLowerCase(Locale.ROOT)), "raw tag in Markdown line " + lineNo + ": " + cut(line));
            }
            assertFalse(line.startsWith("#") && !line.startsWith("## Fabricscope report") && !line.startsWith("### "),
                    "injected heading at line " + lineNo + ": " + cut(line));
            assertFalse(Pattern.compile("(?<!\\\\)\\]\\(").matcher(line).find() && !line.contains("](https://github.com/"),
                    "injected link at line " + lineNo + ": " + cut(line));
        }
        assertEquals(null, fence, "a code fence is left open");
        assertEquals(0, details, "a details block is left open");
    }

    private static int unescapedPipes(String line) {
        int n = 0;
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '\\') {
                i++;
            } else if (line.charAt(i) == '|') {
                n++;
            }
        }
        return n;
    }

    static void noInvisible(String text, String what) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\t') {
                continue;
            }
            int t = Character.getType(c);
            boolean bad = t == Character.CONTROL || t == Character.FORMAT || t == Character.LINE_SEPARATOR
                    || t == Character.PARAGRAPH_SEPARATOR
                    || Character.isHighSurrogate(c) && !(i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1)))
                    || Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
            assertFalse(bad, what + " holds U+" + String.format("%04X", (int) c) + " at " + i + ": "
                    + cut(text.substring(Math.max(0, i - 40), Math.min(text.length(), i + 40))));
        }
    }

    static int count(String s, String sub) {
        int n = 0;
        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length())) {
            n++;
        }
        return n;
    }

    private static String cut(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100", "h200-vm"})
    void diffTextHasNoControlCharacters(String sample) throws Exception {
        Report a = ReportFixtures.report(sample);
        Report b = hostile(sample);
        String text = DiffText.render(ReportDiffer.compare(a, "a\u001b[2J.json", b, "b.json"));
        noInvisible(text, "diff text");
        assertTrue(text.contains("\\u001b[2J"), "the escape sequence is shown, not sent");
    }
}
