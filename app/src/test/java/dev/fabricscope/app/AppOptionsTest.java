package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 28 item 4: the desktop app's options through picocli, bounds checked, one-line errors. */
class AppOptionsTest {

    static String invalid(String... args) {
        return assertThrows(AppOptions.Invalid.class, () -> AppOptions.parse(List.of(args)), String.join(" ", args)).getMessage();
    }

    @Test
    void everyOptionInBothSpellings() {
        AppOptions o = AppOptions.parse(List.of("--sample=dgx-h100,hgx-b200", "--theme", "DARK", "--size", "1024x700", "--no-probe"));
        assertEquals("dgx-h100", o.sample());
        assertEquals(List.of("dgx-h100", "hgx-b200"), o.samples());
        assertEquals("dark", o.theme());
        assertArrayEquals(new double[] {1024, 700}, o.size());
        assertTrue(o.noProbe());
        AppOptions f = AppOptions.parse(List.of("--snapshot", "r.json", "--compare=a.json,b.json", "--cluster", "nodes"));
        assertEquals(Path.of("r.json"), f.snapshot());
        assertEquals(List.of(Path.of("a.json"), Path.of("b.json")), f.compare());
        assertEquals(Path.of("nodes"), f.cluster());
        AppOptions none = AppOptions.parse(List.of());
        assertNull(none.sample());
        assertNull(none.size());
        assertEquals(List.of(), none.samples());
        assertNull(none.snapshot());
        assertNull(none.cluster());
        assertNull(none.compare());
        assertNull(none.theme());
        assertEquals(false, none.noProbe());
    }

    @Test
    void whatUsedToCrashTheStartMethodIsOneLine() {
        assertTrue(invalid("--snapshot").startsWith("Missing required parameter for option '--snapshot'"), invalid("--snapshot"));
        assertTrue(invalid("--theme").startsWith("Missing required parameter for option '--theme'"), invalid("--theme"));
        assertEquals("--size takes WIDTHxHEIGHT in pixels, e.g. 1320x860, not '800'", invalid("--size", "800"));
        assertEquals("--size takes WIDTHxHEIGHT in pixels, e.g. 1320x860, not 'axb'", invalid("--size", "axb"));
        assertEquals("--size 10x10: each side must be 320 to 16384 pixels", invalid("--size", "10x10"));
        assertEquals("--size 99999x700: each side must be 320 to 16384 pixels", invalid("--size", "99999x700"));
        assertEquals("--theme takes light or dark, not 'blue'", invalid("--theme", "blue"));
        assertEquals("--compare takes two files: A.json,B.json", invalid("--compare", "a.json"));
        assertEquals("--sample needs a sample name", invalid("--sample", ","));
        assertTrue(invalid("--bogus").startsWith("Unknown option: '--bogus'"), invalid("--bogus"));
    }

    @Test
    void aHostileValueIsShownAsEscapesInOneShortLine() {
        String m = invalid("--theme", "\u001b[31mred\u202e" + "x".repeat(500));
        assertTrue(m.contains("\\u001b") && m.contains("\\u202e"), m);
        assertTrue(m.length() <= 160 && !m.contains("\n"), m);
        assertTrue(invalid("--compare", "a\u0000.json,b.json").startsWith("--compare a\\u0000.json,b.json: "));
        assertTrue(invalid("--snapshot", "a\u0000.json").startsWith("Invalid value for option '--snapshot'"));
    }

    @Test
    void helpIsAskedNotAnError() {
        AppOptions.HelpAsked h = assertThrows(AppOptions.HelpAsked.class, () -> AppOptions.parse(List.of("--help")));
        assertTrue(h.getMessage().contains("--size=WxH"), h.getMessage());
        assertTrue(h.getMessage().lines().allMatch(l -> l.length() <= 120), h.getMessage());
    }
}
