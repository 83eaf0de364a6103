package dev.fabricscope.advisor;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdvisorInputException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seventh audit F2: a value the advisor refuses still says what the framework itself would do with it. */
class RefusedValueTest {

    private static String refusal(Map<String, String> env) {
        return assertThrows(AdvisorInputException.class, () -> Knobs.env(env)).getMessage();
    }

    @Test
    void ncclParamsSayStrtollReadsTextAsZero() {
        String m = refusal(Map.of("NCCL_NVLS_ENABLE", "garbage"));
        assertTrue(m.startsWith("invalid value 'garbage' for --env NCCL_NVLS_ENABLE: expected 0, 1, 2 (NCCL itself reads it with strtoll"), m);
    }

    @Test
    void frameworksThatStopSaySo() {
        assertTrue(refusal(Map.of("VLLM_FLASHINFER_ALLREDUCE_BACKEND", "garbage")).contains("vLLM itself stops at start-up"));
        assertTrue(refusal(Map.of("SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", "garbage")).contains("EnvBool's ValueError"));
    }
}
