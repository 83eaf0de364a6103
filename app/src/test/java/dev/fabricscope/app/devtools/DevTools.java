package dev.fabricscope.app.devtools;

import dev.fabricscope.app.Launcher;

/**
 * Entry point of the desktop app's development tools ({@link DevApp}): not an {@code Application} itself, so that
 * JavaFX can start from the class path, as {@link Launcher} does for the app. Run by {@code bench/app-dev.sh}:
 * {@code java -cp app/target/fabricscope-app.jar:app/target/test-classes dev.fabricscope.app.devtools.DevTools ...}.
 */
public final class DevTools {

    private DevTools() {
    }

    public static void main(String[] args) {
        Launcher.devTool(DevApp.class, args);
    }
}
