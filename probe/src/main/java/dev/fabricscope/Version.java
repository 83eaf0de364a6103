package dev.fabricscope;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/** The build's version, date (filtered in by Maven) and git commit (written at build time). */
public final class Version {
    private static final Properties PROPS = load();
    private static final String VALUE = PROPS.getProperty("version", "dev");

    private Version() {
    }

    /** The Maven version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VALUE;
    }

    /** The release this build belongs to, as the packages number it: {@code 0.1.0} (no {@code -SNAPSHOT}). */
    public static String release() {
        return VALUE.replace("-SNAPSHOT", "");
    }

    /** The build date (UTC, ISO-8601), or {@code unknown}. */
    public static String built() {
        String b = PROPS.getProperty("built", "");
        return b.isBlank() || b.startsWith("${") ? "unknown" : b;
    }

    /** The git commit the build was made from, or {@code unknown} (built outside a git checkout). */
    public static String commit() {
        try (InputStream in = Version.class.getResourceAsStream("git-commit.txt")) {
            if (in == null) {
                return "unknown";
            }
            String c = new String(in.readNBytes(100), StandardCharsets.US_ASCII).strip();
            return c.matches("[0-9a-f]{7,40}") ? c : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The JavaFX runtime on the class or module path, or null when there is none (the CLI-only package). */
    public static String javafx() {
        try {
            Class<?> c = Class.forName("com.sun.javafx.runtime.VersionInfo");
            return String.valueOf(c.getMethod("getRuntimeVersion").invoke(null));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** The lines of {@code --version}. */
    public static String[] describe() {
        String fx = javafx();
        return new String[] {
            "fabricscope " + release() + (VALUE.endsWith("-SNAPSHOT") ? " (development build " + VALUE + ")" : ""),
            "commit:  " + commit(),
            "built:   " + built(),
            "Java:    " + System.getProperty("java.runtime.version", System.getProperty("java.version")) + " ("
                    + System.getProperty("java.vm.name", "?") + ", " + System.getProperty("java.vendor", "?") + ")",
            "JavaFX:  " + (fx == null ? "not included (command line only)" : fx)};
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // version stays "dev"
        }
        return p;
    }
}
