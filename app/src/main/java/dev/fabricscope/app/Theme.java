package dev.fabricscope.app;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;
import javafx.scene.Scene;

/** Light and dark themes: AtlantaFX Primer as the user-agent stylesheet plus the app's own CSS. */
public final class Theme {

    private static final String APP_CSS = Theme.class.getResource("app.css").toExternalForm();

    private Theme() {
    }

    /** Sets the user-agent stylesheet; call before the first Control is created. */
    public static void install(boolean dark) {
        String ua = dark ? new PrimerDark().getUserAgentStylesheet() : new PrimerLight().getUserAgentStylesheet();
        if (!ua.equals(Application.getUserAgentStylesheet())) {
            Application.setUserAgentStylesheet(ua);
        }
    }

    public static void apply(Scene scene, boolean dark) {
        install(dark);
        if (!scene.getStylesheets().contains(APP_CSS)) {
            scene.getStylesheets().add(APP_CSS);
        }
        scene.getRoot().getStyleClass().remove("dark");
        if (dark) {
            scene.getRoot().getStyleClass().add("dark");
        }
    }
}
