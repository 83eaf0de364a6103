package dev.fabricscope.check;

import dev.fabricscope.check.api.AllReduceRequest;
import dev.fabricscope.check.api.P2pRequest;
import dev.fabricscope.check.api.PreflightRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.check.api.AllReduceMath.DType;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import dev.fabricscope.nativeapi.trace.TraceIO;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A check recorded over a SYNTHETIC simulated GPU ({@link SimulatedGpus}) replays to the same result, from the trace
 * as its file holds it; a trace whose answers differ gives another result; the bundled synthetic trace replays to the
 * result recorded in it.
 */
class CheckTraceReplayTest {

    static final Path BUNDLED = Path.of("src/test/resources/synthetic/check-allreduce-ws1.trace.json");

    static CheckOptions options() {
        return CheckOptions.withTimeout(Duration.ofSeconds(60));
    }

    static AllReduceRequest smallAllReduce() {
        return new AllReduceRequest(AllReduceRequest.IMPLS, 8, 64, List.of(DType.BF16, DType.FP32), 1, 2,
                AllReduceRequest.MODES, 1, false, null);
    }

    static CheckTraces.Recorded recordAllReduce(SimulatedGpus gpus) {
        AllReduceRequest req = smallAllReduce();
        return CheckTraces.record(AllReduceCheck.NAME, req, null, List.of("fabricscope", "check", "allreduce", "-e", "64",
                "-n", "2", "-w", "1"), gpus.backends(), b -> AllReduceCheck.run(req, options(), b));
    }

    /** The trace as written to its file and read back. */
    static NativeTrace throughFile(NativeTrace t) throws Exception {
        return TraceIO.read(TraceIO.write(t).getBytes(StandardCharsets.UTF_8), "the written trace");
    }

    @Test
    void recordedAllReduceReplaysToTheSameResult() throws Exception {
        SimulatedGpus gpus = new SimulatedGpus();
        CheckTraces.Recorded rec = recordAllReduce(gpus);
        AllReduceResult live = (AllReduceResult) rec.result();
        assertEquals(CheckStatus.PASSED, live.status(), live.summary());
        assertEquals(3 * 2 * 2 * 4, live.rows().size(), live.summary()); // impls × dtypes × modes × sizes 8…64 B
        assertTrue(live.rows().stream().allMatch(r -> r.totalWrong() == 0), live.summary());
        CheckResult replayed = CheckTraces.replay(throughFile(rec.trace()), options(), "synthetic");
        assertEquals(Json.write(live), Json.write(replayed));
        assertEquals(Json.write(live), Json.write(CheckTraces.recordedResult(throughFile(rec.trace()), "synthetic")));
    }

    @Test
    void theTraceHoldsOpaqueHandlesAndTheReadbackNotTheInputs() throws Exception {
        SimulatedGpus gpus = new SimulatedGpus();
        NativeTrace t = recordAllReduce(gpus).trace();
        List<TraceCall> calls = t.calls();
        assertTrue(calls.stream().noneMatch(c -> c.call().startsWith("cuMulticastCreate")));
        assertTrue(calls.stream().filter(c -> c.call().equals("cuMemcpyHtoD_v2"))
                .allMatch(c -> c.args().get(1).asText().equals("host data")), "inputs are not recorded");
        assertTrue(calls.stream().anyMatch(c -> c.call().equals("cuMemcpyDtoH_v2") && c.value() != null),
                "the correctness readback is");
        assertTrue(calls.stream().anyMatch(c -> c.call().equals("cuStreamQuery") && c.count() > 1),
                "repeated polls are folded");
        assertTrue(calls.stream().anyMatch(c -> c.lib().equals("host") && c.call().equals("nanoTime")), "the host times are recorded");
        // the polls the trace stands for are those the simulated driver answered
        long recordedPolls = calls.stream().filter(c -> c.call().equals("cuStreamQuery")).mapToLong(TraceCall::count).sum();
        assertEquals(gpus.cudaCalls.stream().filter("cuStreamQuery"::equals).count(), recordedPolls);
    }

    @Test
    void aTraceWithOtherAnswersGivesAnotherResult() throws Exception {
        NativeTrace t = recordAllReduce(new SimulatedGpus()).trace();
        // every readback answers zeros: NCCL and the kernels then "computed" wrong sums
        List<TraceCall> changed = new ArrayList<>();
        for (TraceCall c : t.calls()) {
            if (c.call().equals("cuMemcpyDtoH_v2") && c.value() != null) {
                int n = c.args().get(2).asInt();
                c = new TraceCall(c.seq(), c.lib(), c.call(), c.args(), c.rc(),
                        TextNode.valueOf(Base64.getEncoder().encodeToString(new byte[n])), c.fault(), c.detail(), c.us(), c.times());
            }
            changed.add(c);
        }
        NativeTrace other = new NativeTrace(t.format(), t.traceVersion(), t.toolVersion(), t.recordedAt(), t.commandLine(),
                t.durationMs(), t.source(), changed, t.snapshot(), t.redaction(), t.check());
        AllReduceResult replayed = (AllReduceResult) CheckTraces.replay(throughFile(other), options(), "changed");
        assertEquals(CheckStatus.FAILED, replayed.status(), replayed.summary());
        assertTrue(replayed.rows().stream().allMatch(r -> r.totalWrong() > 0), replayed.summary());
    }

    @Test
    void aTraceMissingItsClockGivesAnErrorNotInventedTimes() throws Exception {
        NativeTrace t = recordAllReduce(new SimulatedGpus()).trace();
        List<TraceCall> noClock = t.calls().stream().filter(c -> !(c.lib().equals("host") && c.call().equals("nanoTime"))).toList();
        NativeTrace other = new NativeTrace(t.format(), t.traceVersion(), t.toolVersion(), t.recordedAt(), t.commandLine(),
                t.durationMs(), t.source(), noClock, t.snapshot(), t.redaction(), t.check());
        AllReduceResult replayed = (AllReduceResult) CheckTraces.replay(other, options(), "no clock");
        assertNotEquals(CheckStatus.PASSED, replayed.status(), replayed.summary());
        assertTrue(replayed.rows().isEmpty(), "no row without a recorded time: " + replayed.rows());
        assertTrue(Json.write(replayed).contains("not recorded in the trace"), replayed.summary());
    }

    @Test
    void recordedPreflightReplaysToTheSameResult() throws Exception {
        PreflightRequest req = new PreflightRequest(8, 2048, 4096, "bf16");
        CheckTraces.Recorded rec = CheckTraces.record(PreflightCheck.NAME, req, null, List.of("fabricscope", "check",
                "preflight", "--world-size", "8"), new SimulatedGpus().backends(), b -> PreflightCheck.run(req, options(), b));
        PreflightResult live = (PreflightResult) rec.result();
        // the simulated GPU answers as the H200 VM did: the multicast query is not supported, the vote says SKIP
        assertEquals(CheckStatus.FAILED, live.status(), live.summary());
        PreflightResult.Gpu g = live.gpus().get(0);
        assertEquals("cuMulticastGetGranularity failed for FlashInfer workspace preflight: "
                + "<CUresult.CUDA_ERROR_NOT_SUPPORTED: 801>", g.probeError());
        assertFalse(g.fabric().exportable());
        assertTrue(rec.trace().calls().stream().noneMatch(c -> c.call().startsWith("cuMulticastCreate")));
        assertEquals(Json.write(live), Json.write(CheckTraces.replay(throughFile(rec.trace()), options(), "synthetic")));
    }

    @Test
    void recordedP2pReplaysToTheSameResult() throws Exception {
        P2pRequest req = new P2pRequest(1 << 20, 2, 1000);
        CheckTraces.Recorded rec = CheckTraces.record(P2pCheck.NAME, req, null, List.of("fabricscope", "check", "p2p"),
                new SimulatedGpus().backends(), b -> P2pCheck.run(req, null, options(), b));
        assertEquals(CheckStatus.PASSED, rec.result().status(), rec.result().summary());
        assertEquals(Json.write(rec.result()), Json.write(CheckTraces.replay(throughFile(rec.trace()), options(), "synthetic")));
    }

    @Test
    void theRecordedHostsSettingsAreReplayedNotThisOnes() throws Exception {
        SimulatedGpus gpus = new SimulatedGpus();
        gpus.env = java.util.Map.of(PreflightCheck.FORCE_POSIX_FD, "1");
        PreflightRequest req = new PreflightRequest(8, 2048, 4096, "bf16");
        CheckTraces.Recorded rec = CheckTraces.record(PreflightCheck.NAME, req, null, List.of("fabricscope"), gpus.backends(),
                b -> PreflightCheck.run(req, options(), b));
        PreflightResult live = (PreflightResult) rec.result();
        assertEquals(PreflightCheck.FORCE_POSIX_FD + "=1 forces POSIX FD", live.gpus().get(0).handleTypeReason());
        assertTrue(System.getenv(PreflightCheck.FORCE_POSIX_FD) == null, "this test's machine has the variable unset");
        assertEquals(Json.write(live), Json.write(CheckTraces.replay(throughFile(rec.trace()), options(), "synthetic")));
    }

    @Test
    void aProbeTraceOrAnUnknownCheckIsOneLine() throws Exception {
        NativeTrace t = recordAllReduce(new SimulatedGpus()).trace();
        NativeTrace probe = new NativeTrace(t.format(), t.traceVersion(), t.toolVersion(), t.recordedAt(), t.commandLine(),
                t.durationMs(), t.source(), t.calls(), null, null, null);
        var e = assertThrows(TraceIO.TraceFormatException.class, () -> CheckTraces.replay(probe, options(), "p.json"));
        assertEquals("p.json: a probe's trace, not a check's (replay it with 'fabricscope probe --replay')", e.getMessage());
        ObjectNode about = t.check().deepCopy();
        about.put("name", "nvbandwidth\u001b[2J");
        NativeTrace unknown = new NativeTrace(t.format(), t.traceVersion(), t.toolVersion(), t.recordedAt(), t.commandLine(),
                t.durationMs(), t.source(), t.calls(), null, null, about);
        e = assertThrows(TraceIO.TraceFormatException.class, () -> CheckTraces.replay(unknown, options(), "u.json"));
        assertFalse(e.getMessage().contains("\u001b"), e.getMessage());
    }

    /** The bundled SYNTHETIC trace (written by {@link #writeBundledSyntheticTrace}) replays to the result recorded in it. */
    @Test
    void bundledSyntheticTraceReplaysToItsRecordedResult() throws Exception {
        NativeTrace t = TraceIO.read(Files.readAllBytes(BUNDLED), BUNDLED.toString());
        assertTrue(t.source().startsWith("SYNTHETIC"), t.source());
        CheckResult recorded = CheckTraces.recordedResult(t, "bundled");
        assertEquals(CheckStatus.PASSED, recorded.status());
        assertEquals(Json.write(recorded), Json.write(CheckTraces.replay(t, options(), "bundled")));
    }

    /** Writes the bundled synthetic trace again: {@code mvn -pl probe test -Dtest=CheckTraceReplayTest -Dfabricscope.writeSynthetic=true}. */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "fabricscope.writeSynthetic", matches = "true")
    void writeBundledSyntheticTrace() throws Exception {
        NativeTrace t = recordAllReduce(new SimulatedGpus()).trace();
        NativeTrace labelled = new NativeTrace(t.format(), t.traceVersion(), t.toolVersion(), "2026-12-02T00:00:00Z",
                t.commandLine(), t.durationMs(), "SYNTHETIC: check allreduce at world size 1 over one simulated GPU "
                + "(probe/src/test/java/dev/fabricscope/check/SimulatedGpus.java: cuda.h 13.0, nccl.h 2.27, the H200 VM's "
                + "captured answers); not a recording of a machine", t.calls(), null, null, t.check());
        Files.createDirectories(BUNDLED.getParent());
        Files.writeString(BUNDLED, TraceIO.write(labelled));
    }
}
