package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.trace.TraceIO;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Checks recorded on the real nvidia-h200 (one H200, pass-through VM, driver 580.159.04; 2026-12-02, with
 * {@code check allreduce --record} and {@code check preflight --record}; nvidia-smi of the same call beside them)
 * replay here, with no GPU, to the very results the live runs printed.
 */
class CapturedCheckTracesTest {

    static final Path DIR = Path.of("src/test/resources/captured/h200-passthrough-1gpu-2026-12-02-check-seams");

    @Test
    void theRecordedAllReduceReplaysToItsLiveResult() throws Exception {
        byte[] trace;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(DIR.resolve("allreduce.trace.json.gz")))) {
            trace = in.readAllBytes();
        }
        var replayed = CheckTraces.replay(TraceIO.read(trace, "captured"), CheckTraceReplayTest.options(), "captured");
        assertEquals(CheckStatus.PASSED, replayed.status(), replayed.summary());
        assertEquals(Json.mapper().readTree(Files.readString(DIR.resolve("allreduce-recorded.json"))),
                Json.mapper().readTree(Json.write(replayed)));
    }

    @Test
    void theRecordedPreflightReplaysToItsLiveResult() throws Exception {
        var replayed = CheckTraces.replay(TraceIO.read(Files.readAllBytes(DIR.resolve("preflight.trace.json")), "captured"),
                CheckTraceReplayTest.options(), "captured");
        assertEquals(Json.mapper().readTree(Files.readString(DIR.resolve("preflight-recorded.json"))),
                Json.mapper().readTree(Json.write(replayed)));
    }
}
