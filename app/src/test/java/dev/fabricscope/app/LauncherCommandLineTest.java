package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.Version;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's command-line path in a fresh JVM whose class path has no JavaFX at all (and no display): if any
 * JavaFX class were touched on the way to the CLI, the run would fail with NoClassDefFoundError.
 */
class LauncherCommandLineTest {

    @TempDir
    Path cache;

    record Run(int exit, String out, String err) {
    }

    private Run launch(String... args) throws IOException, InterruptedException {
        String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String withoutJavaFx = Arrays.stream(testClassPath.split(File.pathSeparator))
                .filter(e -> !e.contains("openjfx") && !e.contains("javafx") && !e.contains("testfx")
                        && !e.contains("controlsfx") && !e.contains("atlantafx"))
                .collect(Collectors.joining(File.pathSeparator));
        assertFalse(withoutJavaFx.isEmpty());
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", withoutJavaFx, Launcher.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.put("XDG_CACHE_HOME", cache.toString());
        File out = cache.resolve("out.txt").toFile();
        File err = cache.resolve("err.txt").toFile();
        Process p = pb.redirectOutput(out).redirectError(err).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher did not finish");
        return new Run(p.exitValue(), java.nio.file.Files.readString(out.toPath(), StandardCharsets.UTF_8),
                java.nio.file.Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }

    /** Issue 28 item 4: the app's options are parsed (picocli) before JavaFX: help and errors need neither FX nor a display. */
    @Test
    void guiHelpAndBadAppOptionsAreAnsweredBeforeJavaFxStarts() throws Exception {
        Run help = launch("gui", "--help");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().startsWith("Usage: fabricscope gui"), help.out());
        for (String option : LaunchMode.APP_OPTIONS) {
            assertTrue(help.out().contains(option), option + " in " + help.out());
        }
        for (String[] bad : List.of(new String[] {"--snapshot"}, new String[] {"--theme"}, new String[] {"--size", "800"},
                new String[] {"--size", "axb"}, new String[] {"gui", "--size", "10x10"}, new String[] {"gui", "--bogus"},
                new String[] {"--theme", "blue"}, new String[] {"gui", "--compare", "a.json"})) {
            Run r = launch(bad);
            String what = String.join(" ", bad);
            assertEquals(2, r.exit(), what + ": " + r.err());
            assertEquals(2, r.err().lines().count(), what + ": " + r.err());
            assertTrue(r.err().startsWith("fabricscope gui: "), what + ": " + r.err());
            assertTrue(r.err().endsWith("Try 'fabricscope gui --help'.\n"), what + ": " + r.err());
            assertFalse(r.err().contains("Exception"), what + ": " + r.err());
        }
    }

    @Test
    void versionRunsTheCommandLineWithoutJavaFx() throws Exception {
        Run r = launch("--version");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Version.describe()[0], r.out().lines().findFirst().orElse(""), r.out());
        assertTrue(r.out().contains("\ncommit:  ") && r.out().contains("\nJava:    "), r.out());
        assertEquals("", r.err());
    }

    @Test
    void subcommandRunsTheCommandLineWithoutJavaFx() throws Exception {
        Run r = launch("samples");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("dgx-h100"), r.out());
    }

    @Test
    void noArgumentsWithoutADisplayPrintsTheCommandLineHelpAndSaysWhy() throws Exception {
        Run r = launch();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("Usage: fabricscope"), r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("no display"), r.err());
    }

    @Test
    void guiWithoutADisplayIsAOneLineUsageError() throws Exception {
        Run r = launch("gui");
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("needs a display"), r.err());
    }

    @Test
    void nativeLibrariesUnpackIntoTheUsersCacheFolder() throws Exception {
        launch("--version");
        assertTrue(cache.resolve("fabricscope").resolve("tmp").toFile().isDirectory());
    }
}
