package dev.fabricscope.advisor.api;

import java.util.List;

/**
 * One knob a framework offers: a command-line flag, an environment variable, a config key or a library argument.
 *
 * @param framework    sglang, vllm, flashinfer or nccl
 * @param name         as given to {@code --flag} (flag without its dashes, config key or library argument verbatim)
 *                     or to {@code --env}
 * @param kind         how the user sets it
 * @param type         what values it takes
 * @param choices      the valid values of a {@link Type#CHOICE} knob
 * @param defaultValue the value when the user does not set it, as shown in verdicts
 * @param description  one line
 * @param onlyVersion  the one rule-set version that has this knob, or null for every version
 * @param scope        how far the advisor models it
 */
public record KnobSpec(String framework, String name, Kind kind, Type type, List<String> choices, String defaultValue,
                       String description, String onlyVersion, Scope scope) {

    /** How far the advisor models a knob. */
    public enum Scope {
        /** Its effect on the all-reduce backends is evaluated. */
        MODELLED,
        /** It exists upstream; set, it gets an "unknown" verdict naming the upstream field (effect not modelled). */
        KNOWN,
        /** It exists upstream for ROCm only: "not applicable on NVIDIA GPUs". */
        ROCM_ONLY,
        /** Upstream never had it: passing it is an argparse error, never ok. */
        ABSENT
    }

    public KnobSpec(String framework, String name, Kind kind, Type type, List<String> choices, String defaultValue,
                    String description, String onlyVersion) {
        this(framework, name, kind, type, choices, defaultValue, description, onlyVersion, Scope.MODELLED);
    }

    public enum Kind {
        /** {@code --name}; given as {@code --flag name=VALUE}. */
        FLAG,
        /** An environment variable; given as {@code --env NAME=VALUE}. */
        ENV,
        /** A config key such as {@code fuse_allreduce_rms}; given as {@code --flag KEY=VALUE}. */
        CONFIG,
        /** A library argument such as {@code create_allreduce_fusion_workspace(backend)}; given as {@code --flag}. */
        LIBRARY,
        /** A flag whose value comes from the deployment ({@code --dcp}); also accepted as {@code --flag}. */
        DEPLOYMENT,
        /** Not settable: something the framework probes (a verdict is still given). */
        PROBE
    }

    /**
     * What a knob takes. {@code PY_INT_BOOL}: an environment variable Python reads as {@code bool(int(value))} (any text is
     * taken; one that is not an integer stops the framework with a ValueError, which its verdict says); {@code PY_EQ_ONE}:
     * read as {@code value == "1"} (any text is taken; only "1" is on).
     */
    public enum Type { BOOL, INT, NUMBER, CHOICE, STRING, NONE, PY_INT_BOOL, PY_EQ_ONE }

    public KnobSpec {
        choices = choices == null ? List.of() : List.copyOf(choices);
        scope = scope == null ? Scope.MODELLED : scope;
    }

    public static KnobSpec flag(String fw, String name, Type type, String def, String description, String... choices) {
        return new KnobSpec(fw, name, Kind.FLAG, type, List.of(choices), def, description, null);
    }

    public static KnobSpec env(String fw, String name, Type type, String def, String description, String... choices) {
        return new KnobSpec(fw, name, Kind.ENV, type, List.of(choices), def, description, null);
    }

    public KnobSpec only(String version) {
        return new KnobSpec(framework, name, kind, type, choices, defaultValue, description, version, scope);
    }

    KnobSpec kind(Kind k) {
        return new KnobSpec(framework, name, k, type, choices, defaultValue, description, onlyVersion, scope);
    }

    public KnobSpec scope(Scope s) {
        return new KnobSpec(framework, name, kind, type, choices, defaultValue, description, onlyVersion, s);
    }

    /** Whether {@code raw} turns this knob on as the framework parses it; false for a value it cannot parse ({@link #pythonIntError}). */
    public boolean on(String raw) {
        if (raw == null) {
            return false;
        }
        return switch (type) {
            case PY_INT_BOOL -> pythonIntError(raw) == null && new java.math.BigInteger(raw.strip().replace("_", "")).signum() != 0;
            case PY_EQ_ONE -> raw.equals("1");
            default -> Values.truthy(raw);
        };
    }

    /**
     * For {@code PY_INT_BOOL}: the ValueError Python's {@code int(value)} raises, or null where it parses. int() takes
     * surrounding whitespace, a sign and single underscores between digits (ASCII digits only are modelled).
     */
    public String pythonIntError(String raw) {
        if (type != Type.PY_INT_BOOL || raw == null || raw.strip().matches("[+-]?\\d+(_\\d+)*")) {
            return null;
        }
        return "ValueError: invalid literal for int() with base 10: " + Values.pyRepr(raw);
    }

    /** As the user types it on the framework's command line: {@code --name}, {@code NAME}, {@code key}. */
    public String display() {
        return kind == Kind.FLAG || kind == Kind.DEPLOYMENT ? "--" + name : name;
    }

    /** Whether {@code --flag} (true) or {@code --env} (false) sets it. */
    public boolean setByFlag() {
        return kind == Kind.FLAG || kind == Kind.CONFIG || kind == Kind.LIBRARY || kind == Kind.DEPLOYMENT;
    }

    /** The value normalised, or null when this knob does not take it. */
    public String accept(String raw) {
        String v = raw == null ? "" : raw.trim();
        return switch (type) {
            case BOOL -> Values.bool(v);
            case PY_INT_BOOL, PY_EQ_ONE -> v.isEmpty() ? null : v;
            case INT -> v.matches("-?\\d+") ? Integer.toString(Integer.parseInt(v)) : null;
            case NUMBER -> v.matches("\\d+(\\.\\d+)?") ? v : null;
            case CHOICE -> choices.contains(v) ? v : null;
            case STRING -> v.isEmpty() ? null : v;
            case NONE -> null;
        };
    }

    /** What the knob takes, for error messages. */
    public String expects() {
        return switch (type) {
            case BOOL -> "true or false";
            case PY_INT_BOOL -> "an integer (read as bool(int(value)))";
            case PY_EQ_ONE -> "a value (only 1 turns it on)";
            case INT -> "a whole number";
            case NUMBER -> "a number";
            case CHOICE -> String.join(", ", choices);
            case STRING -> "a non-empty value";
            case NONE -> "nothing (not settable)";
        };
    }
}
