package dev.fabricscope.cluster.read;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.NodeCheckSummary;
import dev.fabricscope.io.ErrorText;
import dev.fabricscope.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads the head of a {@code check node --json} report in a cluster folder ({@link NodeCheckSummary}). Only the fields
 * written before {@code preflight} and {@code snapshot} are read, so a folder of plain probe snapshots costs one buffer
 * per file.
 */
public final class NodeCheckReader {

    private NodeCheckReader() {
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
            List<NodeCheckSummary.Failed> failed = new ArrayList<>();
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
                                    failed.add(new NodeCheckSummary.Failed(e.getOrDefault("name", "?"), e.getOrDefault("expected", ""),
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
            return new NodeCheckSummary(node, status == null ? "?" : status, summary == null ? "" : ErrorText.oneLineSafe(summary), failed);
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
