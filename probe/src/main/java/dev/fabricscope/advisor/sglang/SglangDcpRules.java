package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferWorkspace;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DCP_BACKEND;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DCP_REPLICATE_Q;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DCP_SIZE;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_ARGS;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_COMM;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_RESOLVE;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_WARMUP;

/** SGLang's decode context parallel knobs: size, communication backend and Q replication (backend-rules.md §1.4). */
final class SglangDcpRules {

    private SglangDcpRules() {
    }

    private static SglangVersion version(Eval e) {
        return e.version(SglangVersion.class);
    }

    static Verdict dcpSizeVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_SIZE, SglangVersion.class).source(SglangSources.DCP).when(WHEN_ARGS);
        int dcp = e.dcp();
        if (dcp < 1) {
            return v.error("ValueError").message(SglangMessage.DCP1.format(dcp)).why("_handle_dcp_validation check 1: the DCP size must be at least 1.")
                    .fix("--dcp 1 (off) or a size > 1 that divides the attention heads").build();
        }
        if (e.tp() % dcp != 0) {
            return v.error("RuntimeError").message(SglangMessage.TP_DCP.format(e.tp(), dcp)).when(WHEN_COMM).source(SglangSources.PARALLEL_STATE)
                    .why("The argument checks pass, but initialize_model_parallel requires the TP size (" + e.tp() + ") to be a multiple of the DCP size (" + dcp + ").")
                    .fix("--dcp with a divisor of " + e.tp()).build();
        }
        return v.ok().why(dcp == 1 ? "1: decode context parallel is off." : "Decode context parallel over " + dcp + " ranks of the " + e.tpPhrase() + " group.").build();
    }

    static Verdict dcpBackendVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_BACKEND, SglangVersion.class).source(SglangSources.DCP).when(WHEN_ARGS);
        String backend = v.value();
        int dcp = e.dcp();
        String first = dcp < 1 ? " (start-up already stops at the --dcp-size check before this one)" : "";
        if (("a2a".equals(backend) || "fi_a2a".equals(backend)) && dcp <= 1) {
            return v.error("ValueError").message(SglangMessage.DCP2.format(backend, dcp))
                    .why("_handle_dcp_validation check 2: " + backend + " only changes the DCP attention reduction, which needs a DCP size > 1; the DCP size is " + dcp + "." + first)
                    .fix("--dcp N with N > 1, or --dcp-comm-backend ag_rs (default)").build();
        }
        if ("fi_a2a".equals(backend) && !e.cuda()) {
            return v.error("ValueError").message(SglangMessage.DCP3).why("_handle_dcp_validation check 3: the platform is " + e.platformName() + "; fi_a2a needs CUDA.")
                    .fix("--dcp-comm-backend a2a or ag_rs").build();
        }
        if ("fi_a2a".equals(backend)) {
            return fiA2a(e, v);
        }
        if (dcp <= 1) {
            return v.ok().why(backend + " (default): unused while DCP is off.").build();
        }
        if (!v.userSet() && version(e).args().dcpBackendAuto() && e.cuda() && Values.truthy(e.value(DCP_REPLICATE_Q))) {
            // seventh audit F9: _handle_dcp_validation runs before the default pick, on the dataclass default ag_rs
            return v.error("ValueError").message(SglangMessage.DCP4B.format(backend))
                    .why("No --dcp-comm-backend, and --dcp-replicate-q-proj is set: _handle_dcp_validation (check 4) runs on the "
                            + "dataclass default " + backend + " before the model overrides pick a DCP backend, so start-up stops there and "
                            + "no default is chosen.")
                    .fix("--dcp-comm-backend a2a (explicit), or drop --dcp-replicate-q-proj").build();
        }
        if (!v.userSet() && version(e).args().dcpBackendAuto() && e.cuda()) {
            boolean fi = version(e).args().fiA2aSupportCheck()
                    ? e.flashinferInstalled() && e.major() == 10 && (tpPerNode(e) % dcp == 0 || FlashInferWorkspace.fabricSupported(e))
                    : e.flashinferInstalled() && FlashInferWorkspace.DCP_A2A_JIT_MAJORS.contains(e.major()) && FlashInferWorkspace.fabricSupported(e);
            String pick = fi ? "fi_a2a" : "a2a";
            return v.value("chosen by SGLang").outcome(Outcome.UNKNOWN).resolved(pick).message(SglangMessage.DCP_SELECTS.format(dcp, pick)).when(WHEN_RESOLVE)
                    .source(SglangSources.DCP_DEFAULT)
                    .why("No --dcp-comm-backend with DCP " + dcp + ": _dcp_comm_backend_default picks fi_a2a when is_fi_a2a_supported(...), else a2a "
                            + "(older versions keep ag_rs). Its body was not read; from the FlashInfer facts here (" + FlashInferWorkspace.fabricWhy(e)
                            + ") it would pick " + pick + ".")
                    .fix("--dcp-comm-backend " + (fi ? "fi_a2a" : "a2a") + " to make the choice explicit").build();
        }
        return v.ok().resolved(backend).why(backend + " reduces decode attention across the " + dcp + " DCP ranks.").build();
    }

    /** fi_a2a with DCP > 1 on CUDA: argument checks pass; the warm-up needs FlashInfer's kernel and MNNVL fabric. */
    private static Verdict fiA2a(Eval e, VerdictBuilder v) {
        if (version(e).args().fiA2aSupportCheck()) {
            return fiA2aSupported(e, v);
        }
        v.source(SglangSources.FI_A2A).when(WHEN_WARMUP);
        String later = " Later SGLang variants re-implement fi_a2a over NCCL LSA / torch symmetric memory with an all-rank vote, where the fabric requirement may be gone.";
        if (!e.flashinferInstalled() || !FlashInferWorkspace.DCP_A2A_JIT_MAJORS.contains(e.major())) {
            return v.error("ImportError").message(SglangMessage.FI_A2A_IMPORT)
                    .why((e.flashinferInstalled() ? e.gpus() + "; FlashInfer builds its DCP all-to-all module for SM 9/10/11/12 only (how the failure surfaces was not read)"
                            : "FlashInfer is not installed") + ". The argument check (CUDA only) passed.")
                    .fix("--dcp-comm-backend a2a").build();
        }
        if (!FlashInferWorkspace.fabricSupported(e)) {
            return v.error("RuntimeError").message(SglangMessage.FI_A2A_FABRIC)
                    .why("The argument check (CUDA only) passed, but at warm-up is_mnnvl_fabric_supported() is false: " + FlashInferWorkspace.fabricWhy(e) + "." + later)
                    .fix("--dcp-comm-backend a2a (or ag_rs)").build();
        }
        return v.outcome(Outcome.UNKNOWN).resolved("fi_a2a").why("CUDA, SM " + e.sm() + " and MNNVL fabric memory (" + FlashInferWorkspace.fabricWhy(e)
                + "): both checks of init_fi_a2a_workspace pass, and it goes on to FlashInfer's decode_cp_a2a_allocate_mnnvl_workspace and "
                + "decode_cp_a2a_init_workspace, whose checks were not read, so whether the warm-up passes is unknown.").build();
    }

    /** Pipeline parallelism is not among the advisor's inputs: is_fi_a2a_supported is evaluated at pp_size 1. */
    private static final int PP_SIZE = 1;

    /** is_fi_a2a_supported's {@code tp_size // max(nnodes // pp_size, 1)} (comm.py@00ac7105:395). */
    private static int tpPerNode(Eval e) {
        return e.tp() / Math.max(e.nodes() / PP_SIZE, 1);
    }

    /**
     * The newest warm-up (comm.py@00ac7105 init_fi_a2a_workspace): FlashInfer's DCP all-to-all must import (L418), then
     * {@code is_fi_a2a_supported} (L388-396) must hold: SM100, and either {@code is_mnnvl_fabric_device()} or a DCP size
     * dividing the TP ranks per node ({@code tp // max(nnodes // pp, 1)}); else a RuntimeError (L441).
     */
    private static Verdict fiA2aSupported(Eval e, VerdictBuilder v) {
        v.source(SglangSources.FI_A2A_SUPPORTED).when(WHEN_WARMUP);
        if (!e.flashinferInstalled()) {
            return v.error("ImportError").message(SglangMessage.FI_A2A_IMPORT).source(SglangSources.FI_A2A_IMPORT_NEW)
                    .why("FlashInfer is not installed, so flashinfer.comm.dcp_alltoall does not import. The argument check (CUDA only) passed.")
                    .fix("--dcp-comm-backend a2a").build();
        }
        int perNode = tpPerNode(e);
        String message = SglangMessage.FI_A2A_UNSUPPORTED.format(e.dcp(), e.tp(), PP_SIZE, e.nodes());
        if (e.major() != 10) {
            if (e.major() == 9 || e.major() < 9) {
                return v.error("RuntimeError").message(message)
                        .why("is_fi_a2a_supported returns False off SM100 (" + e.gpus() + "), so the warm-up raises.")
                        .fix("--dcp-comm-backend a2a (or ag_rs)").build();
            }
            return v.outcome(Outcome.UNKNOWN)
                    .why("is_fi_a2a_supported first asks get_platform().is_sm100, whose definition was not read; " + e.gpus()
                            + " may or may not count. If it does not, the warm-up raises: '" + message + "'").build();
        }
        if (perNode % e.dcp() == 0) {
            return v.ok().resolved("fi_a2a").why(Slots.fill("SM100, and the DCP size {dcp} divides the {perNode} TP ranks per node "
                    + "(tp {tp} // max(nnodes {nodes} // pp 1, 1)): is_fi_a2a_supported holds without MNNVL fabric memory.",
                    "dcp", e.dcp(), "perNode", perNode, "tp", e.tp(), "nodes", e.nodes())).build();
        }
        return v.outcome(Outcome.UNKNOWN)
                .why(Slots.fill("SM100, but the DCP size {dcp} does not divide the {perNode} TP ranks per node, so "
                        + "is_fi_a2a_supported rests on is_mnnvl_fabric_device(), whose body was not read ({fabric}). Without it "
                        + "the warm-up raises: '{message}'", "dcp", e.dcp(), "perNode", perNode,
                        "fabric", FlashInferWorkspace.fabricWhy(e), "message", message))
                .fix("--dcp-size dividing " + perNode + ", or --dcp-comm-backend a2a").build();
    }

    static Verdict dcpReplicateVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_REPLICATE_Q, SglangVersion.class).source(SglangSources.DCP).when(WHEN_ARGS);
        String val = e.value(DCP_REPLICATE_Q);
        if (val == null && version(e).args().kimiK3Dcp(e)) {
            String backend = e.value(DCP_BACKEND) != null ? e.value(DCP_BACKEND)
                    : version(e).args().dcpBackendAuto() && e.cuda() ? null : DCP_BACKEND.defaultValue();
            if (backend == null) {
                return v.outcome(Outcome.UNKNOWN).source(SglangSources.KIMI_K3_DCP).when(WHEN_RESOLVE)
                        .why("Kimi-K3's override replicates the Q projection when dcp_comm_backend_of(cfg) is a2a or fi_a2a; with no "
                                + "--dcp-comm-backend SGLang's default picks fi_a2a or a2a, but whether the override already sees that "
                                + "pick (dcp_comm_backend_of was not read) is not known.").build();
            }
            if (backend.equals("a2a") || backend.equals("fi_a2a")) {
                return v.value("true (Kimi-K3 override)").ok().resolved("replicated Q projection").message(SglangMessage.KIMI_K3_REPLICATE_Q.text())
                        .source(SglangSources.KIMI_K3_DCP).when(WHEN_RESOLVE)
                        .why(Slots.fill("Unset, and {model} with DCP {dcp} and {backend}: its model override sets it to True, which removes the "
                                + "head-dim Q all-gather.", "model", e.model(), "dcp", e.dcp(), "backend", backend)).build();
            }
        }
        if (val == null || !Values.truthy(val)) {
            return v.ok().why(val == null ? "Unset: the Q projection is not replicated." : "false: the Q projection is not replicated.").build();
        }
        int dcp = e.dcp();
        String backend = e.value(DCP_BACKEND) == null ? DCP_BACKEND.defaultValue() : e.value(DCP_BACKEND);
        if (dcp <= 1) {
            return v.error("ValueError").message(SglangMessage.DCP4A).why("_handle_dcp_validation check 4: the DCP size is " + dcp + ".")
                    .fix("drop --dcp-replicate-q-proj, or --dcp N with N > 1 and --dcp-comm-backend a2a").build();
        }
        if (!"a2a".equals(backend) && !"fi_a2a".equals(backend)) {
            return v.error("ValueError").message(SglangMessage.DCP4B.format(backend)).why("_handle_dcp_validation check 4: it only applies to a2a/fi_a2a.")
                    .fix("--dcp-comm-backend a2a, or drop --dcp-replicate-q-proj").build();
        }
        return v.ok().resolved("replicated Q projection").why("Removes the head-dim Q all-gather of " + backend + " DCP.").build();
    }

}
