package dev.fabricscope.advisor;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Class-level dependency cycles among the compiled classes of one package (and its subpackages), read from the
 * class files' constant pools: every class a class names (as a class constant or inside a descriptor or
 * signature). Nested and anonymous classes count as their top-level class. Constants the compiler inlines
 * ({@code static final String}) leave no trace, as with any bytecode-based check.
 */
final class ClassCycles {

    private ClassCycles() {
    }

    /** Each cycle as its classes' names relative to the package, sorted; empty when there is none. */
    static List<Set<String>> find(Path classesRoot, String packageName) throws IOException {
        return stronglyConnected(dependencies(classesRoot, packageName)).stream().filter(c -> c.size() > 1).toList();
    }

    /** Top-level class → the other top-level classes of the package it names. */
    static Map<String, Set<String>> dependencies(Path classesRoot, String packageName) throws IOException {
        String internal = packageName.replace('.', '/');
        Path dir = classesRoot.resolve(internal);
        Pattern named = Pattern.compile(Pattern.quote(internal) + "/((?:[A-Za-z0-9_]+/)*[A-Za-z0-9_]+)");
        Map<String, Set<String>> graph = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        for (Path f : files) {
            String self = topLevel(dir.relativize(f).toString().replace('\\', '/').replaceFirst("\\.class$", ""));
            Set<String> out = graph.computeIfAbsent(self, k -> new TreeSet<>());
            try (InputStream in = Files.newInputStream(f)) {
                for (String text : constantPoolNames(in)) {
                    Matcher m = named.matcher(text);
                    while (m.find()) {
                        String other = topLevel(m.group(1));
                        if (!other.equals(self)) {
                            out.add(other);
                        }
                    }
                }
            }
        }
        return graph;
    }

    private static String topLevel(String name) {
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    /** The UTF-8 entries of a class file's constant pool (class names, descriptors, signatures, strings). */
    private static List<String> constantPoolNames(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        List<String> out = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> out.add(in.readUTF());
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant-pool tag " + tag);
            }
        }
        return out;
    }

    /** Tarjan's strongly connected components. */
    static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                visit(v, graph, index, low, stack, onStack, out);
            }
        }
        return out;
    }

    private static void visit(String v, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> low,
                              Deque<String> stack, Set<String> onStack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                visit(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            out.add(component);
        }
    }
}
