package dev.fabricscope.report;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/**
 * What {@code --redact} replaced.
 *
 * @param applied whether the report was redacted
 * @param kinds   the kinds of identifier found and replaced, each with how many distinct values; empty when none
 */
public record Redaction(boolean applied, List<Replaced> kinds) {

    public static final Redaction NONE = new Redaction(false, List.of());

    public Redaction {
        kinds = kinds == null ? List.of() : List.copyOf(kinds);
    }

    /** @param kind what was replaced; @param values how many distinct values were replaced */
    public record Replaced(Kind kind, int values) {
    }

    /** The kinds of identifying data redaction replaces, with the pseudonym stem each gets. */
    public enum Kind {
        HOSTNAME("host names", "host"),
        SERIAL("serial numbers", "serial"),
        GPU_UUID("GPU and MIG UUIDs", null),
        CLUSTER_UUID("fabric cluster UUIDs", "cluster"),
        UUID("other UUIDs", "uuid"),
        USER_NAME("user names (in paths)", "user"),
        IP_ADDRESS("IP addresses", "ip"),
        MAC_ADDRESS("MAC and other hardware addresses", "mac"),
        GUID("InfiniBand GUIDs", "guid"),
        PART_NUMBER("board part numbers", "part");

        private final String label;
        private final String stem;

        Kind(String label, String stem) {
            this.label = label;
            this.stem = stem;
        }

        /** Plural words for people, e.g. {@code host names}. */
        public String label() {
            return label;
        }

        String stem() {
            return stem;
        }

        @JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.json().equals(s)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown redaction kind '" + s + "'");
        }
    }

    /** {@code redacted: host names (1), serial numbers (8)}, or that nothing was found, or {@code not redacted}. */
    public String describe() {
        if (!applied) {
            return "not redacted";
        }
        if (kinds.isEmpty()) {
            return "redacted; no identifiers were found";
        }
        return "redacted: " + kindList(Integer.MAX_VALUE);
    }

    /**
     * The kinds with their counts, {@code host names (1), serial numbers (8)}, in at most {@code maxChars}: kinds that
     * do not fit become {@code +N more kinds} (the first kind is always named).
     */
    public String kindList(int maxChars) {
        List<String> parts = kinds.stream().map(r -> r.kind().label() + " (" + r.values() + ")").toList();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            String next = (i == 0 ? "" : ", ") + parts.get(i);
            int left = parts.size() - i - 1;
            String rest = left == 0 ? "" : ", +" + left + " more kind" + (left == 1 ? "" : "s");
            if (i > 0 && b.length() + next.length() + rest.length() > maxChars) {
                int notNamed = parts.size() - i;
                return b + ", +" + notNamed + " more kind" + (notNamed == 1 ? "" : "s");
            }
            b.append(next);
        }
        return b.toString();
    }
}
