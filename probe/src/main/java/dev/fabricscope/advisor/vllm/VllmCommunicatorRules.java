package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduce;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.nccl.NcclKnobs;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.vllm.VllmKnobs.BATCH_INVARIANT;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DISABLE_CUSTOM_AR;
import static dev.fabricscope.advisor.vllm.VllmKnobs.SKIP_P2P;
import static dev.fabricscope.advisor.vllm.VllmKnobs.USE_FLASHINFER;
import static dev.fabricscope.advisor.vllm.VllmKnobs.USE_SYMM_MEM;
import static dev.fabricscope.advisor.vllm.VllmSources.WHEN_COMM;
import static dev.fabricscope.advisor.vllm.VllmSources.WHEN_CONFIG;

import java.util.List;
import java.util.Map;

/**
 * vLLM's all-reduce communicators: standalone FlashInfer all-reduce, custom all-reduce (the checks shared with SGLang
 * are in {@link CustomAllReduce}), torch symmetric memory, and the knobs that switch them. Reference: backend-rules.md §2.5–2.8.
 */
final class VllmCommunicatorRules {

    static final List<String> SYMM_MEM_CAPS = List.of("9.0", "10.0", "10.3");
    /** World sizes SymmMemCommunicator takes. */
    static final List<Integer> SYMM_MEM_WORLD_SIZES = List.of(2, 4, 6, 8);

    private VllmCommunicatorRules() {
    }

    // ---- standalone FlashInfer all-reduce (§2.5)

    static Verdict standaloneVerdict(Eval e) {
        Verdict unreadable = VllmEnvParse.startupError(e, USE_FLASHINFER);
        if (unreadable != null) {
            return unreadable;
        }
        VerdictBuilder v = e.on(USE_FLASHINFER, VllmVersion.class).source(VllmSources.FIAR).when(WHEN_COMM);
        if (!e.bool(USE_FLASHINFER)) {
            return v.ok().why("0 (default): non-fused all-reduces use custom all-reduce, symmetric memory or NCCL.").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: no TP group with more than one rank.").build();
        }
        if (!e.flashinferInstalled()) {
            return v.fallback().message(VllmMessage.FIAR_UNAVAILABLE).why("FlashInfer's comm module is missing.").fix("install FlashInfer, or drop VLLM_ALLREDUCE_USE_FLASHINFER").build();
        }
        if (!e.cuda()) {
            return v.fallback().message(VllmMessage.FIAR_CUDA).why("The platform is " + e.platformName() + ".").fix("drop VLLM_ALLREDUCE_USE_FLASHINFER").build();
        }
        VllmSizeTable table = VllmSizeTable.FUSION;
        java.util.Optional<Double> mb = table.mb(e.capTimes10(), e.tp());
        if (mb.isEmpty()) {
            return v.fallback().message(VllmMessage.FIAR_WORLD.format(e.tp()))
                    .why((table.worldSizes(e.capTimes10()) == null ? e.gpus() + ": no " + table.name() + " entry for this capability"
                            : e.gpus() + ": no " + table.name() + " entry for world size " + e.tp())
                            + " (the message names the world size even when the capability is the reason; the size table of the fusion pass is assumed).")
                    .fix("drop VLLM_ALLREDUCE_USE_FLASHINFER").build();
        }
        return v.ok().resolved("flashinfer").source(VllmSources.FIAR_USE)
                .why(Slots.fill("FlashInferAllReduce stays enabled and takes each TP all-reduce that should_use_fi_ar accepts: a contiguous "
                        + "2-D CUDA tensor of at most {mb} MB ({table}); other calls go to the next backend (where CudaCommunicator.all_reduce "
                        + "tries it relative to custom all-reduce was not read at a commit: the stored cuda_communicator.py copies predate "
                        + "it). {mnnvl}", "mb", VllmSizeTable.fmt(mb.get()), "table", table.name(),
                        "mnnvl", Slots.fill("With the mnnvl backend newer vLLM copies tune that budget per (capability, world size, nodes) in "
                                + "{tuned}; no stored vllm-project/vllm copy holds its rows ({where} has none), so the {table} value is what "
                                + "the advisor knows.", "tuned", VllmSizeTable.MNNVL.name(), "where", VllmSizeTable.MNNVL.source(),
                                "table", table.name()))).build();
    }

    // ---- custom all-reduce (§2.7) and symmetric memory (§2.8)

    /** What handles the all-reduces custom all-reduce does not: torch symmetric memory when it works, else PyNCCL. */
    private static String nextAfterCustom(Eval e) {
        Verdict s = symmMemVerdict(e);
        return s.outcome() == Outcome.OK && s.resolved() != null ? "symm_mem" : "pynccl";
    }

    static Verdict customAllReduceVerdict(Eval e) {
        VerdictBuilder v = e.on(DISABLE_CUSTOM_AR, VllmVersion.class).source(VllmSources.CAR).when(WHEN_COMM);
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved(nextAfterCustom(e)).why("Custom all-reduce is off by request.").build();
        }
        if (e.envTrue(BATCH_INVARIANT)) {
            return v.fallback().resolved(nextAfterCustom(e)).source(VllmSources.VERIFY).why("VLLM_BATCH_INVARIANT=1 forces --disable-custom-all-reduce (silently).").build();
        }
        if (!e.cuda() && !"rocm".equals(e.platform())) {
            return v.fallback().resolved("torch.distributed (gloo)").message(VllmMessage.CAR_PLATFORM).source(VllmSources.VERIFY)
                    .why("The platform is " + e.platformName() + ", which does not use custom all-reduce (debug log).").build();
        }
        return switch (CustomAllReduce.block(e)) {
            case SPANS_NODES -> v.fallback().resolved(nextAfterCustom(e)).message(CustomAllReduceMessage.SPANS_NODES)
                    .why(e.span() + " and the " + e.tpPhrase() + " group crosses them; custom all-reduce works within one node only.")
                    .fix("--disable-custom-all-reduce (silences the warning)").build();
            case ONE_RANK -> v.ok().why("TP 1: there is no all-reduce.").build();
            case WORLD_SIZE -> v.fallback().resolved(nextAfterCustom(e)).message(CustomAllReduce.worldSizeMessage(e.tp()))
                    .why("World size " + e.tp() + " (" + e.tpPhrase() + ") is not one of 2, 4, 6, 8.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2/4/6/8").build();
            case PCIE_ONLY -> v.fallback().resolved(nextAfterCustom(e)).message(CustomAllReduceMessage.PCIE_ONLY)
                    .why(e.tpPhrase() + " needs every GPU pair " + (e.cuda() ? "NVLink-connected (NVML P2P NVLINK status OK)" : "xGMI-connected")
                            + " for more than two GPUs, and " + e.gpus() + " without " + (e.cuda() ? "NVLink" : "a direct xGMI link") + " between every pair.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2").build();
            case NO_P2P -> v.fallback().resolved(nextAfterCustom(e)).message(CustomAllReduceMessage.NO_P2P).source(VllmSources.CAR_P2P)
                    .why("vLLM always checks P2P (" + (e.bool(SKIP_P2P) ? "VLLM_SKIP_P2P_CHECK=1 (the default): the driver's report" : "a real CUDA IPC test, cached per CUDA_VISIBLE_DEVICES")
                            + "), and the GPUs cannot access each other (cuDeviceCanAccessPeer = 0).")
                    .fix("--disable-custom-all-reduce (silences the warning)").build();
            case NONE -> v.ok().resolved("custom").why(e.tpPhrase() + " on one node" + (e.tp() == 2 ? "" : " with every GPU pair NVLink-connected")
                    + (e.cuda() ? " and P2P access" : " (ROCm skips the P2P test)") + ": the custom all-reduce kernel handles messages up to 8 MiB"
                    + ("symm_mem".equals(nextAfterCustom(e)) ? ", less on SM 9.0/10.0/10.3 because torch symmetric memory takes the larger ones" : "") + ".").build();
        };
    }

    static Verdict symmMemVerdict(Eval e) {
        Verdict unreadable = VllmEnvParse.startupError(e, USE_SYMM_MEM);
        if (unreadable != null) {
            return unreadable;
        }
        VerdictBuilder v = e.on(USE_SYMM_MEM, VllmVersion.class).source(VllmSources.SYMM).when(WHEN_COMM);
        if (!e.bool(USE_SYMM_MEM)) {
            return v.ok().why("0: torch symmetric-memory all-reduce is off.").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        if ("cpu".equals(e.platform())) {
            return v.ok().why("CPU only: vLLM's CUDA communicator is not used.").build();
        }
        String fix = "VLLM_ALLREDUCE_USE_SYMM_MEM=0 (silences the warning)";
        if (e.envTrue(BATCH_INVARIANT)) {
            return v.fallback().resolved("pynccl").why("VLLM_BATCH_INVARIANT=1 disables it silently.").build();
        }
        if (!e.cuda()) {
            return v.fallback().resolved("pynccl").message(VllmMessage.SYMM_UNAVAILABLE).why("The platform is " + e.platformName() + ".").fix(fix).build();
        }
        if (!SYMM_MEM_CAPS.contains(e.sm())) {
            return v.fallback().resolved("pynccl").message(VllmMessage.SYMM_CAPABILITY.format(e.sm()))
                    .why(e.gpus() + ": SYMM_MEM_ALL_REDUCE_MAX_SIZES has 9.0, 10.0 and 10.3 only.").fix(fix).build();
        }
        if (!SYMM_MEM_WORLD_SIZES.contains(e.tp())) {
            return v.fallback().resolved("pynccl").message(VllmMessage.SYMM_WORLD.format(e.tp()))
                    .why(e.tpPhrase() + " is not one of 2, 4, 6, 8.").fix(fix).build();
        }
        boolean disabled = e.envTrue(NcclKnobs.TORCH_SYMM_MEM_DISABLE_MULTICAST);
        if (!e.multicast() || disabled) {
            return v.fallback().resolved("pynccl").message(VllmMessage.SYMM_MULTICAST)
                    .why((disabled ? "TORCH_SYMM_MEM_DISABLE_MULTICAST=1 makes the rendezvous skip the multicast object"
                            : "The GPUs do not report NVLink multicast, so the rendezvous has no multicast pointer (without TORCH_SYMM_MEM_DISABLE_MULTICAST=1 some such "
                            + "hardware instead fails rendezvous with 'CUDA driver error: invalid argument', caught as 'symmetric memory initialization failed'; low confidence)")
                            + ".").fix(fix).build();
        }
        boolean multimem = ("9.0".equals(e.sm()) && List.of(4, 6, 8).contains(e.tp())) || (e.major() == 10 && List.of(6, 8).contains(e.tp()));
        if (e.tpSpansNodes()) { // ninth audit F27: the rendezvous across nodes (PyTorch's side) was not read
            return v.outcome(Outcome.UNKNOWN).why(Slots.fill("{span} and the {tp} group crosses them: whether torch symmetric memory's "
                    + "rendezvous spans the nodes (PyTorch's allocator; vLLM catches a failed rendezvous and falls back) was not read.",
                    "span", e.span(), "tp", e.tpPhrase())).build();
        }
        return v.ok().resolved("symm_mem (" + (multimem ? "multimem" : "two-shot") + ")")
                .why(e.gpus() + ", " + e.tpPhrase() + " and NVLink multicast: torch symmetric memory takes the larger all-reduces with the "
                        + (multimem ? "multimem" : "two-shot") + " kernel (multimem: world size 4/6/8 on 9.0, 6/8 on 10.x)"
                        + (e.tpSpansNodes() ? "; across nodes this was not modelled" : "") + ".").build();
    }

    static Verdict skipP2pVerdict(Eval e) {
        VerdictBuilder v = e.on(SKIP_P2P, VllmVersion.class).source(VllmSources.CAR_P2P).when(WHEN_COMM);
        return v.ok().source(VllmEnvParse.PARSED_AT.get(SKIP_P2P.name())).why(e.bool(SKIP_P2P)
                ? (e.isSet(SKIP_P2P) ? "1" : "Unset (default \"1\")") + ": custom all-reduce trusts the driver's P2P report (cuDeviceCanAccessPeer) "
                        + "instead of the CUDA IPC test."
                : "'" + e.env().get(SKIP_P2P.name()) + "' is not \"1\" (envs.py reads == \"1\"): custom all-reduce runs (or reads the cached "
                        + "result of) a real CUDA IPC P2P test.").build();
    }

    static Verdict batchInvariantVerdict(Eval e) {
        Verdict unreadable = VllmEnvParse.startupError(e, BATCH_INVARIANT);
        if (unreadable != null) {
            return unreadable;
        }
        VerdictBuilder v = e.on(BATCH_INVARIANT, VllmVersion.class).source(VllmSources.VERIFY).when(WHEN_CONFIG);
        return v.ok().why(e.envTrue(BATCH_INVARIANT) ? "Set: custom all-reduce is forced off, symmetric memory disables itself silently and the fusion pass is off by default."
                : "0 (default): no effect on the all-reduce backends.").build();
    }
}
