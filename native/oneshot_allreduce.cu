// Custom all-reduce kernels (one-shot and two-shot over CUDA peer-to-peer) and a pointer-chase latency probe,
// for Fabricscope's live checks.
//
// Set up once per rank (host side, before any operation): a signal area and a staging buffer in every GPU's
// device memory, peer access enabled, and an FsPeers block holding every rank's pointers, passed by value as
// the first kernel parameter (so a launch, or a CUDA-graph replay, needs no host work and no host sync).
//
// One operation, per block b of rank r (every rank runs the same grid over the same index partition, so a
// block only ever waits for the same block of its peers):
//   one-shot: copy my input slice into my staging half (e & 1), barrier, sum every rank's staging slice
//             (peer reads over NVLink / PCIe) into my output;
//   two-shot: copy my input slice into my staging half, barrier, reduce segment r of the slice over every rank
//             (reduce-scatter) and push the sums into every rank's gather half, barrier, copy the other
//             segments from my gather half into my output (all-gather).
// The barrier is a flag per (barrier, block, rank) in device memory: st.release.sys into each peer's slot,
// ld.acquire.sys on mine. The operation counter e lives in device memory (per block, bumped by the kernel
// itself), so graph replays and back-to-back launches need no epoch from the host. Staging halves alternate
// with e: a rank rewrites half (e & 1) only in operation e+2, which it enters after every peer has entered
// operation e+1, i.e. has finished reading it. In-place (in == out) is safe: inputs are staged first.
// Spins are bounded by %globaltimer: a peer that never arrives sets *error after FS_TIMEOUT_NS instead of
// hanging the GPU.
//
// Built to PTX for sm_70 with PTX ISA 8.0 (see README.md): st.release / ld.acquire need ISA 6.0 and sm_70;
// bf16 is summed in fp32 with integer conversions, so no sm_80 instruction is needed.

#include <stdint.h>

#define FS_MAX_RANKS 8
#define FS_MAX_BLOCKS 128
#define FS_THREADS 512
#define FS_TIMEOUT_NS 10000000000ull  // 10 s

// One rank's signal area (zeroed once at setup). 16 KiB + 512 B.
struct FsSignal {
    uint32_t arrive[2][FS_MAX_BLOCKS][FS_MAX_RANKS];  // [barrier][block][from rank], written by the peers
    uint32_t epoch[FS_MAX_BLOCKS];                    // operations this rank's block has completed
};

// Passed by value (216 bytes; the host builds the same layout, see CustomAllReduce.java).
struct FsPeers {
    FsSignal* signal[FS_MAX_RANKS];  // every rank's signal area
    char* stage[FS_MAX_RANKS];       // every rank's staging buffer: two halves of `half` bytes
    char* gather[FS_MAX_RANKS];      // every rank's gather buffer (two-shot): two halves of `half` bytes
    unsigned long long half;         // bytes per half
    uint32_t* error;                 // this rank's error word
    int rank;
    int nranks;
};

__device__ __forceinline__ void fs_st_release(uint32_t* p, uint32_t v) {
    asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t fs_ld_acquire(const uint32_t* p) {
    uint32_t v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ unsigned long long fs_globaltimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Every thread of the block calls this; threads 0..nranks-1 each signal one peer and wait for it.
__device__ __forceinline__ void fs_barrier(const FsPeers& p, int which, uint32_t e) {
    __syncthreads();
    if (threadIdx.x < (unsigned)p.nranks) {
        int peer = threadIdx.x;
        fs_st_release(&p.signal[peer]->arrive[which][blockIdx.x][p.rank], e);
        const uint32_t* mine = &p.signal[p.rank]->arrive[which][blockIdx.x][peer];
        if ((int)(fs_ld_acquire(mine) - e) < 0) {
            unsigned long long t0 = fs_globaltimer();
            unsigned spins = 0;
            while ((int)(fs_ld_acquire(mine) - e) < 0) {
                if ((++spins & 1023u) == 0 && fs_globaltimer() - t0 > FS_TIMEOUT_NS) {
                    atomicExch(p.error, 1u);
                    break;
                }
            }
        }
    }
    __syncthreads();
}

__device__ __forceinline__ float fs_bf16_to_f32(uint32_t h) {
    return __uint_as_float(h << 16);
}

// Round to nearest even; NaN stays NaN.
__device__ __forceinline__ uint32_t fs_f32_to_bf16(float f) {
    uint32_t u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return ((u >> 16) | 0x40u) & 0xffffu;
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    return u >> 16;
}

// 16-byte vectors: 8 bf16 or 4 fp32, summed in fp32.
template <bool BF16>
struct FsVec {
    static constexpr int ELEMS = BF16 ? 8 : 4;
    static constexpr int SIZE = BF16 ? 2 : 4;

    __device__ __forceinline__ static void add(float (&acc)[8], uint4 x) {
        uint32_t w[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (BF16) {
                acc[2 * k] += fs_bf16_to_f32(w[k] & 0xffffu);
                acc[2 * k + 1] += fs_bf16_to_f32(w[k] >> 16);
            } else {
                acc[k] += __uint_as_float(w[k]);
            }
        }
    }

    __device__ __forceinline__ static uint4 pack(const float (&acc)[8]) {
        uint32_t w[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            w[k] = BF16 ? (fs_f32_to_bf16(acc[2 * k]) | (fs_f32_to_bf16(acc[2 * k + 1]) << 16)) : __float_as_uint(acc[k]);
        }
        return make_uint4(w[0], w[1], w[2], w[3]);
    }

    __device__ __forceinline__ static float load(const char* base, unsigned long long i) {
        return BF16 ? fs_bf16_to_f32(__ldcg(reinterpret_cast<const unsigned short*>(base) + i))
                    : __ldcg(reinterpret_cast<const float*>(base) + i);
    }

    __device__ __forceinline__ static void store(char* base, unsigned long long i, float v) {
        if (BF16) {
            reinterpret_cast<unsigned short*>(base)[i] = (unsigned short)fs_f32_to_bf16(v);
        } else {
            reinterpret_cast<float*>(base)[i] = v;
        }
    }

    __device__ __forceinline__ static void copy(const char* from, char* to, unsigned long long i) {
        if (BF16) {
            reinterpret_cast<unsigned short*>(to)[i] = reinterpret_cast<const unsigned short*>(from)[i];
        } else {
            reinterpret_cast<float*>(to)[i] = reinterpret_cast<const float*>(from)[i];
        }
    }
};

// The operation number this block runs now (1, 2, ...), shared by the block.
__device__ __forceinline__ uint32_t fs_begin(const FsPeers& p) {
    __shared__ uint32_t s_epoch;
    if (threadIdx.x == 0) {
        s_epoch = p.signal[p.rank]->epoch[blockIdx.x] + 1u;
    }
    __syncthreads();
    return s_epoch;
}

__device__ __forceinline__ void fs_end(const FsPeers& p, uint32_t e) {
    if (threadIdx.x == 0) {
        p.signal[p.rank]->epoch[blockIdx.x] = e;
    }
}

// Elements past the last whole vector: staged, summed and written by block 0 alone (every rank the same).
template <bool BF16>
__device__ __forceinline__ void fs_tail_stage(const FsPeers& p, const char* in, unsigned long long from,
                                              unsigned long long count, unsigned long long half) {
    if (blockIdx.x == 0) {
        for (unsigned long long i = from + threadIdx.x; i < count; i += blockDim.x) {
            FsVec<BF16>::copy(in, p.stage[p.rank] + half, i);
        }
    }
}

template <bool BF16>
__device__ __forceinline__ void fs_tail_sum(const FsPeers& p, char* out, unsigned long long from,
                                            unsigned long long count, unsigned long long half) {
    if (blockIdx.x == 0) {
        for (unsigned long long i = from + threadIdx.x; i < count; i += blockDim.x) {
            float acc = 0.f;
            for (int r = 0; r < p.nranks; ++r) {
                acc += FsVec<BF16>::load(p.stage[r] + half, i);
            }
            FsVec<BF16>::store(out, i, acc);
        }
    }
}

template <bool BF16>
__device__ __forceinline__ void fs_oneshot(const FsPeers& p, const char* in, char* out, unsigned long long count) {
    typedef FsVec<BF16> V;
    uint32_t e = fs_begin(p);
    unsigned long long half = (unsigned long long)(e & 1u) * p.half;
    unsigned long long vectors = count / V::ELEMS;
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long stride = (unsigned long long)blockDim.x * gridDim.x;
    uint4* mine = reinterpret_cast<uint4*>(p.stage[p.rank] + half);
    for (unsigned long long v = first; v < vectors; v += stride) {
        mine[v] = reinterpret_cast<const uint4*>(in)[v];
    }
    fs_tail_stage<BF16>(p, in, vectors * V::ELEMS, count, half);
    fs_barrier(p, 0, e);
    for (unsigned long long v = first; v < vectors; v += stride) {
        float acc[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
        for (int r = 0; r < p.nranks; ++r) {  // same order on every rank: bitwise identical sums
            V::add(acc, __ldcg(reinterpret_cast<const uint4*>(p.stage[r] + half) + v));
        }
        reinterpret_cast<uint4*>(out)[v] = V::pack(acc);
    }
    fs_tail_sum<BF16>(p, out, vectors * V::ELEMS, count, half);
    fs_end(p, e);
}

template <bool BF16>
__device__ __forceinline__ void fs_twoshot(const FsPeers& p, const char* in, char* out, unsigned long long count) {
    typedef FsVec<BF16> V;
    uint32_t e = fs_begin(p);
    unsigned long long half = (unsigned long long)(e & 1u) * p.half;
    unsigned long long vectors = count / V::ELEMS;
    unsigned long long seg = (vectors + p.nranks - 1) / p.nranks;  // vectors per rank's segment
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long stride = (unsigned long long)blockDim.x * gridDim.x;
    uint4* mine = reinterpret_cast<uint4*>(p.stage[p.rank] + half);
    for (unsigned long long j = first; j < seg; j += stride) {
        for (int s = 0; s < p.nranks; ++s) {
            unsigned long long v = s * seg + j;
            if (v < vectors) {
                mine[v] = reinterpret_cast<const uint4*>(in)[v];
            }
        }
    }
    fs_tail_stage<BF16>(p, in, vectors * V::ELEMS, count, half);
    fs_barrier(p, 0, e);
    // reduce-scatter: my segment, pushed into every rank's gather half
    for (unsigned long long j = first; j < seg; j += stride) {
        unsigned long long v = p.rank * seg + j;
        if (v < vectors) {
            float acc[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
            for (int r = 0; r < p.nranks; ++r) {
                V::add(acc, __ldcg(reinterpret_cast<const uint4*>(p.stage[r] + half) + v));
            }
            uint4 sum = V::pack(acc);
            reinterpret_cast<uint4*>(out)[v] = sum;
            for (int r = 0; r < p.nranks; ++r) {
                if (r != p.rank) {
                    reinterpret_cast<uint4*>(p.gather[r] + half)[v] = sum;
                }
            }
        }
    }
    fs_tail_sum<BF16>(p, out, vectors * V::ELEMS, count, half);
    fs_barrier(p, 1, e);
    // all-gather: the other segments, from my gather half
    const uint4* got = reinterpret_cast<const uint4*>(p.gather[p.rank] + half);
    for (unsigned long long j = first; j < seg; j += stride) {
        for (int s = 0; s < p.nranks; ++s) {
            unsigned long long v = s * seg + j;
            if (s != p.rank && v < vectors) {
                reinterpret_cast<uint4*>(out)[v] = __ldcg(got + v);
            }
        }
    }
    fs_end(p, e);
}

extern "C" __global__ void __launch_bounds__(FS_THREADS) fs_oneshot_bf16(FsPeers p, const char* in, char* out,
                                                                          unsigned long long count) {
    fs_oneshot<true>(p, in, out, count);
}

extern "C" __global__ void __launch_bounds__(FS_THREADS) fs_oneshot_f32(FsPeers p, const char* in, char* out,
                                                                         unsigned long long count) {
    fs_oneshot<false>(p, in, out, count);
}

extern "C" __global__ void __launch_bounds__(FS_THREADS) fs_twoshot_bf16(FsPeers p, const char* in, char* out,
                                                                          unsigned long long count) {
    fs_twoshot<true>(p, in, out, count);
}

extern "C" __global__ void __launch_bounds__(FS_THREADS) fs_twoshot_f32(FsPeers p, const char* in, char* out,
                                                                         unsigned long long count) {
    fs_twoshot<false>(p, in, out, count);
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
