package dev.fabricscope.advisor.api;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One machine fact as the rules use it, with where it came from. An unknown fact still carries the value the
 * advisor works with, and {@code detail} says so: verdicts that read it repeat that in their {@code why}.
 *
 * @param value  the value the rules use (null only for a fact that has no usable default, e.g. an unknown SM)
 * @param origin probed from the machine, assumed by the user, derived from other facts, or unknown
 * @param detail PROBED: what was read; ASSUMED: the flag; DERIVED: from what; UNKNOWN: why, and what is taken instead
 */
public record Fact<T>(T value, Origin origin, String detail) {

    public enum Origin {
        PROBED, ASSUMED, DERIVED, UNKNOWN;

        @JsonValue
        public String json() {
            return name().toLowerCase();
        }
    }

    static <T> Fact<T> probed(T value, String detail) {
        return new Fact<>(value, Origin.PROBED, detail);
    }

    static <T> Fact<T> assumed(T value, FactKey key) {
        return new Fact<>(value, Origin.ASSUMED, "--assume " + key.key + "=" + value);
    }

    public static <T> Fact<T> derived(T value, String detail) {
        return new Fact<>(value, Origin.DERIVED, detail);
    }

    static <T> Fact<T> unknown(T workingValue, String detail) {
        return new Fact<>(workingValue, Origin.UNKNOWN, detail);
    }

    public boolean probed() {
        return origin == Origin.PROBED;
    }

    /** What a verdict's {@code why} says about this fact when it read it, or null for a probed fact. */
    public String note(FactKey key) {
        return switch (origin) {
            case PROBED -> null;
            case ASSUMED -> key.key + "=" + value + " (--assume)";
            case DERIVED -> key.key + "=" + value + " (" + detail + ")";
            case UNKNOWN -> detail.startsWith(MachineFacts.MIG_CAUSE) ? key.key + " unknown (" + detail.substring(0, detail.indexOf(':'))
                    + "), taken as " + detail.substring(detail.indexOf("; taken as ") + 11)
                    : detail.contains("; taken as ") ? key.key + " unknown, taken as " + detail.substring(detail.indexOf("; taken as ") + 11)
                    : key.key + " unknown: " + detail;
        };
    }

    /** One line for the JSON and text views: {@code probed: GPU 0–7 report …}. */
    public String provenance() {
        return json(origin) + ": " + detail;
    }

    private static String json(Origin o) {
        return o.json();
    }
}
