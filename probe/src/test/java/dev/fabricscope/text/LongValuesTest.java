package dev.fabricscope.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The one cut of long values for showing: records, lists, maps and optionals, copied only where something is cut. */
class LongValuesTest {

    record Gpu(String name, int index, Optional<String> serial) {
    }

    record Machine(String host, List<Gpu> gpus, Map<String, String> env) {
    }

    /** A record that refuses a value it does not expect, as some model records do. */
    record Strict(String value) {
        Strict {
            if (!value.matches("[0-9:]+")) {
                throw new IllegalArgumentException("not a PCI address");
            }
        }
    }

    @Test
    void everyLongStringIsCutAndSaysByHowMuch() {
        String longName = "N".repeat(5_000);
        Machine m = new Machine("host", List.of(new Gpu("H200", 0, Optional.empty()), new Gpu(longName, 1, Optional.of(longName))),
                new TreeMap<>(Map.of("PATH", longName, "HOME", "/root")));
        Machine shown = LongValues.cut(m, 100);
        String cut = "N".repeat(70) + "… (4930 more characters)";
        assertEquals(cut, shown.gpus().get(1).name());
        assertEquals(Optional.of(cut), shown.gpus().get(1).serial());
        assertEquals(cut, shown.env().get("PATH"));
        assertEquals(List.of("HOME", "PATH"), List.copyOf(shown.env().keySet()), "a sorted map stays sorted");
        assertSame(m.gpus().get(0), shown.gpus().get(0), "nothing to cut: the same instance");
        assertEquals(longName, m.gpus().get(1).name(), "the original is untouched");
    }

    @Test
    void nothingToCutIsTheSameInstance() {
        Machine m = new Machine("host", List.of(new Gpu("H200", 0, Optional.of("1652"))), Map.of("A", "b"));
        assertSame(m, LongValues.cut(m));
    }

    @Test
    void aRecordThatRefusesTheCutValueIsShownWhole() {
        Strict s = new Strict("0000:" + "1".repeat(2_000));
        assertSame(s, LongValues.cut(s, 100));
    }

    @Test
    void theDefaultLimitIsTheOneEveryTextOutputUses() {
        String cut = LongValues.cut("x".repeat(LongValues.MAX + 1));
        assertEquals("x".repeat(LongValues.MAX - Escape.MARKER_ROOM) + "… (31 more characters)", cut);
        assertTrue(cut.length() <= LongValues.MAX);
        assertSame(cut, LongValues.cut(cut), "fitting what was fitted changes nothing");
        assertEquals("x".repeat(LongValues.MAX), LongValues.cut("x".repeat(LongValues.MAX)));
    }
}
