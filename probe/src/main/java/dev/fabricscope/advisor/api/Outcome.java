package dev.fabricscope.advisor.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a framework does with a knob on a machine. */
public enum Outcome {
    /** The requested (or default) path is taken. */
    OK,
    /** A lesser path is used, silently or with a warning. */
    FALLBACK,
    /** An exception stops start-up. */
    ERROR,
    /** Not decided: the upstream path was not read, or a fact it needs is unreadable; {@code why} says which. */
    UNKNOWN,
    /** The knob exists upstream but only for another platform (ROCm-only knobs on NVIDIA GPUs). */
    NOT_APPLICABLE;

    @JsonValue
    public String json() {
        return this == NOT_APPLICABLE ? "not applicable" : name().toLowerCase();
    }

    /** Errors first, then fallbacks, unknown, not applicable, ok. */
    public int severity() {
        return switch (this) {
            case ERROR -> 0;
            case FALLBACK -> 1;
            case UNKNOWN -> 2;
            case NOT_APPLICABLE -> 3;
            case OK -> 4;
        };
    }
}
