package dev.fabricscope.check.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * All-reduce check: NCCL (one process, all local GPUs) and Fabricscope's one-shot and two-shot P2P kernels over a
 * size sweep, plain launches and CUDA-graph replays, out of place and in place, timed as nccl-tests times.
 *
 * @param check     {@code allreduce}
 * @param status    PASSED when every result was exact; FAILED on a wrong element or a kernel barrier time-out
 * @param summary   one line
 * @param params    the sweep
 * @param nccl      what NCCL was used, or why it was skipped
 * @param oneShot   the one-shot kernel's status, or why it was skipped
 * @param twoShot   the two-shot kernel's status, or why it was skipped (null in results older than round 2)
 * @param rows      one per implementation, mode, data type and size, in run order
 * @param notes     what the reader should know
 * @param memory    GPU memory before/after
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AllReduceResult(String check, CheckStatus status, String summary, Params params, Impl nccl, Impl oneShot,
                              Impl twoShot, List<Row> rows, List<String> notes, MemoryAudit memory) implements CheckResult {

    /** The check's name, as {@code fabricscope check NAME} and a report's entries name it. */
    public static final String CHECK = "allreduce";

    public AllReduceResult {
        rows = rows == null ? List.of() : List.copyOf(rows);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** The implementations that were asked for, in report order. */
    @JsonIgnore
    public List<Impl> impls() {
        List<Impl> out = new ArrayList<>();
        for (Impl i : new Impl[] {nccl, oneShot, twoShot}) {
            if (i != null) {
                out.add(i);
            }
        }
        return out;
    }

    @Override
    public AllReduceResult withMemory(MemoryAudit m) {
        return new AllReduceResult(check, status, summary, params, nccl, oneShot, twoShot, rows, notes, m);
    }

    /**
     * @param worldSize     ranks (= local GPUs)
     * @param minBytes      first size
     * @param maxBytes      last size
     * @param dtypes        data types run
     * @param warmup        untimed iterations per size (nccl-tests -w)
     * @param iters         timed iterations per size (nccl-tests -n)
     * @param modes         {@code plain} and/or {@code graph} (nccl-tests -G: {@code iters} operations captured once)
     * @param graphLaunches graph replays timed per size in graph mode (nccl-tests -G N)
     * @param hostThreads   {@code group} (one thread, one group call per operation, as nccl-tests -g) or
     *                      {@code per-gpu} (one host thread per GPU, as nccl-tests -t)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Params(int worldSize, long minBytes, long maxBytes, List<String> dtypes, int warmup, int iters,
                         List<String> modes, Integer graphLaunches, String hostThreads) {
    }

    /**
     * @param name     {@code nccl}, {@code oneshot} or {@code twoshot}
     * @param status   how this implementation's part ended
     * @param detail   library path and version / PTX facts, or the skip reason
     */
    public record Impl(String name, CheckStatus status, String detail) {
    }

    /**
     * One line of the nccl-tests-like table.
     *
     * @param impl               {@code nccl}, {@code oneshot} or {@code twoshot}
     * @param dtype              bf16, fp16, fp32
     * @param bytes              message size per rank
     * @param count              elements
     * @param timeUs             out of place: host clock per operation over the timed iterations (as nccl-tests), µs
     * @param algbw              out-of-place GB/s
     * @param busbw              out-of-place GB/s
     * @param wrong              out of place: elements (over all ranks) that differ from the exact sum
     * @param inPlaceTimeUs      in place (send buffer = receive buffer), or null when not run
     * @param inPlaceAlgbw       in-place GB/s, or null
     * @param inPlaceBusbw       in-place GB/s, or null
     * @param inPlaceWrong       in-place wrong elements, or null
     * @param mode               {@code plain} or {@code graph}; null (plain) in results older than round 2
     * @param eventTimeUs        out of place: CUDA events around the timed iterations, slowest GPU, per operation, µs
     * @param inPlaceEventTimeUs in place, CUDA events, or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String impl, String dtype, long bytes, long count, double timeUs, double algbw, double busbw,
                      long wrong, Double inPlaceTimeUs, Double inPlaceAlgbw, Double inPlaceBusbw, Long inPlaceWrong,
                      String mode, Double eventTimeUs, Double inPlaceEventTimeUs) {

        public long totalWrong() {
            return wrong + (inPlaceWrong == null ? 0 : inPlaceWrong);
        }

        /** {@code plain} or {@code graph}. */
        public String modeName() {
            return mode == null ? "plain" : mode;
        }
    }
}
