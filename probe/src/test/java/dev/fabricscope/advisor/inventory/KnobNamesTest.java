package dev.fabricscope.advisor.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The upstream knob-name lists (knob-names/*.json): sound, every entry cited at a commit, and the verdicts they give. */
class KnobNamesTest {

    static final String NCCL = "5067397c2676d5aed50042fc39e5c8ee96eb0027";

    @Test
    void theBundledListsAreSoundAndCiteACommitForEveryEntry() {
        KnobNames k = KnobNames.bundled();
        assertEquals(List.of(), k.problems());
        assertEquals(KnobNames.RESOURCES, k.lists().stream().map(KnobNames.KnobList::list).toList());
        for (KnobNames.KnobList l : k.lists()) {
            assertTrue(l.names().size() >= 5, l.list() + ": " + l.names().size());
            assertTrue(l.generatedBy().startsWith("python3 bench/upstream_knob_names.py"), l.list());
            for (KnobNames.Name n : l.names()) {
                assertTrue(n.commit() != null && n.commit().matches("[0-9a-f]{40}"), l.list() + " " + n);
                assertTrue(n.repo() != null && n.path() != null && n.line() >= 1, l.list() + " " + n);
                if (l.commit() != null) {
                    assertEquals(l.commit(), n.commit(), "a list read at one commit: " + n);
                }
            }
        }
        assertTrue(k.lists().get(0).names().size() >= 200, "NCCL's parameters: " + k.lists().get(0).names().size());
    }

    @Test
    void theAuditNamesAreListedWhereUpstreamReadsThem() {
        KnobNames k = KnobNames.bundled();
        assertEquals(new SourceRef("NVIDIA/nccl", NCCL, "src/graph/paths.cc", "289"), one(k, "NCCL_P2P_LEVEL", false, "nccl").source());
        assertEquals(new SourceRef("NVIDIA/nccl", NCCL, "src/transport/shm.cc", "55"), one(k, "NCCL_SHM_DISABLE", false, "nccl").source());
        assertEquals(new SourceRef("NVIDIA/nccl", NCCL, "src/enqueue.cc", "2055"), one(k, "NCCL_ALGO", false, "nccl").source());
        assertEquals("vllm/engine/arg_utils.py", one(k, "enable-expert-parallel", true, "vllm").source().path());
        assertEquals("vllm/engine/arg_utils.py", one(k, "all2all-backend", true, "vllm").source().path());
        assertEquals(List.of("sglang", "vllm"), k.readers("CUDA_VISIBLE_DEVICES", false).stream().map(KnobNames.Read::framework).sorted().toList());
        assertEquals(List.of(), k.readers("NCCL_P2P_LEVL", false));
        assertEquals(List.of(), k.readers("NCCL_P2P_LEVEL", true), "an env name is not a flag");
    }

    private static KnobNames.Read one(KnobNames k, String name, boolean flag, String framework) {
        List<KnobNames.Read> r = k.readers(name, flag).stream().filter(x -> x.framework().equals(framework)).toList();
        assertEquals(1, r.size(), name + ": " + r);
        return r.get(0);
    }

    @Test
    void aVerdictIsUnknownWithTheValueAsTypedAndTheUpstreamLine() {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("sglang", "newest");
        versions.put("nccl", "newest");
        List<Verdict> v = KnobNames.bundled().unknownVerdicts(versions, Map.of(), Map.of("NCCL_P2P_LEVEL", "LOC"));
        assertEquals(1, v.size(), v::toString);
        Verdict p = v.get(0);
        assertEquals("nccl", p.framework());
        assertEquals(Outcome.UNKNOWN, p.outcome());
        assertEquals("LOC", p.value());
        assertTrue(p.userSet());
        assertEquals("not modelled: NCCL reads NCCL_P2P_LEVEL (src/graph/paths.cc:289 @5067397c); the advisor does not say what it does on this machine.",
                p.why());
        // NCCL not advised: shown under the first advised framework, still naming NCCL as the reader
        Verdict under = KnobNames.bundled().unknownVerdicts(Map.of("vllm", "newest"), Map.of(), Map.of("NCCL_P2P_LEVEL", "LOC")).get(0);
        assertEquals("vllm", under.framework());
        assertTrue(under.why().startsWith("not modelled: NCCL reads NCCL_P2P_LEVEL"), under.why());
        Verdict flag = KnobNames.bundled().unknownVerdicts(Map.of("vllm", "newest"), Map.of("enable-expert-parallel", "true"), Map.of()).get(0);
        assertEquals("--enable-expert-parallel", flag.knob());
        assertEquals(List.of(), KnobNames.bundled().unknownVerdicts(Map.of(), Map.of(), Map.of("NCCL_P2P_LEVEL", "LOC")));
    }

    @Test
    void eachDefectIsNamed() {
        KnobNames.Name good = new KnobNames.Name("NCCL_X", "NVIDIA/nccl", NCCL, "src/x.cc", 1, null, null, null);
        assertEquals(List.of(), lists("env", good).problems());
        assertProblem(lists("env", new KnobNames.Name("NCCL_X", "NVIDIA/nccl", "5067397c", "src/x.cc", 1, null, null, null)), "is not 40 hex digits");
        assertProblem(lists("env", new KnobNames.Name("NCCL_X", "NVIDIA/nccl", NCCL, "src/x.cc", 0, null, null, null)), "needs a repo, a path and a line");
        assertProblem(lists("env", new KnobNames.Name("--x", "NVIDIA/nccl", NCCL, "src/x.cc", 1, null, null, null)), "without leading dashes");
        assertProblem(lists("env", new KnobNames.Name("NCCL_X", "NVIDIA/nccl", NCCL, "src/x.cc", 1, null, "trtllm", null)), "framework 'trtllm'");
        assertProblem(lists("env", new KnobNames.Name("NCCL_X", "NVIDIA/nccl", NCCL, "src/x.cc", 1, null, null, "writes")), "neither reads nor sets");
        assertProblem(lists("env", good, good), "listed twice");
        assertProblem(lists("argument", good), "neither env nor flag");
    }

    private static KnobNames lists(String kind, KnobNames.Name... names) {
        return new KnobNames(List.of(new KnobNames.KnobList("t", "nccl", kind, null, null, "r", "g", List.of(names))));
    }

    private static void assertProblem(KnobNames k, String part) {
        assertTrue(k.problems().stream().anyMatch(p -> p.contains(part)), part + " not in " + k.problems());
    }
}
