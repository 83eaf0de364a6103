package dev.fabricscope.app;

import java.util.Locale;
import java.util.Map;

/**
 * What the one {@code fabricscope} launcher starts, decided from the arguments and the environment alone (no JavaFX
 * class is loaded to decide): no arguments with a display → the desktop app; {@code gui [app options]}, or one of the
 * desktop app's own options first ({@code --sample NAME}, {@code --theme dark}, ...; none of them is a command-line
 * option) → the desktop app with those options; any other argument, or no display → the command line.
 */
enum LaunchMode {
    /** The desktop app; its arguments are {@link #guiArgs}. */
    GUI,
    /** The command line, with the arguments as given. */
    CLI,
    /** No arguments and no display: the command line's help, with a note on why no window opened. */
    CLI_NO_DISPLAY,
    /** {@code gui} asked for where there is no display: a one-line error. */
    GUI_NO_DISPLAY;

    /** The explicit first argument that opens the desktop app with app options (e.g. {@code gui --sample dgx-h100}). */
    static final String GUI_COMMAND = "gui";

    /** The desktop app's options ({@link AppOptions}); the command line has none of them before a subcommand. */
    static final java.util.Set<String> APP_OPTIONS = java.util.Set.of(
            "--sample", "--snapshot", "--cluster", "--compare", "--no-probe", "--theme", "--size");

    static LaunchMode choose(String[] args, Map<String, String> env, String osName) {
        boolean display = hasDisplay(env, osName);
        if (args.length == 0) {
            return display ? GUI : CLI_NO_DISPLAY;
        }
        String first = args[0].contains("=") ? args[0].substring(0, args[0].indexOf('=')) : args[0];
        if (GUI_COMMAND.equals(first) || APP_OPTIONS.contains(first)) {
            return display ? GUI : GUI_NO_DISPLAY;
        }
        return CLI;
    }

    /** The desktop app's own arguments: everything after {@code gui}. */
    static String[] guiArgs(String[] args) {
        return args.length > 0 && GUI_COMMAND.equals(args[0]) ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
    }

    /**
     * Whether a window can be shown: on Linux and other X11/Wayland systems DISPLAY or WAYLAND_DISPLAY must be set;
     * Windows always has a desktop; macOS has one unless this is an SSH session.
     */
    static boolean hasDisplay(Map<String, String> env, String osName) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return true;
        }
        if (os.startsWith("mac")) {
            return !isSet(env, "SSH_CONNECTION") && !isSet(env, "SSH_TTY");
        }
        return isSet(env, "DISPLAY") || isSet(env, "WAYLAND_DISPLAY");
    }

    private static boolean isSet(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
