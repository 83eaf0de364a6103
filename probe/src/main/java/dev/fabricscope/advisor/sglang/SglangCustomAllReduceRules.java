package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.customallreduce.CustomAllReduceSources;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduce;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.CAR_V2_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DISABLE_CUSTOM_AR;
import static dev.fabricscope.advisor.sglang.SglangKnobs.P2P_CHECK;
import static dev.fabricscope.advisor.sglang.SglangKnobs.SKIP_P2P_ENV;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_COMM;

import java.util.List;

/**
 * SGLang's custom all-reduce (the classic kernel, CustomAllReduceV2 in the newest version) and its P2P check
 * knobs. The checks shared with vLLM are in {@link CustomAllReduce}. Reference: backend-rules.md §1.5.
 */
final class SglangCustomAllReduceRules {

    private SglangCustomAllReduceRules() {
    }

    static Verdict customAllReduceVerdict(Eval e) {
        VerdictBuilder v = e.on(DISABLE_CUSTOM_AR, SglangVersion.class).source(CustomAllReduceSources.SGLANG_CAR).when(WHEN_COMM);
        String perCall = " Per call it handles messages under " + ("rocm".equals(e.platform()) ? "16" : "8")
                + " MiB (size a multiple of 16 bytes); larger ones go to NCCL.";
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved("nccl").why("Custom all-reduce is off by request; NCCL (or torch symmetric memory when enabled) all-reduces.").build();
        }
        if ("cpu".equals(e.platform())) {
            return v.fallback().resolved("torch.distributed (gloo)").why("CPU build: sgl_kernel is not importable, so custom all-reduce is silently off.").build();
        }
        if (!e.cuda() && !"rocm".equals(e.platform())) {
            return v.fallback().resolved("torch.distributed").why("The platform is " + e.platformName() + "; the custom all-reduce kernel is not built for it.").build();
        }
        return switch (CustomAllReduce.block(e)) {
            case SPANS_NODES -> warned(v, CustomAllReduceMessage.SPANS_NODES, CustomAllReduceMessage.SPANS_NODES.text())
                    .why(e.span() + " and the " + e.tpPhrase() + " group crosses them; custom all-reduce works within one node only.")
                    .fix("--disable-custom-all-reduce (silences the warning; NCCL is used either way)").build();
            case ONE_RANK -> v.ok().why("TP 1: there is no all-reduce.").build();
            case WORLD_SIZE -> warned(v, CustomAllReduceMessage.WORLD_SIZE, CustomAllReduce.worldSizeMessage(e.tp()))
                    .why("World size " + e.tp() + " (" + e.tpPhrase() + ") is not one of 2, 4, 6, 8.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2/4/6/8").build();
            case PCIE_ONLY -> warned(v, CustomAllReduceMessage.PCIE_ONLY, CustomAllReduceMessage.PCIE_ONLY.text())
                    .why(e.tpPhrase() + " needs every GPU pair " + (e.cuda() ? "NVLink" : "xGMI") + "-connected for more than two GPUs, and " + e.gpus()
                            + " without " + (e.cuda() ? "NVLink" : "a direct xGMI link") + " between every pair.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2").build();
            case NO_P2P -> noP2p(e, v, perCall);
            case NONE -> v.ok().resolved("custom").why(e.tpPhrase() + " on one node with " + (e.tp() == 2 ? "two GPUs" : "every GPU pair NVLink-connected")
                    + (e.cuda() ? "" : " (xGMI on ROCm; the P2P test is CUDA-only)") + ": the custom all-reduce kernel is used." + perCall).build();
        };
    }

    /** Custom all-reduce off with {@code message} ({@code text} as formatted), NCCL instead; the source is the line that warns. */
    private static VerdictBuilder warned(VerdictBuilder v, CustomAllReduceMessage message, String text) {
        return v.fallback().resolved("nccl").message(text).source(message.source());
    }

    /** GPUs without P2P access: SGLang tests P2P only with --enable-p2p-check, else it assumes access and enables the kernel. */
    private static Verdict noP2p(Eval e, VerdictBuilder v, String perCall) {
        if (e.bool(P2P_CHECK)) {
            return warned(v, CustomAllReduceMessage.NO_P2P, CustomAllReduceMessage.NO_P2P.text())
                    .why("--enable-p2p-check runs the P2P test" + (e.envTrue(SKIP_P2P_ENV) ? " (here torch.cuda.can_device_access_peer, as SGLANG_SKIP_P2P_CHECK=1)" : "")
                            + ", and the GPUs cannot access each other (cuDeviceCanAccessPeer = 0).")
                    .fix("--disable-custom-all-reduce (silences the warning)").build();
        }
        return v.ok().resolved("custom").why("The GPUs cannot access each other (cuDeviceCanAccessPeer = 0), but without --enable-p2p-check SGLang skips the P2P test "
                        + "and assumes access is allowed, so custom all-reduce is enabled anyway; what it then does on this machine was not verified." + perCall)
                .fix("--enable-p2p-check (to let SGLang test P2P) or --disable-custom-all-reduce").build();
    }

    static final List<Integer> CAR_V2_WORLD_SIZES = List.of(2, 3, 4, 5, 6, 7, 8);

    /** {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2} (newest): CustomAllReduceV2, world sizes 2–8 with full NVLink (errata §1.5). */
    static Verdict carV2Verdict(Eval e) {
        VerdictBuilder v = e.on(CAR_V2_ENV, SglangVersion.class).source(SglangSources.CAR_V2).when(WHEN_COMM);
        if (!e.envTrue(CAR_V2_ENV)) {
            return v.ok().why("Not set: the classic custom all-reduce (--disable-custom-all-reduce) applies.").build();
        }
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved("nccl").why("--disable-custom-all-reduce turns custom all-reduce off, V2 included.").build();
        }
        if (!e.cuda() || e.tp() <= 1) {
            return v.ok().why(!e.cuda() ? "The platform is " + e.platformName() + "; V2 is modelled on CUDA only." : "TP 1: there is no all-reduce.").build();
        }
        if (e.tpSpansNodes()) {
            return v.outcome(Outcome.UNKNOWN).why(e.span() + " with the " + e.tpPhrase() + " group across them; V2 across nodes depends on "
                    + "SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE, whose code path was not read.").build();
        }
        if (!CAR_V2_WORLD_SIZES.contains(e.tp())) {
            return v.fallback().resolved("nccl").why("World size " + e.tp() + " is outside V2's 2–8 (exact warning not recorded).")
                    .fix("unset SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2, or --tp 2 to 8").build();
        }
        if (!e.allNvlink()) {
            return v.fallback().resolved("nccl").why("V2 needs every GPU pair NVLink-connected, and " + e.gpus() + " without NVLink between every pair (exact warning not recorded).")
                    .fix("unset SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2").build();
        }
        return v.ok().resolved("custom all-reduce v2").why(e.tpPhrase() + " on one node with every GPU pair NVLink-connected: V2 takes world sizes 2 to 8, odd ones included"
                + (CustomAllReduce.WORLD_SIZES.contains(e.tp()) ? "." : ", so it runs where the classic kernel refuses world size " + e.tp() + ".")).build();
    }

    static Verdict p2pCheckVerdict(Eval e) {
        VerdictBuilder v = e.on(P2P_CHECK, SglangVersion.class).source(CustomAllReduceSources.SGLANG_CAR).when(WHEN_COMM);
        if (!e.bool(P2P_CHECK)) {
            return v.ok().why("Off (default): SGLang assumes GPU P2P access is allowed (monkey_patch_p2p_access_check) and does not test it.").build();
        }
        return v.ok().why("On: custom all-reduce runs the real P2P test" + (e.envTrue(SKIP_P2P_ENV) ? " (SGLANG_SKIP_P2P_CHECK=1: torch.cuda.can_device_access_peer instead)" : "")
                + (e.cuda() && !e.p2p() ? "; it fails here, so custom all-reduce is disabled." : ".")).build();
    }

    static Verdict skipP2pVerdict(Eval e) {
        VerdictBuilder v = e.on(SKIP_P2P_ENV, SglangVersion.class).source(CustomAllReduceSources.SGLANG_CAR).when(WHEN_COMM);
        if (!e.envTrue(SKIP_P2P_ENV)) {
            return v.ok().why("Not set: with --enable-p2p-check the real IPC P2P test runs.").build();
        }
        return v.ok().why("Set: with --enable-p2p-check SGLang trusts torch.cuda.can_device_access_peer instead of the IPC test"
                + (e.bool(P2P_CHECK) ? "." : "; without --enable-p2p-check it changes nothing.")).build();
    }

}
