package dev.fabricscope.advisor.rule;

import java.util.List;

/**
 * What a verdict's scope read ({@link Eval}): the notes its {@code why} states, and what those facts rest on that the
 * advisor does not model, which makes an {@code ok} built on them {@code unknown} ({@link VerdictBuilder#build}).
 */
record FactsRead(List<String> notes, List<String> notModelled) {
}
