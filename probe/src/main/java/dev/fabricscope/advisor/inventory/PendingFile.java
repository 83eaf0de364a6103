package dev.fabricscope.advisor.inventory;

/**
 * A file a rule cites whose branches are not enumerated yet: listed, so that docs/upstream-coverage.md says so and the
 * coverage test knows it from a file forgotten.
 *
 * @param repo   {@code owner/name}
 * @param path   the cited path
 * @param reason why it is not enumerated yet
 */
public record PendingFile(String repo, String path, String reason) {
}
