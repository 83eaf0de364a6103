package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The view-models stay testable without the FX toolkit: no class of this package refers to the toolkit's thread,
 * scene graph, windows, animations or {@code javafx.concurrent} (properties and collections from {@code javafx.beans}
 * and {@code javafx.collections} work without it). Read from the compiled classes' constant pools.
 */
class NoToolkitInViewModelsTest {

    private static final List<String> TOOLKIT = List.of("javafx/application/", "javafx/scene/", "javafx/stage/",
            "javafx/animation/", "javafx/concurrent/", "javafx/embed/");

    @Test
    void noViewModelClassRefersToTheToolkit() throws Exception {
        Path dir = Path.of(MainViewModel.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/fabricscope/app/viewmodel");
        List<String> offenders = new ArrayList<>();
        int classes = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                classes++;
                String pool = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                TOOLKIT.stream().filter(pool::contains).forEach(t -> offenders.add(f.getFileName() + " → " + t));
            }
        }
        assertTrue(classes >= 10, "the view-model classes were found: " + classes);
        assertEquals(List.of(), offenders);
    }
}
