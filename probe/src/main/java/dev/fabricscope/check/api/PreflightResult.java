package dev.fabricscope.check.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * SGLang's FlashInfer workspace preflight, run on every local GPU, plus the fabric-handle export check.
 *
 * @param check        {@code preflight}
 * @param status       PASSED when SGLang's vote would be PROCEED, FAILED when it would be SKIP; SKIPPED at world size 1,
 *                     where SGLang does not run the preflight (the summary says so first)
 * @param summary      one line
 * @param params       the inputs of the sizing
 * @param gpus         per GPU (= per rank): steps, sizes, outcome
 * @param vote         {@code PROCEED} or {@code SKIP} (the AND over ranks), or null when nothing ran
 * @param frameworkLog the lines SGLang would log, in SGLang's words
 * @param conclusion   the final sentence
 * @param notes        what the reader should know (world size 1, sources)
 * @param memory       GPU memory before/after
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PreflightResult(String check, CheckStatus status, String summary, Params params, List<Gpu> gpus,
                              String vote, List<String> frameworkLog, String conclusion, List<String> notes,
                              MemoryAudit memory) implements CheckResult {

    /** The check's name, as {@code fabricscope check NAME} and a report's entries name it. */
    public static final String CHECK = "preflight";

    /** The summary's first words at world size 1. */
    public static final String NOT_APPLICABLE =
            "not applicable at world size 1 (SGLang skips the preflight and fusion there)";

    @Override
    public PreflightResult withMemory(MemoryAudit m) {
        return new PreflightResult(check, status, summary, params, gpus, vote, frameworkLog, conclusion, notes, m);
    }

    public PreflightResult {
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        frameworkLog = frameworkLog == null ? List.of() : List.copyOf(frameworkLog);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * @param worldSize  {@code numDevices} and the sizing's world size
     * @param maxTokens  {@code max_token_num} (SGLang passes FUSE_ALLREDUCE_MAX_BATCH_SIZE = 2048)
     * @param hidden     the model's hidden size
     * @param dtype      bf16, fp16 or fp32
     * @param localGpus  GPUs probed here (one rank each)
     */
    public record Params(int worldSize, long maxTokens, long hidden, String dtype, int localGpus) {
    }

    /**
     * One rank.
     *
     * @param cudaOrdinal             CUDA ordinal
     * @param pci                     PCI address
     * @param name                    device name
     * @param handleType              the handle type SGLang would request
     * @param handleTypeReason        why (FlashInfer's {@code is_mnnvl_fabric_supported}, or the POSIX override)
     * @param buffers                 the three workspace buffers
     * @param steps                   every driver call of SGLang's sequence, in order
     * @param allocationSizes         the sizes SGLang would pass to cuMemCreate (empty when sizing failed)
     * @param localOk                 the rank's local vote
     * @param probeError              the RuntimeError text SGLang would raise and log, or null
     * @param withoutMulticastSteps   beyond SGLang: the cuMemCreate sequence without multicast rounding (only when the
     *                                multicast query failed; what SGLang PR #32330 proposed), else empty
     * @param withoutMulticastOk      whether that sequence succeeded, or null when not run
     * @param fabric                  the fabric-handle export check
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Gpu(int cudaOrdinal, String pci, String name, String handleType, String handleTypeReason,
                      List<WorkspaceSizing.Buffer> buffers, List<CallStep> steps, List<Long> allocationSizes,
                      boolean localOk, String probeError, List<CallStep> withoutMulticastSteps,
                      Boolean withoutMulticastOk, FabricCheck fabric) {
        public Gpu {
            buffers = buffers == null ? List.of() : List.copyOf(buffers);
            steps = steps == null ? List.of() : List.copyOf(steps);
            allocationSizes = allocationSizes == null ? List.of() : List.copyOf(allocationSizes);
            withoutMulticastSteps = withoutMulticastSteps == null ? List.of() : List.copyOf(withoutMulticastSteps);
        }
    }

    /**
     * {@code cuMemCreate} with {@code CU_MEM_HANDLE_TYPE_FABRIC} and {@code cuMemExportToShareableHandle}.
     *
     * @param steps       the calls
     * @param exportable  true when the export worked (fabric handles usable: an IMEX channel is there)
     * @param verdict     one sentence
     */
    public record FabricCheck(List<CallStep> steps, boolean exportable, String verdict) {
        public FabricCheck {
            steps = steps == null ? List.of() : List.copyOf(steps);
        }
    }
}
