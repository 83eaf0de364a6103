package dev.fabricscope.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Items that share a key, folded into one that stands where the first of them stood; items without a key (null) are
 * kept as they are, in their place. What {@code diff}, Compare and the folded findings of every output do.
 */
final class InOrderFold {

    private InOrderFold() {
    }

    /** {@code merge} gets the first item of a key and every item of that key (itself included), in order. */
    static <T, K> List<T> fold(List<T> items, Function<T, K> key, BiFunction<T, List<T>, T> merge) {
        Map<K, List<T>> groups = new LinkedHashMap<>();
        List<Object> order = new ArrayList<>();
        for (T item : items) {
            K k = key.apply(item);
            if (k == null) {
                order.add(new Kept<>(item));
                continue;
            }
            List<T> group = groups.get(k);
            if (group == null) {
                group = new ArrayList<>();
                groups.put(k, group);
                order.add(group);
            }
            group.add(item);
        }
        List<T> out = new ArrayList<>();
        for (Object o : order) {
            if (o instanceof Kept<?> kept) {
                @SuppressWarnings("unchecked")
                T item = (T) kept.item();
                out.add(item);
            } else {
                @SuppressWarnings("unchecked")
                List<T> group = (List<T>) o;
                out.add(merge.apply(group.get(0), group));
            }
        }
        return out;
    }

    /** An item without a key, kept in its place. */
    private record Kept<T>(T item) {
    }
}
