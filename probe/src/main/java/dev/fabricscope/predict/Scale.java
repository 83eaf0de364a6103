package dev.fabricscope.predict;

/** A calibration's factors on the latency and the bandwidth terms (1, 1: from specs). */
public record Scale(double latency, double bandwidth) {
    public static final Scale SPECS = new Scale(1, 1);
}
