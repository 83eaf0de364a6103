package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Optional;
import java.util.function.Function;

/**
 * One fact read from the machine: either its value, or why it is missing. Never both, never neither.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = dev.fabricscope.json.ReadingDeserializer.class)
public record Reading<T>(T value, Missing missing) {

    public Reading {
        if ((value == null) == (missing == null)) {
            throw new IllegalArgumentException("a reading holds exactly one of value or missing");
        }
    }

    public static <T> Reading<T> of(T value) {
        return new Reading<>(value, null);
    }

    public static <T> Reading<T> missing(Missing why) {
        return new Reading<>(null, why);
    }

    public static <T> Reading<T> unavailable(String detail) {
        return missing(Missing.unavailable(detail));
    }

    @JsonIgnore
    public boolean isPresent() {
        return value != null;
    }

    public Optional<T> asOptional() {
        return Optional.ofNullable(value);
    }

    public T orElse(T other) {
        return value != null ? value : other;
    }

    public <R> Reading<R> map(Function<? super T, ? extends R> f) {
        return value != null ? Reading.of(f.apply(value)) : Reading.missing(missing);
    }

    /** The value as text, or {@code unknown (why)}. */
    public String display() {
        return value != null ? String.valueOf(value) : "unknown (" + missing.describe() + ")";
    }

    /** The value as text, or a short placeholder for tables. */
    public String shortDisplay() {
        if (value != null) {
            return String.valueOf(value);
        }
        return switch (missing.kind()) {
            case UNSUPPORTED -> "N/S";
            case NOT_APPLICABLE -> "N/A";
            default -> "?";
        };
    }
}
