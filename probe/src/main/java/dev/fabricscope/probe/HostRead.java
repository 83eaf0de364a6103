package dev.fabricscope.probe;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.util.function.Function;

/**
 * One answer of the host seam ({@link HostCalls}) decoded into a {@link Reading}: the value, or the operation and the
 * fault or errno that stopped it (ENOENT: not applicable). The two probes that read the host differ only in how they
 * word an answer that decodes to nothing and in how much of an undecodable raw value they keep: {@link #HOST} and
 * {@link #NODE}.
 */
final class HostRead {

    /** {@link HostProbe}: nothing there is not applicable; the raw value is kept whole. */
    static final HostRead HOST = new HostRead(false, Integer.MAX_VALUE);
    /** {@link NodeProbe}: an empty answer is invalid; raw values are cut to 200 characters. */
    static final HostRead NODE = new HostRead(true, 200);

    private final boolean emptyIsInvalid;
    private final int maxRaw;

    private HostRead(boolean emptyIsInvalid, int maxRaw) {
        this.emptyIsInvalid = emptyIsInvalid;
        this.maxRaw = maxRaw;
    }

    /** @param what the operation as the user reads it, e.g. {@code read /proc/cpuinfo} */
    <T, R> Reading<R> read(String what, NativeAnswer<T> a, Function<T, R> decode) {
        if (a == null) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, what, null, null, "no answer"));
        }
        if (a.fault() != null) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, what, null, null, NativeReads.faultText(a)));
        }
        if (a.rc() != 0) {
            return Reading.missing(new Missing(a.rc() == HostCalls.ENOENT ? Missing.Kind.NOT_APPLICABLE : Missing.Kind.ERROR,
                    what, FileHost.errnoName(a.rc()), a.rc(), null));
        }
        try {
            R r = decode.apply(a.value());
            return r != null ? Reading.of(r) : Reading.missing(empty(what, a.value()));
        } catch (RuntimeException e) {
            return Reading.missing(Missing.invalid(what, raw(a.value()), "unreadable: " + e.getMessage()));
        }
    }

    /** The file or directory is not there (ENOENT, or ENOTDIR on the way): usually a fact, not a failure. */
    static boolean absent(NativeAnswer<?> a) {
        return a != null && a.fault() == null && (a.rc() == HostCalls.ENOENT || a.rc() == HostCalls.ENOTDIR);
    }

    private Missing empty(String what, Object value) {
        return emptyIsInvalid ? Missing.invalid(what, String.valueOf(value), "empty answer")
                : Missing.notApplicable(what + ": nothing there");
    }

    private String raw(Object value) {
        String raw = String.valueOf(value);
        return raw.length() > maxRaw ? raw.substring(0, maxRaw - 3) + "..." : raw;
    }
}
