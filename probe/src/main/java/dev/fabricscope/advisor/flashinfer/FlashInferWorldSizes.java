package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.SourceRef;
import java.util.List;
import java.util.Optional;

/**
 * FlashInfer's world-size tables, one row per all-reduce path: the rank counts its kernels (or its workspace check)
 * accept, verbatim from upstream. The rules ({@link FlashInferWorkspace}), their tests and the table in
 * docs/backend-rules.md §3.2 all read these rows ({@link #markdown()}).
 *
 * @param backend what the row is for: a fusion-workspace backend, or {@code pcie_ipc} (the PCIe IPC all-reduce)
 * @param sizes   the world sizes upstream accepts
 * @param message what upstream raises for any other size ({@code %d}: the world size, where upstream formats it)
 * @param when    when that happens
 */
public record FlashInferWorldSizes(String backend, List<Integer> sizes, String message, String when, SourceRef source) {

    static final String FB28 = "fb28d7242b3506a2348265962041acc1fb56cca4";

    public static final FlashInferWorldSizes TRTLLM = new FlashInferWorldSizes("trtllm", List.of(2, 4, 8, 16),
            "allreduce_fusion_kernel: unsupported ranks number! Supported ranks: 2, 4, 8, 16.", FlashInferSources.WHEN_LAUNCH,
            new SourceRef(FlashInferSources.REPO, FB28, "include/flashinfer/comm/trtllm_allreduce_fusion.cuh", "1929"));
    public static final FlashInferWorldSizes MNNVL = new FlashInferWorldSizes("mnnvl", List.of(2, 4, 8, 16, 32, 64),
            "MNNVL AllReduce: unsupported world_size %d. Supported sizes: {2, 4, 8, 16, 32, 64}", FlashInferSources.WHEN_LAUNCH,
            new SourceRef(FlashInferSources.REPO, FB28, "include/flashinfer/comm/trtllm_mnnvl_allreduce.cuh", "1251"));
    public static final FlashInferWorldSizes PCIE_IPC = new FlashInferWorldSizes("pcie_ipc", List.of(2, 4, 8),
            "pcie ipc workspace failed while validating arguments: {0: 'world size %d unsupported; expected one of (2, 4, 8)', …}",
            FlashInferSources.WHEN_PCIE_IPC, new SourceRef(FlashInferSources.REPO, FB28, "flashinfer/comm/pcie_ipc_ar.py", "221"));

    public static final List<FlashInferWorldSizes> ROWS = List.of(TRTLLM, MNNVL, PCIE_IPC);

    public static Optional<FlashInferWorldSizes> of(String backend) {
        return ROWS.stream().filter(r -> r.backend.equals(backend)).findFirst();
    }

    public boolean accepts(int worldSize) {
        return sizes.contains(worldSize);
    }

    /** Upstream's message for an unsupported world size. */
    public String messageFor(int worldSize) {
        return message.contains("%d") ? String.format(message, worldSize) : message;
    }

    /** The sizes as prose: "2, 4, 8 and 16". */
    public String sizesPhrase() {
        List<String> s = sizes.stream().map(String::valueOf).toList();
        return String.join(", ", s.subList(0, s.size() - 1)) + " and " + s.get(s.size() - 1);
    }

    /** The table as docs/backend-rules.md §3.2 holds it (BackendRulesDocTest keeps the two in step). */
    public static String markdown() {
        StringBuilder b = new StringBuilder("| path | world sizes | otherwise | when | source |\n|---|---|---|---|---|\n");
        for (FlashInferWorldSizes r : ROWS) {
            b.append("| `").append(r.backend).append("` | ").append(r.sizes.stream().map(String::valueOf).reduce((x, y) -> x + ", " + y).orElse(""))
                    .append(" | `").append(r.message).append("` | ").append(r.when).append(" | `").append(r.source).append("` |\n");
        }
        return b.toString();
    }
}
