package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.flashinfer.FlashInferMessage;
import dev.fabricscope.advisor.nccl.NcclMessage;
import dev.fabricscope.advisor.nccl.NcclVersion;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.RuleVersion;
import dev.fabricscope.advisor.rule.UpstreamMessage;
import dev.fabricscope.advisor.rule.Versions;
import dev.fabricscope.advisor.sglang.SglangMessage;
import dev.fabricscope.advisor.sglang.SglangVersion;
import dev.fabricscope.advisor.vllm.VllmMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The registry the advisor asks instead of naming frameworks: every framework, version, knob and message exactly once. */
class FrameworkRegistryTest {

    @Test
    void listsEveryFrameworkOnceInAdviceOrder() {
        assertEquals(List.of("sglang", "vllm", "flashinfer", "nccl"), FrameworkRegistry.names());
        assertEquals(FrameworkRegistry.names(), Options.FRAMEWORKS);
        for (FrameworkRules r : FrameworkRegistry.all()) {
            assertEquals(r, FrameworkRegistry.byName(r.name()).orElseThrow());
        }
        assertTrue(FrameworkRegistry.byName("tensorrt-llm").isEmpty());
    }

    @Test
    void everyKnobOnceAndUnderItsFramework() {
        Set<String> seen = new HashSet<>();
        for (FrameworkRules r : FrameworkRegistry.all()) {
            assertFalse(r.knobs().isEmpty(), r.name());
            for (KnobSpec k : r.knobs()) {
                assertEquals(r.name(), k.framework(), k.toString());
                assertTrue(seen.add(k.framework() + " " + k.kind() + " " + k.name()), "listed twice: " + k);
                if (k.onlyVersion() != null) {
                    assertTrue(r.versions().stream().anyMatch(v -> v.id().equals(k.onlyVersion())), "no version " + k.onlyVersion() + " for " + k);
                }
            }
        }
        assertEquals(FrameworkRegistry.knobs(), Knobs.all());
        assertEquals(seen.size(), Knobs.all().size());
    }

    @Test
    void everyVersionNamesItsFrameworkAndUpstream() {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        for (FrameworkRules r : FrameworkRegistry.all()) {
            assertEquals("newest", r.versions().get(0).id(), r.name());
            Set<String> unique = new HashSet<>();
            for (RuleVersion v : r.versions()) {
                assertEquals(r.name(), v.framework(), v.toString());
                assertTrue(unique.add(v.id()), "duplicate version " + v.id());
                assertFalse(v.description().isBlank(), v.id());
            }
            ids.put(r.name(), r.versions().stream().map(RuleVersion::id).toList());
        }
        assertEquals(ids, Advisor.versions());
        assertEquals(ids.values().stream().mapToInt(List::size).sum(), Options.describeVersions().size());
    }

    @Test
    void everyMessageCarriesItsSource() {
        List<UpstreamMessage> listed = new ArrayList<>();
        for (FrameworkRules r : FrameworkRegistry.all()) {
            assertFalse(r.messages().isEmpty(), r.name());
            for (UpstreamMessage m : r.messages()) {
                assertFalse(m.text().isBlank(), m.toString());
                SourceRef s = m.source();
                assertNotNull(s, m + " has no source");
                assertNotNull(s.repo(), m.toString());
                assertNotNull(s.path(), m.toString());
                assertTrue(s.commit() == null || s.commit().matches("[0-9a-f]{8}|[0-9a-f]{40}"), m + ": " + s.commit());
                listed.add(m);
            }
        }
        // every message enum is reachable through the registry
        List<UpstreamMessage> all = Stream.<UpstreamMessage[]>of(SglangMessage.values(), VllmMessage.values(), FlashInferMessage.values(),
                NcclMessage.values(), CustomAllReduceMessage.values()).flatMap(Stream::of).toList();
        assertTrue(listed.containsAll(all), "not in any framework's messages: " + all.stream().filter(m -> !listed.contains(m)).toList());
    }

    /** Every message a verdict quotes is one of the registry's, with its placeholders filled in. */
    @Test
    void verdictsQuoteOnlyRegisteredMessages() {
        Map<UpstreamMessage, Pattern> known = new LinkedHashMap<>();
        for (FrameworkRules r : FrameworkRegistry.all()) {
            for (UpstreamMessage m : r.messages()) {
                String[] parts = m.text().split("%[sd]", -1);
                StringBuilder re = new StringBuilder();
                for (int i = 0; i < parts.length; i++) {
                    re.append(i == 0 ? "" : ".*").append(Pattern.quote(parts[i]));
                }
                known.put(m, Pattern.compile(re + "( …)?", Pattern.DOTALL));
            }
        }
        Set<UpstreamMessage> quoted = new HashSet<>();
        for (What w : messageMachines()) {
            for (Verdict v : w.advise().verdicts()) {
                if (v.message() != null) {
                    UpstreamMessage m = known.entrySet().stream().filter(k -> k.getValue().matcher(v.message()).matches()).map(Map.Entry::getKey)
                            .findFirst().orElseThrow(() -> new AssertionError("not a registered message: " + v.message()));
                    quoted.add(m);
                }
            }
        }
        assertTrue(quoted.size() >= known.size() / 2, "too few messages quoted to mean anything: " + quoted.size() + " of " + known.size());
    }

    /** The sweep's machines, and a few with knobs set that make the frameworks speak. */
    private static List<What> messageMachines() {
        List<What> out = new ArrayList<>(AdvisorSweepTest.machines());
        out.add(What.machine(What.HGX_H100).assume("fabric-ready=false").tp(8));
        out.add(What.machine(What.GB200_NVL).tp(8).nodes(2).model("Qwen3_5MoeForConditionalGeneration")
                .env("SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION", "1").flag("flashinfer-allreduce-fusion-backend", "trtllm"));
        for (What base : List.of(What.machine(What.HGX_H100).tp(8), What.machine(What.GB200_NVL).tp(8).nodes(2), What.machine(What.PCIE_SM120).tp(4),
                What.machine("platform=rocm", "gpus-per-node=8").tp(8))) {
            for (String[] kv : new String[][] {{"dcp-comm-backend", "a2a"}, {"dcp-comm-backend", "fi_a2a"}, {"dcp-replicate-q-proj", "true"},
                    {"enable-flashinfer-pure-allreduce", "true"}, {"enable-flashinfer-allreduce-fusion", "true"}, {"enforce-disable-flashinfer-allreduce-fusion", "true"},
                    {"enable-deterministic-inference", "true"}, {"enable-torch-symm-mem", "true"}, {"flashinfer-allreduce-fusion-backend", "cutedsl"}}) {
                out.add(copy(base).flag(kv[0], kv[1]));
                out.add(copy(base).flag(kv[0], kv[1]).version("sglang", "middle").version("vllm", "older"));
            }
            out.add(copy(base).dcp(3));
            out.add(copy(base).dcp(2).flag("dcp-comm-backend", "fi_a2a"));
            out.add(copy(base).env("VLLM_ALLREDUCE_USE_FLASHINFER", "1").env("VLLM_FLASHINFER_ALLREDUCE_BACKEND", "trtllm"));
            out.add(copy(base).model("DeepseekV3ForCausalLM").version("flashinfer", "trtllm-multicast"));
            // the classic custom all-reduce words (middle) and the context-parallel checks
            out.add(copy(base).version("sglang", "middle").tp(3));
            out.add(copy(base).flag("enable-prefill-cp", "true").flag("attn-cp-size", "3"));
            out.add(copy(base).model("DeepseekV32ForCausalLM").flag("enable-prefill-cp", "true").flag("cp-strategy", "zigzag"));
            out.add(copy(base).tp(4).flag("prefill-context-parallel-size", "2").flag("data-parallel-size", "2"));
            out.add(copy(base).tp(4).flag("prefill-context-parallel-size", "2").env("VLLM_USE_V2_MODEL_RUNNER", "0"));
            out.add(copy(base).flag("flashinfer-allreduce-fusion-backend", "cute-dsl"));
        }
        out.add(What.machine(What.HGX_H100).version("sglang", "middle").tp(16).nodes(2));
        // FlashInfer's PCIe IPC all-reduce under both frameworks, and NCCL's IMEX check
        for (What pcie : List.of(What.machine(What.PCIE_SM120).tp(3), What.machine(What.PCIE_SM120).tp(8).nodes(2),
                What.machine(What.PCIE_SM120).assume("flashinfer=false").tp(2))) {
            out.add(pcie.env("VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", "1").env("SGLANG_ENABLE_PCIE_IPC_ALLREDUCE", "1").version("flashinfer", "main"));
        }
        // a FlashInfer release without PcieIpcAllReduceWorkspace
        out.add(What.machine(What.PCIE_SM120).tp(4).env("VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", "1").env("SGLANG_ENABLE_PCIE_IPC_ALLREDUCE", "1")
                .version("flashinfer", "0.6.17"));
        out.add(What.machine(What.GB200_NVL).assume("imex-channel=false").tp(8).nodes(2));
        return out;
    }

    private static What copy(What w) {
        return AdvisorSweepTest.copy(w);
    }

    @Test
    void versionChoiceAsksTheRegistry() throws AdvisorInputException {
        Versions v = VersionChoice.resolve(Map.of("nccl", "2.20.5", "sglang", "latest"));
        assertEquals("2.20.5", v.get(NcclVersion.class).id());
        assertEquals("newest", v.get(SglangVersion.class).id());
        assertEquals(List.of("sglang", "vllm", "flashinfer", "nccl"), List.copyOf(v.ids().keySet()));
        AdvisorInputException unknown = assertThrows(AdvisorInputException.class, () -> VersionChoice.resolve(Map.of("trt", "newest")));
        assertEquals("unknown framework 'trt' in --framework-version; valid: sglang, vllm, flashinfer, nccl", unknown.getMessage());
        AdvisorInputException badId = assertThrows(AdvisorInputException.class, () -> VersionChoice.resolve(Map.of("vllm", "0.9")));
        assertTrue(badId.getMessage().startsWith("unknown vllm version '0.9'; known: newest (releases no release read; commits "),
                badId.getMessage());
    }

    @Test
    void knobsKnownButNotModelledHaveASource() throws AdvisorInputException {
        MachineFacts facts = MachineFacts.derive(null, Map.of("gpus-per-node", "8"));
        EffectiveDeployment dep = new EffectiveDeployment(8, 1, 8, 1, 1, null, null, Map.of(), Map.of(), Map.of(), Set.of());
        Eval e = new Eval(facts, dep, VersionChoice.newest());
        for (FrameworkRules r : FrameworkRegistry.all()) {
            for (KnobSpec k : r.knobs()) {
                if (k.scope() == KnobSpec.Scope.KNOWN) {
                    assertNotNull(r.knownKnobsSource(e), r.name() + " " + k.name());
                }
                if (k.scope() == KnobSpec.Scope.ROCM_ONLY) {
                    assertNotNull(r.rocmKnobsSource(e), r.name() + " " + k.name());
                }
            }
        }
    }
}
