package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.SourceRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a rule set was read from and which releases it is known to match, only where that was read upstream.
 *
 * @param files       the upstream files its rules follow (repository, commit, path, commit date where seen)
 * @param from        the first release it matches (inclusive), or null where no lower bound was read
 * @param before      the first release it no longer matches (exclusive), or null where it matches every later one
 * @param tags        the release tags it was read against, e.g. {@code v2.17.1-1 … v2.20.5-1}
 * @param releaseNote how the releases were read, or why none is known
 */
public record Pedigree(List<File> files, String from, String before, List<String> tags, String releaseNote) {

    /**
     * One upstream file at one commit.
     *
     * @param date the commit date (ISO-8601) where read, else null
     * @param dateNote why the date (or the commit) is missing, else null
     */
    public record File(String repo, String commit, String path, String date, String dateNote) {

        /** {@code repo@abcdef12 path (2026-08-22)}, or the reason for the missing date in the brackets. */
        public String display() {
            return repo + (commit == null ? " (no commit)" : "@" + commit.substring(0, Math.min(8, commit.length())))
                    + " " + path + " (" + (date != null ? date.substring(0, Math.min(10, date.length())) : dateNote) + ")";
        }
    }

    public Pedigree {
        files = List.copyOf(files);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** Files from the rule set's sources, one per repository, commit and path; dates from {@code dates} (commit → date). */
    public static List<File> files(List<SourceRef> sources, Map<String, String> dates) {
        Map<String, File> out = new LinkedHashMap<>();
        for (SourceRef s : sources) {
            String date = s.commit() == null ? null : dates.get(s.commit());
            String note = s.commit() == null ? "stored copy, commit not recorded"
                    : date == null ? "no date in the stored index" : null;
            out.putIfAbsent(s.repo() + "@" + s.commit() + ":" + s.path(), new File(s.repo(), s.commit(), s.path(), date, note));
        }
        return new ArrayList<>(out.values());
    }

    /** Whether a release range was read for this set. */
    public boolean hasRange() {
        return from != null || before != null;
    }

    /** Whether {@code release} (e.g. {@code 0.6.17}, {@code 2.20.5}, {@code 0.6.18rc2}) lies in the range read. */
    public boolean covers(String release) {
        if (!hasRange() || !isRelease(release)) {
            return false;
        }
        return (from == null || compare(release, from) >= 0) && (before == null || compare(release, before) < 0);
    }

    /** Whether {@code prefix} (at least 7 hex digits) starts the commit of one of the files. */
    public boolean hasCommit(String prefix) {
        String p = prefix.toLowerCase(Locale.ROOT);
        return isCommitPrefix(p) && files.stream().anyMatch(f -> f.commit() != null && f.commit().startsWith(p));
    }

    /** {@code 0.6.17 or later}, {@code 2.17 up to 2.21 (not included)}, or {@code no release read}. */
    public String rangeText() {
        if (from != null && before != null) {
            return from + " up to " + before + " (not included)";
        }
        if (from != null) {
            return from + " or later";
        }
        return before != null ? "before " + before : "no release read";
    }

    private static final Pattern RELEASE = Pattern.compile(
            "v?(\\d+(?:\\.\\d+)*)(?:[-.]?((?:a|b|rc|dev|post)\\d*)(?:\\.?dev\\d*)?)?(?:-\\d+)?(?:\\+[\\w.]+)?", Pattern.CASE_INSENSITIVE);

    /** A release as pip and the tags spell it: {@code 0.5.6}, {@code v0.6.18rc2}, {@code 2.20.5-1}, {@code 0.5.3.post1}. */
    public static boolean isRelease(String s) {
        return s != null && RELEASE.matcher(s).matches();
    }

    public static boolean isCommitPrefix(String s) {
        return s != null && s.matches("(?i)[0-9a-f]{7,40}");
    }

    /**
     * Orders releases by their numbers; pre-releases before the release itself (dev before a before b before rc, each by
     * its number: 0.6.15rc1 before 0.6.15rc2), a post-release after it.
     */
    public static int compare(String a, String b) {
        Matcher x = RELEASE.matcher(a);
        Matcher y = RELEASE.matcher(b);
        if (!x.matches() || !y.matches()) {
            throw new IllegalArgumentException("not a release: " + (x.matches() ? b : a));
        }
        String[] p = x.group(1).split("\\.");
        String[] q = y.group(1).split("\\.");
        for (int i = 0; i < Math.max(p.length, q.length); i++) {
            long m = i < p.length ? Long.parseLong(p[i]) : 0;
            long n = i < q.length ? Long.parseLong(q[i]) : 0;
            if (m != n) {
                return Long.compare(m, n);
            }
        }
        return Long.compare(suffixRank(x.group(2)), suffixRank(y.group(2)));
    }

    private static final List<String> PRE_RELEASES = List.of("dev", "a", "b", "rc");

    /** 0 for none; pre-releases below it by kind, then number; post-releases above it by number. */
    private static long suffixRank(String suffix) {
        if (suffix == null) {
            return 0;
        }
        String s = suffix.toLowerCase(Locale.ROOT);
        String kind = s.replaceAll("\\d+$", "");
        String digits = s.substring(kind.length());
        long number = digits.isEmpty() ? 0 : Math.min(Long.parseLong(digits.length() > 9 ? digits.substring(0, 9) : digits), 999_999_999L);
        if (kind.equals("post")) {
            return 1_000_000_000L + number;
        }
        return -(PRE_RELEASES.size() - PRE_RELEASES.indexOf(kind)) * 1_000_000_000L + number;
    }
}
