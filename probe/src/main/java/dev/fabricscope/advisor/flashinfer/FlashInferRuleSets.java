package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.Pedigree;
import java.util.List;
import java.util.Map;

/**
 * What each FlashInfer rule set was read from and the releases it matches, read in the bare mirror
 * (fetch github:flashinfer-ai/flashinfer): {@code git tag --contains}, {@code git log -1 --format=%cI}.
 */
final class FlashInferRuleSets {

    /** Commit dates read in the mirror; the other commits come from the stored index, which shows no date. */
    private static final Map<String, String> DATES = Map.of(
            FlashInferSources.AUDIT_COMMIT, "2026-08-22T04:34:52-07:00",
            "07d8568688e7da432ee13e27b9964684c037bdab", "2025-12-19T19:15:14-08:00",
            "a1aa676196f798435248d9ea205c67674476f473", "2026-04-24T00:07:27-06:00",
            "d768c14e7cf5dd5df45a8a1de78ae815879f108a", "2026-05-29T12:23:13-07:00");

    /** 2deed6c1 "feat(comm): extend trtllm_allreduce to SM12x" (2026-07-28): first in tag v0.6.17. */
    static final String SM12_TRTLLM = "0.6.17";
    /** The first release not read: tags end at v0.6.18rc7 in the mirror; 0.6.18 may or may not hold 299e6d11. */
    static final String FIRST_UNREAD = "0.6.18";
    /** fd0c2f12 (2025-12-17) adds create_allreduce_fusion_workspace, which every set's factory rule reads: first in v0.6.0rc1. */
    static final String FACTORY_FIRST = "0.6.0rc1";
    /** The factory's TRT-LLM workspace passes use_symm_dev_mem=True (SymmDeviceMemory) from v0.6.0rc2; v0.6.0rc1 used plain IPC. */
    static final String SYMM_TRTLLM = "0.6.0rc2";
    /** 088e59d3 "unifying all reduce memory allocation" (2026-04-23): PyTorch symmetric memory for TRT-LLM, first in v0.6.10rc1. */
    static final String TORCH_SYMM_TRTLLM = "0.6.10rc1";
    /** SymmDeviceMemory(enable_multicast=False) again, its multicast check conditional (#3745's release-branch copy 2239d8b1): v0.6.15rc2. */
    static final String SYMM_AGAIN = "0.6.15rc2";

    private static final List<SourceRef> COMMON = List.of(FlashInferSources.FACTORY, FlashInferSources.MNNVL,
            FlashInferSources.FD_EXCHANGE, FlashInferSources.CONFIDENTIAL, FlashInferSources.TRTLLM);

    private FlashInferRuleSets() {
    }

    static Pedigree of(String id) {
        return switch (id) {
            case "newest" -> new Pedigree(files(FlashInferSources.FABRIC, FlashInferSources.JIT), null, null, List.of(),
                    "no release read: rules read at main (fb28d724, 2026-08-22); whether the build has PcieIpcAllReduceWorkspace "
                    + "(299e6d11, in no release tag up to v0.6.18rc7) is left unknown (flashinfer=main says it has)");
            case "main" -> new Pedigree(files(FlashInferSources.FABRIC, FlashInferSources.JIT, FlashInferSources.PCIE_IPC_EXPORT), null, null,
                    List.of(), "no release: main at fb28d724 (2026-08-22), with 299e6d11 (PcieIpcAllReduceWorkspace, 2026-08-20)");
            case "sm12-trtllm" -> new Pedigree(files(FlashInferSources.FABRIC, FlashInferSources.JIT), SM12_TRTLLM, FIRST_UNREAD,
                    List.of("v0.6.17", "v0.6.18rc1 … v0.6.18rc7"), "tags containing 2deed6c1 (TRT-LLM comm module built for SM 12) "
                    + "and not 299e6d11 (PcieIpcAllReduceWorkspace); rules read at fb28d724");
            case "pre-sm12-trtllm" -> new Pedigree(files(FlashInferSources.FABRIC, FlashInferSources.JIT), SYMM_AGAIN, SM12_TRTLLM,
                    List.of("v0.6.15rc2 … v0.6.16.post4"), "tags before 2deed6c1 (SM 12 for TRT-LLM) whose trtllm_ar.py passes "
                    + "SymmDeviceMemory(enable_multicast=False) and whose mnnvl.py checks multicast only when asked (read at every tag)");
            case "torch-symm-trtllm" -> new Pedigree(files(FlashInferSources.FABRIC, FlashInferSources.JIT, FlashInferSources.TRTLLM_TORCH_SYMM),
                    TORCH_SYMM_TRTLLM, SYMM_AGAIN, List.of("v0.6.10rc1 … v0.6.15rc1"), "tags whose trtllm_ar.py allocates the TRT-LLM "
                    + "workspace through _alloc_symm_buffer_bytes (PyTorch symmetric memory; read at every tag)");
            case "trtllm-multicast" -> new Pedigree(files(FlashInferSources.FABRIC, FlashInferSources.JIT, FlashInferSources.TRTLLM_MULTICAST),
                    SYMM_TRTLLM, TORCH_SYMM_TRTLLM, List.of("v0.6.0rc2 … v0.6.9"), "tags whose allreduce.py passes use_symm_dev_mem=True "
                    + "and whose SymmDeviceMemory checks multicast unconditionally (read at every tag; v0.6.0rc1, plain IPC, is in no set)");
            case "fabric-attr-only" -> new Pedigree(files(FlashInferSources.FABRIC_LIGHT, FlashInferSources.JIT), null, null, List.of(),
                    "no release read: the copy that checks only the fabric-handle attribute was not matched to a commit");
            default -> throw new IllegalArgumentException("no FlashInfer rule set " + id);
        };
    }

    private static List<Pedigree.File> files(SourceRef... specific) {
        List<SourceRef> all = new java.util.ArrayList<>(COMMON);
        all.addAll(List.of(specific));
        return Pedigree.files(all, DATES);
    }
}
