package dev.fabricscope.check;

import dev.fabricscope.check.api.AllReduceRequest;
import dev.fabricscope.check.api.PreflightRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceMath.DType;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A live check recorded on this machine's GPUs ({@code check NAME --record}) replays, from the trace as its file
 * holds it, to exactly the result the live check gave: the same answers, pointers, readback and times.
 */
@Tag("gpu")
class CheckTracesOnGpuTest {

    @BeforeAll
    static void driver() {
        assertNotNull(CudaOps.open().value(), "needs an NVIDIA driver: " + CudaOps.open().failure());
    }

    static CheckOptions options() {
        return CheckOptions.withTimeout(Duration.ofSeconds(120));
    }

    static void replaysToTheSame(CheckTraces.Recorded rec) throws Exception {
        NativeTrace t = TraceIO.read(TraceIO.write(rec.trace()).getBytes(StandardCharsets.UTF_8), "the recorded trace");
        assertTrue(t.calls().stream().noneMatch(c -> c.call().startsWith("cuMulticastCreate")));
        CheckResult replayed = CheckTraces.replay(t, options(), "the recorded trace");
        assertEquals(Json.write(rec.result()), Json.write(replayed));
    }

    @Test
    void allReduceSmallSizesTwoIterations() throws Exception {
        AllReduceRequest req = new AllReduceRequest(AllReduceRequest.IMPLS, 8, 64 << 10,
                List.of(DType.BF16, DType.FP32), 1, 2, AllReduceRequest.MODES, 1, false, null);
        CheckTraces.Recorded rec = CheckTraces.allReduce(req, options(), List.of("fabricscope", "check", "allreduce",
                "-e", "64K", "-n", "2", "-w", "1", "--record", "(test)"));
        assertNotEquals(CheckStatus.ERROR, rec.result().status(), rec.result().summary());
        assertNotEquals(CheckStatus.TIMED_OUT, rec.result().status(), rec.result().summary());
        assertTrue(rec.trace().calls().stream().anyMatch(c -> c.call().equals("cuMemcpyDtoH_v2")), "the readback is recorded");
        replaysToTheSame(rec);
    }

    @Test
    void preflight() throws Exception {
        CheckTraces.Recorded rec = CheckTraces.preflight(PreflightRequest.defaults(), options(),
                List.of("fabricscope", "check", "preflight", "--record", "(test)"));
        assertNotEquals(CheckStatus.ERROR, rec.result().status(), rec.result().summary());
        replaysToTheSame(rec);
    }
}
