package dev.fabricscope.model;

/**
 * CUDA driver device attributes the communication stacks read ({@code cuDeviceGetAttribute}).
 *
 * @param vmm               VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED (102): NCCL's cuMem gate
 * @param posixFdHandles    HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED (103)
 * @param fabricHandles     HANDLE_TYPE_FABRIC_SUPPORTED (128): MNNVL / FlashInfer fabric path
 * @param multicast         MULTICAST_SUPPORTED (132): NVLS, FlashInfer mnnvl, SGLang preflight
 * @param gpuDirectRdma     GPU_DIRECT_RDMA_SUPPORTED (116)
 * @param unifiedAddressing UNIFIED_ADDRESSING (41)
 * @param hostNumaId        HOST_NUMA_ID (134), -1 when the host has no NUMA
 */
public record CudaAttributes(Reading<Boolean> vmm, Reading<Boolean> posixFdHandles, Reading<Boolean> fabricHandles,
                             Reading<Boolean> multicast, Reading<Boolean> gpuDirectRdma,
                             Reading<Boolean> unifiedAddressing, Reading<Integer> hostNumaId) {
}
