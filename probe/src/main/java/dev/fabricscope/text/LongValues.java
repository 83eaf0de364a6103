package dev.fabricscope.text;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Long values cut for showing: a copy of a tree of records, lists, sets, maps and optionals (a snapshot, an advice, a
 * check result, a diff) in which every string longer than the limit is {@link Escape#fit} to it and says how many
 * characters were left out. Every text renderer shows its input through this, so a 100,000-character GPU name from a
 * hostile trace prints as {@value #MAX} characters with "… (99030 more characters)"; the JSON outputs serialise the
 * original, whole. Parts with nothing to cut are returned as they are (no copy); a record whose constructor refuses
 * a cut value is kept whole. Depends on nothing of ours: plain reflection over records.
 */
public final class LongValues {

    /** The longest string a text output or GUI line shows; the longest real sentence (a verdict's why) is under 900. */
    public static final int MAX = 1000;

    private LongValues() {
    }

    /** {@code value} with every string longer than {@link #MAX} cut. */
    public static <T> T cut(T value) {
        return cut(value, MAX);
    }

    /** {@code value} with every string longer than {@code max} fitted to it; the same instance when none is. */
    @SuppressWarnings("unchecked")
    public static <T> T cut(T value, int max) {
        return (T) new Walk(max).walk(value, 0);
    }

    /** Deeper than any model: a cyclic or absurd structure is shown as it is rather than walked forever. */
    private static final int MAX_DEPTH = 64;

    /** One cut: the limit, and the record shapes met (a plain map: ClassValue's look-up showed in a 256-GPU profile). */
    private static final class Walk {
        private final int max;
        private final Map<Class<?>, Shape> shapes = new java.util.HashMap<>();

        Walk(int max) {
            this.max = max;
        }

        Object walk(Object v, int depth) {
            if (v == null || depth > MAX_DEPTH) {
                return v;
            }
            if (v instanceof String s) {
                return Escape.fit(s, max);
            }
            if (v instanceof Record r) {
                return record(r, depth);
            }
            if (v instanceof List<?> l) {
                return list(l, depth);
            }
            if (v instanceof Set<?> s) {
                Set<Object> out = new LinkedHashSet<>();
                boolean changed = false;
                for (Object e : s) {
                    Object c = walk(e, depth + 1);
                    changed |= c != e;
                    out.add(c);
                }
                return changed ? Collections.unmodifiableSet(out) : s;
            }
            if (v instanceof Map<?, ?> m) {
                return map(m, depth);
            }
            if (v instanceof Optional<?> o && o.isPresent()) {
                Object c = walk(o.get(), depth + 1);
                return c != o.get() ? Optional.of(c) : o;
            }
            return v; // numbers, enums, instants, other classes: nothing to cut
        }

        private Object list(List<?> l, int depth) {
            List<Object> out = null;
            for (int i = 0; i < l.size(); i++) {
                Object e = l.get(i);
                Object c = walk(e, depth + 1);
                if (c != e && out == null) {
                    out = new ArrayList<>(l.subList(0, i));
                }
                if (out != null) {
                    out.add(c);
                }
            }
            return out == null ? l : Collections.unmodifiableList(out);
        }

        private Object map(Map<?, ?> m, int depth) {
            Map<Object, Object> out = m instanceof SortedMap<?, ?> sm ? new TreeMap<>((java.util.Comparator<Object>) sm.comparator())
                    : new LinkedHashMap<>();
            boolean changed = false;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Object k = walk(e.getKey(), depth + 1);
                if (k != e.getKey() && (m.containsKey(k) || out.containsKey(k))) {
                    k = e.getKey(); // two keys that cut alike: both kept whole rather than one lost
                }
                Object v = walk(e.getValue(), depth + 1);
                changed |= k != e.getKey() || v != e.getValue();
                out.put(k, v);
            }
            return changed ? Collections.unmodifiableMap(out) : m;
        }

        /** Reads each component; only once one is cut are the others gathered for a new instance. */
        private Object record(Record r, int depth) {
            Shape shape = shapes.computeIfAbsent(r.getClass(), SHAPES::get);
            if (shape == null) {
                return r;
            }
            Object[] args = null;
            try {
                for (int i = 0; i < shape.accessors.length; i++) {
                    Object before = shape.accessors[i].invoke(r);
                    Object after = walk(before, depth + 1);
                    if (after != before && args == null) {
                        args = new Object[shape.accessors.length];
                        for (int j = 0; j < i; j++) {
                            args[j] = shape.accessors[j].invoke(r);
                        }
                    }
                    if (args != null) {
                        args[i] = after;
                    }
                }
                return args != null ? shape.constructor.newInstance(args) : r;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return r; // a constructor that validates refused a cut value: shown whole, never lost
            }
        }
    }

    /** A record class's accessors and canonical constructor, made accessible once; null when they cannot be. */
    private record Shape(Method[] accessors, Constructor<?> constructor) {
    }

    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            try {
                RecordComponent[] rc = type.getRecordComponents();
                Method[] accessors = new Method[rc.length];
                Class<?>[] types = new Class<?>[rc.length];
                for (int i = 0; i < rc.length; i++) {
                    accessors[i] = rc[i].getAccessor();
                    accessors[i].setAccessible(true);
                    types[i] = rc[i].getType();
                }
                Constructor<?> c = type.getDeclaredConstructor(types);
                c.setAccessible(true);
                return new Shape(accessors, c);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null; // not open to reflection: shown as it is
            }
        }
    };
}
