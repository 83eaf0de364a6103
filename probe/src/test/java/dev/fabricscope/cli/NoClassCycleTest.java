package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
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
import org.junit.jupiter.api.Test;

/**
 * No class cycle inside {@code dev.fabricscope.cli} (issue 16): the commands get what they need through their
 * constructors ({@link CliEnvironment}) instead of reading statics of {@link Main} or of each other. Dependencies are
 * read from the compiled classes' constant pools: every class named, and every {@code L…;} type in a descriptor,
 * signature or annotation (picocli's {@code subcommands = {…}} included). Nested classes count as their top-level
 * class.
 */
class NoClassCycleTest {

    @Test
    void cliHasNoClassCycle() throws Exception {
        Map<String, Set<String>> graph = dependencies(classesOf(Main.class), "dev/fabricscope/cli/");
        assertTrue(graph.containsKey("dev/fabricscope/cli/Main") && graph.containsKey("dev/fabricscope/cli/AdviseCommand"),
                "the cli classes were not found: " + graph.keySet());
        assertEquals(List.of(), cycles(graph), "class cycles in dev.fabricscope.cli");
    }

    @Test
    void theCheckFindsACycle() throws Exception {
        // two test classes that use each other: the check must report them, or it proves nothing
        String pkg = "dev/fabricscope/cli/cyclefixture/";
        Map<String, Set<String>> graph = dependencies(classesOf(dev.fabricscope.cli.cyclefixture.Ping.class), pkg);
        assertEquals(List.of(List.of(pkg + "Ping", pkg + "Pong")), cycles(graph));
    }

    /** The folder of compiled classes holding {@code c}'s package. */
    private static Path classesOf(Class<?> c) throws URISyntaxException {
        Path root = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        return root.resolve(c.getPackageName().replace('.', '/'));
    }

    /** Top-level class → the top-level classes of {@code pkg} (not sub-packages) it uses. */
    static Map<String, Set<String>> dependencies(Path dir, String pkg) throws IOException {
        Pattern inPackage = Pattern.compile("(" + Pattern.quote(pkg) + "[A-Za-z0-9_]+)(?![A-Za-z0-9_/])");
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String self = topLevel(pkg + f.getFileName().toString().replace(".class", ""));
                Set<String> uses = graph.computeIfAbsent(self, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(f)) {
                    for (String text : constantPoolTexts(new DataInputStream(in))) {
                        Matcher m = inPackage.matcher(text);
                        while (m.find()) {
                            String used = topLevel(m.group(1));
                            if (!used.equals(self)) {
                                uses.add(used);
                            }
                        }
                    }
                }
            }
        }
        return graph;
    }

    private static String topLevel(String internalName) {
        int dollar = internalName.indexOf('$');
        return dollar < 0 ? internalName : internalName.substring(0, dollar);
    }

    /** Every UTF-8 constant of a class file (class names, descriptors, signatures, annotation values are among them). */
    static List<String> constantPoolTexts(DataInputStream in) throws IOException {
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        List<String> texts = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> texts.add(in.readUTF());
                case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two entries
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return texts;
    }

    /** The strongly connected components with more than one class (Tarjan), each sorted; sorted by first class. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> found = new ArrayList<>();
        int[] next = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, found, next);
            }
        }
        found.sort((a, b) -> a.get(0).compareTo(b.get(0)));
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> low,
                                Deque<String> stack, Set<String> onStack, List<List<String>> found, int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, found, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                found.add(component);
            }
        }
    }
}
