package dev.fabricscope.advisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Every knob of every rule set (all versions), and validation of {@code --flag} / {@code --env} input against them. */
public final class Knobs {

    private Knobs() {
    }

    public static List<KnobSpec> all() {
        return Stream.of(SglangRules.KNOBS, VllmRules.KNOBS, FlashInferRules.KNOBS, NcclRules.KNOBS).flatMap(List::stream).toList();
    }

    /** Names {@code --flag} accepts, sorted. */
    public static List<String> flagNames() {
        return List.copyOf(new TreeSet<>(all().stream().filter(KnobSpec::setByFlag).map(KnobSpec::name).toList()));
    }

    /** Names {@code --env} accepts, sorted. */
    public static List<String> envNames() {
        return List.copyOf(new TreeSet<>(all().stream().filter(k -> k.kind() == KnobSpec.Kind.ENV).map(KnobSpec::name).toList()));
    }

    /** {@code --flag} input validated and normalised (leading dashes dropped, booleans to true/false). */
    static Map<String, String> flags(Map<String, String> raw) throws AdvisorInputException {
        return validate(raw, true);
    }

    /** {@code --env} input validated and normalised. */
    static Map<String, String> env(Map<String, String> raw) throws AdvisorInputException {
        return validate(raw, false);
    }

    private static Map<String, String> validate(Map<String, String> raw, boolean flag) throws AdvisorInputException {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null) {
            return out;
        }
        for (Map.Entry<String, String> e : raw.entrySet()) {
            String name = flag ? e.getKey().replaceFirst("^-+", "") : e.getKey();
            List<KnobSpec> specs = new ArrayList<>();
            for (KnobSpec k : all()) {
                if (k.name().equals(name) && (flag ? k.setByFlag() : k.kind() == KnobSpec.Kind.ENV)) {
                    specs.add(k);
                }
            }
            if (specs.isEmpty()) {
                throw new AdvisorInputException("unknown " + (flag ? "flag" : "env") + " '" + name + "'; valid: "
                        + String.join(", ", flag ? flagNames() : envNames()));
            }
            String value = null;
            for (KnobSpec k : specs) {
                value = k.accept(e.getValue());
                if (value != null) {
                    break;
                }
            }
            if (value == null) {
                throw new AdvisorInputException("invalid value '" + e.getValue() + "' for " + (flag ? "--flag " : "--env ")
                        + name + ": expected " + specs.get(0).expects());
            }
            // environment values stay as typed (frameworks parse "1" and "true" differently); flags are normalised
            out.put(name, flag ? value : e.getValue().trim());
        }
        return out;
    }
}
