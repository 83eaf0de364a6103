package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.RackCanvas;
import dev.fabricscope.render.rack.RackModel;
import dev.fabricscope.render.rack.RackScene;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The cluster page's drawing (issue 30) of a SYNTHETIC GB200 NVL72 rack ({@link SyntheticCluster#nvl72Rack}, 18 trays
 * from the gb200-nvl72-tray sample, tray 7 with four links down, tray 12 in another clique): one NVLink domain of 72
 * GPUs, the two odd trays marked; and 8 racks with a node outside any domain. With
 * {@code -Dfabricscope.screenshots=../docs/screenshots} saves cluster-nvl72-drawing.png (the page),
 * cluster-nvl72-drawing-full.png and cluster-8-racks-drawing.png (the drawings).
 */
@ExtendWith(ApplicationExtension.class)
class ClusterDrawingPageTest {

    private AppHarness app;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        app = AppHarness.withoutLiveProbe(stage);
    }

    /**
     * Where the screenshots go: {@code -Dfabricscope.screenshots=../docs/screenshots} (as they were made for the README),
     * else none is written (a plain test run leaves the tracked pictures alone).
     */
    static Path shots() {
        String dir = System.getProperty("fabricscope.screenshots");
        return dir == null || !Files.isDirectory(Path.of(dir)) ? null : Path.of(dir);
    }

    @Test
    void theRackIsOneDomainWithItsTwoOddTraysMarked(FxRobot robot, @TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("nvl72-rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        robot.interact(() -> {
            stage.setWidth(1440);
            stage.setHeight(900);
        });
        robot.interact(() -> app.vm.openCluster(dir));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null);
        assertTrue(robot.lookup("#clusterCounts").queryAs(Label.class).getText()
                .startsWith("18 nodes · 72 GPUs · 1 NVLink domain (2 MNNVL cliques) · "), "one domain, partitioned in two cliques");
        // the tiles grouped by clique, each named as a part of the one domain
        List<String> groups = app.cluster.groups().stream().map(g -> g.title() + " | " + g.nodes().size()).toList();
        assertEquals(List.of("NVLink domain 1 · main clique 32766 of 2 | 17", "NVLink domain 1 · clique 32767, a partition of its"
                + " own (no job spans it and the main clique) | 1"), groups);

        robot.clickOn("#showDrawing");
        assertTrue(robot.lookup("#showDrawing").queryAs(ToggleButton.class).isSelected());
        AppHarness.await(() -> app.cluster.drawingProperty().get() != null);
        RackModel m = app.cluster.drawingProperty().get();
        assertEquals(1, m.domains().size());
        assertEquals(72, m.domains().get(0).gpus());
        assertEquals(List.of("rack1-tray07", "rack1-tray12"), m.domains().get(0).odd().stream().map(RackModel.Tray::name).toList());
        assertEquals("1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays (rack1-tray07, rack1-tray12) · 0 nodes outside"
                + " any domain", robot.lookup("#drawingLine").queryAs(Label.class).getText());

        RackCanvas canvas = robot.lookup("#clusterDrawing").queryAs(RackCanvas.class);
        assertTrue(canvas.isVisible() && canvas.getScene() != null, "the drawing is on the page");
        RackScene scene = canvas.scene();
        assertNotNull(scene);
        assertEquals(2, scene.shapes().stream().filter(s -> s instanceof RackScene.Box b && b.role().equals("odd-tray")).count());
        assertTrue(scene.shapes().stream().anyMatch(s -> s instanceof RackScene.Text t
                && t.text().equals(m.domains().get(0).gfdLabel())), "the domain named as GFD names it");

        Path shots = shots();
        if (shots != null) {
            robot.interact(() -> {
                try {
                    PngWriter.write(stage.getScene().snapshot(null), shots.resolve("cluster-nvl72-drawing.png"));
                    PngWriter.write(RackCanvas.render(scene, 1), shots.resolve("cluster-nvl72-drawing-full.png"));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }

        // the export writes what cluster draw writes (SVG), and a PNG the command line cannot
        Path png = tmp.resolve("drawing.png");
        Path svg = tmp.resolve("drawing.svg");
        robot.interact(() -> {
            app.cluster.exportDrawing(png, dev.fabricscope.render.fabric.FabricPalette.LIGHT, true);
            app.cluster.exportDrawing(svg, dev.fabricscope.render.fabric.FabricPalette.LIGHT, false);
        });
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertEquals("\u0089PNG", new String(head, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(dev.fabricscope.render.rack.RackSvg.render(dev.fabricscope.render.rack.RackLayout.layout(m,
                dev.fabricscope.render.fabric.FabricPalette.LIGHT)), Files.readString(svg));
        assertEquals("cluster-nvl72-rack-drawing.png", app.cluster.drawingFileName(true));

        robot.clickOn("#showDrawing"); // back to the tiles
        assertFalse(robot.lookup("#showDrawing").queryAs(ToggleButton.class).isSelected());
        assertTrue(robot.lookup("#clusterGrid").tryQuery().map(n -> n.getScene() != null).orElse(false));
    }

    @Test
    void eightRacksAndANodeOutsideAreNinePanels(FxRobot robot, @TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("eight-racks");
        SyntheticCluster.writeNvl72Racks(dir, 8, true);
        SyntheticCluster.write(dir, SyntheticCluster.node(SyntheticCluster.sample("dgx-h100"), "dgx-h100-01", 900), "dgx.json");
        robot.interact(() -> {
            stage.setWidth(1440);
            stage.setHeight(900);
        });
        robot.interact(() -> app.vm.openCluster(dir));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null);
        robot.clickOn("#showDrawing");
        AppHarness.await(() -> app.cluster.drawingProperty().get() != null);
        RackModel m = app.cluster.drawingProperty().get();
        assertEquals(8, m.domains().size());
        assertEquals(144, m.trays());
        assertEquals(1, m.outside().size());
        RackScene scene = robot.lookup("#clusterDrawing").queryAs(RackCanvas.class).scene();
        assertEquals(9, scene.panels().size(), "one panel per rack and the row of nodes outside any domain");
        Path shots = shots();
        if (shots != null) {
            robot.interact(() -> {
                try {
                    PngWriter.write(RackCanvas.render(scene, 1), shots.resolve("cluster-8-racks-drawing.png"));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }
}
