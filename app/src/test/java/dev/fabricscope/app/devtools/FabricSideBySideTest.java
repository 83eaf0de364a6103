package dev.fabricscope.app.devtools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.FabricCanvas;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricPalette;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28 item 2: the hand-written fabric placement and ELK Layered's, side by side in one PNG per machine, each
 * painted by the app's own {@link FabricCanvas}. Reads the graphs probe's {@code ElkVsHandComparisonTest} wrote
 * ({@code NAME-hand.json}, {@code NAME-elk.json}) and writes {@code NAME.png}, scaled down until it is under 300 kB,
 * and ELK without and with {@code mergeEdges} as {@code NAME-merged.png}.
 *
 * <p>Tagged {@code elk} (left out by default, app/pom.xml). Run after the probe side:
 * {@code mvn -B -ntp -pl app -am test -Dtest=FabricSideBySideTest -Dfabricscope.excludedGroups=gpu
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfabricscope.elk.in=DIR -Dfabricscope.elk.pictures=DIR2}.
 */
@Tag("elk")
class FabricSideBySideTest {

    private static final int MAX_BYTES = 300_000;
    private static final int HEADER = 34;
    private static final int GUTTER = 16;

    @Test
    void eachMachinesTwoPlacementsPaintedSideBySide() throws Exception {
        Path in = Path.of(System.getProperty("fabricscope.elk.in", "../probe/target/elk-vs-hand"));
        Path out = Path.of(System.getProperty("fabricscope.elk.pictures", "target/elk-vs-hand"));
        Files.createDirectories(out);
        FxToolkit.registerPrimaryStage();
        List<Path> hands;
        try (Stream<Path> files = Files.list(in)) {
            hands = files.filter(p -> p.getFileName().toString().endsWith("-hand.json")).sorted().toList();
        }
        assertFalse(hands.isEmpty(), "no NAME-hand.json in " + in.toAbsolutePath() + ": run probe's ElkVsHandComparisonTest first");
        List<String> written = new ArrayList<>();
        for (Path hand : hands) {
            String name = hand.getFileName().toString().replace("-hand.json", "");
            FabricGraph left = Json.mapper().readValue(hand.toFile(), FabricGraph.class);
            FabricGraph right = Json.mapper().readValue(in.resolve(name + "-elk.json").toFile(), FabricGraph.class);
            write(out.resolve(name + ".png"), name + " · hand-written placement (FabricLayout)", left,
                    name + " · ELK Layered 0.9.1, orthogonal routing", right);
            Path merged = in.resolve(name + "-elk-merged-edges.json");
            if (Files.exists(merged)) {
                write(out.resolve(name + "-merged.png"), name + " · ELK Layered, one edge per GPU and switch", right,
                        name + " · ELK Layered with mergeEdges (one bus)", Json.mapper().readValue(merged.toFile(), FabricGraph.class));
            }
            if (Boolean.getBoolean("fabricscope.elk.halves")) {
                // each placement alone at full size, to look at closely
                ImageIO.write(awt(left, 1), "png", out.resolve(name + "-hand.png").toFile());
                ImageIO.write(awt(right, 1), "png", out.resolve(name + "-elk.png").toFile());
            }
            written.add(name);
        }
        assertFalse(written.isEmpty());
    }

    /** Both graphs side by side under their titles, scaled down in steps until the PNG is under 300 kB. */
    private static void write(Path file, String leftTitle, FabricGraph left, String rightTitle, FabricGraph right) throws Exception {
        byte[] png = null;
        for (double scale = 1.0; scale > 0.3; scale *= 0.9) {
            png = sideBySide(leftTitle, left, rightTitle, right, scale);
            if (png.length < MAX_BYTES) {
                break;
            }
        }
        assertTrue(png.length < MAX_BYTES, file + ": " + png.length + " bytes even at the smallest scale");
        Files.write(file, png);
    }

    private static byte[] sideBySide(String leftTitle, FabricGraph left, String rightTitle, FabricGraph right, double scale) throws Exception {
        BufferedImage a = awt(left, scale);
        BufferedImage b = awt(right, scale);
        int w = a.getWidth() + GUTTER + b.getWidth();
        int h = HEADER + Math.max(a.getHeight(), b.getHeight());
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        g.setColor(new Color(0xd0d7de));
        g.fillRect(a.getWidth() + GUTTER / 2 - 1, 0, 2, h);
        g.setColor(new Color(0x1f2328));
        g.setFont(new Font("DejaVu Sans", Font.BOLD, 15));
        g.drawString(leftTitle, 12, 23);
        g.drawString(rightTitle, a.getWidth() + GUTTER + 12, 23);
        g.drawImage(a, 0, HEADER, null);
        g.drawImage(b, a.getWidth() + GUTTER, HEADER, null);
        g.dispose();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(img, "png", bytes);
        return bytes.toByteArray();
    }

    /** The graph painted by the app's canvas at {@code scale}, as an AWT image. */
    private static BufferedImage awt(FabricGraph graph, double scale) throws Exception {
        WritableImage fx = WaitForAsyncUtils.waitFor(WaitForAsyncUtils.asyncFx(() -> FabricCanvas.render(graph, FabricPalette.LIGHT, scale)));
        int w = (int) fx.getWidth();
        int h = (int) fx.getHeight();
        int[] argb = new int[w * h];
        fx.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), argb, 0, w);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        out.setRGB(0, 0, w, h, argb, 0, w);
        return out;
    }
}
