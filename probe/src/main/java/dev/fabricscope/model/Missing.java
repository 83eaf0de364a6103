package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * Why a reading has no value: which native call failed and with which code, or why it was never asked.
 *
 * @param kind      the category of absence
 * @param call      the native call that was made (e.g. {@code nvmlDeviceGetNvLinkState}), or null
 * @param code      the symbolic error code (e.g. {@code NVML_ERROR_NOT_SUPPORTED}), or null
 * @param codeValue the numeric error code, or null
 * @param detail    a human sentence, or null
 * @param raw       what the call answered when that answer was out of range (kept as read), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Missing(Kind kind, String call, String code, Integer codeValue, String detail, String raw) {

    public enum Kind {
        /** The call answered that the device or driver does not support it. */
        UNSUPPORTED,
        /** The call failed with another error. */
        ERROR,
        /** The driver library lacks the symbol (an older driver). */
        SYMBOL_MISSING,
        /** The library that would answer is not present (no driver, no NCCL). */
        UNAVAILABLE,
        /** The reading does not apply here (e.g. a link index past the device's count). */
        NOT_APPLICABLE,
        /** The call answered, but with a value out of its range; the raw answer is kept. */
        INVALID
    }

    public Missing {
        Objects.requireNonNull(kind, "kind");
    }

    public Missing(Kind kind, String call, String code, Integer codeValue, String detail) {
        this(kind, call, code, codeValue, detail, null);
    }

    /** The call answered {@code raw}, which is out of range: {@code why}. */
    public static Missing invalid(String call, String raw, String why) {
        return new Missing(Kind.INVALID, call, null, null, why, raw);
    }

    public static Missing unsupported(String call, String code, int codeValue) {
        return new Missing(Kind.UNSUPPORTED, call, code, codeValue, null);
    }

    public static Missing error(String call, String code, int codeValue) {
        return new Missing(Kind.ERROR, call, code, codeValue, null);
    }

    public static Missing symbolMissing(String call, String driverVersion) {
        return new Missing(Kind.SYMBOL_MISSING, call, null, null,
                "unsupported by driver " + (driverVersion == null ? "(unknown version)" : driverVersion));
    }

    public static Missing unavailable(String detail) {
        return new Missing(Kind.UNAVAILABLE, null, null, null, detail);
    }

    /** A value in a saved file that cannot be read as a reading: {@code unreadable (raw: why)}. */
    public static Missing unreadable(String rawAndWhy) {
        return new Missing(Kind.ERROR, null, null, null, "unreadable (" + rawAndWhy + ")");
    }

    public static Missing notApplicable(String detail) {
        return new Missing(Kind.NOT_APPLICABLE, null, null, null, detail);
    }

    /** One line: {@code nvmlDeviceGetNvLinkState → NVML_ERROR_NOT_SUPPORTED (3)}. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        if (call != null) {
            sb.append(call);
        }
        if (code != null) {
            sb.append(sb.length() > 0 ? " → " : "").append(code);
            if (codeValue != null) {
                sb.append(" (").append(codeValue).append(')');
            }
        }
        if (detail != null) {
            sb.append(sb.length() > 0 ? ": " : "").append(detail);
        }
        if (raw != null) {
            sb.append(sb.length() > 0 ? " " : "").append("(answered ").append(raw).append(')');
        }
        if (sb.length() == 0) {
            sb.append(kind.name().toLowerCase());
        }
        return sb.toString();
    }
}
