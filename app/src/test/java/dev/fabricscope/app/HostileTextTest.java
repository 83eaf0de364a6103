package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.json.Json;
import dev.fabricscope.text.Escape;
import dev.fabricscope.text.LongValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Control;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17: a report whose every string carries ESC, BEL, CR and U+202E (the bundled SYNTHETIC dgx-h100 sample, each
 * text value of its JSON given that tail) opened in every view of the app — the machine's tabs, a cluster of such
 * reports, one of its nodes, and a comparison — never puts a raw control or bidi character into a label, table
 * cell, text node, tooltip or the window title: they read as {@code \}{@code u001b} and so on, as in the CLI.
 */
@ExtendWith(ApplicationExtension.class)
class HostileTextTest {

    private static final String TAIL = "\u001b]0;owned\u0007\r\u202e\u001b[2J";
    /** Values that must stay parseable for the file to be a report at all (keys, enums, addresses). */
    private static final Set<String> KEEP = Set.of("pci", "a", "b", "format", "kind", "origin", "status", "severity");

    private AppHarness app;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        app = AppHarness.withoutLiveProbe(stage);
    }

    @Test
    void noRawControlOrBidiCharacterReachesTheScreen(FxRobot robot, @TempDir Path dir) throws Exception {
        Path clean = ReportFiles.write(dir.resolve("clean.json"), ReportFiles.before());
        JsonNode tree = Json.mapper().readTree(Files.readString(clean));
        ((ObjectNode) tree).remove(List.of("advice", "checks")); // the app advises the snapshot itself
        int[] planted = new int[1];
        poison(tree.get("snapshot"), "snapshot", planted);
        assertTrue(planted[0] > 500, planted[0] + " strings planted");
        Path clusterDir = Files.createDirectories(dir.resolve("cluster" + TAIL.replaceAll("[\\u0000-\\u001f\\u202e]", "")));
        Path report = Files.writeString(dir.resolve("hostile.json"), Json.write(tree));
        for (int i = 0; i < 3; i++) {
            Files.copy(report, clusterDir.resolve("node" + i + ".json"));
        }

        robot.interact(() -> app.vm.openFile(report));
        app.awaitIdle();
        visitEveryTab(robot, "the opened report");

        robot.interact(() -> app.vm.openCluster(clusterDir));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null && app.vm.getPage() == MainViewModel.Page.CLUSTER);
        check(robot, "the cluster page");
        String node = app.vm.getCluster().view().readable().get(0).name();
        assertTrue(node.contains("\u001b"), "the node's own name carries the planted characters");
        robot.interact(() -> app.cluster.openNode(node));
        AppHarness.await(() -> !app.vm.isBusy() && node.equals(app.vm.getClusterNode()));
        visitEveryTab(robot, "a node of the cluster");

        robot.interact(() -> app.vm.compare(clean, report));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getPage() == MainViewModel.Page.COMPARE);
        check(robot, "the comparison");
    }

    /**
     * Issue 25 item 5: every string of the report 3,000 characters long (a GPU name, a host name, a path…): no line of
     * any label, cell, text node, tooltip or the title is longer than {@link LongValues#MAX}, and the cut says so.
     */
    @Test
    void noLongValueReachesTheScreenWhole(FxRobot robot, @TempDir Path dir) throws Exception {
        Path clean = ReportFiles.write(dir.resolve("clean.json"), ReportFiles.before());
        JsonNode tree = Json.mapper().readTree(Files.readString(clean));
        ((ObjectNode) tree).remove(List.of("advice", "checks"));
        int[] planted = new int[1];
        poison(tree.get("snapshot"), "snapshot", planted, "\u0416".repeat(3 * LongValues.MAX));
        assertTrue(planted[0] > 500, planted[0] + " strings planted");
        Path report = Files.writeString(dir.resolve("long.json"), Json.write(tree));
        robot.interact(() -> app.vm.openFile(report));
        app.awaitIdle();
        assertTrue(app.vm.getMachine() != null, String.valueOf(app.vm.errorProperty().get()));
        int[] cut = new int[1];
        TabPane tabs = robot.lookup(".tab-pane").queryAs(TabPane.class);
        for (Tab t : List.copyOf(tabs.getTabs())) {
            robot.interact(() -> tabs.getSelectionModel().select(t));
            WaitForAsyncUtils.waitForFxEvents();
            AppHarness.await(() -> !app.vm.isBusy());
            shortLines(robot, "tab " + t.getText(), cut);
        }
        robot.interact(() -> app.vm.compare(clean, report));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getPage() == MainViewModel.Page.COMPARE);
        shortLines(robot, "the comparison", cut);
        assertTrue(cut[0] > 20, "cut values say so: " + cut[0]);
    }

    private void shortLines(FxRobot robot, String where, int[] cut) {
        WaitForAsyncUtils.waitForFxEvents();
        List<String> texts = new ArrayList<>();
        robot.interact(() -> {
            texts.add(stage.getTitle());
            for (Window w : Window.getWindows()) {
                if (w.getScene() != null) {
                    collect(w.getScene().getRoot(), texts);
                }
            }
        });
        for (String s : texts) {
            if (s == null) {
                continue;
            }
            for (String line : s.split("\n", -1)) {
                if (line.length() > LongValues.MAX) {
                    fail(where + ": a line of " + line.length() + " characters: " + line.substring(0, 80) + "…");
                }
            }
            cut[0] += s.contains(" more characters)") ? 1 : 0;
        }
        List<String> cells = new ArrayList<>();
        robot.interact(() -> robot.lookup(".wrapping-cell-text").queryAllAs(Text.class).forEach(t -> cells.add(t.getText())));
        for (String c : cells) {
            if (c != null && c.length() > dev.fabricscope.app.viewmodel.ShownText.CELL) {
                fail(where + ": a table cell of " + c.length() + " characters: " + c.substring(0, 80) + "…");
            }
        }
    }

    private static void collect(Node n, List<String> out) {
        if (n instanceof Labeled l) {
            out.add(l.getText());
        } else if (n instanceof Text t) {
            out.add(t.getText());
        }
        if (n instanceof Control c && c.getTooltip() != null) {
            out.add(c.getTooltip().getText());
        }
        if (n instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(k -> collect(k, out));
        }
    }

    /** A bound text cannot be corrected by the guard, so the app binds texts only through SafeText.bind. */
    @Test
    void everyTextBindingGoesThroughTheRule() throws Exception {
        Path src = Path.of("src/main/java");
        List<String> raw = new ArrayList<>();
        try (var files = Files.walk(src)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                if (text.matches("(?s).*\\.(text|title|headerText|contentText)Property\\(\\)\\.bind\\(.*")
                        && !f.endsWith("FabricscopeApp.java")) {
                    raw.add(src.relativize(f).toString());
                }
            }
        }
        assertTrue(raw.isEmpty(), "texts bound around SafeText.bind in " + raw);
    }

    private void visitEveryTab(FxRobot robot, String what) {
        TabPane tabs = robot.lookup(".tab-pane").queryAs(TabPane.class);
        for (Tab t : List.copyOf(tabs.getTabs())) {
            robot.interact(() -> tabs.getSelectionModel().select(t));
            WaitForAsyncUtils.waitForFxEvents();
            AppHarness.await(() -> !app.vm.isBusy());
            check(robot, what + ", tab " + t.getText());
        }
    }

    private void check(FxRobot robot, String where) {
        WaitForAsyncUtils.waitForFxEvents();
        List<String> bad = new ArrayList<>();
        int[] texts = new int[1];
        robot.interact(() -> {
            clean("window title", stage.getTitle(), bad, texts);
            for (Window w : Window.getWindows()) {
                if (w.getScene() != null) {
                    walk(w.getScene().getRoot(), bad, texts);
                }
            }
        });
        if (!bad.isEmpty()) {
            fail(where + ": raw invisible characters in " + bad.size() + " texts, e.g. " + bad.subList(0, Math.min(5, bad.size())));
        }
        assertTrue(texts[0] > 20, where + ": only " + texts[0] + " texts looked at");
    }

    private static void walk(Node n, List<String> bad, int[] texts) {
        if (n instanceof Labeled l) {
            clean(n.getClass().getSimpleName() + " " + n.getId(), l.getText(), bad, texts);
        } else if (n instanceof Text t) {
            clean("Text", t.getText(), bad, texts);
        }
        if (n instanceof Control c && c.getTooltip() != null) {
            clean("tooltip of " + n.getClass().getSimpleName(), c.getTooltip().getText(), bad, texts);
        }
        if (n instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(k -> walk(k, bad, texts));
        }
    }

    private static void clean(String what, String s, List<String> bad, int[] texts) {
        if (s == null || s.isEmpty()) {
            return;
        }
        texts[0]++;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\n' && c != '\t' && Escape.invisible(c) && !Character.isSurrogate(c)) {
                bad.add(what + ": U+" + Integer.toHexString(c) + " in \"" + Escape.visible(s, false) + "\"");
                return;
            }
        }
    }

    private static void poison(JsonNode n, String field, int[] planted) {
        poison(n, field, planted, TAIL);
    }

    /** Gives every text value (and every environment name) the hostile tail. */
    private static void poison(JsonNode n, String field, int[] planted, String tail) {
        if (n instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode v = o.get(name);
                if (v.isTextual() && !KEEP.contains(name) && !"remotePci".equals(field) && !"pci".equals(field)) {
                    o.set(name, TextNode.valueOf(v.textValue() + tail));
                    planted[0]++;
                } else {
                    poison(v, name, planted, tail);
                }
            }
            if ("environment".equals(field)) {
                for (String name : names) {
                    o.set(name + tail, o.remove(name));
                }
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) {
                    a.set(i, TextNode.valueOf(a.get(i).textValue() + tail));
                    planted[0]++;
                } else {
                    poison(a.get(i), field, planted, tail);
                }
            }
        }
    }
}
