package dev.fabricscope.advisor.rule;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code why} texts as templates with named slots: {@code "TP {tp} on {machine}"} filled from name/value pairs.
 * A slot without a value, or a value without a slot, is a programming error and throws, so a test that builds the
 * verdict finds it.
 */
public final class Slots {

    private static final Pattern SLOT = Pattern.compile("\\{([a-zA-Z][a-zA-Z0-9_]*)}");

    private Slots() {
    }

    /** {@code template} with each {@code {name}} replaced by the value after that name in {@code namesAndValues}. */
    public static String fill(String template, Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs: " + template);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        Map<String, Object> unused = new LinkedHashMap<>(values);
        StringBuilder out = new StringBuilder();
        Matcher m = SLOT.matcher(template);
        while (m.find()) {
            String name = m.group(1);
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException("no value for slot {" + name + "} in: " + template);
            }
            unused.remove(name);
            m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(values.get(name))));
        }
        m.appendTail(out);
        if (!unused.isEmpty()) {
            throw new IllegalArgumentException("values without a slot " + unused.keySet() + " in: " + template);
        }
        return out.toString();
    }
}
