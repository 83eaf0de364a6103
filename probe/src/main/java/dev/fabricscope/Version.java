package dev.fabricscope;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, filtered in by Maven. */
public final class Version {
    private static final String VALUE = load();

    private Version() {
    }

    public static String get() {
        return VALUE;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }
}
