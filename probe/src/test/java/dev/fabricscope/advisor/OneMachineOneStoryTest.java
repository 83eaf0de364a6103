package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 item 4: SGLang, vLLM and FlashInfer build the same FlashInfer workspace on the same machine, so their
 * verdicts cannot contradict. For every sample × fusion backend × TP 1–16 (nodes as needed), a framework may say
 * "ok, fused with backend B" only where FlashInfer's own verdict says the B workspace is created and its kernels launch;
 * and where FlashInfer's workspace fails, no framework may report it working.
 */
class OneMachineOneStoryTest {

    static final String WS = "create_allreduce_fusion_workspace(backend)";

    @Test
    void sharedWorkspaceFactsAgreeAcrossFrameworks() throws Exception {
        int compared = 0;
        List<String> contradictions = new ArrayList<>();
        for (Samples.Sample s : Samples.list()) {
            MachineSnapshot snap = s.snapshot().get();
            int gpn = snap.gpus().size();
            for (int tp = 1; tp <= 16; tp++) {
                int nodes = Math.max(1, (tp + gpn - 1) / gpn);
                if (gpn == 1 && tp > 1) {
                    nodes = tp; // the one-GPU VM: a deployment over several such VMs
                }
                if (tp > gpn * nodes) {
                    continue;
                }
                for (String backend : List.of("trtllm", "mnnvl")) {
                    for (String flashinferVersion : List.of("newest", "trtllm-multicast")) {
                        What base = What.snapshot(snap).tp(tp).nodes(nodes).version("flashinfer", flashinferVersion);
                        Verdict fi = copy(base).flag(WS, backend).verdict("flashinfer", WS);
                        Verdict sg = copy(base).flag("flashinfer-allreduce-fusion-backend", backend).verdict("sglang", "--flashinfer-allreduce-fusion-backend");
                        Verdict vl = copy(base).env("VLLM_FLASHINFER_ALLREDUCE_BACKEND", backend).flag("fuse_allreduce_rms", "true")
                                .verdict("vllm", "VLLM_FLASHINFER_ALLREDUCE_BACKEND");
                        String where = s.name() + " TP " + tp + " × " + nodes + " node(s) " + backend + " flashinfer=" + flashinferVersion;
                        boolean fiWorks = fi.outcome() == Outcome.OK && backend.equals(fi.resolved());
                        for (Verdict f : List.of(sg, vl)) {
                            boolean claimsFused = f.outcome() == Outcome.OK && backend.equals(f.resolved());
                            if (claimsFused && !fiWorks && tp > 1) {
                                contradictions.add(where + ": " + f.framework() + " says ok with " + backend + ", FlashInfer says "
                                        + fi.outcome().json() + " (" + fi.message() + ")");
                            }
                        }
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 300, "compared " + compared);
        assertTrue(contradictions.isEmpty(), contradictions.size() + " contradictions:\n" + String.join("\n", contradictions));
    }

    /**
     * Issue 23 item 5: no recommendation the advisor would reject. For every sample × TP 1..GPUs (two nodes on the
     * MNNVL tray) × framework, the recommendation's flags and environment applied to the same deployment yield no
     * error verdict of that framework that the defaults did not already have.
     */
    @Test
    void applyingARecommendationNeverYieldsAnError() throws Exception {
        int applied = 0;
        List<String> rejected = new ArrayList<>();
        for (Samples.Sample s : Samples.list()) {
            MachineSnapshot snap = s.snapshot().get();
            int gpn = snap.gpus().size();
            List<int[]> shapes = new ArrayList<>();
            for (int tp = 1; tp <= gpn; tp++) {
                shapes.add(new int[] {tp, 1});
            }
            if (s.name().contains("nvl72")) {
                shapes.add(new int[] {2 * gpn, 2});
            }
            for (int[] shape : shapes) {
                What base = What.snapshot(snap).tp(shape[0]).nodes(shape[1]);
                AdviceResult before = base.advise();
                if (before.blocked() != null) {
                    continue;
                }
                for (Recommendation r : before.recommendations()) {
                    What after = copy(base);
                    after.d = RecommendationCheck.applied(r, base.d);
                    for (Verdict v : after.advise().verdicts()) {
                        if (v.framework().equals(r.framework()) && v.outcome() == Outcome.ERROR && before.verdicts().stream()
                                .noneMatch(b -> b.knob().equals(v.knob()) && java.util.Objects.equals(b.value(), v.value()) && b.outcome() == Outcome.ERROR)) {
                            rejected.add(s.name() + " TP " + shape[0] + " × " + shape[1] + " " + r.framework() + " " + r.flags() + " " + r.env()
                                    + ": " + v.knob() + "=" + v.value() + " error (" + v.message() + ")");
                        }
                    }
                    applied++;
                }
            }
        }
        assertTrue(applied > 50, "applied " + applied);
        assertTrue(rejected.isEmpty(), rejected.size() + " recommendations the advisor rejects:\n" + String.join("\n", rejected));
    }

    /**
     * The same with the user's own failing settings (the audit of 2026-12-02 re-ran its recommendations with the flag that
     * failed still given): a recommendation that keeps a setting which fails must say to drop it ({@link Recommendation#drop}),
     * so that applying it — drops included — leaves no error of that framework but the deployment settings its summary
     * names as still failing.
     */
    @Test
    void aRecommendationDropsTheUsersFailingSettings() throws Exception {
        String[][] settings = {
                {"sglang", "flag", "flashinfer-allreduce-fusion-backend", "mnnvl"},
                {"sglang", "flag", "flashinfer-allreduce-fusion-backend", "trtllm"},
                {"sglang", "flag", "enable-torch-symm-mem", "true"},
                {"vllm", "env", "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "trtllm"},
                {"vllm", "env", "VLLM_ALLREDUCE_USE_SYMM_MEM", "1"},
                {"nccl", "env", "NCCL_NVLS_ENABLE", "1"}};
        int applied = 0;
        int dropped = 0;
        List<String> failing = new ArrayList<>();
        for (Samples.Sample s : Samples.list()) {
            MachineSnapshot snap = s.snapshot().get();
            int gpn = snap.gpus().size();
            for (int tp : new int[] {2, 3, gpn}) {
                if (tp > gpn) {
                    continue;
                }
                for (String[] set : settings) {
                    What w = What.snapshot(snap).tp(tp).framework(set[0]);
                    w = set[1].equals("flag") ? w.flag(set[2], set[3]) : w.env(set[2], set[3]);
                    AdviceResult before = w.advise();
                    if (before.blocked() != null) {
                        continue;
                    }
                    for (Recommendation r : before.recommendations()) {
                        What after = copy(w);
                        after.d = RecommendationCheck.applied(r, w.d);
                        dropped += r.drop().size();
                        for (Verdict v : after.advise().verdicts()) {
                            if (v.framework().equals(r.framework()) && v.outcome() == Outcome.ERROR
                                    && !r.summary().contains(v.knob() + "=" + v.value() + " still fails")) {
                                failing.add(s.name() + " TP " + tp + " " + String.join(" ", set) + " → " + r.flags() + " " + r.env()
                                        + " drop " + r.drop() + ": " + v.knob() + "=" + v.value() + " error (" + v.message() + ")");
                            }
                        }
                        applied++;
                    }
                }
            }
        }
        assertTrue(applied > 50, "applied " + applied);
        assertTrue(dropped > 10, "dropped " + dropped);
        assertTrue(failing.isEmpty(), failing.size() + " recommendations that leave an error:\n" + String.join("\n", failing));
    }

    /** The check behind the property: a recommendation that fails where it is applied is withheld, with the reason. */
    @Test
    void aRecommendationThatFailsIsWithheld() throws Exception {
        What base = What.snapshot(Samples.find("dgx-h100").orElseThrow().snapshot().get()).tp(3);
        AdviceResult before = base.advise();
        Recommendation planted = new Recommendation("flashinfer", List.of("create_allreduce_fusion_workspace(backend=\"mnnvl\")"), Map.of(), "planted");
        AdviceResult withPlanted = new AdviceResult(before.machine(), before.deployment(), before.verdicts(), List.of(planted),
                before.versions(), null, before.checks());
        Recommendation vetted = RecommendationCheck.vet(withPlanted, base.d, d -> {
            What w = copy(base);
            w.d = d;
            return w.advise();
        }).get(0);
        assertTrue(vetted.flags().isEmpty(), vetted::toString);
        assertTrue(vetted.summary().startsWith("Withheld create_allreduce_fusion_workspace(backend=\"mnnvl\")")
                && vetted.summary().contains("MNNVL AllReduce: unsupported world_size 3."), vetted::toString);
    }

    private static What copy(What w) {
        What c = What.snapshot(w.snapshot);
        c.assume.putAll(w.assume);
        c.d = w.d;
        c.o = w.o;
        return c;
    }
}
