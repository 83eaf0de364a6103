package dev.fabricscope.app;

import dev.fabricscope.app.view.FabricCanvas;
import dev.fabricscope.io.OutputFile;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricPalette;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javafx.scene.image.Image;
import javafx.scene.image.PixelFormat;
import javax.imageio.ImageIO;

/**
 * Writes a JavaFX image as PNG through ImageIO (no javafx-swing needed): the fabric graph for the PNG export
 * (handed to the export view-model by the app) and the screenshot tour's window shots.
 */
public final class PngWriter {

    private PngWriter() {
    }

    /** The fabric graph drawn off screen at {@code scale} (2 = crisp on high-DPI screens and in documents), as PNG. */
    public static void writeGraph(FabricGraph graph, FabricPalette palette, double scale, Path file) throws IOException {
        write(FabricCanvas.render(graph, palette, scale), file);
    }

    /** The cluster drawing drawn off screen at twice its size, as PNG (the cluster page's export). */
    public static void writeRack(dev.fabricscope.render.rack.RackScene scene, Path file) throws IOException {
        write(dev.fabricscope.app.view.RackCanvas.render(scene, 2), file);
    }

    public static void write(Image image, Path file) throws IOException {
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        int[] argb = new int[w * h];
        image.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), argb, 0, w);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        out.setRGB(0, 0, w, h, argb, 0, w);
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        if (!ImageIO.write(out, "png", png)) {
            throw new IOException("no PNG writer available");
        }
        OutputFile.writeBytes(file, png.toByteArray()); // the one writer: atomic, device-safe, failures in words
    }
}
