package dev.fabricscope.check;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * All-reduce smoke test: NCCL (one process, all local GPUs) and the one-shot P2P kernel over a size sweep.
 *
 * @param check     {@code allreduce}
 * @param status    PASSED when every result was exact; FAILED on a wrong element or a kernel barrier time-out
 * @param summary   one line
 * @param params    the sweep
 * @param nccl      what NCCL was used, or why it was skipped
 * @param oneShot   the kernel's status, or why it was skipped
 * @param rows      one per implementation, data type and size, in run order
 * @param notes     what the reader should know
 * @param memory    GPU memory before/after
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AllReduceResult(String check, CheckStatus status, String summary, Params params, Impl nccl, Impl oneShot,
                              List<Row> rows, List<String> notes, MemoryAudit memory) implements CheckResult {

    public AllReduceResult {
        rows = rows == null ? List.of() : List.copyOf(rows);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * @param worldSize  ranks (= local GPUs)
     * @param minBytes   first size
     * @param maxBytes   last size
     * @param dtypes     data types run
     * @param warmup     untimed iterations per size
     * @param iters      timed iterations per size
     */
    public record Params(int worldSize, long minBytes, long maxBytes, List<String> dtypes, int warmup, int iters) {
    }

    /**
     * @param name     {@code nccl} or {@code oneshot}
     * @param status   how this implementation's part ended
     * @param detail   library path and version / PTX facts, or the skip reason
     */
    public record Impl(String name, CheckStatus status, String detail) {
    }

    /**
     * One line of the nccl-tests-like table.
     *
     * @param impl          {@code nccl} or {@code oneshot}
     * @param dtype         bf16, fp16, fp32
     * @param bytes         message size per rank
     * @param count         elements
     * @param timeUs        out-of-place: mean time per all-reduce, µs (host clock over the timed iterations, as nccl-tests)
     * @param algbw         out-of-place GB/s
     * @param busbw         out-of-place GB/s
     * @param wrong         out-of-place: elements (over all ranks) that differ from the exact sum
     * @param inPlaceTimeUs in-place (send buffer = receive buffer) time, or null when not run (the one-shot kernel)
     * @param inPlaceAlgbw  in-place GB/s, or null
     * @param inPlaceBusbw  in-place GB/s, or null
     * @param inPlaceWrong  in-place wrong elements, or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String impl, String dtype, long bytes, long count, double timeUs, double algbw, double busbw,
                      long wrong, Double inPlaceTimeUs, Double inPlaceAlgbw, Double inPlaceBusbw, Long inPlaceWrong) {

        public long totalWrong() {
            return wrong + (inPlaceWrong == null ? 0 : inPlaceWrong);
        }
    }
}
