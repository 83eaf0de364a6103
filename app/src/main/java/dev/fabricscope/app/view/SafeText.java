package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.ShownText;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Control;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The app's one rule for text from files and devices, the CLI's ({@link ShownText}): control characters,
 * DEL, bidi overrides and other format characters are shown as {@code \}{@code u001b}, {@code \}{@code u202e}…, never
 * as themselves. Applied where text reaches the screen rather than label by label: every window's title, and every
 * labelled control, table cell, text node and tooltip in every window's scene, as it is added or changed. Newlines
 * and tabs of multi-line texts stay. A bound text cannot be corrected: the app binds texts through {@link #bind}
 * (the window title is made safe in {@link dev.fabricscope.app.viewmodel.MainViewModel}, which the stage binds to).
 */
public final class SafeText {

    private static final Object GUARDED = new Object();
    private static boolean installed;

    private SafeText() {
    }

    /** {@code s} with invisible characters shown visibly; newlines and tabs kept. Null stays null. */
    public static String shown(String s) {
        return ShownText.visible(s, true);
    }

    /**
     * Binds a shown text to its source through the rule: a bound text cannot be corrected after the fact, so every
     * one-way text binding of the app goes through here ({@code SafeTextTest} looks for any that does not).
     */
    public static void bind(javafx.beans.property.Property<String> target, ObservableValue<String> source) {
        target.bind(javafx.beans.binding.Bindings.createStringBinding(() -> shown(source.getValue()), source));
    }

    /** Guards every window, now and later. Call on the FX thread; once is enough. */
    public static void installEverywhere() {
        if (installed) {
            return;
        }
        installed = true;
        Window.getWindows().forEach(SafeText::guard);
        Window.getWindows().addListener((ListChangeListener<Window>) c -> {
            while (c.next()) {
                c.getAddedSubList().forEach(SafeText::guard);
            }
        });
    }

    private static void guard(Window w) {
        if (w.getProperties().putIfAbsent(GUARDED, Boolean.TRUE) != null) {
            return;
        }
        if (w instanceof Stage s) {
            guard(s.titleProperty());
        } else if (w instanceof Tooltip t) {
            guard(t);
        }
        guard(w.getScene());
        w.sceneProperty().addListener((o, old, scene) -> guard(scene));
    }

    private static void guard(Scene scene) {
        if (scene == null) {
            return;
        }
        guard(scene.getRoot());
        scene.rootProperty().addListener((o, old, root) -> guard(root));
    }

    /** Guards {@code node} and everything below it, now and as children come and go. */
    public static void guard(Node node) {
        if (node == null || node.getProperties().putIfAbsent(GUARDED, Boolean.TRUE) != null) {
            return;
        }
        if (node instanceof Labeled l) {
            guard(l.textProperty());
        } else if (node instanceof Text t) {
            guard(t.textProperty());
        }
        if (node instanceof Control c) {
            guard(c.getTooltip());
            c.tooltipProperty().addListener((o, old, tip) -> guard(tip));
        }
        if (node instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(SafeText::guard);
            p.getChildrenUnmodifiable().addListener((ListChangeListener<Node>) c -> {
                while (c.next()) {
                    c.getAddedSubList().forEach(SafeText::guard);
                }
            });
        }
    }

    private static void guard(Tooltip tip) {
        if (tip != null && tip.getProperties().putIfAbsent(GUARDED, Boolean.TRUE) == null) {
            guard(tip.textProperty());
        }
    }

    private static final ChangeListener<String> SANITISE = (ObservableValue<? extends String> o, String old, String now) -> {
        if (o instanceof StringProperty p && !p.isBound()) {
            String safe = shown(now);
            if (safe != null && !safe.equals(now)) {
                p.set(safe); // runs this listener once more, with nothing left to change
            }
        }
    };

    private static void guard(StringProperty p) {
        p.addListener(SANITISE);
        SANITISE.changed(p, null, p.get());
    }
}
