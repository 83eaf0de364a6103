package dev.fabricscope.app.viewmodel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

/**
 * What the app remembers between runs (java.util.prefs): window size, theme, recent files, last folder.
 * Tests point it at another node with {@code -Dfabricscope.prefs.node=…}.
 */
public final class AppPreferences {

    static final int MAX_RECENT = 8;
    private final Preferences node;

    public AppPreferences(Preferences node) {
        this.node = node;
    }

    public static AppPreferences standard() {
        return new AppPreferences(Preferences.userRoot().node(System.getProperty("fabricscope.prefs.node", "dev/fabricscope/app")));
    }

    public double width(double fallback) {
        return node.getDouble("window.width", fallback);
    }

    public double height(double fallback) {
        return node.getDouble("window.height", fallback);
    }

    public boolean maximized() {
        return node.getBoolean("window.maximized", false);
    }

    public void saveWindow(double width, double height, boolean maximized) {
        node.putBoolean("window.maximized", maximized);
        if (!maximized && width > 200 && height > 150) {
            node.putDouble("window.width", width);
            node.putDouble("window.height", height);
        }
        flush();
    }

    public boolean dark() {
        return node.getBoolean("theme.dark", false);
    }

    public void setDark(boolean dark) {
        node.putBoolean("theme.dark", dark);
        flush();
    }

    /** Whether exports replace identifiers ("Redact identifiers in exports"). */
    public boolean redactExports() {
        return node.getBoolean("export.redact", false);
    }

    public void setRedactExports(boolean redact) {
        node.putBoolean("export.redact", redact);
        flush();
    }

    public List<Path> recentFiles() {
        String joined = node.get("recent.files", "");
        List<Path> out = new ArrayList<>();
        for (String s : joined.split("\n")) {
            if (!s.isBlank()) {
                out.add(Path.of(s));
            }
        }
        return out;
    }

    /** Puts {@code file} first, drops duplicates, keeps {@value #MAX_RECENT}. */
    public List<Path> addRecent(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        List<Path> list = new ArrayList<>(recentFiles());
        list.remove(abs);
        list.add(0, abs);
        while (list.size() > MAX_RECENT) {
            list.remove(list.size() - 1);
        }
        node.put("recent.files", String.join("\n", list.stream().map(Path::toString).toList()));
        if (abs.getParent() != null) {
            node.put("last.directory", abs.getParent().toString());
        }
        flush();
        return list;
    }

    public void clearRecent() {
        node.remove("recent.files");
        flush();
    }

    public Path lastDirectory() {
        String d = node.get("last.directory", null);
        return d == null ? null : Path.of(d);
    }

    /** Removes everything stored (tests). */
    public void clear() {
        try {
            Arrays.stream(node.keys()).forEach(node::remove);
            node.flush();
        } catch (BackingStoreException e) {
            // nothing stored that could be removed
        }
    }

    private void flush() {
        try {
            node.flush();
        } catch (BackingStoreException e) {
            // the preferences store is unavailable (read-only home): settings last for this run only
        }
    }
}
