package dev.fabricscope.cluster;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fabricscope.json.Json;
import dev.fabricscope.io.SnapshotIO;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The head of a {@code check node --json} report in a cluster folder: its status, summary line and failed
 * expectations. Only the fields written before {@code preflight} and {@code snapshot} are read, so a folder of
 * plain probe snapshots costs one buffer per file.
 *
 * @param node    the node's name in the cluster view
 * @param status  {@code PASSED} or {@code FAILED}
 * @param summary the check's summary line ({@code FAIL: 2 of 13 expectations failed (…)})
 * @param failed  the expectations that failed, in the report's order
 */
public record NodeCheckSummary(String node, String status, String summary, List<Failed> failed) {

    /** One failed expectation, as the report has it. */
    public record Failed(String name, String expected, String measured) {
    }

    public NodeCheckSummary {
        failed = failed == null ? List.of() : List.copyOf(failed);
    }

    /** Whether the node failed its check (status FAILED, or any expectation failed). */
    public boolean failedCheck() {
        return "FAILED".equals(status) || !failed.isEmpty();
    }

    /** The top-level fields of a node check that come before its live results and snapshot, in the order written. */
    private static final Set<String> HEAD = Set.of("format", "reportVersion", "check", "status", "summary", "expectedFrom",
            "profile", "expectations");

    /**
     * Reads the check's head from {@code file}, or null when the file is not a node check (a snapshot, another report)
     * or cannot be read that far (the node's own reading already says why).
     */
    public static NodeCheckSummary read(String node, Path file) {
        try (InputStream in = Files.newInputStream(file); JsonParser p = Json.mapper().getFactory().createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String check = null;
            String status = null;
            String summary = null;
            List<Failed> failed = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                if (!HEAD.contains(field)) {
                    break;
                }
                JsonToken t = p.nextToken();
                switch (field) {
                    case "check" -> check = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "status" -> status = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "summary" -> summary = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "expectations" -> {
                        if (t == JsonToken.START_ARRAY) {
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                java.util.Map<String, String> e = new java.util.HashMap<>();
                                while (p.nextToken() == JsonToken.FIELD_NAME) {
                                    String key = p.currentName();
                                    JsonToken v = p.nextToken();
                                    if (v.isScalarValue()) {
                                        e.put(key, p.getText());
                                    } else {
                                        p.skipChildren();
                                    }
                                }
                                if ("FAIL".equals(e.get("outcome"))) {
                                    failed.add(new Failed(e.getOrDefault("name", "?"), e.getOrDefault("expected", ""),
                                            e.getOrDefault("measured", "")));
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (!"node".equals(check)) {
                return null;
            }
            return new NodeCheckSummary(node, status == null ? "?" : status, summary == null ? "" : SnapshotIO.oneLineSafe(summary), failed);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The node checks among the readable nodes of {@code v} (read in parallel), as a new view. */
    public static ClusterView attach(ClusterView v) {
        List<NodeCheckSummary> checks = v.readable().parallelStream()
                .map(n -> read(n.name(), Path.of(n.file())))
                .filter(java.util.Objects::nonNull)
                .toList();
        return new ClusterView(v.directory(), v.nodes(), v.domains(), v.inconsistencies(), checks, v.problems());
    }
}
