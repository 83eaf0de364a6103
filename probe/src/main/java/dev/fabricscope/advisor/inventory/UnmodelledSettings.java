package dev.fabricscope.advisor.inventory;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The upstream knobs a user set that no rule models, held against the other verdicts: a verdict the advisor would call
 * {@code ok} is not ok where such a setting can change it (NCCL_P2P_LEVEL=LOC keeps NCCL off multi-node NVLink;
 * CUDA_VISIBLE_DEVICES changes the GPUs a TP group gets). Those verdicts read {@code unknown} and name the setting.
 * Which settings can change them is decided by what they name: every NCCL parameter (NCCL reads them for its
 * communicators), the CUDA variables that choose devices, and SGLang and vLLM knobs about parallelism and
 * communication ({@link #COMMUNICATION}); a knob such as {@code --port} changes nothing of that and is left out.
 */
public final class UnmodelledSettings {

    /** What a SGLang or vLLM knob's name says when it is about parallel layout or communication. */
    static final Pattern COMMUNICATION = Pattern.compile("(?i)(parallel|(^|[-_])(tp|dp|pp|ep|cp|pcp|dcp|sp)([-_]|$)|all-?reduce|allreduce"
            + "|all2all|a2a|nccl|custom|symm|nvls|mnnvl|comm|expert|distributed|nnodes|node-rank|world|deepep|mooncake|nvshmem|"
            + "p2p|ipc|fusion|collective|dist-)");

    /** The CUDA variables that change which devices a process gets, or how they are shared. */
    private static final Set<String> CUDA_DEVICES = Set.of("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER");

    private UnmodelledSettings() {
    }

    /**
     * A knob the advisor knows upstream reads but whose effect on the backends it does not model
     * ({@code KnobSpec.Scope.KNOWN}: --dp-size, --ep-size, VLLM_USE_NCCL_SYMM_MEM …), as the user set it: every such knob is
     * about parallelism or communication, so it reaches its framework's verdicts without the name test.
     */
    public record Known(KnobNames.Read read, String value, java.util.Set<String> readBy) {
    }

    /** One not-modelled setting and who reads it. */
    private record Setting(KnobNames.Read read, String value, java.util.Set<String> readBy) {
        String text() {
            return read.display() + "=" + value;
        }

        /** Whether it can change {@code v}: the framework that reads it judged it, or NCCL's behaviour under another framework. */
        boolean reaches(Verdict v) {
            if (readBy.contains(v.knob())) {
                return false; // the verdict's rule reads it
            }
            if ("nccl".equals(read.framework()) && !read.name().startsWith("CUDA_")) {
                return "nccl".equals(v.framework()) || v.knob().startsWith("NCCL_")
                        || v.source() != null && "NVIDIA/nccl".equals(v.source().repo());
            }
            return reachesPlanOf(v.framework());
        }

        /** Whether it can change what {@code framework}'s plan selects (every framework runs NCCL communicators). */
        boolean reachesPlanOf(String framework) {
            return read.name().startsWith("CUDA_") || "nccl".equals(read.framework()) || read.framework().equals(framework);
        }
    }

    /** {@code verdicts} with every {@code ok} that a not-modelled setting can change made {@code unknown}, saying which. */
    public static List<Verdict> applied(List<Verdict> verdicts, KnobNames names, Map<String, String> flags, Map<String, String> env,
                                        List<Known> known) {
        List<Setting> settings = settings(names, flags, env, known);
        return settings.isEmpty() ? verdicts : verdicts.stream().map(v -> {
            List<Setting> reaching = v.outcome() == Outcome.OK ? settings.stream().filter(s -> s.reaches(v)).toList() : List.of();
            return reaching.isEmpty() ? v : unknown(v, reaching);
        }).collect(java.util.stream.Collectors.toCollection(ArrayList::new));
    }

    /**
     * {@code recs} with a plan's summary saying which not-modelled settings it was made without (they may change what
     * works: every framework runs NCCL communicators, so an NCCL setting reaches all of them).
     */
    public static List<Recommendation> caveated(List<Recommendation> recs, KnobNames names, Map<String, String> flags, Map<String, String> env,
                                                List<Known> known) {
        List<Setting> settings = settings(names, flags, env, known);
        return settings.isEmpty() ? recs : recs.stream().map(r -> {
            List<String> reaching = settings.stream().filter(s -> s.reachesPlanOf(r.framework())).map(Setting::text).distinct().toList();
            return reaching.isEmpty() ? r : new Recommendation(r.framework(), r.flags(), r.env(), r.drop(),
                    (r.summary() == null || r.summary().isBlank() ? "" : r.summary().strip() + " ") + "Made without "
                            + listed(reaching) + ", which the advisor does not model: it may change what works.");
        }).collect(java.util.stream.Collectors.toCollection(ArrayList::new));
    }

    private static List<Setting> settings(KnobNames names, Map<String, String> flags, Map<String, String> env, List<Known> known) {
        List<Setting> settings = new ArrayList<>();
        known.forEach(k -> settings.add(new Setting(k.read(), k.value(), k.readBy())));
        for (boolean flag : new boolean[] {true, false}) {
            for (Map.Entry<String, String> e : (flag ? flags : env).entrySet()) {
                for (KnobNames.Read r : names.readers(e.getKey(), flag)) {
                    if (canChangeCommunication(r)) {
                        settings.add(new Setting(r, e.getValue(), Set.of()));
                    }
                }
            }
        }
        return settings;
    }

    /** Whether a not-modelled name can change whether a backend works (see the class comment). */
    public static boolean canChangeCommunication(KnobNames.Read r) {
        if (r.name().startsWith("CUDA_")) {
            return CUDA_DEVICES.contains(r.name());
        }
        return "nccl".equals(r.framework()) || COMMUNICATION.matcher(r.name()).find();
    }

    /** {@code A=1, B=2, C=3} or {@code A=1, B=2, C=3 and 4 more}. */
    private static String listed(List<String> settings) {
        int shown = Math.min(3, settings.size());
        return String.join(", ", settings.subList(0, shown)) + (settings.size() > shown ? " and " + (settings.size() - shown) + " more" : "");
    }

    private static Verdict unknown(Verdict v, List<Setting> reaching) {
        Setting first = reaching.get(0);
        String names = listed(reaching.stream().map(Setting::text).distinct().toList());
        String why = (v.why() == null ? "" : v.why().strip() + (v.why().strip().endsWith(".") ? " " : ". "))
                + "Not judged ok: " + names + (reaching.size() > 1 ? " are" : " is") + " set, and the advisor does not model what it does (" + first.read().display()
                + " is read at " + first.read().source().path() + (first.read().line() > 0 ? ":" + first.read().line() : "")
                + (first.read().commit() == null ? "" : " @" + first.read().commit().substring(0, Math.min(8, first.read().commit().length())))
                + "); it can change this.";
        return new Verdict(v.framework(), v.knob(), v.value(), v.userSet(), Outcome.UNKNOWN, v.resolved(), v.errorClass(), v.message(),
                v.when(), why, v.fix(), v.source(), v.version());
    }
}
