package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.nccl.NcclKnobs;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.TORCH_SYMM_MEM;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_COMM;

import java.util.List;

/** SGLang's {@code --enable-torch-symm-mem}: TorchSymmMemCommunicator (backend-rules.md §1.6). */
final class SglangTorchSymmMemRules {

    /** World sizes in the communicator's size table (majors 9 and 10). */
    static final List<Integer> WORLD_SIZES = List.of(2, 4, 6, 8);

    /**
     * Why the older sets answer unknown: the caught-exception text once quoted for SGLang is rtp-llm's, and no SGLang
     * caller that catches the constructor's exception was found (issue 23).
     */
    static final String NOT_READ_CALLER = "Not modelled: what this version's caller does with the failure was not read. The text "
            + "once quoted for it ('Failed to initialize TorchSymmMemCommunicator: {e}') is alibaba/rtp-llm's "
            + "(rtp_llm/models_py/distributed/symm_mem.py@9de22b6d, init_symm_mem_communicator), not SGLang's; the SGLang "
            + "GroupCoordinator.__init__ copies in the stored index construct the communicator without a try, and other "
            + "stored torch_symm_mem.py copies disable it instead of raising.";

    private SglangTorchSymmMemRules() {
    }

    private static SglangVersion version(Eval e) {
        return e.version(SglangVersion.class);
    }

    /**
     * Why the constructor fails.
     *
     * @param error the exception text ({@link SglangMessage}), or "" for the KeyError of a major outside the table
     */
    private record Failure(String error, String why) {
    }

    static Verdict torchSymmMemVerdict(Eval e) {
        VerdictBuilder v = e.on(TORCH_SYMM_MEM, SglangVersion.class).source(SglangSources.TSM).when(WHEN_COMM);
        if (!e.bool(TORCH_SYMM_MEM)) {
            return v.ok().why("Off (default).").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        if (SglangCustomAllReduceRules.deterministicNccl(e)) {
            return SglangCustomAllReduceRules.deterministicOff(v, "--enable-torch-symm-mem");
        }
        Failure f = failure(e);
        if (f == null) {
            boolean multimem = (e.major() == 9 && List.of(4, 6, 8).contains(e.tp())) || (e.major() == 10 && List.of(6, 8).contains(e.tp()));
            return v.ok().resolved("torch symmetric memory (" + (multimem ? "multimem" : "two-shot") + ")")
                    .why(e.gpus() + ", " + e.tpPhrase() + " and NVLink multicast: the communicator works, using "
                            + (multimem ? "the multimem kernel" : "two-shot (multimem is for world size 4/6/8 on SM90, 6/8 on SM100)") + ".").build();
        }
        String text = f.error().isEmpty() ? null : f.error();
        if (!version(e).torchSymmMemFailuresWarn()) {
            return v.outcome(Outcome.UNKNOWN).why(f.why() + (text == null ? "" : " The constructor raises '" + text + "'.") + " " + NOT_READ_CALLER)
                    .fix("drop --enable-torch-symm-mem").build();
        }
        // eighth audit F22: torch_symm_mem.py@9be3044b:67-120 warns and returns with self.disabled = True; the group skips it
        return v.fallback().resolved("nccl").source(SglangSources.TSM_FORK).message(warned(e, f))
                .why(f.why() + " The constructor logs that warning and leaves the communicator disabled (no exception), so the "
                        + "all-reduces take the next backend.").fix("drop --enable-torch-symm-mem (silences the warning)").build();
    }

    /** What the fork head prints: its .get() makes a major outside the table the capability warning; off CUDA nothing. */
    private static String warned(Eval e, Failure f) {
        if (!e.cuda()) {
            return null;
        }
        if (f.error().isEmpty()) {
            return SglangMessage.TSM_CAPABILITY.format(e.major());
        }
        return f.error();
    }

    /** The constructor's checks in order; null when the communicator works. */
    private static Failure failure(Eval e) {
        if (!e.cuda()) {
            return new Failure(SglangMessage.TSM_UNAVAILABLE.text(),
                    "The platform is " + e.platformName() + "; torch symmetric memory is CUDA-only (the message continues beyond the recorded text).");
        }
        if (e.major() < 9) {
            return new Failure(SglangMessage.TSM_CAPABILITY.format(e.major()), e.gpus() + "; torch symmetric memory all-reduce needs major 9 or newer.");
        }
        if (e.major() > 10) {
            return new Failure("", e.gpus() + "; the size table has majors 9 and 10 only, so the lookup fails (a KeyError; low confidence) and the communicator is unavailable.");
        }
        if (!WORLD_SIZES.contains(e.tp())) {
            return new Failure(SglangMessage.TSM_WORLD.format(e.tp()), e.tpPhrase() + " is not in the size table (2, 4, 6, 8).");
        }
        boolean disabled = e.envTrue(NcclKnobs.TORCH_SYMM_MEM_DISABLE_MULTICAST);
        if (!e.multicast() || disabled) {
            return new Failure(SglangMessage.TSM_MULTICAST.text(), (disabled ? "TORCH_SYMM_MEM_DISABLE_MULTICAST=1 makes the rendezvous skip the multicast object"
                    : "The GPUs do not report NVLink multicast") + ", so handle.multicast_ptr is 0.");
        }
        return null;
    }
}
