package dev.fabricscope.json;

import dev.fabricscope.model.Reading;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * What both readers of a {@link Reading} ({@link ReadingDeserializer} with Jackson, {@link RecordReader} without) do
 * with a value once it is read: the plausibility check and the sharing of equal small readings. Jackson-free, so the
 * fast path loads none of Jackson's classes.
 */
final class ReadingValues {

    /** Largest GPU memory accepted: 1 PiB. */
    static final long MAX_MEMORY_BYTES = 1L << 50;
    /** Largest count of anything (CPUs, SMs, links): far above any machine. */
    static final int MAX_COUNT = 1 << 24;
    private static final Pattern COMPUTE_CAPABILITY = Pattern.compile("\\d{1,3}\\.\\d{1,3}");

    private ReadingValues() {
    }

    /**
     * Readings repeat: the same "NV18", "OK" or "NVML_ERROR_NOT_SUPPORTED (3)" thousands of times in a big machine
     * and in every report of a cluster folder. Equal small readings share one instance (they are immutable), so a
     * folder of 10,000 node reports fits a 1 GiB heap. The table is bounded; past it, readings are not shared.
     */
    private static final ConcurrentHashMap<Reading<?>, Reading<?>> SHARED = new ConcurrentHashMap<>();
    private static final int MAX_SHARED = 50_000;

    static Reading<?> shared(Reading<?> r) {
        Object v = r.value();
        boolean small = v == null ? r.missing().detail() == null || r.missing().detail().length() <= 200
                : v instanceof String str ? str.length() <= 64 : v instanceof Number || v instanceof Boolean
                || v instanceof dev.fabricscope.model.PciAddress;
        if (!small) {
            return r;
        }
        Reading<?> known = SHARED.get(r);
        if (known != null) {
            return known;
        }
        if (SHARED.size() < MAX_SHARED) {
            known = SHARED.putIfAbsent(r, r);
        }
        return known != null ? known : r;
    }

    /**
     * Why a value of the JSON type its reading expects is still not plausible for {@code field} (the record component
     * it is read for), or null: the check {@link ReadingDeserializer} and {@link RecordReader} both make.
     */
    static String rangeProblem(Object value, String field) {
        if (value instanceof Integer || value instanceof Long) {
            long n = ((Number) value).longValue();
            long min = "numaNode".equals(field) || "hostNumaId".equals(field) ? -1 : 0;
            long max = "memoryTotalBytes".equals(field) ? MAX_MEMORY_BYTES
                    : value instanceof Long ? 1L << 53 : "versionCode".equals(field) ? Integer.MAX_VALUE : MAX_COUNT;
            if (n < min) {
                return "negative";
            }
            if (n > max) {
                return "over " + max;
            }
        } else if (value instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return "not a finite number";
            }
            if (d < 0 || d > 1e6) {
                return "out of range";
            }
        } else if (value instanceof String s && "computeCapability".equals(field) && !COMPUTE_CAPABILITY.matcher(s).matches()) {
            return "not a compute capability (major.minor)";
        }
        return null;
    }
}
