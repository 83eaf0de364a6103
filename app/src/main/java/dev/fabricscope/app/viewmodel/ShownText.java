package dev.fabricscope.app.viewmodel;

import dev.fabricscope.text.Escape;

/**
 * The app's rule for text from files and devices, the CLI's ({@link Escape}): control characters, DEL, bidi
 * overrides and other format characters are shown as {@code \}{@code u001b}, {@code \}{@code u202e}…, never as
 * themselves. The views apply it everywhere (view.SafeText); the window title is made safe here.
 */
public final class ShownText {

    private ShownText() {
    }

    /** {@code s} with invisible characters shown visibly; newlines and tabs kept when {@code multiLine}. Null stays null. */
    public static String visible(String s, boolean multiLine) {
        return s == null ? null : Escape.visible(s, multiLine);
    }

    /** What the About box names: the version, git commit and build date. */
    public static String version() {
        return dev.fabricscope.Version.get();
    }
}
