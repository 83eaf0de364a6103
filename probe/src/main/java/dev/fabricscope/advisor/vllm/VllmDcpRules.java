package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DCP_BACKEND;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DCP_SIZE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.PCP_SIZE;
import static dev.fabricscope.advisor.vllm.VllmSources.WHEN_CONFIG;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** vLLM's decode and prefill context parallel sizes and the DCP communication backend (backend-rules.md §2.9). */
final class VllmDcpRules {

    private VllmDcpRules() {
    }

    private static VllmVersion version(Eval e) {
        return e.version(VllmVersion.class);
    }

    // ---- decode context parallel (§2.9)

    private static int pcp(Eval e) {
        String v = e.value(PCP_SIZE);
        return v == null ? 1 : Integer.parseInt(v);
    }

    static Verdict dcpSizeVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_SIZE, VllmVersion.class).source(VllmSources.PARALLEL).when(WHEN_CONFIG);
        int dcp = e.dcp();
        int tp = e.tp();
        int pcp = pcp(e);
        if (dcp < 1) {
            return v.error(null).why("The DCP size must be at least 1 (vLLM's exact validation error for " + dcp + " was not read).").fix("--dcp 1 or more").build();
        }
        if (pcp > 1 && dcp > 1 && e.intValue(VllmKnobs.DP_SIZE) > 1) {
            return v.error("ValueError").message(VllmMessage.PCP_DP.text())
                    .why("_validate_parallel_config refuses PCP with data parallelism before it looks at the DCP size.")
                    .fix("--data-parallel-size 1, or drop --prefill-context-parallel-size").build();
        }
        if (pcp == 1 && tp % dcp != 0) {
            if (version(e).dcpMessageMissingSpace()) {
                // older releases: an assert in EngineArgs.create_engine_config (arg_utils.py@99d7eb5d:1374)
                return v.error("AssertionError").message(VllmMessage.DCP_DIVISIBLE_OLD.format(tp, dcp)).source(VllmSources.DCP_ASSERT_OLD)
                        .why("TP " + tp + " is not a multiple of DCP " + dcp + "; this release asserts it while building the engine config.")
                        .fix("--dcp with a divisor of " + tp).build();
            }
            return v.error("ValueError").message(VllmMessage.DCP_DIVISIBLE.format(tp, dcp)).why("TP " + tp + " is not a multiple of DCP " + dcp + ".")
                    .fix("--dcp with a divisor of " + tp).build();
        }
        if (pcp > 1 && dcp != 1 && dcp != pcp && dcp != tp * pcp) {
            List<Integer> valid = new ArrayList<>(new java.util.TreeSet<>(List.of(1, pcp, tp * pcp)));
            return v.error("ValueError").message(VllmMessage.PCP_DCP.format(tp, pcp, dcp, Values.pyList(valid)))
                    .why(Slots.fill("PCP {pcp} is on, so DCP must be one of sorted({1, PCP, TP × PCP}) = {valid}; it is {dcp}.",
                            "pcp", pcp, "valid", Values.pyList(valid), "dcp", dcp))
                    .fix("--dcp 1, " + pcp + " or " + (tp * pcp)).build();
        }
        if (dcp == 1) {
            return v.ok().why("1: decode context parallel is off.").build();
        }
        return v.outcome(Outcome.UNKNOWN).source(VllmSources.MODEL_DCP).why(Slots.fill("DCP {dcp} passes the parallel-config checks{divides}, "
                + "but for a model without MLA ModelConfig.verify_with_parallel_config then asserts TP > total KV heads, DCP <= TP // KV heads "
                + "and (attention heads // KV heads) % DCP == 0. Missing fact: whether {model} uses MLA and, if not, its num_key_value_heads "
                + "and num_attention_heads (the advisor knows a model by its architecture name only).", "dcp", dcp,
                "divides", pcp == 1 ? " (it divides TP " + tp + ")" : "", "model", e.model() == null ? "the model (no --model given)" : e.model()))
                .fix("check the model's config.json: without MLA, DCP must be at most TP // num_key_value_heads").build();
    }

    static Verdict pcpVerdict(Eval e) {
        VerdictBuilder v = e.on(PCP_SIZE, VllmVersion.class).source(VllmSources.PARALLEL).when(WHEN_CONFIG);
        int pcp = pcp(e);
        if (pcp == 1) {
            return v.ok().why("1: prefill context parallel is off.").build();
        }
        int dp = e.intValue(VllmKnobs.DP_SIZE);
        if (dp > 1) {
            return v.error("ValueError").message(VllmMessage.PCP_DP.text())
                    .why(Slots.fill("PCP {pcp} with --data-parallel-size {dp}: _validate_parallel_config refuses PCP with data parallelism.",
                            "pcp", pcp, "dp", dp)).fix("--data-parallel-size 1, or drop --prefill-context-parallel-size").build();
        }
        Verdict world = worldSize(e, v, pcp);
        if (world != null) {
            return world;
        }
        String runner = e.env().get(VllmKnobs.V2_RUNNER.name());
        if (runner != null && VllmKnobs.V2_RUNNER.pythonIntError(runner) == null && !VllmKnobs.V2_RUNNER.on(runner)) {
            return v.error("ValueError").message(VllmMessage.PCP_V1.text()).source(VllmSources.RUNNER)
                    .why(Slots.fill("VLLM_USE_V2_MODEL_RUNNER={runner} picks Model Runner V1, which lists prefill context parallel among the "
                            + "features it does not support (PCP runs on Model Runner V2 only).", "runner", runner))
                    .fix("unset VLLM_USE_V2_MODEL_RUNNER (or set it to 1)").build();
        }
        return v.outcome(Outcome.UNKNOWN).source(VllmSources.RUNNER).why(Slots.fill("PCP {pcp} passes the parallel-config checks (no data "
                + "parallelism; DCP 1, PCP or TP × PCP). Not modelled: whether Model Runner V2 takes the rest of the config (a V2-unsupported "
                + "feature sends vLLM to V1, which refuses PCP) and whether the model's attention backend supports PCP.", "pcp", pcp)).build();
    }

    /**
     * --pipeline-parallel-size, where set: the world-size refusal below when TP × PP × PCP is more than a node holds and
     * no --nodes was given, else unknown (what PP does to the all-reduce backends is not modelled); nothing when unset.
     */
    static java.util.Optional<Verdict> ppVerdict(Eval e) {
        if (!e.isSet(VllmKnobs.PP_SIZE)) {
            return java.util.Optional.empty();
        }
        VerdictBuilder v = e.on(VllmKnobs.PP_SIZE, VllmVersion.class).source(VllmSources.WORLD_SIZE).when(VllmSources.WHEN_CONFIG);
        Verdict world = worldSize(e, v, Math.max(1, e.intValue(VllmKnobs.PCP_SIZE)));
        if (world != null) {
            return java.util.Optional.of(world);
        }
        return java.util.Optional.of(v.outcome(Outcome.UNKNOWN).why(Slots.fill("PP {pp}: the world size TP × PP × PCP fits the deployment. "
                + "Not modelled: what pipeline parallelism changes for the all-reduce backends (each stage's TP group is judged as "
                + "the TP group).", "pp", e.intValue(VllmKnobs.PP_SIZE))).build());
    }

    /**
     * ParallelConfig.__post_init__: with the default executor on CUDA and {@code nnodes} 1, a world size (TP × PP × PCP)
     * above the node's GPUs is a ValueError. The advisor assumed more nodes only because no --nodes was given; vLLM's
     * {@code --nnodes} defaults to 1 just the same.
     */
    private static Verdict worldSize(Eval e, VerdictBuilder v, int pcp) {
        int pp = e.intValue(VllmKnobs.PP_SIZE);
        int world = e.tp() * pp * pcp;
        int gpn = e.gpusPerNode();
        if (!e.cuda() || world <= gpn || e.userGave("nodes")) {
            return null;
        }
        int nodes = (world + gpn - 1) / gpn;
        return v.error("ValueError").message(VllmMessage.WORLD_GPUS.format(world, gpn)).source(VllmSources.WORLD_SIZE)
                .why(Slots.fill("TP {tp} × PP {pp} × PCP {pcp} = {world} ranks, and a node has {gpn} GPUs. The advisor spread them over {nodes} "
                        + "nodes because no --nodes was given, but vLLM's --nnodes defaults to 1, so the multiprocessing executor refuses them.",
                        "tp", e.tp(), "pp", pp, "pcp", pcp, "world", world, "gpn", gpn, "nodes", nodes))
                .fix(Slots.fill("start vLLM with --nnodes {nodes} on each node (and give --nodes {nodes} here), or fewer ranks", "nodes", nodes))
                .build();
    }

    /** {@code VLLM_USE_V2_MODEL_RUNNER} as exported: with PCP, 0 is the V1 refusal; otherwise the runner choice is not modelled. */
    static java.util.Optional<Verdict> v2RunnerVerdict(Eval e) {
        if (!e.isSet(VllmKnobs.V2_RUNNER)) {
            return java.util.Optional.empty();
        }
        Verdict unreadable = VllmEnvParse.startupError(e, VllmKnobs.V2_RUNNER);
        if (unreadable != null) {
            return java.util.Optional.of(unreadable);
        }
        VerdictBuilder v = e.on(VllmKnobs.V2_RUNNER, VllmVersion.class).source(VllmSources.RUNNER).when(WHEN_CONFIG);
        String runner = e.env().get(VllmKnobs.V2_RUNNER.name());
        if (pcp(e) > 1 && !e.bool(VllmKnobs.V2_RUNNER)) {
            return java.util.Optional.of(v.error("ValueError").message(VllmMessage.PCP_V1.text())
                    .why(Slots.fill("{runner} picks Model Runner V1, and PCP {pcp} runs on V2 only.", "runner", runner, "pcp", pcp(e)))
                    .fix("unset VLLM_USE_V2_MODEL_RUNNER (or set it to 1)").build());
        }
        return java.util.Optional.of(v.outcome(Outcome.UNKNOWN).why(Slots.fill("Not modelled: use_v2_model_runner returns the exported "
                + "value ({runner}) before any other rule; what the chosen runner does to the all-reduce paths was not read.", "runner", runner))
                .build());
    }


    static Verdict dcpBackendVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_BACKEND, VllmVersion.class).source(VllmSources.PARALLEL).when(WHEN_CONFIG);
        String backend = v.value();
        if ("fi_a2a".equals(backend)) {
            return v.error("pydantic ValidationError").why("Upstream vLLM has no fi_a2a value (that is SGLang's), so config validation rejects it (exact text not recorded).")
                    .fix("--dcp-comm-backend a2a or ag_rs").build();
        }
        int dcp = e.dcp();
        if ("a2a".equals(backend) && dcp <= 1) {
            return v.error("ValueError").message(VllmMessage.DCP_A2A).why("a2a only changes the DCP reduction, and the DCP size is " + dcp + ".")
                    .fix("--dcp N with N > 1, or --dcp-comm-backend ag_rs (default)").build();
        }
        return v.ok().resolved(dcp > 1 ? backend : null).why(dcp > 1 ? backend + " reduces decode attention across the " + dcp + " DCP ranks."
                : backend + " (default): unused while DCP is off.").build();
    }
}
