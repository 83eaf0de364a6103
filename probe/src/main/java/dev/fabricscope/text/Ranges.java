package dev.fabricscope.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Numbered items folded into ranges: {@code GPU0–3, GPU5}; per-item values folded by value: {@code GPU0–7 absent}. */
public final class Ranges {

    private Ranges() {
    }

    /** {@code [0,1,2,3,5]} with prefix GPU → {@code GPU0–3, GPU5}; two in a row stay two ({@code GPU0, GPU1}). */
    public static String of(String prefix, Collection<Integer> numbers) {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int n : new TreeSet<>(numbers)) {
            if (prev != null && n == prev + 1) {
                prev = n;
                continue;
            }
            if (start != null) {
                parts.add(span(prefix, start, prev));
            }
            start = n;
            prev = n;
        }
        if (start != null) {
            parts.add(span(prefix, start, prev));
        }
        return String.join(", ", parts);
    }

    /**
     * Items that say the same, folded: {@code {0: absent, 1: absent, 2: 18/0}} → {@code GPU0–1 absent, GPU2 18/0}
     * (values in the order of their first item; ranges from {@link #of}).
     */
    public static String byValue(String prefix, Map<Integer, String> valueByNumber) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        new java.util.TreeMap<>(valueByNumber).forEach((n, v) -> groups.computeIfAbsent(v, k -> new ArrayList<>()).add(n));
        List<String> parts = new ArrayList<>();
        groups.forEach((v, ns) -> parts.add(of(prefix, ns) + " " + v));
        return String.join(", ", parts);
    }

    private static String span(String prefix, int a, int b) {
        return a == b ? prefix + a : prefix + a + (b == a + 1 ? ", " + prefix + b : "–" + b);
    }
}
