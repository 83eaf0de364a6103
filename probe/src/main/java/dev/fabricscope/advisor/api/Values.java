package dev.fabricscope.advisor.api;

import java.util.Locale;

/** Small value helpers shared by the rules. */
public final class Values {
    private Values() {
    }

    /** true/false for the spellings frameworks accept (true, 1, yes, on / false, 0, no, off), else null. */
    static String bool(String v) {
        if (v == null) {
            return null;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> "true";
            case "false", "0", "no", "off" -> "false";
            default -> null;
        };
    }

    /** Python's repr() of a str: single quotes unless the text holds one and no double quote; \\, \\n, \\t, \\r and other controls escaped. */
    public static String pyRepr(String v) {
        boolean dq = v.indexOf('\'') >= 0 && v.indexOf('"') < 0;
        char q = dq ? '"' : '\'';
        StringBuilder b = new StringBuilder().append(q);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c == q) {
                        b.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append(q).toString();
    }

    public static boolean truthy(String v) {
        return "true".equals(bool(v));
    }

    /** Compares dotted versions numerically: {@code 12.10 > 12.8}. */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? Integer.parseInt(x[i]) : 0;
            int q = i < y.length ? Integer.parseInt(y[i]) : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return 0;
    }

    /** A sentence to embed after a colon: first letter lower-cased unless it starts an acronym ({@code TP}, {@code GPU}). */
    public static String decap(String s) {
        if (s == null || s.length() < 2 || !Character.isUpperCase(s.charAt(0)) || Character.isUpperCase(s.charAt(1))) {
            return s;
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** Python's {@code str(list)} of ints: {@code [2, 4, 6, 8]}. */
    public static String pyList(java.util.Collection<Integer> xs) {
        return xs.toString();
    }
}
