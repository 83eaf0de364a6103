package dev.fabricscope.cluster;

import java.util.List;
import java.util.Map;

/**
 * A fact that differs between nodes that should match.
 *
 * @param rank      lower is more important (driver before environment)
 * @param field     what differs, e.g. {@code driver version}
 * @param scope     {@code cluster} or the NVLink domain id it was found in
 * @param majority  the value more than half the nodes have, or null when no value has a majority
 * @param byValue   every value seen → the nodes that have it, most common first
 * @param outliers  nodes whose value is not the majority's (none when there is no majority)
 */
public record Inconsistency(int rank, String field, String scope, String majority, Map<String, List<String>> byValue,
                            List<String> outliers) {

    /** True when a majority exists, so the outliers are really odd ones out. */
    public boolean hasMajority() {
        return majority != null;
    }
}
