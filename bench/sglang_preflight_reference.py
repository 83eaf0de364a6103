#!/usr/bin/env python3
"""Reference for `fabricscope check preflight`: SGLang's FlashInfer workspace preflight steps, written out with
cuda-bindings (`cuda.bindings.driver`, what SGLang's get_cuda_driver_bindings returns) on GPU 0, printing each
CUresult and the RuntimeError text exactly as SGLang's f-string renders it. POSIX-FD handles (FlashInfer's
is_mnnvl_fabric_supported needs an MNNVL fabric; the Fabricscope check decides it per GPU). Query-only for
multicast: it never calls cuMulticastCreate. Sizes: world size from argv (default 1), max tokens 2048, hidden 4096,
bf16, as in sglang/srt/layers/flashinfer_comm_fusion.py _flashinfer_trtllm_workspace_allocation_sizes.
"""
import sys

import cuda.bindings
import torch
from cuda.bindings import driver as cu

world = int(sys.argv[1]) if len(sys.argv) > 1 else 1
max_tokens, hidden, elem = 2048, 4096, 2
torch.cuda.set_device(0)
torch.zeros(1, device="cuda")  # SGLang runs with torch's context current


def ceil_align(x, a):
    return (x + a - 1) // a * a


prop = cu.CUmemAllocationProp()
prop.requestedHandleTypes = cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
prop.type = cu.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED
prop.location = cu.CUmemLocation()
prop.location.type = cu.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
prop.location.id = 0
prop.allocFlags.gpuDirectRDMACapable = 1

buffers = [world * max_tokens * hidden * 2, world * 256 * 4,
           min(world * max_tokens * hidden * elem, 2147483647 & ~((1 << 21) - 1)) * 3]
buffers = [ceil_align(b, 1 << 21) for b in buffers]
print("cuda-bindings", getattr(cuda.bindings, "__version__", "?"), "| Python", sys.version.split()[0], "| world size", world,
      "| buffers", buffers)
err, attr = cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0)
print("cuDeviceGetAttribute(MULTICAST_SUPPORTED) ->", err, attr)
err, attr = cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0)
print("cuDeviceGetAttribute(HANDLE_TYPE_FABRIC_SUPPORTED) ->", err, attr)
sizes = []
try:
    for b in buffers:
        err, gran = cu.cuMemGetAllocationGranularity(
            prop, cu.CUmemAllocationGranularity_flags.CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
        print("cuMemGetAllocationGranularity ->", repr(err), gran)
        if err != cu.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuMemGetAllocationGranularity failed for FlashInfer workspace preflight: {err}")
        size = ceil_align(b + 2048, gran)
        mc = cu.CUmulticastObjectProp()
        mc.numDevices = world
        mc.size = size
        mc.handleTypes = prop.requestedHandleTypes
        err, mcg = cu.cuMulticastGetGranularity(
            mc, cu.CUmulticastGranularity_flags.CU_MULTICAST_GRANULARITY_RECOMMENDED)
        print("cuMulticastGetGranularity ->", repr(err), "| str:", str(err), "| int:", int(err), "|", mcg)
        if err != cu.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuMulticastGetGranularity failed for FlashInfer workspace preflight: {err}")
        sizes.append(ceil_align(size, mcg))
    print("allocation sizes", sizes)
except Exception as e:
    print("SGLang would log: FlashInfer workspace preflight probe failed (%s). Skipping allreduce fusion." % (e,))
