package dev.fabricscope.advisor.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where upstream a rule comes from.
 *
 * @param repo   e.g. {@code sgl-project/sglang}
 * @param commit 40-hex commit, or null for a stored copy whose commit was not recorded
 * @param path   file path in the repo
 * @param line   line, line range or function name
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SourceRef(String repo, String commit, String path, String line) {

    /** {@code repo@commit:path:line}, or {@code repo (stored copy; commit not recorded): path:line}. */
    @Override
    public String toString() {
        String where = path + (line == null ? "" : ":" + line);
        return commit == null ? repo + " (stored copy; commit not recorded): " + where : repo + "@" + commit + ":" + where;
    }

    /** A browsable link when the commit is known. */
    public String url() {
        if (commit == null) {
            return null;
        }
        String anchor = line != null && line.matches("\\d+(-\\d+)?") ? "#L" + line.replace("-", "-L") : "";
        return "https://github.com/" + repo + "/blob/" + commit + "/" + path + anchor;
    }
}
