package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The launcher's choice between the desktop app and the command line. */
class LaunchModeTest {

    private static final Map<String, String> X11 = Map.of("DISPLAY", ":0");
    private static final Map<String, String> WAYLAND = Map.of("WAYLAND_DISPLAY", "wayland-0");
    private static final Map<String, String> SSH = Map.of("SSH_CONNECTION", "10.0.0.2 50000 10.0.0.1 22");

    private static LaunchMode linux(Map<String, String> env, String... args) {
        return LaunchMode.choose(args, env, "Linux");
    }

    @Test
    void noArgumentsWithADisplayOpensTheWindow() {
        assertEquals(LaunchMode.GUI, linux(X11));
        assertEquals(LaunchMode.GUI, linux(WAYLAND));
    }

    @Test
    void noArgumentsWithoutADisplayIsTheCommandLine() {
        assertEquals(LaunchMode.CLI_NO_DISPLAY, linux(Map.of()));
        assertEquals(LaunchMode.CLI_NO_DISPLAY, linux(Map.of("DISPLAY", "", "WAYLAND_DISPLAY", " ")));
        assertEquals(LaunchMode.CLI_NO_DISPLAY, linux(SSH));
    }

    @Test
    void anySubcommandOrFlagIsTheCommandLineEvenWithADisplay() {
        for (String[] args : new String[][] {{"probe"}, {"advise", "--sample", "dgx-h100"}, {"check"}, {"report"},
                {"diff", "a.json", "b.json"}, {"cluster"}, {"show", "--snapshot", "r.json"}, {"--version"}, {"-V"},
                {"--help"}, {"-h"}, {"--unknown"}, {"nonsense"}}) {
            assertEquals(LaunchMode.CLI, linux(X11, args), String.join(" ", args));
            assertEquals(LaunchMode.CLI, linux(Map.of(), args), String.join(" ", args));
        }
    }

    @Test
    void guiCommandOpensTheWindowWithAppOptionsOrFailsWithoutADisplay() {
        assertEquals(LaunchMode.GUI, linux(X11, "gui", "--sample", "dgx-h100"));
        assertEquals(LaunchMode.GUI_NO_DISPLAY, linux(Map.of(), "gui"));
        assertArrayEquals(new String[] {"--sample", "dgx-h100"}, LaunchMode.guiArgs(new String[] {"gui", "--sample", "dgx-h100"}));
        assertArrayEquals(new String[] {}, LaunchMode.guiArgs(new String[] {}));
        assertArrayEquals(new String[] {"--theme", "dark"}, LaunchMode.guiArgs(new String[] {"--theme", "dark"}));
    }

    @Test
    void theDesktopAppsOwnOptionsFirstOpenTheWindowWithThem() {
        assertEquals(LaunchMode.GUI, linux(X11, "--sample", "dgx-h100"));
        assertEquals(LaunchMode.GUI, linux(X11, "--snapshot=report.json"));
        assertEquals(LaunchMode.GUI, linux(X11, "--size", "1320x860", "--no-probe"));
        // the development tools' options (devtools.DevApp, test sources) are not the shipped app's
        assertEquals(LaunchMode.CLI, linux(X11, "--bench", "out.txt"));
        assertEquals(LaunchMode.CLI, linux(X11, "--screenshots", "shots"));
        assertEquals(LaunchMode.GUI_NO_DISPLAY, linux(Map.of(), "--theme", "dark"));
        assertArrayEquals(new String[] {"--sample", "x"}, LaunchMode.guiArgs(new String[] {"--sample", "x"}));
    }

    /** Every option AppOptions parses is routed to the window, and no other (read from its picocli model, so they cannot drift). */
    @Test
    void appOptionsAreExactlyTheOnesAppOptionsParses() {
        assertEquals(new java.util.TreeSet<>(AppOptions.optionNames()), new java.util.TreeSet<>(LaunchMode.APP_OPTIONS));
    }

    @Test
    void windowsAlwaysHasADesktopAndMacOsHasOneOutsideSsh() {
        assertTrue(LaunchMode.hasDisplay(Map.of(), "Windows 11"));
        assertTrue(LaunchMode.hasDisplay(Map.of(), "Mac OS X"));
        assertFalse(LaunchMode.hasDisplay(SSH, "Mac OS X"));
        assertFalse(LaunchMode.hasDisplay(Map.of("SSH_TTY", "/dev/ttys001"), "Mac OS X"));
        assertFalse(LaunchMode.hasDisplay(Map.of(), "FreeBSD"));
        assertTrue(LaunchMode.hasDisplay(X11, "FreeBSD"));
    }
}
