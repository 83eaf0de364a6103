package dev.fabricscope.app;

import dev.fabricscope.cli.ExitCodes;
import javafx.application.Application;

/**
 * Entry point of the installed {@code fabricscope} launcher and of {@code fabricscope-app.jar}: chooses the desktop
 * app or the command line ({@link LaunchMode}) before any JavaFX class is touched, so the command line runs over SSH
 * without a display. Not an {@link Application} itself, so that JavaFX can start from the class path.
 */
public final class Launcher {

    /** Wall-clock time when main() was entered (for the start-up benchmark). */
    static volatile long mainEnteredMillis;

    private Launcher() {
    }

    public static void main(String[] args) {
        mainEnteredMillis = System.currentTimeMillis();
        LaunchMode mode = LaunchMode.choose(args, System.getenv(), System.getProperty("os.name"));
        UserDirs.apply(System.getenv(), System.getProperty("os.name"));
        if (mode == LaunchMode.GUI || mode == LaunchMode.GUI_NO_DISPLAY) {
            // the app's options are read before JavaFX starts: a bad one is one line, help needs no display
            Integer exit = checkAppOptions(LaunchMode.guiArgs(args));
            if (exit != null) {
                System.exit(exit);
            }
        }
        switch (mode) {
            case GUI -> gui(LaunchMode.guiArgs(args));
            case CLI -> System.exit(dev.fabricscope.cli.Main.run(args));
            case CLI_NO_DISPLAY -> {
                System.err.println("fabricscope: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window: "
                        + "command-line mode.");
                System.exit(dev.fabricscope.cli.Main.run(args));
            }
            case GUI_NO_DISPLAY -> {
                System.err.println("fabricscope: the desktop app needs a display (DISPLAY or WAYLAND_DISPLAY); "
                        + "run a command instead, e.g. 'fabricscope probe'.");
                System.exit(ExitCodes.USAGE);
            }
        }
    }

    /**
     * Reads the desktop app's options as {@link AppOptions#parse} will: null when they open a window; else the exit
     * code, after {@code --help}'s text on standard output (0) or one line and a hint on standard error (2).
     */
    static Integer checkAppOptions(String[] appArgs) {
        try {
            AppOptions.parse(java.util.List.of(appArgs));
            return null;
        } catch (AppOptions.HelpAsked h) {
            System.out.print(h.getMessage());
            System.out.flush();
            return ExitCodes.OK;
        } catch (AppOptions.Invalid e) {
            System.err.println("fabricscope gui: " + e.getMessage());
            System.err.println("Try 'fabricscope gui --help'.");
            return ExitCodes.USAGE;
        }
    }

    /**
     * JavaFX's start-up logger. From {@code java -jar fabricscope-app.jar} JavaFX runs from the class path (one jar,
     * no module path), which it supports but warns about on every start ("Unsupported JavaFX configuration: classes
     * were loaded from 'unnamed module'"); the installed launcher has JavaFX as modules in its runtime and never
     * warns. Only that one message is filtered out (JavaFX logs it on its "javafx" logger); the logger is held here
     * (loggers are weakly referenced), and every other JavaFX message still shows.
     */
    static final java.util.logging.Logger JAVAFX_LOG = java.util.logging.Logger.getLogger("javafx");

    /** Starts the desktop app with its own options (see {@link AppOptions}). */
    static void gui(String[] appArgs) {
        launch(FabricscopeApp.class, appArgs);
    }

    /** Starts a development tool built on the desktop app (in the test sources) as {@link #main} starts the app. */
    public static void devTool(Class<? extends FabricscopeApp> app, String[] appArgs) {
        mainEnteredMillis = System.currentTimeMillis();
        UserDirs.apply(System.getenv(), System.getProperty("os.name"));
        launch(app, appArgs);
    }

    /** Starts {@code app} (the desktop app, or a development tool built on it) with its own options. */
    private static void launch(Class<? extends FabricscopeApp> app, String[] appArgs) {
        if (mainEnteredMillis == 0) {
            mainEnteredMillis = System.currentTimeMillis();
        }
        if (Launcher.class.getModule().getLayer() == null && ModuleLayer.boot().findModule("javafx.graphics").isEmpty()) {
            JAVAFX_LOG.setFilter(r -> r.getMessage() == null || !r.getMessage().startsWith("Unsupported JavaFX configuration"));
        }
        Application.launch(app, appArgs);
    }
}
