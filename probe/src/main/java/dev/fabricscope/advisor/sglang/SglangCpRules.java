package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ATTN_CP_SIZE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.CP_STRATEGY;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DP_SIZE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ENABLE_PREFILL_CP;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_RESOLVE;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SGLang's prefill and attention context parallel arguments, as {@code handle_context_parallelism} checks them at
 * argument resolution ({@code parallel_hook.py@008b79d2} L30-99): the model checks, the missing strategy, then the
 * attention-CP divisibility asserts. A failed check stops start-up, so every CP knob the user set reports it.
 * Reference: backend-rules.md §1.4.
 */
final class SglangCpRules {

    static final String DSV32 = "DeepseekV32ForCausalLM";
    static final List<String> MIMO_V2 = List.of("MiMoV2ForCausalLM", "MiMoV2FlashForCausalLM");
    private static final String AITER_FUSION = "enable-aiter-allreduce-fusion";

    /** The first check that fails: its exception class and message, and why. */
    record Failure(String errorClass, String message, String why, dev.fabricscope.advisor.api.SourceRef source) {
    }

    private SglangCpRules() {
    }

    /** One verdict per CP knob the user set (none when none is set). */
    static List<Verdict> verdicts(Eval e) {
        List<Verdict> out = new ArrayList<>();
        for (KnobSpec k : List.of(ENABLE_PREFILL_CP, CP_STRATEGY, ATTN_CP_SIZE, SglangKnobs.MOE_DP_SIZE)) {
            if (e.isSet(k)) {
                out.add(verdict(e, k));
            }
        }
        return out;
    }

    static Verdict verdict(Eval e, KnobSpec k) {
        VerdictBuilder v = e.on(k, SglangVersion.class).source(SglangSources.CP_HOOK).when(WHEN_RESOLVE);
        if (!e.version(SglangVersion.class).args().prefillCpChecks()) {
            return v.outcome(Outcome.UNKNOWN).source(e.version(SglangVersion.class).args().source())
                    .why("Not modelled: this version's context-parallel checks (seed server_args.py) were not read.").build();
        }
        Optional<Failure> failure = firstFailure(e);
        if (failure.isPresent()) {
            Failure f = failure.get();
            return v.error(f.errorClass()).message(f.message()).source(f.source()).why(f.why()).fix(fix(e, f)).build();
        }
        return passed(e, k, v);
    }

    private static String fix(Eval e, Failure f) {
        if (f.message().equals(SglangMessage.CP_DSV32_ZIGZAG.text())) {
            return "--cp-strategy interleave";
        }
        if (f.message().equals(SglangMessage.CP_MIMO_ZIGZAG.text())) {
            return "--cp-strategy zigzag";
        }
        if (f.message().equals(SglangMessage.CP_STRATEGY_REQUIRED.text())) {
            return "--cp-strategy zigzag or --cp-strategy interleave";
        }
        if (f.message().startsWith("Aiter allreduce fusion")) {
            return "drop --enable-aiter-allreduce-fusion (ROCm only; refused with any --attn-cp-size or --moe-dp-size above 1)";
        }
        if (f.message().contains("moe_dp_size")) {
            return "--moe-dp-size 1, or one that divides TP " + e.tp() + " and equals --attn-cp-size";
        }
        return "--attn-cp-size with a divisor of " + e.tp() / Math.max(1, e.intValue(DP_SIZE));
    }

    /** The checks of handle_context_parallelism in upstream order; empty when all pass. */
    static Optional<Failure> firstFailure(Eval e) {
        boolean prefill = e.bool(ENABLE_PREFILL_CP);
        String strategy = e.value(CP_STRATEGY);
        String model = e.model();
        if (prefill && DSV32.equals(model) && "zigzag".equals(strategy)) {
            return Optional.of(new Failure("ValueError", SglangMessage.CP_DSV32_ZIGZAG.text(),
                    "DeepSeek V3.2 with --enable-prefill-cp takes --cp-strategy interleave only.", SglangMessage.CP_DSV32_ZIGZAG.source()));
        }
        if (prefill && model != null && MIMO_V2.contains(model) && !"zigzag".equals(strategy)) {
            return Optional.of(new Failure("ValueError", SglangMessage.CP_MIMO_ZIGZAG.text(),
                    Slots.fill("{model} with --enable-prefill-cp takes --cp-strategy zigzag only; it is {strategy}.", "model", model,
                            "strategy", strategy == null ? "unset" : strategy), SglangMessage.CP_MIMO_ZIGZAG.source()));
        }
        if (prefill && strategy == null) {
            return Optional.of(new Failure("ValueError", SglangMessage.CP_STRATEGY_REQUIRED.text(),
                    "--enable-prefill-cp without --cp-strategy (it has no default)" + (model == null
                            ? "; a MiMo V2 model would stop one check earlier with its own message (no --model given)." : "."),
                    SglangMessage.CP_STRATEGY_REQUIRED.source()));
        }
        int acp = e.intValue(ATTN_CP_SIZE);
        if (acp > 1) {
            int tp = e.tp();
            int dp = e.intValue(DP_SIZE);
            if (tp % acp != 0) {
                return Optional.of(new Failure("AssertionError", SglangMessage.CP_TP_ATTN.text(),
                        Slots.fill("TP {tp} (the world size here) is not a multiple of --attn-cp-size {acp}.", "tp", tp, "acp", acp),
                        SglangMessage.CP_TP_ATTN.source()));
            }
            if (tp % (dp * acp) != 0) {
                return Optional.of(new Failure("AssertionError", SglangMessage.CP_TP_DP_ATTN.text(),
                        Slots.fill("TP {tp} is not a multiple of --dp-size {dp} × --attn-cp-size {acp} = {product}.", "tp", tp, "dp", dp,
                                "acp", acp, "product", dp * acp), SglangMessage.CP_TP_DP_ATTN.source()));
            }
            if (Values.truthy(e.value(SglangKnobs.ROCM_ONLY.stream().filter(k -> k.name().equals(AITER_FUSION)).findFirst().orElseThrow()))) {
                return Optional.of(new Failure("AssertionError", "Aiter allreduce fusion is not supported with context parallelism",
                        "--enable-aiter-allreduce-fusion with --attn-cp-size " + acp + ".", SglangSources.cpLine("80-82")));
            }
        }
        return moeDpFailure(e, acp);
    }

    /** The MoE data-parallel asserts of handle_context_parallelism (parallel_hook.py@008b79d2:84-106), in their order. */
    private static Optional<Failure> moeDpFailure(Eval e, int acp) {
        if (e.bool(ENABLE_PREFILL_CP) || "DeepseekV4ForCausalLM".equals(e.model())) {
            // model overrides (overrides.py@9be3044b:641-642, 703-704; deepseek_v4_hook.py:174) may rewrite attn_cp_size and ep_size
            return Optional.empty();
        }
        int moe = e.intValue(SglangKnobs.MOE_DP_SIZE);
        int tp = e.tp();
        KnobSpec epKnob = SglangKnobs.KNOWN.stream().filter(k -> k.name().equals("ep-size")).findFirst().orElseThrow();
        String epRaw = e.value(epKnob);
        int ep = epRaw == null ? 1 : Integer.parseInt(epRaw);
        if (moe > 1) {
            if (tp % moe != 0) {
                return Optional.of(assertion("tp_size must be divisible by moe_dp_size", Slots.fill("TP {tp} (the world size here) is not "
                        + "a multiple of --moe-dp-size {moe}.", "tp", tp, "moe", moe), "86-88"));
            }
            if (ep * moe > tp) {
                return Optional.of(assertion("ep_size * moe_dp_size must be less than or equal to tp_size", Slots.fill("--ep-size {ep} × "
                        + "--moe-dp-size {moe} = {product} exceeds TP {tp}.", "ep", ep, "moe", moe, "product", ep * moe, "tp", tp), "89-91"));
            }
            // L92 (pp_size == 1) and L99-101 (no aiter fusion) are not modelled: no SGLang pp-size knob here
            if (ep > 1 && ep * moe != tp) {
                return Optional.of(assertion("ep_size * moe_dp_size must be equal to tp_size", Slots.fill("--ep-size {ep} × --moe-dp-size "
                        + "{moe} = {product}, not TP {tp}.", "ep", ep, "moe", moe, "product", ep * moe, "tp", tp), "94-97"));
            }
        }
        if (Math.max(acp, 1) != moe && moe != 1) {
            return Optional.of(assertion("attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1", Slots.fill("--attn-cp-size "
                    + "{acp} and --moe-dp-size {moe} differ, which handle_context_parallelism allows only with --moe-dp-size 1.", "acp",
                    Math.max(acp, 1), "moe", moe), "103-106"));
        }
        return Optional.empty();
    }

    private static Failure assertion(String message, String why, String lines) {
        return new Failure("AssertionError", message, why, SglangSources.cpLine(lines));
    }

    /** Every check passed: what is still not read decides, so nothing here claims ok beyond "off". */
    private static Verdict passed(Eval e, KnobSpec k, VerdictBuilder v) {
        boolean prefill = e.bool(ENABLE_PREFILL_CP);
        String model = e.model();
        if (k == SglangKnobs.MOE_DP_SIZE) {
            int moe = e.intValue(SglangKnobs.MOE_DP_SIZE);
            return moe <= 1 ? v.ok().why("1: MoE data parallel is off.").build()
                    : v.outcome(Outcome.UNKNOWN).why(Slots.fill("--moe-dp-size {moe} passes handle_context_parallelism's checks; not modelled: "
                    + "how MoE data parallel splits the MoE all-reduce groups.", "moe", moe)).build();
        }
        if (k == ATTN_CP_SIZE) {
            int acp = e.intValue(ATTN_CP_SIZE);
            if (acp <= 1) {
                return v.ok().why("1: attention context parallel is off.").build();
            }
            return v.outcome(Outcome.UNKNOWN).why(Slots.fill("--attn-cp-size {acp} divides TP {tp} and TP / --dp-size; not modelled: how "
                    + "attention context parallel splits the all-reduce groups.", "acp", acp, "tp", e.tp())).build();
        }
        if (!prefill) {
            return (k == ENABLE_PREFILL_CP ? v.ok().why("false: prefill context parallel is off.")
                    : v.outcome(Outcome.UNKNOWN).why("Not modelled: --cp-strategy without --enable-prefill-cp goes to init_cp_strategy, "
                    + "whose body was not read.")).build();
        }
        if (model == null) {
            return v.outcome(Outcome.UNKNOWN).why(Slots.fill("The argument checks depend on the model: DeepSeek V3.2 refuses zigzag and "
                    + "MiMo V2 needs it; no --model was given, so with --cp-strategy {strategy} the outcome is not known.",
                    "strategy", e.value(CP_STRATEGY))).build();
        }
        return v.outcome(Outcome.UNKNOWN).why(Slots.fill("handle_context_parallelism's checks pass for {model} with --cp-strategy {strategy}; "
                + "not modelled: validate_prefill_cp_platform and the model's prefill-CP support, which were not read.",
                "model", model, "strategy", e.value(CP_STRATEGY))).build();
    }

}
