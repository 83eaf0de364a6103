package dev.fabricscope.check;

import java.util.List;

/**
 * GPU memory in use (NVML {@code nvmlDeviceGetMemoryInfo} "used") before and after a check, per GPU.
 * "Before" is read once Fabricscope's own CUDA context is open, so the context's footprint is not counted as
 * the check's; {@code beforeContextBytes} is the reading taken before that, for reference.
 *
 * @param gpus     one entry per GPU the check used
 * @param returned true when every GPU is back to its starting level (within {@link #TOLERANCE_BYTES})
 * @param note     how to read the figures, or why they are missing
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
     * @param beforeContextBytes used before Fabricscope's context was opened, or null
     * @param beforeBytes        used at the start of the check (context open), or null
     * @param afterBytes         used after everything the check allocated was freed, or null
     * @param missing            why a reading is missing, or null
     */
    public record Gpu(int cudaOrdinal, String pci, Long beforeContextBytes, Long beforeBytes, Long afterBytes,
                      String missing) {

        public Long deltaBytes() {
            return beforeBytes == null || afterBytes == null ? null : afterBytes - beforeBytes;
        }

        public boolean returned() {
            Long d = deltaBytes();
            return d != null && Math.abs(d) <= TOLERANCE_BYTES;
        }
    }

    public static MemoryAudit of(List<Gpu> gpus) {
        boolean all = !gpus.isEmpty() && gpus.stream().allMatch(Gpu::returned);
        String note = gpus.isEmpty() ? "no GPU used"
                : all ? "GPU memory back to its starting level on every GPU"
                : "GPU memory NOT back to its starting level on: " + String.join(", ", gpus.stream()
                        .filter(g -> !g.returned()).map(g -> "GPU" + g.cudaOrdinal() + (g.deltaBytes() == null
                                ? " (" + g.missing() + ")" : " (" + signedMib(g.deltaBytes()) + ")")).toList());
        return new MemoryAudit(gpus, all, note);
    }

    public static MemoryAudit none(String why) {
        return new MemoryAudit(List.of(), false, why);
    }

    static String signedMib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%+.1f MiB", bytes / 1048576.0);
    }

    /** One line per GPU for text reports. */
    public List<String> lines() {
        if (gpus.isEmpty()) {
            return List.of("GPU memory: " + note);
        }
        List<String> out = new java.util.ArrayList<>();
        for (Gpu g : gpus) {
            if (g.deltaBytes() == null) {
                out.add("GPU memory, GPU" + g.cudaOrdinal() + ": unknown (" + g.missing() + ")");
            } else {
                out.add(String.format(java.util.Locale.ROOT, "GPU memory, GPU%d: %s used before, %s after (%s)%s",
                        g.cudaOrdinal(), mib(g.beforeBytes()), mib(g.afterBytes()), signedMib(g.deltaBytes()),
                        g.returned() ? ", back to its starting level" : ", NOT back to its starting level"));
            }
        }
        return out;
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
