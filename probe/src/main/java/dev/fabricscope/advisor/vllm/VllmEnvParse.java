package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import java.util.Map;

/**
 * How vllm/envs.py parses the variables the rules read (fork mmangkad/vllm@156b1266): most are {@code bool(int(...))},
 * so a value such as {@code true} or {@code yes} stops vLLM with a ValueError at the first read of that variable.
 */
final class VllmEnvParse {

    private static final String COMMIT = "156b12667cf5fbb93914f3646acc25dca378b420";

    /** Where each variable's lambda is, in envs.py at {@link #COMMIT}. */
    static final Map<String, SourceRef> PARSED_AT = Map.of(
            "VLLM_BATCH_INVARIANT", envs("575"),
            "VLLM_SKIP_P2P_CHECK", envs("1096"),
            "VLLM_ALLREDUCE_USE_SYMM_MEM", envs("1678-1680"),
            "VLLM_ALLREDUCE_USE_FLASHINFER", envs("1682-1684"),
            "VLLM_USE_NCCL_SYMM_MEM", envs("1791-1793"),
            "VLLM_USE_V2_MODEL_RUNNER", envs("1837-1839"));

    private VllmEnvParse() {
    }

    private static SourceRef envs(String lines) {
        return new SourceRef(VllmSources.FORK_ENVS, COMMIT, VllmSources.ENVS_PATH, lines);
    }

    /** The start-up error of an exported value {@code bool(int(...))} cannot read, else null. */
    static Verdict startupError(Eval e, KnobSpec k) {
        String raw = e.env().get(k.name());
        String error = k.pythonIntError(raw);
        if (error == null) {
            return null;
        }
        return e.on(k, VllmVersion.class).source(PARSED_AT.getOrDefault(k.name(), VllmSources.ENVS_NEW))
                .when("first read of envs." + k.name() + " (start-up)").error("ValueError").message(error)
                .why(k.name() + " is read as bool(int(value)), and int() does not take '" + raw.strip()
                        + "' (only whole numbers: 0 is off, any other number on), so vLLM stops at its first read.")
                .fix(k.name() + "=1 (or 0), or unset it").build();
    }
}
