package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.predict.Backend;
import dev.fabricscope.samples.Samples;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The predicted cost beside each recommendation: what it selects, priced by {@link Predict} and nothing else. */
class RecommendedCostTest {

    private final Advise advise = new Advise();

    static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    static DeploymentRequest request(int tp, Integer nodes, String model, Integer tokens) {
        return new DeploymentRequest(List.of(), tp, nodes, null, model, tokens, Map.of(), Map.of(), Map.of(), Map.of());
    }

    @Test
    void everyFigureIsPredictsOwnForTheBackendsTheRecommendationSelects() throws Exception {
        DeploymentRequest d = request(8, null, null, null);
        Advise.Result r = advise.advise(Advise.Request.of(sample("dgx-h100"), d));
        RecommendedCost.Costs costs = r.predicted();
        assertEquals("from specs", costs.basis());
        assertTrue(costs.sizes().startsWith("at 64 KiB and 8 MiB, a small and a large message"), costs.sizes());
        assertEquals(r.advice().recommendations().size(), costs.byFramework().size(), "one cost per recommendation");
        Predict.Result p = new Predict().predict(new Predict.Request(sample("dgx-h100"), d,
                List.of(new Predict.Size(RecommendedCost.SMALL, null), new Predict.Size(RecommendedCost.LARGE, null)), null, null));
        for (RecommendedCost.Cost c : costs.byFramework().values()) {
            assertFalse(c.selected().isEmpty(), c.framework());
            for (RecommendedCost.Price price : c.selected()) {
                Predict.Row row = p.rows().stream().filter(x -> x.framework().equals(c.framework()) && x.backend().equals(price.backend())
                        && x.bytes() == price.bytes()).findFirst().orElseThrow();
                assertEquals(row.predictedUs(), price.us(), c.framework() + " " + price.backend());
            }
        }
        // SGLang's recommendation sets trtllm fusion and NVLS and leaves custom all-reduce on; torch symm mem stays off
        RecommendedCost.Cost sglang = costs.byFramework().get("sglang");
        assertEquals(List.of("nccl", "oneshot", "twoshot", "trtllm", "nvls"), sglang.backends());
        // vLLM's defaults there: custom all-reduce, the mnnvl fusion workspace ('auto' resolves to it), symm mem
        assertEquals(List.of("nccl", "oneshot", "twoshot", "mnnvl", "symm-mem"), costs.byFramework().get("vllm").backends());
        assertEquals(List.of("nccl", "nvls"), costs.byFramework().get("nccl").backends(), "NCCL_NVLS_ENABLE unset resolves to NVLS");
        // the fastest valid backend, named where it is another one and faster than every selected one
        for (RecommendedCost.Price f : sglang.fastest()) {
            assertFalse(sglang.backends().contains(f.backend()));
            double chosen = sglang.selected().stream().filter(x -> x.bytes() == f.bytes() && x.us() != null)
                    .mapToDouble(RecommendedCost.Price::us).min().orElseThrow();
            assertTrue(f.us() < chosen, f + " vs " + chosen);
            assertTrue(sglang.line().contains("fastest valid here: " + f.backend()), sglang.line());
        }
        assertTrue(sglang.line().startsWith("predicted (us at 64 KiB/8 MiB): nccl "), sglang.line());
    }

    @Test
    void withAModelTheSizesAreItsDecodeAndPrefillAllReduces() throws Exception {
        Advise.Result r = advise.advise(Advise.Request.of(sample("dgx-h100"), request(8, null, "DeepseekV3ForCausalLM", 4096)));
        RecommendedCost.Cost nccl = r.predicted().byFramework().get("nccl");
        // hidden 7168, bf16: one decode token 14 KiB, 4096 prefill tokens 56 MiB
        assertEquals(List.of(7168L * 2, 7168L * 2 * 4096), nccl.selected().stream().filter(x -> x.backend().equals("nccl"))
                .map(RecommendedCost.Price::bytes).toList());
        assertTrue(r.predicted().sizes().contains("decode 1 token = 14 KiB, prefill 4096 tokens = 56 MiB"), r.predicted().sizes());
        assertTrue(nccl.line().startsWith("predicted (us at decode 14 KiB/prefill 56 MiB): "), nccl.line());
        Advise.Result unknown = advise.advise(Advise.Request.of(sample("dgx-h100"), request(8, null, "NoSuchModel", 4096)));
        assertTrue(unknown.predicted().sizes().contains("the hidden size of NoSuchModel is not in predict's table"),
                unknown.predicted().sizes());
    }

    @Test
    void whereTheModelCannotPriceItSaysWhyAndGivesNoNumber() throws Exception {
        Advise.Result twoNodes = advise.advise(Advise.Request.of(sample("dgx-h100"), request(16, 2, null, null)));
        for (RecommendedCost.Cost c : twoNodes.predicted().byFramework().values()) {
            assertTrue(c.selected().stream().allMatch(x -> x.us() == null && x.unpriced() != null), c.framework() + ": " + c.selected());
            assertTrue(c.line().contains("no prediction"), c.line());
            assertFalse(c.line().matches(".*\\d us.*"), "no time in " + c.line());
        }
        RecommendedCost.Cost fi = twoNodes.predicted().byFramework().get("flashinfer"); // no fusion backend works over 2 nodes
        assertEquals(List.of(), fi.backends());
        assertEquals("predicted: no prediction: the recommendation selects none of flashinfer's all-reduce backends", fi.line());
        Advise.Result pcie = advise.advise(Advise.Request.of(sample("l40s-4x"), request(4, null, null, null)));
        RecommendedCost.Cost sglang = pcie.predicted().byFramework().get("sglang");
        assertNotNull(sglang.unpriced());
        assertEquals("predicted: no prediction: " + sglang.unpriced(), sglang.line());
    }

    @Test
    void anAutoOrUnsetKnobSelectsTheBackendItResolvesTo() {
        Predict.Probe mnnvl = Predict.PROBES.stream().filter(p -> p.framework().equals("vllm") && p.backend() == Backend.MNNVL)
                .findFirst().orElseThrow();
        assertTrue(RecommendedCost.selects(verdict("auto (default)", Outcome.OK, "mnnvl"), mnnvl));
        assertFalse(RecommendedCost.selects(verdict("auto (default)", Outcome.OK, "trtllm"), mnnvl));
        assertTrue(RecommendedCost.selects(verdict("mnnvl", Outcome.OK, null), mnnvl));
        assertFalse(RecommendedCost.selects(verdict("mnnvl", Outcome.ERROR, "mnnvl"), mnnvl));
        Predict.Probe nvls = Predict.PROBES.stream().filter(p -> p.framework().equals("nccl") && p.backend() == Backend.NVLS)
                .findFirst().orElseThrow();
        assertTrue(RecommendedCost.selects(verdict("unset (2)", Outcome.OK, "NVLS"), nvls));
        assertFalse(RecommendedCost.selects(verdict("unset (2)", Outcome.FALLBACK, "NVLS disabled"), nvls));
    }

    @Test
    void aBlockedAdviceHasNoPrediction() throws Exception {
        RecommendedCost.Costs none = RecommendedCost.Costs.none("no GPU");
        assertNull(none.sizes());
        assertEquals("Predicted all-reduce: no prediction: no GPU", none.heading());
        assertTrue(none.byFramework().isEmpty());
    }

    private static Verdict verdict(String value, Outcome o, String resolved) {
        return new Verdict("x", "k", value, false, o, resolved, null, null, null, null, null, null, null);
    }
}
