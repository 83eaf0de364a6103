"""The floor a Python tool pays for the facts 'fabricscope probe' reads: NVML enumeration (pynvml) plus
cuInit and the CUDA attribute reads (cuda.bindings). Run as a fresh interpreter, like a cold CLI."""
import pynvml
from cuda.bindings import driver as cu

pynvml.nvmlInit()
n = pynvml.nvmlDeviceGetCount()
for i in range(n):
    h = pynvml.nvmlDeviceGetHandleByIndex(i)
    pynvml.nvmlDeviceGetName(h); pynvml.nvmlDeviceGetUUID(h); pynvml.nvmlDeviceGetPciInfo(h)
    pynvml.nvmlDeviceGetCudaComputeCapability(h); pynvml.nvmlDeviceGetMemoryInfo(h)
    for link in range(18):
        try:
            pynvml.nvmlDeviceGetNvLinkState(h, link)
        except pynvml.NVMLError:
            pass
    try:
        pynvml.nvmlDeviceGetGpuFabricInfoV(h)
    except Exception:
        pass
cu.cuInit(0)
_, count = cu.cuDeviceGetCount()
for i in range(count):
    _, d = cu.cuDeviceGet(i)
    for a in (16, 75, 76, 102, 103, 116, 128, 132):
        cu.cuDeviceGetAttribute(cu.CUdevice_attribute(a), d)
pynvml.nvmlShutdown()
