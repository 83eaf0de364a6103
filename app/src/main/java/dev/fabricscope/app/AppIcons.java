package dev.fabricscope.app;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.image.Image;
import javafx.stage.Stage;

/**
 * The window icons: {@code icons/png/fabricscope-N.png} of the repository, copied into the jar by the build (see
 * app/pom.xml) so that icons/ stays their one source. The window manager picks the size it needs.
 */
public final class AppIcons {

    static final int[] SIZES = {16, 32, 48, 64, 128, 256};

    private AppIcons() {
    }

    /** The icons in every size the jar holds, smallest first; a size missing from the jar is left out. */
    public static List<Image> images() {
        List<Image> out = new ArrayList<>();
        for (int size : SIZES) {
            try (InputStream in = AppIcons.class.getResourceAsStream("icons/fabricscope-" + size + ".png")) {
                if (in != null) {
                    out.add(new Image(in));
                }
            } catch (java.io.IOException e) {
                // an unreadable icon only costs the window manager one size
            }
        }
        return out;
    }

    public static void apply(Stage stage) {
        stage.getIcons().setAll(images());
    }
}
