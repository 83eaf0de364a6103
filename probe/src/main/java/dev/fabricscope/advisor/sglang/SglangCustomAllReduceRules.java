package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.customallreduce.CustomAllReduceSources;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduce;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.CAR_V2_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DETERMINISTIC;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DISABLE_CUSTOM_AR;
import static dev.fabricscope.advisor.sglang.SglangKnobs.P2P_CHECK;
import static dev.fabricscope.advisor.sglang.SglangKnobs.SKIP_P2P_ENV;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_COMM;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.Slots;
import java.util.List;
import java.util.Optional;

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
        if (deterministicNccl(e)) {
            return deterministicOff(v, "custom all-reduce");
        }
        if (v2Dispatched(e)) {
            Partial v2 = v2Path(e);
            if (!v2Refused(e, v2)) {
                return v.apply(v2).fix(v2Fix(e)).build();
            }
            // #25650: dispatch_custom_allreduce asks can_use_custom_all_reduce_v2 first and returns the classic kernel otherwise
            Verdict classic = classicVerdict(e, v, perCall);
            boolean both = v2.message() != null && classic.message() != null;
            return e.on(DISABLE_CUSTOM_AR, SglangVersion.class).bare().like(classic).source(classic.source()).fix(classic.fix())
                    .message(v2.message() != null ? v2.message() : classic.message())
                    .why(Slots.fill("CustomAllReduceV2's checks refuse this group ({v2}), and this SGLang then falls back to the classic "
                            + "CustomAllreduce (dispatch_custom_allreduce asks can_use_custom_all_reduce_v2 first: {src}). {classic}{also}",
                            "v2", v2.why().replaceAll("\\.$", ""), "src", "mmangkad-dev/sglang@3e255fd4 custom_all_reduce.py:355-366",
                            "classic", classic.why(), "also", both ? " The classic kernel then prints its own warning too: '" + classic.message() + "'." : ""))
                    .build();
        }
        return classicVerdict(e, v, perCall);
    }

    /** Whether V2 refuses the group and this version hands it to the classic kernel (#25650). */
    static boolean v2Refused(Eval e, Partial v2) {
        return e.version(SglangVersion.class).args().v2FallsBackToClassic() && v2.outcome() == Outcome.FALLBACK && "nccl".equals(v2.resolved());
    }

    /** The classic CustomAllreduce's own checks, in its order. */
    private static Verdict classicVerdict(Eval e, VerdictBuilder v, String perCall) {
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

    /**
     * {@code _handle_deterministic_inference} (server_args.py@001067ff:9140-9172): deterministic inference with TP > 1
     * on CUDA declares disable_custom_all_reduce=True and enable_torch_symm_mem=False and sets NCCL_ALGO=allreduce:tree
     * with a pinned channel count (ROCm keeps its one-stage kernel instead).
     */
    static boolean deterministicNccl(Eval e) {
        return e.version(SglangVersion.class).args().deterministicNcclTree() && e.bool(DETERMINISTIC) && e.tp() > 1 && e.cuda();
    }

    /**
     * The verdict of a communicator that deterministic inference turns off ({@code what} names it): a fallback, as when
     * the topology turns it off, since what the knob asks for does not happen (SGLang warns and NCCL all-reduces).
     */
    static Verdict deterministicOff(VerdictBuilder v, String what) {
        return v.fallback().resolved("nccl (allreduce:tree)")
                .fix("none for deterministic runs (by design); drop --enable-deterministic-inference to get " + what + " back").message(SglangMessage.DETERMINISTIC_NCCL.text()).source(SglangSources.DETERMINISTIC_TP)
                .why(Slots.fill("--enable-deterministic-inference with TP > 1 on CUDA: SGLang turns {what} off and NCCL all-reduces with "
                        + "NCCL_ALGO=allreduce:tree and a pinned channel count (an exported NCCL_ALGO is overwritten).", "what", what)).build();
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

    /**
     * {@code dispatch_custom_allreduce} returns CustomAllReduceV2: on CUDA in a version that has it, unless
     * {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2} is exported false (its default is {@code EnvBool(True)},
     * environ.py@0003215c). Reference: backend-rules.md §1.5.
     */
    static boolean v2Dispatched(Eval e) {
        if (!e.version(SglangVersion.class).args().customAllReduceV2() || !e.cuda()) {
            return false;
        }
        String exported = e.env().get(CAR_V2_ENV.name());
        return exported == null || Values.truthy(exported);
    }

    /** {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2} (newest): its own verdict says what the communicator verdict says. */
    static Verdict carV2Verdict(Eval e) {
        VerdictBuilder v = e.on(CAR_V2_ENV, SglangVersion.class).source(SglangSources.ENVIRON_CAR_V2).when(WHEN_COMM);
        if (!e.cuda()) {
            return v.ok().why(Slots.fill("The platform is {platform}; dispatch_custom_allreduce picks V2 on CUDA only.", "platform", e.platformName()))
                    .build();
        }
        if (!v2Dispatched(e)) {
            return v.ok().why("Exported false: dispatch_custom_allreduce returns the classic CustomAllreduce (see --disable-custom-all-reduce).")
                    .build();
        }
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved("nccl").why("--disable-custom-all-reduce turns custom all-reduce off, V2 included.").build();
        }
        if (deterministicNccl(e)) {
            return deterministicOff(v, "custom all-reduce (V2 included)");
        }
        Partial v2 = v2Path(e);
        if (v2Refused(e, v2)) {
            // what the group gets is the classic kernel's answer (its own checks may refuse it too)
            Verdict classic = customAllReduceVerdict(e);
            boolean takes = classic.outcome() == Outcome.OK;
            return v.like(classic).resolved(takes ? "classic CustomAllreduce" : classic.resolved()).source(SglangSources.CAR_V2_FALLBACK)
                    .why(Slots.fill("V2's checks refuse this group ({v2}); this SGLang hands it to the classic CustomAllreduce instead, "
                            + "which {classic} (see --disable-custom-all-reduce).", "v2", v2.why().replaceAll("\\.$", ""),
                            "classic", takes ? "takes it" : "refuses it too")).build();
        }
        return v.apply(v2).fix(v2Fix(e)).build();
    }

    /** The fix for a V2 fallback: the classic kernel where it would take the group, else silencing. */
    private static String v2Fix(Eval e) {
        Partial p = v2Path(e);
        if (p.outcome() != Outcome.FALLBACK) {
            return null;
        }
        boolean classicTakes = !e.tpSpansNodes() && e.p2p() && CustomAllReduce.WORLD_SIZES.contains(e.tp()) && (e.tp() == 2 || e.allNvlink());
        return classicTakes ? CAR_V2_ENV.name() + "=0 (the classic kernel takes this group)" : "--disable-custom-all-reduce (NCCL is used either way)";
    }

    /**
     * CustomAllReduceV2.__init__ (custom_all_reduce_v2.py@50e143a6 L41-49): the shared NVLink helper with the world
     * sizes of {@link CustomAllReduceV2Table}; anything but {@code full_nvlink is True} leaves it disabled, so NCCL
     * all-reduces. Unlike the classic kernel, two GPUs without NVLink are refused too (silently). The helper's checks, in
     * its order (custom_all_reduce_utils.py@0cd72ba4 L401-472): one node, a world size of the map, full NVLink above two
     * GPUs, P2P for every group (no --enable-p2p-check gate), each with its warning.
     */
    static Partial v2Path(Eval e) {
        SourceRef src = SglangSources.CAR_V2;
        if (e.tp() <= 1) {
            return Partial.ok(null, WHEN_COMM, "TP 1: there is no all-reduce.", src);
        }
        List<Integer> sizes = CustomAllReduceV2Table.worldSizes(CustomAllReduceV2Table.Family.OTHER);
        if (e.tpSpansNodes()) {
            String multinode = e.env().get("SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE");
            boolean mayEnable = multinode == null ? e.mnnvlFabric() : Values.truthy(multinode);
            if (mayEnable) {
                return new Partial(Outcome.UNKNOWN, null, null, null, WHEN_COMM, Slots.fill("Not modelled: {span} and the {tp} group crosses "
                        + "them; SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE ({how}) lets V2 span an MNNVL fabric through torch symmetric "
                        + "memory, a path whose code was not read.", "span", e.span(), "tp", e.tpPhrase(),
                        "how", multinode == null ? "auto-enabled on MNNVL-fabric trays in the copies that have it" : "exported " + multinode), src);
            }
            return new Partial(Outcome.FALLBACK, "nccl", null, SglangMessage.CAR_V2_SPANS_NODES.text(), WHEN_COMM, Slots.fill("{span} and the "
                    + "{tp} group crosses them{mnnvl}; V2 stays within one node, so NCCL all-reduces (which class prints the warning depends "
                    + "on the copy: some force V2 off with more than one node).", "span", e.span(), "tp", e.tpPhrase(),
                    "mnnvl", multinode == null ? " without an MNNVL fabric" : " and SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE=" + multinode),
                    SglangMessage.CAR_V2_SPANS_NODES.source());
        }
        if (!sizes.contains(e.tp())) {
            return new Partial(Outcome.FALLBACK, "nccl", null, SglangMessage.CAR_V2_WORLD_SIZE.format(e.tp(), Values.pyList(sizes)), WHEN_COMM,
                    Slots.fill("World size {ws} is not a key of V2's THRESHOLD_2_SHOT_MAP ({sizes}).", "ws", e.tp(), "sizes", sizes),
                    SglangMessage.CAR_V2_WORLD_SIZE.source());
        }
        String gpus = e.gpus() + " without NVLink between every pair";
        if (!e.allNvlink() && e.tp() > 2) {
            return new Partial(Outcome.FALLBACK, "nccl", null, SglangMessage.CAR_V2_PCIE_ONLY.text(), WHEN_COMM,
                    Slots.fill("{tp} needs every GPU pair NVLink-connected for more than two GPUs, and {gpus}.", "tp", e.tpPhrase(), "gpus", gpus),
                    SglangMessage.CAR_V2_PCIE_ONLY.source());
        }
        if (!e.p2p()) {
            return new Partial(Outcome.FALLBACK, "nccl", null, SglangMessage.CAR_V2_P2P.text(), WHEN_COMM, Slots.fill("Not every GPU "
                    + "pair reports peer access (cuDeviceCanAccessPeer = 0). The helper V2 shares tests P2P for every group, whether or not "
                    + "--enable-p2p-check is given ({how}), so V2 stays disabled and NCCL all-reduces.", "how", e.envTrue(SKIP_P2P_ENV)
                            ? "SGLANG_SKIP_P2P_CHECK=1 only swaps the test for torch.cuda.can_device_access_peer" : "gpu_p2p_access_check"),
                    SglangMessage.CAR_V2_P2P.source());
        }
        if (!e.allNvlink()) {
            return new Partial(Outcome.FALLBACK, "nccl", null, null, WHEN_COMM, Slots.fill("{gpus}: V2 runs only when the helper reports "
                    + "full NVLink (full_nvlink is True), so on two PCIe GPUs it stays disabled without a warning and NCCL all-reduces; "
                    + "the classic kernel would take them.", "gpus", gpus), src);
        }
        return Partial.ok("custom all-reduce v2", WHEN_COMM, Slots.fill("{tp} on one node with every GPU pair NVLink-connected: "
                + "CustomAllReduceV2 (the default dispatch) takes world sizes {sizes}{odd}.{perCall}", "tp", e.tpPhrase(), "sizes", sizes,
                "odd", CustomAllReduce.WORLD_SIZES.contains(e.tp()) ? "" : ", so it runs where the classic kernel refuses world size " + e.tp(),
                "perCall", v2PerCall(e)), src);
    }

    /** What V2 does per message, from its threshold map (custom_all_reduce_v2.py@50e143a6 L160-185). */
    static String v2PerCall(Eval e) {
        Optional<CustomAllReduceV2Table.Family> family = CustomAllReduceV2Table.family(e.sm());
        Optional<CustomAllReduceV2Table.Row> row = family.flatMap(f -> CustomAllReduceV2Table.row(f, e.tp()));
        String max = CustomAllReduceV2Table.size(CustomAllReduceV2Table.MAX_PULL_BYTES);
        if (row.isEmpty()) {
            return Slots.fill(" Per call it takes messages up to {max} (size a multiple of 16 bytes), larger ones go to NCCL; which "
                    + "threshold map SM {sm} gets (is_sm100_supported) was not read.", "max", max, "sm", e.sm());
        }
        CustomAllReduceV2Table.Row r = row.get();
        return Slots.fill(" Per call ({family} map, world size {ws}): one-shot push up to {push}, one-shot pull up to {pull}, two-shot pull "
                        + "above, up to {max} (size a multiple of 16 bytes); larger ones go to NCCL.", "family",
                r.family() == CustomAllReduceV2Table.Family.SM100 ? "SM100" : "non-SM100", "ws", r.worldSize(),
                "push", CustomAllReduceV2Table.size(r.oneShotPushBytes()), "pull", CustomAllReduceV2Table.size(r.oneShotPullBytes()), "max", max);
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
            String raw = e.env().get(SKIP_P2P_ENV.name());
            return v.ok().why((raw == null ? "Not set" : "'" + raw + "' is not \"1\" (custom_all_reduce_utils.py reads == \"1\")")
                    + ": with --enable-p2p-check the real IPC P2P test runs.").build();
        }
        return v.ok().why("Set: with --enable-p2p-check SGLang trusts torch.cuda.can_device_access_peer instead of the IPC test"
                + (e.bool(P2P_CHECK) ? "." : "; without --enable-p2p-check it changes nothing.")).build();
    }

}
