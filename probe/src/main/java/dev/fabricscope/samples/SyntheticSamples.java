package dev.fabricscope.samples;

import java.util.List;

/** Synthetic sample machines, each labelled with the public specifications it follows. */
final class SyntheticSamples {
    private SyntheticSamples() {
    }

    static List<Samples.Sample> all() {
        return List.of();
    }
}
