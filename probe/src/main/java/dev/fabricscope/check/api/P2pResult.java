package dev.fabricscope.check.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Peer-to-peer matrix: access, measured copy bandwidth and latency per GPU pair (and device-local figures per GPU),
 * next to the theoretical bandwidth from the machine snapshot. Bandwidths in GB/s (1e9 bytes/s).
 *
 * @param check   {@code p2p}
 * @param status  PASSED when every measurement ran; FAILED when a pair reports access but a copy fails
 * @param summary one line
 * @param params  sizes and counts
 * @param local   per GPU: device-local copy
 * @param pairs   per ordered pair (src → dst)
 * @param notes   how the figures were measured
 * @param memory  GPU memory before/after
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record P2pResult(String check, CheckStatus status, String summary, Params params, List<Local> local,
                        List<Pair> pairs, List<String> notes, MemoryAudit memory) implements CheckResult {

    /** The check's name, as {@code fabricscope check NAME} and a report's entries name it. */
    public static final String CHECK = "p2p";

    @Override
    public P2pResult withMemory(MemoryAudit m) {
        return new P2pResult(check, status, summary, params, local, pairs, notes, m);
    }

    public P2pResult {
        local = local == null ? List.of() : List.copyOf(local);
        pairs = pairs == null ? List.of() : List.copyOf(pairs);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * @param bufferBytes   bytes per copy
     * @param repetitions   timed copies per measurement (after 2 warm-up copies)
     * @param latencyHops   dependent loads per latency measurement
     * @param latencyStride bytes between ring nodes
     * @param latencySpan   bytes the ring spans
     */
    public record Params(long bufferBytes, int repetitions, long latencyHops, int latencyStride, long latencySpan) {
    }

    /**
     * @param gpu                    CUDA ordinal
     * @param name                   device name
     * @param copyGBps               device-to-device copy within the GPU, bytes copied per second
     * @param readWriteGBps          the same counting bytes read and written (2×), comparable with the DRAM peak
     * @param theoreticalGBps        DRAM peak, or null
     * @param theoreticalSource      where the peak comes from, or why it is unknown
     * @param latencyNs              pointer-chase latency to its own memory, ns per dependent load
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Local(int gpu, String name, Double copyGBps, Double readWriteGBps, Double theoreticalGBps,
                        String theoreticalSource, Double latencyNs) {
    }

    /**
     * @param src                   reading/writing GPU (the copy is issued on src's stream and pushes to dst)
     * @param dst                   peer
     * @param access                {@code cuDeviceCanAccessPeer(src, dst)}
     * @param uniGBps               src → dst copy alone
     * @param bidiGBps              src → dst and dst → src at the same time, both directions summed
     * @param latencyNs             src's SM chasing pointers in dst's memory, ns per load
     * @param theoreticalUniGBps    the link's nominal bandwidth per direction, or null
     * @param theoreticalSource     link and figures used, or why unknown
     * @param note                  why something was not measured, or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Pair(int src, int dst, boolean access, Double uniGBps, Double bidiGBps, Double latencyNs,
                       Double theoreticalUniGBps, String theoreticalSource, String note) {
    }
}
