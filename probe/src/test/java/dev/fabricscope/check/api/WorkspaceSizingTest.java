package dev.fabricscope.check.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sizes SGLang's preflight asks the driver for, against numbers worked out by hand from upstream's
 * {@code _flashinfer_trtllm_workspace_allocation_sizes} (sglang flashinfer_comm_fusion.py).
 */
class WorkspaceSizingTest {

    @Test
    void maxCommSizeIsTwoGibMinusTwoMib() {
        // 2147483647 & ~((1 << 21) - 1)
        assertEquals(2_145_386_496L, WorkspaceSizing.MAX_COMM_SIZE);
    }

    @Test
    void ceilAlignRoundsUpToMultiples() {
        assertEquals(0, WorkspaceSizing.ceilAlign(0, 2048));
        assertEquals(2048, WorkspaceSizing.ceilAlign(1, 2048));
        assertEquals(2048, WorkspaceSizing.ceilAlign(2048, 2048));
        assertEquals(4096, WorkspaceSizing.ceilAlign(2049, 2048));
        assertThrows(IllegalArgumentException.class, () -> WorkspaceSizing.ceilAlign(1, 0));
    }

    @Test
    void sglangTestCaseTp8DeepHidden() {
        // SGLang's own multi-process preflight test: world_size=8, max_token_num=2048, hidden_dim=12288, bf16
        List<WorkspaceSizing.Buffer> b = WorkspaceSizing.buffers(8, 2048, 12288, "bf16");
        assertEquals(new WorkspaceSizing.Buffer("buffer", 402_653_184L, 402_653_184L), b.get(0)); // 8*2048*12288*2
        assertEquals(new WorkspaceSizing.Buffer("flag", 8192L, 2_097_152L), b.get(1));            // 8*256*4 → 2 MiB
        assertEquals(new WorkspaceSizing.Buffer("lamport", 1_207_959_552L, 1_207_959_552L), b.get(2)); // 3 × 384 MiB
        long gran = 2_097_152L;
        assertEquals(404_750_336L, WorkspaceSizing.withAllocationGranularity(b.get(0).roundedBytes(), gran)); // +2048 → +2 MiB
        assertEquals(4_194_304L, WorkspaceSizing.withAllocationGranularity(b.get(1).roundedBytes(), gran));
        assertEquals(1_210_056_704L, WorkspaceSizing.withAllocationGranularity(b.get(2).roundedBytes(), gran));
        long mc = 536_870_912L; // a 512 MiB multicast granularity
        assertEquals(536_870_912L, WorkspaceSizing.withMulticastGranularity(404_750_336L, mc));
        assertEquals(536_870_912L, WorkspaceSizing.withMulticastGranularity(4_194_304L, mc));
        assertEquals(1_610_612_736L, WorkspaceSizing.withMulticastGranularity(1_210_056_704L, mc));
    }

    @Test
    void lamportIsCappedAtMaxCommSize() {
        // 8*16384*7168*4 = 3 758 096 384 > cap → 3 × 2 145 386 496
        List<WorkspaceSizing.Buffer> b = WorkspaceSizing.buffers(8, 16384, 7168, "fp32");
        assertEquals(1_879_048_192L, b.get(0).logicalBytes()); // the plain buffer always counts 2 bytes
        assertEquals(6_436_159_488L, b.get(2).logicalBytes());
        assertEquals(6_436_159_488L, b.get(2).roundedBytes());
    }

    @Test
    void defaultsAtWorldSizeOne() {
        List<WorkspaceSizing.Buffer> b = WorkspaceSizing.buffers(1, 2048, 4096, "bf16");
        assertEquals(16_777_216L, b.get(0).roundedBytes());
        assertEquals(1024L, b.get(1).logicalBytes());
        assertEquals(2_097_152L, b.get(1).roundedBytes());
        assertEquals(50_331_648L, b.get(2).roundedBytes());
    }

    @Test
    void elementSizeIsFourOnlyForFp32() {
        assertEquals(4, WorkspaceSizing.elementSize("fp32"));
        assertEquals(2, WorkspaceSizing.elementSize("bf16"));
        assertEquals(2, WorkspaceSizing.elementSize("fp16"));
        // fp16 and bf16 size the lamport buffer alike; fp32 doubles it
        assertEquals(3L * 1 * 100 * 7 * 4, WorkspaceSizing.buffers(1, 100, 7, "fp32").get(2).logicalBytes());
        assertEquals(3L * 1 * 100 * 7 * 2, WorkspaceSizing.buffers(1, 100, 7, "fp16").get(2).logicalBytes());
    }

    @Test
    void rejectsNonPositiveInputs() {
        assertThrows(IllegalArgumentException.class, () -> WorkspaceSizing.buffers(0, 1, 1, "bf16"));
        assertThrows(IllegalArgumentException.class, () -> WorkspaceSizing.buffers(1, 0, 1, "bf16"));
    }
}
