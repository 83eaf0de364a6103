package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 25: the one line that says what an unredacted trace holds fits the terminal, however many kinds it holds. */
class RedactionKindListTest {

    static Redaction all(int values) {
        return new Redaction(false, Arrays.stream(Redaction.Kind.values()).map(k -> new Redaction.Replaced(k, values)).toList());
    }

    @Test
    void everyKindIsNamedWhenThereIsRoom() {
        String list = all(3).kindList(Integer.MAX_VALUE);
        for (Redaction.Kind k : Redaction.Kind.values()) {
            assertTrue(list.contains(k.label() + " (3)"), list);
        }
        assertEquals("redacted: " + list, new Redaction(true, all(3).kinds()).describe());
    }

    @Test
    void kindsThatDoNotFitAreCountedNotCutMidWord() {
        for (int width = 20; width <= 200; width++) {
            String list = all(12345).kindList(width);
            assertTrue(list.startsWith("host names (12345)"), "the first kind is always named: " + list);
            int named = list.split("\\), ").length;
            if (list.contains("more kind")) {
                assertTrue(list.length() <= Math.max(width, "host names (12345), +9 more kinds".length()), width + ": " + list);
                int more = Integer.parseInt(list.replaceAll(".*\\+(\\d+) more kinds?$", "$1"));
                assertEquals(Redaction.Kind.values().length, named - 1 + more, width + ": " + list);
            } else {
                assertTrue(list.length() <= width, width + ": " + list);
            }
        }
    }

    @Test
    void oneKindNeedsNoCount() {
        Redaction one = new Redaction(true, List.of(new Redaction.Replaced(Redaction.Kind.HOSTNAME, 1)));
        assertEquals("host names (1)", one.kindList(5));
        assertEquals("redacted: host names (1)", one.describe());
    }
}
