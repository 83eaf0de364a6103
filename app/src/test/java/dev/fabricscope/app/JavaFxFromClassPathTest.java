package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desktop app started as {@code java -jar fabricscope-app.jar} does: JavaFX on the class path, not the module
 * path. JavaFX warns "Unsupported JavaFX configuration" on every such start unless the launcher quiets that one
 * message; the window still comes up (here headless, Monocle) and does its work (the screenshot tour of the
 * development tools, {@code devtools.DevTools}, started through the same {@link Launcher}).
 */
class JavaFxFromClassPathTest {

    @Test
    void noUnsupportedConfigurationWarning(@TempDir Path dir) throws Exception {
        Path before = ReportFiles.write(dir.resolve("before.json"), ReportFiles.before());
        Path after = ReportFiles.write(dir.resolve("after.json"), ReportFiles.after());
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dprism.order=sw", "-Dprism.text=t2k",
                "-Dheadless.geometry=1600x1000-32", "-Dfabricscope.prefs.node=dev/fabricscope/app-test",
                "-cp", cp, dev.fabricscope.app.devtools.DevTools.class.getName(),
                "--screenshots", dir.resolve("shots").toString(), "--compare", before + "," + after));
        pb.environment().put("DISPLAY", ":0");
        pb.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        File out = dir.resolve("out.txt").toFile();
        File err = dir.resolve("err.txt").toFile();
        Process p = pb.redirectOutput(out).redirectError(err).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the app did not finish its screenshots");
        String stderr = Files.readString(err.toPath(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), stderr);
        assertTrue(Files.exists(dir.resolve("shots/compare.png")), "the window came up and drew: " + Files.readString(out.toPath()));
        assertFalse(stderr.contains("Unsupported JavaFX configuration"), stderr);
        assertFalse(stderr.contains("WARNING"), stderr);
    }
}
