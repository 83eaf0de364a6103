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

    public static void apply(Scene scene, boolean dark) {
        Application.setUserAgentStylesheet(dark ? new PrimerDark().getUserAgentStylesheet() : new PrimerLight().getUserAgentStylesheet());
        if (!scene.getStylesheets().contains(APP_CSS)) {
            scene.getStylesheets().add(APP_CSS);
        }
        scene.getRoot().getStyleClass().remove("dark");
        if (dark) {
            scene.getRoot().getStyleClass().add("dark");
        }
    }
}
