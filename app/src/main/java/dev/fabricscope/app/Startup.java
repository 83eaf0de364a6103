package dev.fabricscope.app;

import dev.fabricscope.cli.ExitCodes;
import javafx.application.Application;

/**
 * What every way of starting the desktop app shares ({@link Launcher}, {@link FabricscopeApp#main}, the development
 * tools): the start time, the options checked before JavaFX starts, and JavaFX's launch itself. It names no
 * {@link Application} of its own, so the app and its launcher both use it without depending on each other.
 */
final class Startup {

    private Startup() {
    }

    /** Wall-clock time when main() was entered (for the start-up benchmark). */
    static volatile long mainEnteredMillis;

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

    /** Starts {@code app} (the desktop app, or a development tool built on it) with its own options. */
    static void launch(Class<? extends Application> app, String[] appArgs) {
        if (mainEnteredMillis == 0) {
            mainEnteredMillis = System.currentTimeMillis();
        }
        if (Startup.class.getModule().getLayer() == null && ModuleLayer.boot().findModule("javafx.graphics").isEmpty()) {
            JAVAFX_LOG.setFilter(r -> r.getMessage() == null || !r.getMessage().startsWith("Unsupported JavaFX configuration"));
        }
        Application.launch(app, appArgs);
    }
}
