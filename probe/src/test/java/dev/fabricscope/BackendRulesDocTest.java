package dev.fabricscope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.flashinfer.FlashInferWorldSizes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/backend-rules.md is the advisor's reference inside the repository (issue 16): every "backend-rules.md §N" the
 * code cites must be a section of it, and every upstream {@link SourceRef} the advisor holds must be a row of its
 * source index (§8).
 */
class BackendRulesDocTest {

    static final Path REPO_ROOT = Path.of("").toAbsolutePath().getParent();
    static final Path DOC = REPO_ROOT.resolve("docs/backend-rules.md");

    /** "backend-rules.md", maybe a word or two ("errata", "the"), then the section numbers of one citation. */
    static final Pattern CITATION = Pattern.compile(
            "backend-rules\\.md((?:[ \\t]+(?:errata|and|the|,|§\\d+(?:\\.\\d+)*(?:[–-]\\d+(?:\\.\\d+)*)?,?))*)");
    /** A section number, or both ends of a range ({@code §2.2–2.4}). */
    static final Pattern SECTION_NUMBER = Pattern.compile("(?:§|(?<=\\d)[–-])(\\d+(?:\\.\\d+)*)");
    static final Pattern HEADING = Pattern.compile("^#{2,4}\\s+(?:§\\s*)?(\\d+(?:\\.\\d+)*)\\.?\\s", Pattern.MULTILINE);

    @Test
    void everySectionTheCodeCitesExists() throws IOException {
        Set<String> sections = sections(Files.readString(DOC));
        List<String> citations = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Path source : sources()) {
            String text = Files.readString(source);
            for (String section : citedSections(text)) {
                String where = REPO_ROOT.relativize(source) + " §" + section;
                citations.add(where);
                if (!sections.contains(section)) {
                    missing.add(where);
                }
            }
        }
        assertTrue(citations.size() >= 5, "the scan found the code's citations: " + citations);
        assertEquals(List.of(), missing, "cited sections missing from docs/backend-rules.md (headings: " + sections + ")");
    }

    @Test
    void theCitationCheckFindsAMissingSection() throws IOException {
        Set<String> sections = sections(Files.readString(DOC));
        String doc = "backend-rules" + ".md"; // split, so that the scan of this file finds no citation
        List<String> cited = citedSections("/** Reference: " + doc + " §1, §99.4 and the §6 matrix; " + doc + " errata §1.7; "
                + doc + " §2.2–2.4. */");
        assertEquals(List.of("1", "99.4", "6", "1.7", "2.2", "2.4"), cited);
        assertTrue(sections.containsAll(List.of("1", "1.7", "6")));
        assertFalse(sections.contains("99.4"));
    }

    @Test
    void everySourceTheAdvisorCitesIsInTheSourceIndex() throws Exception {
        List<Row> index = sourceIndex(Files.readString(DOC));
        assertTrue(index.size() >= 20, "source index rows: " + index.size());
        Set<SourceRef> refs = new LinkedHashSet<>(staticSourceRefs());
        assertTrue(refs.size() >= 20, "the advisor's SourceRefs were found by reflection: " + refs.size());
        refs.addAll(constructedSourceRefs());
        Set<String> missing = new TreeSet<>();
        for (SourceRef r : refs) {
            if (index.stream().noneMatch(row -> row.matches(r))) {
                missing.add(Row.markdown(r));
            }
        }
        assertEquals(Set.of(), missing, "SourceRefs missing from the source index of docs/backend-rules.md (§8); rows to add:\n"
                + String.join("\n", missing));
    }

    @Test
    void theSourceIndexRejectsAnUnlistedSource() throws IOException {
        List<Row> index = sourceIndex(Files.readString(DOC));
        SourceRef listed = new SourceRef("vllm-project/vllm", "00545a8acc220f4c5fa47afad739e3d2baac7310",
                "vllm/distributed/device_communicators/flashinfer_all_reduce.py", "146");
        assertTrue(index.stream().anyMatch(row -> row.matches(listed)));
        SourceRef otherLine = new SourceRef(listed.repo(), listed.commit(), listed.path(), "147");
        assertFalse(index.stream().anyMatch(row -> row.matches(otherLine)));
        SourceRef storedCopy = new SourceRef(listed.repo(), null, listed.path(), "146");
        assertFalse(index.stream().anyMatch(row -> row.matches(storedCopy)));
    }

    @Test
    void flashInferWorldSizeTableIsTheRulesTable() throws IOException {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("<!-- world-sizes:begin -->\n");
        int end = doc.indexOf("<!-- world-sizes:end -->");
        assertTrue(start >= 0 && end > start, "docs/backend-rules.md §3.2 holds the world-size table between its markers");
        String table = doc.substring(start + "<!-- world-sizes:begin -->\n".length(), end);
        assertEquals(FlashInferWorldSizes.markdown(), table, "regenerate §3.2's table from FlashInferWorldSizes.markdown()");
    }

    /** vLLM's FlashInfer size tables of §2.3 are VllmSizeTable's rows (allreduce_rms_fusion.py@0052812d:105-154). */
    @Test
    void vllmSizeTablesAreTheRulesTables() throws IOException {
        String doc = Files.readString(DOC);
        String begin = "<!-- vllm-size-tables:begin -->\n";
        int start = doc.indexOf(begin);
        int end = doc.indexOf("<!-- vllm-size-tables:end -->");
        assertTrue(start >= 0 && end > start, "docs/backend-rules.md §2.3 holds vLLM's size tables between their markers");
        assertEquals(dev.fabricscope.advisor.vllm.VllmSizeTable.markdown(), doc.substring(start + begin.length(), end),
                "regenerate §2.3's tables from VllmSizeTable.markdown()");
    }

    // ---- citations

    static List<String> citedSections(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = CITATION.matcher(text);
        while (m.find()) {
            Matcher s = SECTION_NUMBER.matcher(m.group(1));
            while (s.find()) {
                out.add(s.group(1));
            }
        }
        return out;
    }

    static Set<String> sections(String doc) {
        Set<String> out = new TreeSet<>();
        Matcher m = HEADING.matcher(doc);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static List<Path> sources() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String module : List.of("probe/src", "app/src")) {
            Path dir = REPO_ROOT.resolve(module);
            assertTrue(Files.isDirectory(dir), "run from a module of the repository: " + dir);
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(f -> f.toString().matches(".*\\.(java|py)$")).forEach(out::add);
            }
        }
        return out;
    }

    // ---- the source index (§8): | repo | commit | file | line or function | section |

    record Row(String repo, String commit, String path, String line) {

        /** A null repo, path or line of {@code r} (an argument the scan could not resolve) matches anything; a null commit is a stored copy. */
        boolean matches(SourceRef r) {
            return (r.repo() == null || r.repo().equals(repo)) && java.util.Objects.equals(r.commit(), commit)
                    && (r.path() == null || r.path().equals(path)) && (r.line() == null || r.line().equals(line));
        }

        static String markdown(SourceRef r) {
            return "| `" + r.repo() + "` | " + (r.commit() == null ? STORED : "`" + r.commit() + "`") + " | `" + r.path()
                    + "` | " + (r.line() == null ? "—" : "`" + r.line() + "`") + " | § |";
        }
    }

    static final String STORED = "stored copy";

    static List<Row> sourceIndex(String doc) {
        int start = doc.indexOf("\n## 8.");
        assertTrue(start >= 0, "docs/backend-rules.md has a §8 source index");
        int end = doc.indexOf("\n## ", start + 1);
        List<Row> rows = new ArrayList<>();
        for (String line : doc.substring(start, end < 0 ? doc.length() : end).split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String commit = cell(cells[2]);
            rows.add(new Row(cell(cells[1]), commit.startsWith(STORED) ? null : commit, cell(cells[3]), cell(cells[4])));
        }
        return rows;
    }

    static String cell(String c) {
        String t = c.strip();
        return t.startsWith("`") && t.endsWith("`") && t.length() >= 2 ? t.substring(1, t.length() - 1) : t;
    }

    // ---- the advisor's SourceRefs

    /** Every SourceRef reachable from a static field of an advisor class (tables, registries, knob lists, enums). */
    static Set<SourceRef> staticSourceRefs() throws Exception {
        Set<SourceRef> out = new LinkedHashSet<>();
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        for (JavaClass jc : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.fabricscope.advisor")) {
            Class<?> c = Class.forName(jc.getName(), true, BackendRulesDocTest.class.getClassLoader());
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                    f.setAccessible(true);
                    walk(f.get(null), out, seen);
                }
            }
        }
        return out;
    }

    static void walk(Object o, Set<SourceRef> out, Map<Object, Boolean> seen) throws Exception {
        if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Class<?>
                || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof SourceRef r) {
            out.add(r);
        } else if (o instanceof Collection<?> c) {
            for (Object e : c) {
                walk(e, out, seen);
            }
        } else if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                walk(e.getKey(), out, seen);
                walk(e.getValue(), out, seen);
            }
        } else if (o instanceof Optional<?> opt) {
            walk(opt.orElse(null), out, seen);
        } else if (o.getClass().isArray() && !o.getClass().getComponentType().isPrimitive()) {
            for (int i = 0; i < Array.getLength(o); i++) {
                walk(Array.get(o, i), out, seen);
            }
        } else if (o.getClass().isRecord()) {
            for (RecordComponent rc : o.getClass().getRecordComponents()) {
                rc.getAccessor().setAccessible(true);
                walk(rc.getAccessor().invoke(o), out, seen);
            }
        } else if (o.getClass().getName().startsWith("dev.fabricscope.")) {
            for (Class<?> c = o.getClass(); c != null && c != Object.class && c != Enum.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                        f.setAccessible(true);
                        walk(f.get(o), out, seen);
                    }
                }
            }
        }
    }

    /**
     * SourceRefs built inside methods ({@code new SourceRef(SRC_CAR.repo(), SRC_CAR.commit(), SRC_CAR.path(), "92-98")}):
     * each argument that is a string literal, null, a static String constant or a part of a static SourceRef is resolved;
     * any other argument is left as a wildcard.
     */
    static List<SourceRef> constructedSourceRefs() throws Exception {
        List<SourceRef> out = new ArrayList<>();
        Path dir = REPO_ROOT.resolve("probe/src/main/java/dev/fabricscope/advisor");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                String pkg = REPO_ROOT.resolve("probe/src/main/java").relativize(f.getParent()).toString().replace('/', '.');
                Class<?> owner = Class.forName(pkg + "." + f.getFileName().toString().replace(".java", ""));
                int at = 0;
                while ((at = text.indexOf("new SourceRef(", at)) >= 0) {
                    at += "new SourceRef(".length();
                    List<String> args = arguments(text, at);
                    if (args.size() == 4) {
                        SourceRef r = new SourceRef(resolve(args.get(0), owner), resolve(args.get(1), owner),
                                resolve(args.get(2), owner), resolve(args.get(3), owner));
                        // every argument a variable (a record's own fields, a constructor's parameters): nothing to look up
                        // here; the values reach the index through the static fields that hold them
                        if (r.repo() != null || r.commit() != null || r.path() != null || r.line() != null) {
                            out.add(r);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The top-level, comma-separated arguments starting at {@code from} (just after the opening parenthesis). */
    static List<String> arguments(String text, int from) {
        List<String> args = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '"') {
                int end = i + 1;
                while (text.charAt(end) != '"') {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                cur.append(text, i, end + 1);
                i = end;
            } else if (ch == '(') {
                depth++;
                cur.append(ch);
            } else if (ch == ')' && depth == 0) {
                args.add(cur.toString().strip());
                return args;
            } else if (ch == ')') {
                depth--;
                cur.append(ch);
            } else if (ch == ',' && depth == 0) {
                args.add(cur.toString().strip());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        return args;
    }

    static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    static final Pattern PART = Pattern.compile("(\\w+)\\.(repo|commit|path|line)\\(\\)");

    /** An argument's value, or null for a wildcard (also for the literal {@code null}: it is a commit's "stored copy"). */
    static String resolve(String arg, Class<?> owner) throws Exception {
        Matcher lit = LITERAL.matcher(arg);
        if (lit.matches()) {
            return lit.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        Matcher part = PART.matcher(arg);
        Object value;
        if (part.matches()) {
            Object ref = staticField(owner, part.group(1));
            value = ref instanceof SourceRef r ? SourceRef.class.getMethod(part.group(2)).invoke(r) : null;
        } else if (arg.matches("[A-Z]\\w*\\.\\w+")) {
            // a constant of another class of the same package: FlashInferSources.REPO
            int dot = arg.indexOf('.');
            value = staticField(Class.forName(owner.getPackageName() + "." + arg.substring(0, dot)), arg.substring(dot + 1));
        } else {
            value = arg.matches("\\w+") ? staticField(owner, arg) : null;
        }
        return value instanceof String s ? s : null;
    }

    static Object staticField(Class<?> owner, String name) throws IllegalAccessException {
        for (Class<?> c = owner; c != null; c = c.getDeclaringClass()) {
            try {
                Field f = c.getDeclaredField(name);
                if (Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    return f.get(null);
                }
            } catch (NoSuchFieldException e) {
                // not here; the enclosing class may have it
            }
        }
        return null;
    }
}
