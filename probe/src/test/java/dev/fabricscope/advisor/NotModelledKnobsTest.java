package dev.fabricscope.advisor;

import static dev.fabricscope.advisor.What.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.inventory.KnobNames;
import dev.fabricscope.advisor.inventory.UnmodelledSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Real upstream knobs the advisor does not model (audit 2026-12-02b S70-S74): accepted, shown as unknown with the
 * upstream line that reads them, never ok, and changing no other verdict; a name on no list stays a usage error.
 */
class NotModelledKnobsTest {

    /** Flags the deployment takes before validation (TP): not knobs of a verdict. */
    static final Set<String> DEPLOYMENT_FLAGS = Set.of("tp", "tp-size", "tensor-parallel-size");

    @Test
    void theAuditKnobsAreUnknownWithTheirSource() {
        check(machine(What.HGX_H100).env("NCCL_SHM_DISABLE", "1"), "nccl", "NCCL_SHM_DISABLE", "1", "src/transport/shm.cc", "55");
        check(machine(What.PCIE_SM120).env("NCCL_ALGO", "NVLS"), "nccl", "NCCL_ALGO", "NVLS", "src/enqueue.cc", "2055");
        check(machine(What.HGX_H100).flag("enable-expert-parallel", "true"), "vllm", "--enable-expert-parallel", "true", "vllm/engine/arg_utils.py", null);
        check(machine(What.HGX_H100).flag("--all2all-backend", "deepep_low_latency"), "vllm", "--all2all-backend", "deepep_low_latency",
                "vllm/engine/arg_utils.py", null);
        check(machine(What.HGX_H100).env("CUDA_VISIBLE_DEVICES", "0,1"), "vllm", "CUDA_VISIBLE_DEVICES", "0,1", "vllm/envs.py", null);
        check(machine(What.HGX_H100).env("CUDA_VISIBLE_DEVICES", "0,1"), "sglang", "CUDA_VISIBLE_DEVICES", "0,1", null, null);
    }

    private static void check(What w, String framework, String knob, String value, String path, String line) {
        AdviceResult r = w.advise();
        Verdict v = r.verdict(framework, knob).orElseThrow(() -> new AssertionError("no " + framework + " " + knob + " in " + r.verdicts()));
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        assertEquals(value, v.value(), "kept as typed");
        assertTrue(v.userSet());
        assertTrue(v.why().startsWith("not modelled: ") && v.why().contains(" " + knob + " (") && v.why().contains("the advisor does not say"), v.why());
        assertTrue(v.source() != null && v.source().commit().matches("[0-9a-f]{40}"), v::toString);
        if (path != null) {
            assertEquals(path, v.source().path());
        }
        if (line != null) {
            assertEquals(line, v.source().line());
        }
        assertTrue(r.summary().contains(r.count(Outcome.UNKNOWN) + " unknown"), r.summary());
    }

    @Test
    void aNameOnNoListIsStillAnErrorWithASuggestion() {
        AdvisorInputException env = assertThrows(AdvisorInputException.class, () -> Knobs.env(Map.of("NCCL_P2P_LEVL", "LOC")));
        assertTrue(env.getMessage().contains("unknown env 'NCCL_P2P_LEVL'") && env.getMessage().contains("did you mean 'NCCL_P2P_LEVEL'?"), env.getMessage());
        AdvisorInputException flag = assertThrows(AdvisorInputException.class, () -> Knobs.flags(Map.of("enable-expert-paralel", "true")));
        assertTrue(flag.getMessage().contains("did you mean 'enable-expert-parallel'?"), flag.getMessage());
        assertThrows(AdvisorInputException.class, () -> Knobs.flags(Map.of("NCCL_ALGO", "Ring")), "an env name is no flag");
        assertThrows(AdvisorInputException.class, () -> Knobs.env(Map.of("enable-expert-parallel", "true")), "a flag name is no env");
    }

    /** The advice on machine {@code m} with every one of {@code flags} and {@code env} set to 1. */
    private static AdviceResult withEvery(String[] m, Map<String, List<KnobNames.Read>> flags, Map<String, List<KnobNames.Read>> env) {
        What with = machine(m);
        flags.keySet().forEach(n -> with.flag(n, "1"));
        env.keySet().forEach(n -> with.env(n, "1"));
        return with.advise();
    }

    /** The verdicts other than the not-modelled names' own. */
    private static List<Verdict> othersThanTheNames(AdviceResult r) {
        return r.verdicts().stream().filter(v -> !(v.userSet() && v.when().equals(KnobNames.NOT_MODELLED_WHEN))).toList();
    }

    /** The listed names no rule set models, per kind, that can (or cannot) change a backend ({@link UnmodelledSettings}). */
    private static Map<String, List<KnobNames.Read>> notModelled(boolean flag, boolean communication) {
        Map<String, List<KnobNames.Read>> out = new LinkedHashMap<>();
        notModelled(flag).forEach((name, reads) -> {
            if (reads.stream().anyMatch(UnmodelledSettings::canChangeCommunication) == communication) {
                out.put(name, reads);
            }
        });
        return out;
    }

    /** Every listed name no rule set models, per kind. */
    private static Map<String, List<KnobNames.Read>> notModelled(boolean flag) {
        Map<String, List<KnobNames.Read>> out = new LinkedHashMap<>();
        for (KnobNames.Read r : KnobNames.bundled().reads()) {
            if (r.flag() == flag && !Knobs.modelled(Knobs.alias(r.name()), flag) && !(flag && DEPLOYMENT_FLAGS.contains(r.name()))) {
                out.computeIfAbsent(r.name(), x -> new java.util.ArrayList<>()).add(r);
            }
        }
        return out;
    }

    @Test
    void everyListedNameIsAcceptedAsTyped() throws AdvisorInputException {
        for (boolean flag : new boolean[] {true, false}) {
            Map<String, List<KnobNames.Read>> names = notModelled(flag);
            assertTrue(names.size() > 300, (flag ? "flags: " : "env: ") + names.size());
            for (String name : names.keySet()) {
                Map<String, String> in = Map.of(name, " some value,1 ");
                Map<String, String> out = flag ? Knobs.flags(in) : Knobs.env(in);
                assertEquals(Map.of(name, "some value,1"), out, name);
            }
        }
    }

    /**
     * All listed names that cannot change a backend (a port, a log level, a model path) at once, on machines of three
     * kinds: each gets an unknown verdict under every framework that reads it, none is ok, and every other verdict (and
     * recommendation) is what it is without them.
     */
    @Test
    void aListedNameIsNeverOkAndOneAboutNothingOfCommunicationChangesNoOtherVerdict() {
        Map<String, List<KnobNames.Read>> flags = notModelled(true, false);
        Map<String, List<KnobNames.Read>> env = notModelled(false, false);
        assertTrue(flags.size() > 100 && flags.containsKey("port"), "flags about other things: " + flags.size());
        for (String[] m : List.of(What.HGX_H100, What.PCIE_SM120, What.GB200_NVL)) {
            AdviceResult before = machine(m).advise();
            AdviceResult after = withEvery(m, flags, env);
            List<Verdict> others = othersThanTheNames(after);
            assertEquals(before.verdicts(), others, "the other verdicts, in order");
            assertEquals(before.recommendations(), after.recommendations());
            for (Map<String, List<KnobNames.Read>> names : List.of(flags, env)) {
                names.forEach((name, reads) -> {
                    for (KnobNames.Read r : reads) {
                        List<Verdict> mine = after.verdicts().stream().filter(v -> v.framework().equals(r.framework()) && v.knob().equals(r.display())).toList();
                        assertEquals(1, mine.size(), r + ": " + mine);
                        assertEquals(Outcome.UNKNOWN, mine.get(0).outcome(), mine.get(0)::toString);
                        assertEquals(r.source(), mine.get(0).source());
                    }
                });
            }
            assertNotEquals(before.summary(), after.summary());
            assertEquals(before.count(Outcome.OK), after.count(Outcome.OK), "no ok added");
        }
    }

    /**
     * All listed names that can change a backend (every NCCL parameter, CUDA_VISIBLE_DEVICES, SGLang and vLLM knobs
     * about parallelism and communication): no verdict becomes ok or changes otherwise, but the ok verdicts they reach
     * read unknown and name them, and the plans say they were made without them.
     */
    @Test
    void aListedNameAboutCommunicationTakesTheOkFromWhatItReaches() {
        Map<String, List<KnobNames.Read>> flags = notModelled(true, true);
        Map<String, List<KnobNames.Read>> env = notModelled(false, true);
        assertTrue(env.containsKey("NCCL_SHM_DISABLE") && env.containsKey("CUDA_VISIBLE_DEVICES") && !flags.containsKey("port"), env.keySet().toString());
        for (String[] m : List.of(What.HGX_H100, What.PCIE_SM120, What.GB200_NVL)) {
            AdviceResult before = machine(m).advise();
            AdviceResult after = withEvery(m, flags, env);
            List<Verdict> others = othersThanTheNames(after);
            assertEquals(before.verdicts().size(), others.size());
            Map<String, Verdict> afterByKnob = new LinkedHashMap<>();
            others.forEach(v -> afterByKnob.put(v.framework() + " " + v.knob() + " " + v.value() + " " + v.source(), v));
            assertEquals(others.size(), afterByKnob.size(), "one verdict per framework, knob, value and source");
            for (Verdict b : before.verdicts()) {
                Verdict a = afterByKnob.get(b.framework() + " " + b.knob() + " " + b.value() + " " + b.source());
                if (b.outcome() == Outcome.OK) {
                    assertEquals(Outcome.UNKNOWN, a.outcome(), a::toString); // CUDA_VISIBLE_DEVICES reaches every framework
                    assertTrue(a.why().contains("Not judged ok: ") && a.why().contains("it can change this."), a.why());
                    assertEquals(b.source(), a.source());
                } else {
                    assertEquals(b, a, "a verdict that was not ok is unchanged");
                }
            }
            assertEquals(0, after.count(Outcome.OK), "no ok left");
            for (int i = 0; i < before.recommendations().size(); i++) {
                assertEquals(before.recommendations().get(i).flags(), after.recommendations().get(i).flags());
                assertEquals(before.recommendations().get(i).env(), after.recommendations().get(i).env());
                assertTrue(after.recommendations().get(i).summary().contains("which the advisor does not model: it may change what works."));
            }
        }
    }

    /**
     * A known-but-not-modelled knob (VLLM_USE_NCCL_SYMM_MEM: NCCL symmetric memory takes the TP-8 all-reduces outside
     * 16–128 KiB before torch symm_mem is tried, audit 2026-12-02d F5) takes the ok from its framework's verdicts; its
     * default value changes nothing, and the verdicts whose rules read it (--dp-size for DP attention) keep theirs.
     */
    @Test
    void aKnownKnobNotModelledTakesTheOkFromItsFramework() {
        Verdict symm = machine(What.HGX_H100).framework("vllm").env("VLLM_USE_NCCL_SYMM_MEM", "1").advise()
                .verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM").orElseThrow();
        assertEquals(Outcome.UNKNOWN, symm.outcome(), symm::toString);
        assertTrue(symm.why().contains("Not judged ok: VLLM_USE_NCCL_SYMM_MEM=1 is set"), symm.why());
        assertEquals(Outcome.OK, machine(What.HGX_H100).framework("vllm").env("VLLM_USE_NCCL_SYMM_MEM", "0").advise()
                .verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM").orElseThrow().outcome(), "the default value changes nothing");
        AdviceResult dp = machine(What.HGX_H100).framework("sglang").flag("enable-dp-attention", "true").flag("dp-size", "4").advise();
        assertEquals(Outcome.OK, dp.verdict("sglang", "--enable-dp-attention").orElseThrow().outcome(), "its rule reads --dp-size");
        assertEquals(Outcome.UNKNOWN, dp.verdict("sglang", "--disable-custom-all-reduce").orElseThrow().outcome(), "DP attention's groups are not modelled");
    }

    /** The audit's case: NCCL_P2P_LEVEL=LOC keeps NCCL off multi-node NVLink (init.cc:1071-1072 @5067397c); never an ok MNNVL. */
    @Test
    void p2pLevelLocOnAnMnnvlTrayLeavesNoOkMnnvl() {
        AdviceResult r = machine(What.GB200_NVL).assume("imex-channel=true").tp(8).nodes(2).framework("nccl").env("NCCL_P2P_LEVEL", "LOC").advise();
        Verdict mnnvl = r.verdict("nccl", "NCCL_MNNVL_ENABLE").orElseThrow();
        assertNotEquals(Outcome.OK, mnnvl.outcome(), mnnvl::toString);
        AdviceResult plain = machine(What.GB200_NVL).assume("imex-channel=true").tp(8).nodes(2).framework("nccl").advise();
        assertEquals(Outcome.OK, plain.verdict("nccl", "NCCL_MNNVL_ENABLE").orElseThrow().outcome(), "without it, MNNVL is ok");
    }

    @Test
    void oneFrameworkAdvisedStillShowsAnNcclName() {
        AdviceResult r = machine(What.HGX_H100).framework("sglang").env("NCCL_ALGO", "Ring").advise();
        Verdict v = r.verdict("sglang", "NCCL_ALGO").orElseThrow();
        assertEquals(Outcome.UNKNOWN, v.outcome());
        assertTrue(v.why().startsWith("not modelled: NCCL reads NCCL_ALGO (src/enqueue.cc:2055 @5067397c)"), v.why());
    }
}
