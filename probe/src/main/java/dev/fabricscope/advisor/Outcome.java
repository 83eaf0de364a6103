package dev.fabricscope.advisor;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a framework does with a knob on a machine. */
public enum Outcome {
    /** The requested (or default) path is taken. */
    OK,
    /** A lesser path is used, silently or with a warning. */
    FALLBACK,
    /** An exception stops start-up. */
    ERROR;

    @JsonValue
    public String json() {
        return name().toLowerCase();
    }
}
