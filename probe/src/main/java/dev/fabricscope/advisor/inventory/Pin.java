package dev.fabricscope.advisor.inventory;

/**
 * A commit the inventory's files were read at.
 *
 * @param repo     {@code owner/name} on GitHub
 * @param commit   40 hex digits
 * @param date     the commit's date (ISO-8601), or null where the reader could not see it
 * @param dateNote why the date is missing, or null
 * @param read     how the files were read (a bare mirror, or the stored index of public files)
 */
public record Pin(String repo, String commit, String date, String dateNote, String read) {
}
