package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled FlashInfer version.
 *
 * @param trtllmJitMajors     majors the TRT-LLM comm module is built for ({@code jit/comm.py})
 * @param trtllmMemory        how the TRT-LLM workspace allocates its buffers
 * @param fabricAttributeOnly whether {@code is_mnnvl_fabric_supported} checks only the driver attribute
 * @param confidentialChecks  whether this version reads Confidential Computing (refuses mnnvl, plain IPC for trtllm)
 * @param pcieIpc             whether flashinfer.comm has PcieIpcAllReduceWorkspace (main from 299e6d11, 2026-08-20, in no
 *                            release up to v0.6.18rc7), or null where the set does not say (main after it, or later builds)
 * @param autoMulticastGate   whether 'auto' keeps only trtllm without multicast (6104afe3, from v0.6.16); false: 'auto' picks
 *                            mnnvl whatever multicast says; null: the set's releases differ
 */
public record FlashInferVersion(String id, String description, List<Integer> trtllmJitMajors, TrtllmMemory trtllmMemory,
                         boolean fabricAttributeOnly, boolean confidentialChecks, Boolean pcieIpc, Boolean autoMulticastGate)
        implements RuleVersion {

    /** How {@code trtllm_create_ipc_workspace_for_all_reduce_fusion} allocates, as {@code create_allreduce_fusion_workspace} calls it. */
    public enum TrtllmMemory {
        /** SymmDeviceMemory whose constructor checks multicast whatever {@code enable_multicast} says (v0.6.0rc2 … v0.6.9). */
        SYMM_DEVICE_MEMORY_MULTICAST_CHECK,
        /** PyTorch symmetric memory ({@code symm_mem.empty} + {@code rendezvous}; v0.6.10rc1 … v0.6.15rc1): not modelled. */
        TORCH_SYMMETRIC_MEMORY,
        /** SymmDeviceMemory(enable_multicast=False), whose multicast check is skipped (v0.6.15rc2 on). */
        SYMM_DEVICE_MEMORY
    }

    public static final List<FlashInferVersion> ALL = List.of(
            new FlashInferVersion("newest", "flashinfer@0006e88a comm/allreduce.py + comm/mnnvl.py, @01021e50 comm/trtllm_ar.py "
                    + "(TRT-LLM workspace without multicast), @033c1d9e jit/comm.py (TRT-LLM built for SM 9/10/12), main at fb28d724 "
                    + "(PcieIpcAllReduceWorkspace since 299e6d11, in no release yet: whether a build has it is unknown); fabric probe: "
                    + "attribute + fabric state + cluster UUID", List.of(9, 10, 12), TrtllmMemory.SYMM_DEVICE_MEMORY, false, true, null, true),
            new FlashInferVersion("main", "as newest, with PcieIpcAllReduceWorkspace (main at fb28d724, 2026-08-22; since 299e6d11): for a "
                    + "build from main", List.of(9, 10, 12), TrtllmMemory.SYMM_DEVICE_MEMORY, false, true, true, true),
            new FlashInferVersion("sm12-trtllm", "as newest, for the releases v0.6.17 … v0.6.18rc7: no PcieIpcAllReduceWorkspace "
                    + "(flashinfer/comm/__init__.py has none before 299e6d11)", List.of(9, 10, 12), TrtllmMemory.SYMM_DEVICE_MEMORY, false, true,
                    false, true),
            new FlashInferVersion("pre-sm12-trtllm", "as sm12-trtllm, but the TRT-LLM comm module is built for SM 9/10 only (before FlashInfer "
                    + "PR #3903; SGLang issue #15650), and Confidential Computing is not read (allreduce.py reads it from v0.6.16rc1)",
                    List.of(9, 10), TrtllmMemory.SYMM_DEVICE_MEMORY, false, false, false, null),
            new FlashInferVersion("torch-symm-trtllm", "as pre-sm12-trtllm, but the TRT-LLM workspace is PyTorch symmetric memory "
                    + "(trtllm_ar.py@v0.6.12:658 _alloc_symm_buffer_bytes), whose needs are not modelled",
                    List.of(9, 10), TrtllmMemory.TORCH_SYMMETRIC_MEMORY, false, false, false, false),
            new FlashInferVersion("trtllm-multicast", "as pre-sm12-trtllm, but the TRT-LLM workspace's SymmDeviceMemory checks multicast "
                    + "unconditionally (mnnvl.py@v0.6.9:930-940; trtllm_ar.py:620 passes enable_multicast=False, which that check ignores)",
                    List.of(9, 10), TrtllmMemory.SYMM_DEVICE_MEMORY_MULTICAST_CHECK, false, false, false, false),
            new FlashInferVersion("fabric-attr-only", "as sm12-trtllm, but is_mnnvl_fabric_supported checks only the fabric-handle attribute "
                    + "(the newer, lighter variant; commit not recorded)", List.of(9, 10, 12), TrtllmMemory.SYMM_DEVICE_MEMORY, true, true, false, true));

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return FlashInferRuleSets.of(id);
    }

    @Override
    public String framework() {
        return FlashInferKnobs.FW;
    }
}
