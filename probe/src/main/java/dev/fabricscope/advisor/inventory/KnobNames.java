package dev.fabricscope.advisor.inventory;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The knob names each upstream reads ({@code knob-names/*.json} next to this class, written by
 * bench/upstream_knob_names.py): NCCL's environment parameters, vLLM's environment variables and engine flags, SGLang's
 * server flags and environment, and the CUDA variables the frameworks read. A name on a list that no rule set models is
 * accepted and shown as {@code unknown} ("not modelled: …") with its upstream line; a name on no list is a usage error.
 *
 */
public final class KnobNames {

    static final List<String> RESOURCES = List.of("nccl-env", "vllm-env", "vllm-flags", "sglang-flags", "sglang-env", "cuda-env");

    /** The {@code when} of the verdicts. */
    public static final String NOT_MODELLED_WHEN = "an upstream knob the advisor does not model (advise --list-knobs counts them)";

    private static final Map<String, String> FRAMEWORK_NAMES = Map.of("sglang", "SGLang", "vllm", "vLLM", "nccl", "NCCL", "flashinfer", "FlashInfer");

    /**
     * One list.
     *
     * @param list        its name (the resource's, without {@code .json})
     * @param framework   the framework that reads every name, or null where each entry says
     * @param kind        {@code env} or {@code flag}
     * @param repo        where every name was read, or null where each entry says
     * @param commit      the commit every name was read at, or null where each entry says
     * @param read        what was read, in a line
     * @param generatedBy the command that wrote the list
     * @param names       the names, sorted
     */
    public record KnobList(String list, String framework, String kind, String repo, String commit, String read, String generatedBy,
                           List<Name> names) {
        public KnobList {
            names = names == null ? List.of() : List.copyOf(names);
        }
    }

    /**
     * One name and the first line upstream that reads (or sets) it.
     *
     * @param name      as given to {@code --env}, or to {@code --flag} without its dashes
     * @param repo      {@code owner/name}
     * @param commit    40 hex digits
     * @param path      file in the repository
     * @param line      the line
     * @param via       how NCCL reads it ({@code NCCL_PARAM}, {@code ncclGetEnv}, …), or null
     * @param framework the framework that reads it, where the list does not say
     * @param how       {@code reads} (the default) or {@code sets}
     */
    public record Name(String name, String repo, String commit, String path, int line, String via, String framework, String how) {
    }

    /** One framework reading one name (the source as data, like {@link InventoryEntry}: {@link #source()} builds the reference). */
    public record Read(String framework, boolean flag, String name, String repo, String commit, String path, int line, boolean sets) {

        /** Where upstream the name is read, as the advisor cites sources. */
        public SourceRef source() {
            return new SourceRef(repo, commit, path, Integer.toString(line));
        }

        /** As the user types it on the framework's command line. */
        public String display() {
            return flag ? "--" + name : name;
        }

        /** {@code not modelled: NCCL reads NCCL_P2P_LEVEL (src/graph/paths.cc:289 @5067397c); …}. */
        public String why() {
            return "not modelled: " + FRAMEWORK_NAMES.getOrDefault(framework, framework) + (sets ? " sets " : " reads ") + display() + " ("
                    + path + ":" + line + " @" + commit.substring(0, 8)
                    + "); the advisor does not say what it does on this machine.";
        }
    }

    /** Per framework and kind: how many listed names no rule set models, and the lists' sources ({@code repo@commit8}). */
    public record Count(String framework, String kind, int names, List<String> sources) {
    }

    private static final class Bundled {
        static final KnobNames INSTANCE = loadBundled();
    }

    private final List<KnobList> lists;
    private final List<Read> reads;
    private final Map<String, List<Read>> byName = new java.util.HashMap<>();

    /** @param lists the lists, in {@link #RESOURCES} order */
    public KnobNames(List<KnobList> lists) {
        this.lists = List.copyOf(lists);
        Map<String, Read> out = new LinkedHashMap<>();
        for (KnobList l : this.lists) {
            boolean flag = "flag".equals(l.kind());
            for (Name n : l.names()) {
                String fw = n.framework() != null ? n.framework() : l.framework();
                out.putIfAbsent(fw + (flag ? " --" : " ") + n.name(), new Read(fw, flag, n.name(), n.repo(), n.commit(), n.path(), n.line(),
                        "sets".equals(n.how())));
            }
        }
        this.reads = List.copyOf(out.values());
        for (Read r : reads) {
            byName.computeIfAbsent((r.flag() ? "--" : "") + r.name(), x -> new ArrayList<>()).add(r);
        }
    }

    public List<KnobList> lists() {
        return lists;
    }

    /** The lists shipped with the advisor (read once). */
    public static KnobNames bundled() {
        return Bundled.INSTANCE;
    }

    private static KnobNames loadBundled() {
        ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        List<KnobList> lists = new ArrayList<>();
        for (String name : RESOURCES) {
            String resource = "knob-names/" + name + ".json";
            try (InputStream in = KnobNames.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + resource + " is missing from the build");
                }
                lists.add(mapper.readValue(in, KnobList.class));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource, e);
            }
        }
        KnobNames k = new KnobNames(lists);
        List<String> problems = k.problems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("knob-names is invalid:\n" + String.join("\n", problems));
        }
        return k;
    }

    /** Every framework reading every name, one per framework and name (its first listed site). */
    public List<Read> reads() {
        return reads;
    }

    /** The frameworks that read {@code name} as a flag (true) or an environment variable (false); empty when no list has it. */
    public List<Read> readers(String name, boolean flag) {
        return List.copyOf(byName.getOrDefault((flag ? "--" : "") + name, List.of()));
    }

    /**
     * The {@code unknown} verdicts of listed names the user set that no rule set models: one per framework that reads
     * the name and is advised; where none of them is advised, one under the first advised framework (naming the
     * framework that reads it), so the value is never passed over in silence. Value as typed, userSet, never ok.
     *
     * @param versions advised framework → rule-set version, in advising order
     */
    public List<Verdict> unknownVerdicts(Map<String, String> versions, Map<String, String> flags, Map<String, String> env) {
        List<Verdict> out = new ArrayList<>();
        if (versions.isEmpty()) {
            return out;
        }
        String first = versions.keySet().iterator().next();
        for (boolean flag : new boolean[] {true, false}) {
            for (Map.Entry<String, String> e : (flag ? flags : env).entrySet()) {
                List<Read> readers = readers(e.getKey(), flag);
                List<Read> advised = readers.stream().filter(r -> versions.containsKey(r.framework())).toList();
                List<Read> shown = advised.isEmpty() && !readers.isEmpty() ? List.of(readers.get(0)) : advised;
                for (Read r : shown) {
                    String fw = versions.containsKey(r.framework()) ? r.framework() : first;
                    out.add(new Verdict(fw, r.display(), e.getValue(), true, Outcome.UNKNOWN, null, null, null, NOT_MODELLED_WHEN, r.why(),
                            null, r.source(), versions.get(fw)));
                }
            }
        }
        return out;
    }

    /** How many listed names, per framework and kind, {@code modelled} (name, is a flag) does not claim. */
    public List<Count> notModelledCounts(BiPredicate<String, Boolean> modelled) {
        Map<String, Set<String>> names = new LinkedHashMap<>();
        Map<String, Set<String>> sources = new LinkedHashMap<>();
        for (Read r : reads()) {
            if (modelled.test(r.name(), r.flag())) {
                continue;
            }
            String key = r.framework() + " " + (r.flag() ? "flag" : "env");
            names.computeIfAbsent(key, x -> new LinkedHashSet<>()).add(r.name());
            sources.computeIfAbsent(key, x -> new LinkedHashSet<>()).add(r.source().repo() + "@" + r.source().commit().substring(0, 8));
        }
        List<Count> out = new ArrayList<>();
        names.forEach((key, set) -> {
            String[] fk = key.split(" ");
            out.add(new Count(fk[0], fk[1], set.size(), List.copyOf(sources.get(key))));
        });
        return out;
    }

    /** What is wrong with the data, one line per problem (empty when it is sound). */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        for (KnobList l : lists) {
            if (!"env".equals(l.kind()) && !"flag".equals(l.kind())) {
                out.add(l.list() + ": kind '" + l.kind() + "' is neither env nor flag");
            }
            Set<String> seen = new LinkedHashSet<>();
            for (Name n : l.names()) {
                String at = l.list() + " " + n.name() + ": ";
                String fw = n.framework() != null ? n.framework() : l.framework();
                if (n.name() == null || n.name().isBlank() || n.name().startsWith("-")) {
                    out.add(at + "needs a name without leading dashes");
                }
                if (!AppliesWhen.FRAMEWORKS.contains(fw)) {
                    out.add(at + "framework '" + fw + "' is not one of " + AppliesWhen.FRAMEWORKS);
                }
                if (!seen.add(fw + " " + n.name())) {
                    out.add(at + "listed twice");
                }
                if (n.commit() == null || !UpstreamInventory.COMMIT.matcher(n.commit()).matches()) {
                    out.add(at + "commit '" + n.commit() + "' is not 40 hex digits");
                }
                if (n.repo() == null || !n.repo().matches("[\\w.-]+/[\\w.-]+") || n.path() == null || n.path().isBlank() || n.line() < 1) {
                    out.add(at + "needs a repo, a path and a line");
                }
                if (n.how() != null && !"reads".equals(n.how()) && !"sets".equals(n.how())) {
                    out.add(at + "how '" + n.how() + "' is neither reads nor sets");
                }
            }
        }
        return out;
    }
}
