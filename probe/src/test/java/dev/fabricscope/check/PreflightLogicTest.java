package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.PreflightRequest;
import dev.fabricscope.check.api.PreflightResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreflightLogicTest {

    static PreflightResult.Gpu gpu(boolean ok, String error) {
        return new PreflightResult.Gpu(0, "0000:00:06.0", "GPU", "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR", "r", List.of(),
                List.of(), List.of(), ok, error, List.of(), null, null);
    }

    @Test
    void multicastFailureIsSaidInSglangsWords() {
        String error = "cuMulticastGetGranularity failed for FlashInfer workspace preflight: "
                + PreflightCheck.sglangErrorText("CUDA_ERROR_NOT_SUPPORTED", 801);
        assertEquals("SGLang would log: FlashInfer workspace preflight probe failed (cuMulticastGetGranularity failed for "
                        + "FlashInfer workspace preflight: <CUresult.CUDA_ERROR_NOT_SUPPORTED: 801>). Skipping allreduce fusion.",
                PreflightCheck.conclusion(List.of(gpu(false, error)), false, 2));
    }

    @Test
    void worldSizeOneSaysSglangSkipsThePreflight() {
        String c = PreflightCheck.conclusion(List.of(gpu(false, "x")), false, 1);
        assertTrue(c.startsWith("At world size 1 SGLang skips the preflight"), c);
        assertTrue(c.endsWith("SGLang would log: FlashInfer workspace preflight probe failed (x). Skipping allreduce fusion."), c);
    }

    @Test
    void createFailureOnlyFailsTheVote() {
        assertEquals("SGLang would log: FlashInfer workspace preflight: cuMemCreate probe failed on at least one rank. "
                        + "Skipping allreduce fusion to avoid cross-rank desync inside the flashinfer collective.",
                PreflightCheck.conclusion(List.of(gpu(false, null)), false, 8));
        assertEquals("SGLang would create the FlashInfer workspace (preflight vote PROCEED).",
                PreflightCheck.conclusion(List.of(gpu(true, null)), true, 8));
    }

    @Test
    void posixOverrideMirrorsSglang() {
        assertNull(PreflightCheck.posixOverride(Map.of(), "amd64", 9));
        assertNull(PreflightCheck.posixOverride(Map.of(), "aarch64", 9));
        assertTrue(PreflightCheck.posixOverride(Map.of(), "aarch64", 10).contains("aarch64"));
        // an explicit value wins over the platform rule, both ways
        assertNull(PreflightCheck.posixOverride(Map.of("SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT", "0"), "aarch64", 10));
        assertTrue(PreflightCheck.posixOverride(Map.of("SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT", "true"), "amd64", 9)
                .contains("SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT"));
    }

    @Test
    void requestValidation() {
        assertEquals(new PreflightRequest(null, 2048, 4096, "bf16"), PreflightRequest.defaults());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PreflightRequest(0, 2048, 4096, "bf16"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PreflightRequest(2, 2048, 4096, "int8"));
    }
}
