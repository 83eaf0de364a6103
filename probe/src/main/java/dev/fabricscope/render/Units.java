package dev.fabricscope.render;

import dev.fabricscope.model.Reading;
import java.util.Locale;

/** Short forms of quantities shared by every text output and the drawing: memory in GiB, a yes/no reading, GB/s. */
public final class Units {

    private Units() {
    }

    /** Whole GiB: {@code 80 GiB}. */
    public static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.0f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    /** {@code yes} / {@code no}, or the reading's short reason when it was not read. */
    public static String yn(Reading<Boolean> r) {
        return r.isPresent() ? (r.value() ? "yes" : "no") : r.shortDisplay();
    }

    /** A bandwidth without trailing zeros: {@code 450}, {@code 112.5}. */
    public static String gbps(double gbps) {
        return gbps == Math.rint(gbps) ? String.format(Locale.ROOT, "%.0f", gbps) : String.format(Locale.ROOT, "%.1f", gbps);
    }
}
