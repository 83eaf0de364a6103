package dev.fabricscope.nativeapi.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import dev.fabricscope.nativeapi.trace.TraceReplayer;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * How opening libcuda reads when it fails, through either facade. SYNTHETIC answers, following what the build
 * machine without a driver answered (captured/build-machine-no-driver-2026-12-02/trace.json) and cuda.h 13.0's codes.
 */
class CudaLoaderTest {

    static final String NO_FILE = "libcuda.so.1: cannot open shared object file: No such file or directory";
    static final JsonNode NO_ARGS = Json.mapper().createArrayNode();

    static TraceCall call(String name, Integer rc, JsonNode value, NativeAnswer.Fault fault, String detail, Object... args) {
        return new TraceCall(0, "cuda", name, Json.mapper().valueToTree(args), rc, value, fault, detail, null);
    }

    static CudaCheckCalls answering(TraceCall... calls) {
        return new TraceReplayer(new NativeTrace(NativeTrace.FORMAT, 1, null, null, List.of(), null, "SYNTHETIC",
                List.of(calls), null)).proxy(CudaCheckCalls.class, "cuda");
    }

    @Test
    void noLibraryReadsAsTheLoaderSaidForBothFacades() {
        CudaCheckCalls calls = answering(call("load", null, null, NativeAnswer.Fault.LOAD_FAILED, NO_FILE));
        Opened<CudaOps> checks = CudaOps.open(calls);
        Opened<CudaReadings> probe = CudaReader.open(calls);
        assertEquals("libcuda.so.1 not loadable: " + NO_FILE, checks.failure());
        assertEquals(checks.failure(), probe.failure());
        assertFalse(checks.libraryLoaded());
        assertTrue(CudaLoader.noDriver(checks));
    }

    @Test
    void aFailedCuInitNamesItsCode() {
        CudaCheckCalls calls = answering(call("load", 0, TextNode.valueOf("libcuda.so.1"), null, null),
                call("cuInit", 803, null, null, null, 0),
                call("cuGetErrorName", 0, TextNode.valueOf("CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"), null, null, 803));
        Opened<CudaOps> o = CudaOps.open(calls);
        assertEquals("cuInit → CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)", o.failure());
        assertEquals(803, o.initCode());
        assertTrue(o.libraryLoaded());
        assertFalse(CudaLoader.noDriver(o), "a driver is there, it does not match");
    }

    @Test
    void aMissingCuInitIsNoDriverWithTheLoadersWords() {
        CudaCheckCalls calls = answering(call("load", 0, TextNode.valueOf("libcuda.so.1"), null, null),
                call("cuInit", null, null, NativeAnswer.Fault.SYMBOL_MISSING, "undefined symbol: cuInit", 0));
        Opened<CudaOps> o = CudaOps.open(calls);
        assertEquals("cuInit: symbol missing: undefined symbol: cuInit", o.failure());
        assertTrue(CudaLoader.noDriver(o));
    }

    @Test
    void aCheckCallTheTraceLacksThrowsNamingTheCall() {
        CudaCheckCalls calls = answering(call("load", 0, TextNode.valueOf("libcuda.so.1"), null, null),
                call("cuInit", 0, null, null, null, 0));
        CudaOps ops = CudaOps.open(calls).value();
        var e = org.junit.jupiter.api.Assertions.assertThrows(CudaOps.CudaCallException.class, () -> ops.alloc(64));
        assertEquals("cuMemAlloc(64 B) → not recorded in the trace", e.getMessage());
    }

    /** On this machine: without a driver the one loader says why in the loader's own line. */
    @Test
    void thisMachinesLoaderAnswersOneLine() {
        Opened<CudaLoader.Loaded> l = CudaLoader.library();
        Assumptions.assumeFalse(l.isOpen(), "this machine has libcuda");
        assertFalse(l.failure().isBlank());
        assertFalse(l.failure().contains("\n"), l.failure());
        assertTrue(CudaOps.open().failure().startsWith("libcuda.so.1 not loadable: "), CudaOps.open().failure());
    }
}
