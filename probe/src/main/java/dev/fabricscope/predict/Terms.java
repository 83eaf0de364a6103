package dev.fabricscope.predict;

import java.util.List;

/**
 * The candidate terms of a backend at a size (NCCL's tree correction depends on the size), or a reason why it cannot
 * be priced here ({@link CostModel#terms}).
 *
 * @param terms    the candidates (empty when {@code unpriced})
 * @param unpriced why no time is given, or null
 * @param sources  the sources of the figures used
 */
public record Terms(List<Term> terms, String unpriced, List<String> sources) {
    static Terms none(String why) {
        return new Terms(List.of(), why, List.of());
    }

    /** The fastest term's time and label, scaled. */
    public Estimate best(long bytes, Scale s) {
        Term best = null;
        for (Term t : terms) {
            if (best == null || t.timeUs(bytes, s) < best.timeUs(bytes, s)) {
                best = t;
            }
        }
        return best == null ? null : new Estimate(best.timeUs(bytes, s), best.label());
    }
}
