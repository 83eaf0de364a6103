package dev.fabricscope.nativeapi;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Turns a seam's {@link NativeAnswer} into a {@link Reading}: the call and its symbolic error code on failure, the
 * loader's words for a missing symbol, and for an answer out of range an {@link Missing.Kind#INVALID} reading with
 * the raw value. Decoders signal a bad value by throwing {@link OutOfRange}; nothing escapes {@link #read}.
 */
public final class NativeReads {

    private final int success;
    private final int notSupported;
    private final IntFunction<String> codeName;
    private volatile String driverVersion;

    public NativeReads(int success, int notSupported, IntFunction<String> codeName) {
        this.success = success;
        this.notSupported = notSupported;
        this.codeName = codeName;
    }

    /** Named in "unsupported by driver X" for missing symbols. */
    public void driverVersion(String version) {
        this.driverVersion = version;
    }

    /** An answer outside the range its type allows; {@code raw} is kept in the reading. */
    public static class OutOfRange extends RuntimeException {
        private final String raw;

        public OutOfRange(String raw, String why) {
            super(why, null, false, false);
            this.raw = raw;
        }

        public String raw() {
            return raw;
        }
    }

    /** A well-known "this device is hidden" answer (all-ones addresses in a VM): not applicable, raw kept. */
    public static final class NotVisible extends OutOfRange {
        public NotVisible(String raw, String why) {
            super(raw, why);
        }
    }

    public <T, R> Reading<R> read(String call, Supplier<NativeAnswer<T>> nativeCall, Function<T, R> decode) {
        NativeAnswer<T> a;
        try {
            a = nativeCall.get();
        } catch (RuntimeException | Error e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, call, null, null, e.toString()));
        }
        if (a == null) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, call, null, null, "no answer"));
        }
        if (a.fault() != null) {
            return Reading.missing(faultMissing(call, a));
        }
        if (a.rc() != success) {
            String name = codeName.apply(a.rc());
            return Reading.missing(a.rc() == notSupported ? Missing.unsupported(call, name, a.rc()) : Missing.error(call, name, a.rc()));
        }
        try {
            R value = decode.apply(a.value());
            return value != null ? Reading.of(value)
                    : Reading.missing(Missing.invalid(call, String.valueOf(a.value()), "empty answer"));
        } catch (NotVisible e) {
            return Reading.missing(new Missing(Missing.Kind.NOT_APPLICABLE, call, null, null, e.getMessage(), e.raw()));
        } catch (OutOfRange e) {
            return Reading.missing(Missing.invalid(call, e.raw(), e.getMessage()));
        } catch (RuntimeException e) {
            return Reading.missing(Missing.invalid(call, abbreviate(String.valueOf(a.value())), "unreadable answer: " + e));
        }
    }

    private Missing faultMissing(String call, NativeAnswer<?> a) {
        return switch (a.fault()) {
            case SYMBOL_MISSING -> Missing.symbolMissing(call, driverVersion);
            case LOAD_FAILED, NOT_RECORDED -> new Missing(Missing.Kind.UNAVAILABLE, call, null, null, faultText(a));
            default -> new Missing(Missing.Kind.ERROR, call, null, null, faultText(a));
        };
    }

    /** One line for a fault: {@code timed out: … did not return within 20000 ms}. */
    public static String faultText(NativeAnswer<?> a) {
        String what = switch (a.fault()) {
            case LOAD_FAILED -> "library not loaded";
            case SYMBOL_MISSING -> "symbol missing";
            case THREW -> "binding failed";
            case TIMED_OUT -> "timed out";
            case NOT_RECORDED -> "not recorded in the trace";
            case UNREADABLE_TRACE -> "unreadable trace answer";
        };
        return a.detail() == null || a.detail().isBlank() || a.fault() == NativeAnswer.Fault.NOT_RECORDED ? what : what + ": " + a.detail();
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }

    // --- decoders ---

    /** Text as answered; a driver string is never empty when the call succeeded. */
    public static String text(String s) {
        if (s == null || s.isBlank()) {
            throw new OutOfRange(s == null ? "null" : "'" + s + "'", "empty text");
        }
        return s.strip();
    }

    public static int inRange(Integer v, int min, int max, String what) {
        if (v == null || v < min || v > max) {
            throw new OutOfRange(String.valueOf(v), what + " outside " + min + ".." + max);
        }
        return v;
    }

    public static long nonNegative(long v, String what) {
        if (v < 0) {
            throw new OutOfRange(Long.toUnsignedString(v), what + " beyond 2^63 bytes");
        }
        return v;
    }

    public static boolean flag(Integer v, String what) {
        if (v == null || (v != 0 && v != 1)) {
            throw new OutOfRange(String.valueOf(v), what + " is 0 or 1");
        }
        return v == 1;
    }

    public static int[] length(int[] v, int n, String what) {
        if (v == null || v.length < n) {
            throw new OutOfRange(v == null ? "null" : java.util.Arrays.toString(v), "expected " + what);
        }
        return v;
    }

    public static long[] length(long[] v, int n, String what) {
        if (v == null || v.length < n) {
            throw new OutOfRange(v == null ? "null" : java.util.Arrays.toString(v), "expected " + what);
        }
        return v;
    }

    /** {@code 13000} → {@code 13.0}. */
    public static String cudaVersion(Integer v) {
        inRange(v, 1000, 999_000, "CUDA version code");
        return (v / 1000) + "." + (v % 1000) / 10;
    }
}
