package dev.fabricscope.app;

import dev.fabricscope.cli.ExitCodes;

/**
 * Entry point of the installed {@code fabricscope} launcher and of {@code fabricscope-app.jar}: chooses the desktop
 * app or the command line ({@link LaunchMode}) before any JavaFX class is touched, so the command line runs over SSH
 * without a display. Not a JavaFX {@code Application} itself, so that JavaFX can start from the class path.
 */
public final class Launcher {

    private Launcher() {
    }

    public static void main(String[] args) {
        Startup.mainEnteredMillis = System.currentTimeMillis();
        LaunchMode mode = LaunchMode.choose(args, System.getenv(), System.getProperty("os.name"));
        UserDirs.apply(System.getenv(), System.getProperty("os.name"));
        if (mode == LaunchMode.GUI || mode == LaunchMode.GUI_NO_DISPLAY) {
            // the app's options are read before JavaFX starts: a bad one is one line, help needs no display
            Integer exit = Startup.checkAppOptions(LaunchMode.guiArgs(args));
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

    /** Starts the desktop app with its own options (see {@link AppOptions}). */
    static void gui(String[] appArgs) {
        Startup.launch(FabricscopeApp.class, appArgs);
    }

    /** Starts a development tool built on the desktop app (in the test sources) as {@link #main} starts the app. */
    public static void devTool(Class<? extends FabricscopeApp> app, String[] appArgs) {
        Startup.mainEnteredMillis = System.currentTimeMillis();
        UserDirs.apply(System.getenv(), System.getProperty("os.name"));
        Startup.launch(app, appArgs);
    }
}
