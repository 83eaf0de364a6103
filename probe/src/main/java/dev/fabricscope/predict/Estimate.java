package dev.fabricscope.predict;

/** A predicted time in µs and the label of the term that gave it. */
public record Estimate(double us, String term) {
}
