package dev.fabricscope.render.rack;

import dev.fabricscope.text.Words;
import dev.fabricscope.Version;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.render.ClusterText;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.text.Escape;

/**
 * A cluster folder as one self-contained HTML page ({@code cluster show --format html}): the drawing of its NVLink
 * domains inline as SVG (no script, no file or network fetch), then the merged view as {@code cluster show} prints it.
 */
public final class ClusterHtml {

    private ClusterHtml() {
    }

    public static String page(ClusterView v, RackModel m, boolean all) {
        String name = Escape.html(RackModel.tame(v.directory()), 300);
        StringBuilder h = new StringBuilder(256 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"generator\" content=\"Fabricscope ").append(Escape.html(Version.get(), 80))
                .append("\">\n<title>Cluster ").append(name).append("</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n<h1>Cluster ").append(name).append("</h1>\n<p class=\"sub\">")
                .append(Escape.html(counts(v, m), 1000)).append("</p>\n");
        h.append("<section class=\"drawing\">\n<h2>NVLink domains</h2>\n<figure>\n")
                .append(RackSvg.element(RackLayout.layout(m, FabricPalette.LIGHT))).append("</figure>\n</section>\n");
        h.append("<section class=\"merged\">\n<h2>Merged view</h2>\n<pre>").append(Escape.html(ClusterText.render(v, all)))
                .append("</pre>\n</section>\n<footer>Fabricscope ").append(Escape.html(Version.get(), 80))
                .append(" · cluster show --format html</footer>\n</body>\n</html>\n");
        return h.toString();
    }

    private static String counts(ClusterView v, RackModel m) {
        return Words.grouped(v.readable().size(), "readable node") + " · " + m.counts() + " · "
                + Words.grouped(m.outside().size(), "node") + " outside any domain"
                + (v.unreadable().isEmpty() ? "" : " · " + Words.grouped(v.unreadable().size(), "unreadable file"));
    }

    private static final String CSS = """
            body { font: 14px/1.45 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; margin: 24px;
                   overflow-wrap: break-word; }
            h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 1px solid #d0d7de; }
            .sub { margin: 0; font-size: 15px; color: #57606a; }
            figure { margin: 0; overflow-x: auto; } figure svg { max-width: 100%; height: auto; }
            pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; background: #f6f8fa;
                  padding: 8px; border: 1px solid #d0d7de; white-space: pre-wrap; }
            footer { margin-top: 28px; color: #57606a; font-size: 12px; border-top: 1px solid #d0d7de; padding-top: 6px; }
            """;
}
