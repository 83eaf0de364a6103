package dev.fabricscope.check.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * GPU memory in use (NVML {@code nvmlDeviceGetMemoryInfo} "used", device-wide) around a check, per GPU: before
 * Fabricscope opened its CUDA context, once the context was open (the check's baseline), after the check freed
 * everything it allocated, and after Fabricscope released its context. The starting level is the first reading;
 * memory is back when the last reading equals it. A primary context that stays active after Fabricscope released it
 * is held by another user in this process — the CUDA runtime inside NCCL keeps it until the process exits.
 *
 * @param gpus     one entry per GPU the check used
 * @param returned true when every GPU is back to its starting level (within {@link #TOLERANCE_BYTES})
 * @param note     one line: where memory is not back, and why when known
 */
public record MemoryAudit(List<Gpu> gpus, boolean returned, String note) {

    /** NVML reports whole MiB on some drivers; allow that much drift. */
    public static final long TOLERANCE_BYTES = 1L << 20;

    public MemoryAudit {
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
    }

    /**
     * @param cudaOrdinal        CUDA device ordinal
     * @param pci                PCI address
     * @param beforeContextBytes used before Fabricscope's context was opened (the starting level), or null
     * @param beforeBytes        used at the start of the check, context open, or null
     * @param afterBytes         used after the check freed its memory, context still open, or null
     * @param afterReleaseBytes  used after Fabricscope released its context, or null
     * @param contextStillActive {@code cuDevicePrimaryCtxGetState} after the release: true = someone else holds it
     * @param missing            why a reading is missing, or null
     * @param afterExitBytes     used after the check's worker process exited, read by the parent (NVML only), or null
     *                           when the check ran in this process
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Gpu(int cudaOrdinal, String pci, Long beforeContextBytes, Long beforeBytes, Long afterBytes,
                      Long afterReleaseBytes, Boolean contextStillActive, String missing, Long afterExitBytes) {

        /** What the check's own allocations left behind, context open: after − before. */
        public Long checkDeltaBytes() {
            return beforeBytes == null || afterBytes == null ? null : afterBytes - beforeBytes;
        }

        /**
         * Against the starting level: after the worker exited (or after release) − before context, or after − before
         * when those are missing.
         */
        public Long deltaBytes() {
            if (beforeContextBytes != null && afterExitBytes != null) {
                return afterExitBytes - beforeContextBytes;
            }
            if (beforeContextBytes != null && afterReleaseBytes != null) {
                return afterReleaseBytes - beforeContextBytes;
            }
            return checkDeltaBytes();
        }

        public boolean returned() {
            Long d = deltaBytes();
            return d != null && Math.abs(d) <= TOLERANCE_BYTES;
        }
    }

    public static MemoryAudit of(List<Gpu> gpus) {
        boolean all = !gpus.isEmpty() && gpus.stream().allMatch(Gpu::returned);
        String note;
        if (gpus.isEmpty()) {
            note = "no GPU used";
        } else if (all) {
            note = "GPU memory back to its starting level on every GPU";
        } else {
            List<String> parts = new ArrayList<>();
            for (Gpu g : gpus) {
                if (g.returned()) {
                    continue;
                }
                parts.add("GPU" + g.cudaOrdinal() + (g.deltaBytes() == null ? " (" + g.missing() + ")"
                        : " (" + signedMib(g.deltaBytes()) + (g.afterExitBytes() == null && Boolean.TRUE.equals(g.contextStillActive())
                        ? ", held by a CUDA context another user in this process keeps active; freed when the process exits"
                        : "") + ")"));
            }
            note = "GPU memory NOT back to its starting level on: " + String.join(", ", parts);
        }
        return new MemoryAudit(gpus, all, note);
    }

    /**
     * This audit with the parent's reading after the worker process exited ({@code usedByPci}: NVML used bytes by PCI
     * address; a GPU absent from it keeps its in-process figures).
     */
    public MemoryAudit withAfterExit(java.util.Map<String, Long> usedByPci) {
        if (gpus.isEmpty() || usedByPci.isEmpty()) {
            return this;
        }
        List<Gpu> out = new ArrayList<>();
        for (Gpu g : gpus) {
            Long v = usedByPci.get(g.pci());
            out.add(v == null ? g : new Gpu(g.cudaOrdinal(), g.pci(), g.beforeContextBytes(), g.beforeBytes(), g.afterBytes(),
                    g.afterReleaseBytes(), g.contextStillActive(), g.missing(), v));
        }
        return of(out);
    }

    public static MemoryAudit none(String why) {
        return new MemoryAudit(List.of(), false, why);
    }

    static String signedMib(long bytes) {
        return String.format(Locale.ROOT, "%+.1f MiB", bytes / 1048576.0);
    }

    static String mib(Long bytes) {
        return bytes == null ? "?" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    /** One line per GPU for text reports. */
    public List<String> lines() {
        if (gpus.isEmpty()) {
            return List.of("GPU memory: " + note);
        }
        List<String> out = new ArrayList<>();
        for (Gpu g : gpus) {
            if (g.deltaBytes() == null) {
                out.add("GPU memory, GPU" + g.cudaOrdinal() + ": unknown (" + g.missing() + ")");
                continue;
            }
            StringBuilder sb = new StringBuilder("GPU memory, GPU" + g.cudaOrdinal() + ": ");
            if (g.beforeContextBytes() != null) {
                sb.append(mib(g.beforeContextBytes())).append(" before, ");
            }
            sb.append(mib(g.beforeBytes())).append(" with Fabricscope's context open, ").append(mib(g.afterBytes()))
                    .append(" after freeing the check's memory");
            if (g.checkDeltaBytes() != null) {
                sb.append(" (").append(signedMib(g.checkDeltaBytes())).append(')');
            }
            if (g.afterReleaseBytes() != null) {
                sb.append(", ").append(mib(g.afterReleaseBytes())).append(" after releasing the context");
                if (Boolean.TRUE.equals(g.contextStillActive())) {
                    sb.append(" (the primary context stays active: another user in the check's process holds it)");
                }
            }
            if (g.afterExitBytes() != null) {
                sb.append(", ").append(mib(g.afterExitBytes())).append(" after the check's process exited");
            }
            sb.append(g.returned() ? " — back to its starting level" : " — NOT back to its starting level ("
                    + signedMib(g.deltaBytes()) + ")");
            out.add(sb.toString());
        }
        return out;
    }
}
