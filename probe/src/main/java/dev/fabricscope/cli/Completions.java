package dev.fabricscope.cli;

import dev.fabricscope.advisor.Knobs;
import dev.fabricscope.advisor.api.FactKey;
import dev.fabricscope.advisor.api.KnobSpec;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the shell completes after an option (picocli's {@code completionCandidates}): the bundled sample names, the
 * frameworks, the knobs as {@code --flag NAME=} / {@code --env NAME=} take them, the {@code --assume} keys. From the
 * same data the commands read, so the completion script never offers a name they refuse.
 */
final class Completions {

    private Completions() {
    }

    /** {@code --sample}: the bundled samples. */
    static final class Samples implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return dev.fabricscope.samples.Samples.names().iterator();
        }
    }

    /** {@code --framework}: every framework that has knobs. */
    static final class Frameworks implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            Set<String> out = new LinkedHashSet<>();
            Knobs.all().forEach(k -> out.add(k.framework()));
            return out.iterator();
        }
    }

    /** {@code --flag}: flags (without their dashes), config keys and library arguments, as {@code name=}. */
    static final class Flags implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return knobs(true).iterator();
        }
    }

    /** {@code --env}: the environment variables, as {@code NAME=}. */
    static final class Envs implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return knobs(false).iterator();
        }
    }

    /** {@code --assume}: the machine facts, as {@code key=}. */
    static final class AssumeKeys implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return java.util.Arrays.stream(FactKey.values()).map(k -> k.key + "=").iterator();
        }
    }

    private static List<String> knobs(boolean byFlag) {
        Set<String> out = new java.util.TreeSet<>();
        for (KnobSpec k : Knobs.all()) {
            if (k.kind() != KnobSpec.Kind.PROBE && k.setByFlag() == byFlag) {
                out.add(k.name() + "=");
            }
        }
        return List.copyOf(out);
    }
}
