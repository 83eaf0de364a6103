package dev.fabricscope.advisor.inventory;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A test on one value, as the inventory writes it: {@code *} (given), {@code unset} (not given), {@code >N}, {@code >=N},
 * {@code <N}, {@code <=N} (numbers and versions such as SM {@code 9.0}), {@code in a,b,c}, {@code not in a,b,c},
 * {@code !=x}, or a plain value (equal, ignoring case; {@code true}/{@code false} also match {@code 1}/{@code 0}). The
 * grammar is documented in docs/upstream-coverage.md, which {@link CoverageDoc} writes.
 */
record Predicate(String op, List<String> operands) {

    enum Truth {
        TRUE, FALSE, UNKNOWN;

        Truth and(Truth o) {
            return this == FALSE || o == FALSE ? FALSE : this == UNKNOWN || o == UNKNOWN ? UNKNOWN : TRUE;
        }

        Truth or(Truth o) {
            return this == TRUE || o == TRUE ? TRUE : this == UNKNOWN || o == UNKNOWN ? UNKNOWN : FALSE;
        }

        static Truth of(boolean b) {
            return b ? TRUE : FALSE;
        }
    }

    static Predicate parse(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty predicate");
        }
        for (String op : List.of("not in ", "in ")) {
            if (t.startsWith(op)) {
                List<String> items = Arrays.stream(t.substring(op.length()).split(",")).map(String::strip).toList();
                if (items.stream().anyMatch(String::isEmpty)) {
                    throw new IllegalArgumentException("predicate '" + text + "': empty list item");
                }
                return new Predicate(op.strip(), items);
            }
        }
        for (String op : List.of(">=", "<=", "!=", ">", "<")) {
            if (t.startsWith(op)) {
                String operand = t.substring(op.length()).strip();
                if (!op.equals("!=") && number(operand) == null) {
                    throw new IllegalArgumentException("predicate '" + text + "': " + op + " needs a number or version");
                }
                return new Predicate(op, List.of(operand));
            }
        }
        return switch (t) {
            case "*" -> new Predicate("*", List.of());
            case "unset" -> new Predicate("unset", List.of());
            default -> new Predicate("=", List.of(t));
        };
    }

    /**
     * A value that may be absent because nobody gave it (a flag, an environment variable): absence is known, and an
     * absent value differs from every value ({@code !=x} and {@code not in} hold).
     */
    Truth testGiven(String value) {
        if (value != null) {
            return test(value);
        }
        return Truth.of(op.equals("unset") || op.equals("!=") || op.equals("not in"));
    }

    /** A value that is null when unknown (a fact, a size the user did not name). */
    Truth test(String value) {
        if (value == null) {
            return Truth.UNKNOWN;
        }
        return switch (op) {
            case "*" -> Truth.TRUE;
            case "unset" -> Truth.FALSE;
            case "=" -> Truth.of(same(value, operands.get(0)));
            case "!=" -> Truth.of(!same(value, operands.get(0)));
            case "in" -> Truth.of(operands.stream().anyMatch(o -> same(value, o)));
            case "not in" -> Truth.of(operands.stream().noneMatch(o -> same(value, o)));
            default -> compare(value);
        };
    }

    private Truth compare(String value) {
        BigDecimal v = number(value);
        if (v == null) {
            return Truth.UNKNOWN;
        }
        int c = v.compareTo(number(operands.get(0)));
        return Truth.of(switch (op) {
            case ">" -> c > 0;
            case ">=" -> c >= 0;
            case "<" -> c < 0;
            default -> c <= 0;
        });
    }

    private static boolean same(String value, String operand) {
        String a = normal(value);
        String b = normal(operand);
        BigDecimal x = number(a);
        BigDecimal y = number(b);
        return x != null && y != null ? x.compareTo(y) == 0 : a.equals(b);
    }

    private static String normal(String s) {
        String l = s.strip().toLowerCase(Locale.ROOT);
        return switch (l) {
            case "true", "yes", "on" -> "1";
            case "false", "no", "off" -> "0";
            default -> l;
        };
    }

    /** A number, or a version {@code major.minor} read as one (9.0 < 10.0 < 12.0), or null. */
    static BigDecimal number(String s) {
        String t = s == null ? "" : s.strip();
        if (t.matches("\\d+")) {
            return new BigDecimal(t);
        }
        if (t.matches("\\d+\\.\\d+")) {
            String[] p = t.split("\\.");
            return new BigDecimal(p[0]).add(new BigDecimal(p[1]).movePointLeft(4));
        }
        return null;
    }
}
