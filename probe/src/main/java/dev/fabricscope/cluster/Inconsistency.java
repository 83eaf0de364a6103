package dev.fabricscope.cluster;

import java.util.List;
import java.util.Map;

/**
 * A fact that differs between nodes that should match.
 *
 * @param rank      lower is more important (driver before environment)
 * @param field     what differs, e.g. {@code driver version}
 * @param scope     {@code cluster} or the NVLink domain id it was found in
 * @param majority  the value most nodes have
 * @param byValue   every value seen → the nodes that have it
 * @param outliers  nodes whose value is not the majority's
 */
public record Inconsistency(int rank, String field, String scope, String majority, Map<String, List<String>> byValue,
                            List<String> outliers) {
}
