// One-shot all-reduce over CUDA peer-to-peer, and a pointer-chase latency probe, for Fabricscope's live checks.
//
// Each rank's kernel reads the input buffers of every rank directly (over NVLink or PCIe P2P, peer access
// enabled by the host) and writes the sum into its own output: what the TensorRT-LLM / vLLM / SGLang custom
// "one-shot" all-reduce kernels do. A flag barrier at entry and exit (one flag per block and rank) makes
// every rank wait for all others, so the measured time includes the cross-GPU synchronisation those
// kernels pay. Spins are bounded: a missing peer sets *error instead of hanging the GPU.
//
// Built to PTX for sm_70 with PTX ISA 8.0 so that every driver from R525 and every GPU from Volta on
// loads it (see README.md). Only sm_70 features are used: no native bf16 instructions, no cp.async.

#include <stdint.h>

#define FS_MAX_RANKS 8
#define FS_MAX_BLOCKS 64
#define FS_SPIN_LIMIT (1ull << 25)  // about 10 s of polling: a peer that never arrives

__device__ __forceinline__ float fs_bf16_to_f32(uint16_t h) {
    return __uint_as_float(((uint32_t)h) << 16);
}

// Round to nearest even; NaN stays NaN.
__device__ __forceinline__ uint16_t fs_f32_to_bf16(float f) {
    uint32_t u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return (uint16_t)((u >> 16) | 0x40u);
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

// signals[r] is rank r's flag array: FS_MAX_RANKS * FS_MAX_BLOCKS uint32, slot [peer * FS_MAX_BLOCKS + block].
// Flag values only grow (the host passes a fresh epoch each launch), so waiting for ">= target" is safe even
// when a fast peer has already moved on to its next barrier.
__device__ __forceinline__ void fs_barrier(uint32_t* const* signals, int rank, int nranks, uint32_t target,
                                           uint32_t* error) {
    __syncthreads();
    if (threadIdx.x < (unsigned)nranks) {
        int peer = threadIdx.x;
        __threadfence_system();
        volatile uint32_t* remote = signals[peer] + rank * FS_MAX_BLOCKS + blockIdx.x;
        *remote = target;
        volatile uint32_t* mine = signals[rank] + peer * FS_MAX_BLOCKS + blockIdx.x;
        unsigned long long spins = 0;
        while (*mine < target) {
            if (++spins > FS_SPIN_LIMIT) {
                atomicExch(error, 1u);
                break;
            }
        }
    }
    __syncthreads();
}

extern "C" __global__ void oneshot_allreduce_f32(const float* const* inputs, uint32_t* const* signals, float* out,
                                                 unsigned long long count, int rank, int nranks, uint32_t epoch,
                                                 uint32_t* error) {
    fs_barrier(signals, rank, nranks, 2u * epoch, error);
    unsigned long long stride = (unsigned long long)blockDim.x * gridDim.x;
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long vectors = count / 4;
    for (unsigned long long v = first; v < vectors; v += stride) {
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int r = 0; r < nranks; ++r) {
            float4 x = reinterpret_cast<const float4*>(inputs[r])[v];
            acc.x += x.x; acc.y += x.y; acc.z += x.z; acc.w += x.w;
        }
        reinterpret_cast<float4*>(out)[v] = acc;
    }
    for (unsigned long long i = vectors * 4 + first; i < count; i += stride) {
        float acc = 0.f;
        for (int r = 0; r < nranks; ++r) {
            acc += inputs[r][i];
        }
        out[i] = acc;
    }
    fs_barrier(signals, rank, nranks, 2u * epoch + 1u, error);
}

extern "C" __global__ void oneshot_allreduce_bf16(const uint16_t* const* inputs, uint32_t* const* signals,
                                                  uint16_t* out, unsigned long long count, int rank, int nranks,
                                                  uint32_t epoch, uint32_t* error) {
    fs_barrier(signals, rank, nranks, 2u * epoch, error);
    unsigned long long stride = (unsigned long long)blockDim.x * gridDim.x;
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long vectors = count / 8;  // 8 bf16 = 16 bytes
    for (unsigned long long v = first; v < vectors; v += stride) {
        float acc[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
        for (int r = 0; r < nranks; ++r) {
            uint4 x = reinterpret_cast<const uint4*>(inputs[r])[v];
            uint32_t w[4] = {x.x, x.y, x.z, x.w};
            for (int k = 0; k < 4; ++k) {
                acc[2 * k] += fs_bf16_to_f32((uint16_t)(w[k] & 0xffffu));
                acc[2 * k + 1] += fs_bf16_to_f32((uint16_t)(w[k] >> 16));
            }
        }
        uint32_t packed[4];
        for (int k = 0; k < 4; ++k) {
            packed[k] = (uint32_t)fs_f32_to_bf16(acc[2 * k]) | ((uint32_t)fs_f32_to_bf16(acc[2 * k + 1]) << 16);
        }
        reinterpret_cast<uint4*>(out)[v] = make_uint4(packed[0], packed[1], packed[2], packed[3]);
    }
    for (unsigned long long i = vectors * 8 + first; i < count; i += stride) {
        float acc = 0.f;
        for (int r = 0; r < nranks; ++r) {
            acc += fs_bf16_to_f32(inputs[r][i]);
        }
        out[i] = fs_f32_to_bf16(acc);
    }
    fs_barrier(signals, rank, nranks, 2u * epoch + 1u, error);
}

// One thread follows a ring of pointers (each 8-byte node holds the address of the next) for `hops` steps.
// Loads bypass L1 (ld.global.cg), so each hop is a dependent L2/DRAM (or peer) access: latency = time / hops.
extern "C" __global__ void pointer_chase(const unsigned long long* start, unsigned long long hops,
                                         unsigned long long* sink) {
    const unsigned long long* p = start;
    for (unsigned long long i = 0; i < hops; ++i) {
        p = reinterpret_cast<const unsigned long long*>(__ldcg(p));
    }
    *sink = reinterpret_cast<unsigned long long>(p);
}
