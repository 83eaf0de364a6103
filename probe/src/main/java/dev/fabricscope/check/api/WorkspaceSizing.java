package dev.fabricscope.check.api;

import java.util.List;

/**
 * The FlashInfer TRT-LLM workspace sizes SGLang's preflight probes, computed exactly as upstream:
 * {@code sgl-project/sglang python/sglang/srt/layers/flashinfer_comm_fusion.py},
 * {@code _flashinfer_trtllm_workspace_allocation_sizes} (introduced by SGLang PR #24172; stored copies read,
 * commit not recorded — the same function in the traceback-matched and the newer copy):
 * <pre>
 * elem_size = 4 if dtype == torch.float32 else 2
 * buffer_size = world_size * max_token_num * hidden_dim * 2
 * flag_size = world_size * 256 * 4
 * max_comm_size = 2147483647 &amp; ~((1 &lt;&lt; 21) - 1)
 * lamport_buffer_size = min(world_size * max_token_num * hidden_dim * elem_size, max_comm_size) * 3
 * each of the three rounded up to 2 MiB, then
 * allocation_size = ceil_align(ceil_align(buffer + 2048, alloc_granularity), mc_granularity)
 * </pre>
 */
public final class WorkspaceSizing {

    public static final long TWO_MIB = 1L << 21;
    public static final long SIGNAL_PAD_SIZE = 2048;
    public static final long MAX_COMM_SIZE = 2147483647L & ~((1L << 21) - 1);

    private WorkspaceSizing() {
    }

    /** {@code ceil_align(x, a)}: x rounded up to a multiple of a. */
    public static long ceilAlign(long x, long a) {
        if (a <= 0) {
            throw new IllegalArgumentException("alignment must be positive: " + a);
        }
        return Math.addExact(x, a - 1) / a * a;
    }

    /** Bytes per element as SGLang counts them: 4 for fp32, 2 for everything else. */
    public static int elementSize(String dtype) {
        return "fp32".equals(dtype) ? 4 : 2;
    }

    /**
     * @param name         {@code buffer}, {@code flag} or {@code lamport}
     * @param logicalBytes before rounding
     * @param roundedBytes rounded up to 2 MiB (what SymmDeviceMemory is asked for)
     */
    public record Buffer(String name, long logicalBytes, long roundedBytes) {
    }

    /** The three logical buffers, each rounded to 2 MiB. */
    public static List<Buffer> buffers(int worldSize, long maxTokens, long hidden, String dtype) {
        if (worldSize < 1 || maxTokens < 1 || hidden < 1) {
            throw new IllegalArgumentException("world size, max tokens and hidden size must be positive");
        }
        long buffer = Math.multiplyExact(Math.multiplyExact(Math.multiplyExact((long) worldSize, maxTokens), hidden), 2L);
        long flag = (long) worldSize * 256 * 4;
        long lamportComm = Math.min(Math.multiplyExact(Math.multiplyExact((long) worldSize * maxTokens, hidden),
                (long) elementSize(dtype)), MAX_COMM_SIZE);
        long lamport = lamportComm * 3;
        return List.of(new Buffer("buffer", buffer, ceilAlign(buffer, TWO_MIB)),
                new Buffer("flag", flag, ceilAlign(flag, TWO_MIB)),
                new Buffer("lamport", lamport, ceilAlign(lamport, TWO_MIB)));
    }

    /** Size after the allocation granularity: {@code ceil_align(buffer + 2048, alloc_granularity)}. */
    public static long withAllocationGranularity(long roundedBuffer, long allocationGranularity) {
        return ceilAlign(roundedBuffer + SIGNAL_PAD_SIZE, allocationGranularity);
    }

    /** Final size: rounded again to the multicast granularity. */
    public static long withMulticastGranularity(long allocationSize, long multicastGranularity) {
        return ceilAlign(allocationSize, multicastGranularity);
    }
}
