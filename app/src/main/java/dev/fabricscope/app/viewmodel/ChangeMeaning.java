package dev.fabricscope.app.viewmodel;

import dev.fabricscope.diff.ReportDiff;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a difference between report A (before) and B (after) is a regression, an improvement or neither, so that
 * the Compare page colours it by meaning: a capability lost, a link gone down, a verdict from ok to fallback, a
 * reading that became unknown, a new warning are worse; their reverse is better; versions, names, addresses and
 * other values are neutral.
 */
public enum ChangeMeaning {
    WORSE, BETTER, NEUTRAL;

    /** Verdict outcomes and check states: higher is better. */
    private static final java.util.Map<String, Integer> RANKED = java.util.Map.of("error", 0, "fail", 0, "failed", 0,
            "fallback", 1, "warning", 1, "ok", 2, "pass", 2, "passed", 2);
    private static final List<String> SEVERITY = List.of("INFO", "WARNING", "ERROR");
    private static final Pattern ACTIVE = Pattern.compile("^(\\d+)/(\\d+) active");
    private static final Pattern NUMBER = Pattern.compile("^(\\d+(?:\\.\\d+)?)(?: from| GiB| links|$)");

    public static ChangeMeaning of(ReportDiff.Change c) {
        String a = c.before();
        String b = c.after();
        String item = c.item() == null ? "" : c.item().toLowerCase(Locale.ROOT);
        if (c.category() == ReportDiff.Category.FINDINGS) {
            return a == null ? rankSeverity(b, true) : b == null ? rankSeverity(a, false) : compare(severity(b), severity(a));
        }
        if (a == null || b == null) {
            // a GPU, a switch, a link that is present on one side only
            return item.equals("present") || item.equals("count") ? (a == null ? BETTER : WORSE) : NEUTRAL;
        }
        boolean ua = unknown(a);
        boolean ub = unknown(b);
        if (ua != ub) {
            return ub ? WORSE : BETTER;
        }
        if (ua) {
            return NEUTRAL;
        }
        String la = a.strip().toLowerCase(Locale.ROOT);
        String lb = b.strip().toLowerCase(Locale.ROOT);
        if (isYesNo(la) && isYesNo(lb)) {
            return la.startsWith("yes") == lb.startsWith("yes") ? NEUTRAL : lb.startsWith("yes") ? BETTER : WORSE;
        }
        int ra = rank(la);
        int rb = rank(lb);
        if (ra >= 0 && rb >= 0) {
            return compare(ra, rb);
        }
        if (la.equals("ok") != lb.equals("ok") && (la.equals("ok") || lb.equals("ok")) && item.contains("p2p")) {
            return lb.equals("ok") ? BETTER : WORSE;
        }
        Matcher ma = ACTIVE.matcher(la);
        Matcher mb = ACTIVE.matcher(lb);
        if (ma.find() && mb.find()) {
            return compare(Integer.parseInt(ma.group(1)), Integer.parseInt(mb.group(1)));
        }
        if (item.equals("nvlinks") || item.equals("link count") || item.equals("links") || item.equals("count")
                || item.equals("memory") || item.equals("sms")) {
            Matcher na = NUMBER.matcher(la);
            Matcher nb = NUMBER.matcher(lb);
            if (na.find() && nb.find()) {
                return compare(Double.parseDouble(na.group(1)), Double.parseDouble(nb.group(1)));
            }
        }
        return NEUTRAL;
    }

    static boolean unknown(String v) {
        String s = v.strip().toLowerCase(Locale.ROOT);
        return s.startsWith("unknown") || s.equals("?") || s.equals("n/s") || s.equals("n/a");
    }

    private static boolean isYesNo(String s) {
        return s.equals("yes") || s.equals("no") || s.startsWith("yes ") || s.startsWith("no ");
    }

    /** The rank of a verdict outcome or check status ("fallback → nccl" ranks as fallback); -1 if none. */
    private static int rank(String s) {
        return RANKED.getOrDefault(s.split("[ →:(]", 2)[0], -1);
    }

    private static int severity(String finding) {
        String first = finding.split(":", 2)[0].strip();
        return SEVERITY.indexOf(first);
    }

    /** A finding that appears (added) or goes away: a new INFO is neutral, a new warning or error worse. */
    private static ChangeMeaning rankSeverity(String finding, boolean added) {
        if (severity(finding) <= 0) {
            return NEUTRAL;
        }
        return added ? WORSE : BETTER;
    }

    /** For "higher is better" values. */
    private static ChangeMeaning compare(double a, double b) {
        return a == b ? NEUTRAL : b > a ? BETTER : WORSE;
    }
}
