package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The window icons come from icons/png (copied by the build), one per size, and are set on the window. */
@ExtendWith(ApplicationExtension.class)
class AppIconsTest {

    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        AppIcons.apply(stage);
        stage.show();
    }

    @Test
    void everySizeIsOnTheWindowAndMatchesTheRepositorysIcon() throws Exception {
        List<Image> icons = stage.getIcons();
        assertEquals(AppIcons.SIZES.length, icons.size());
        for (int i = 0; i < AppIcons.SIZES.length; i++) {
            int size = AppIcons.SIZES[i];
            Image img = icons.get(i);
            assertFalse(img.isError(), "icon " + size);
            assertEquals(size, img.getWidth(), "icon " + size);
            assertEquals(size, img.getHeight(), "icon " + size);
            // the copy in the jar is byte for byte the file in icons/png (one source of truth)
            byte[] inJar;
            try (var in = AppIcons.class.getResourceAsStream("icons/fabricscope-" + size + ".png")) {
                inJar = in.readAllBytes();
            }
            byte[] source = Files.readAllBytes(Path.of("../icons/png/fabricscope-" + size + ".png"));
            assertEquals(true, Arrays.equals(source, inJar), "icon " + size + " differs from icons/png");
        }
    }
}
