package dev.fabricscope.app;

import javafx.application.Application;

/**
 * Entry point of {@code fabricscope-app.jar}. Not an {@link Application} itself, so that JavaFX can start from the
 * class path ({@code java -jar}) without "JavaFX runtime components are missing".
 */
public final class Launcher {

    /** Wall-clock time when main() was entered (for the start-up benchmark). */
    static volatile long mainEnteredMillis;

    private Launcher() {
    }

    public static void main(String[] args) {
        mainEnteredMillis = System.currentTimeMillis();
        Application.launch(FabricscopeApp.class, args);
    }
}
