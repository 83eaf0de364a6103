/**
 * The CUDA driver ({@code libcuda.so.1}), named by role:
 * <ul>
 * <li>seams, one per purpose: {@link dev.fabricscope.nativeapi.cuda.CudaProbeCalls} (the probe's read-only
 *     queries) and {@link dev.fabricscope.nativeapi.cuda.CudaCheckCalls} (those and the live checks' memory, stream,
 *     event, module, launch, graph and VMM calls);</li>
 * <li>their JNA backends {@code CudaProbeJna} and {@code CudaCheckJna} over the raw mapping {@code CudaLibrary} and
 *     the direct-mapped timed calls {@code CudaHot}, all bound to the one library {@code CudaLoader} loads;</li>
 * <li>facades over the seams: {@code CudaReadings}/{@code CudaReader} (readings for the snapshot) and
 *     {@code CudaOps} (the checks' operations), each opened as an {@link dev.fabricscope.nativeapi.Opened};</li>
 * <li>values: {@code CudaAttribute}, {@code CuResults}, the VMM structs {@code CuMemAllocationProp} and
 *     {@code CuMulticastObjectProp}, and what a check's call carries: {@code KernelArgs}, {@code ModuleImage},
 *     {@code HostData}.</li>
 * </ul>
 */
package dev.fabricscope.nativeapi.cuda;
