// cudalint --verify instrumentation prelude.
//
// Every global-memory access `p[e]` of the kernel under test is rewritten to
// `(*cl_at(p, e, 0, bytes_p, init_p, site, kind, report))`. The kernel receives, after its own
// parameters, the size in bytes of each pointer parameter's buffer and an optional "initialized"
// bitmap (one bit per element; null when every element was written by the experiment's copies),
// then the report buffer.
//
// Report layout (unsigned long long words): CL_SCRATCH_WORDS words of scratch space that a bad
// access is redirected to, so the run can neither fault nor corrupt a neighbouring buffer, then
// CL_SITE_WORDS words per access site: violation count, claim flag, index, access kind,
// threadIdx.{x,y,z}, blockIdx.{x,y,z}, extent in elements, cause.
#pragma once

typedef unsigned long long cl_u64;

// The short unsigned names glibc's <sys/types.h> gives code built by nvcc (through
// cuda_runtime.h); NVRTC has no host headers. Redeclaring a typedef as the same type is allowed,
// so a file that declares them itself still compiles.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;

#define CL_SCRATCH_WORDS 128
#define CL_SITE_WORDS 12
#define CL_READ 1u
#define CL_WRITE 2u
#define CL_OUT_OF_BOUNDS 1u
#define CL_UNINITIALIZED 2u

__device__ __forceinline__ void cl_record(cl_u64* report, unsigned site, long long index, unsigned kind,
                                          cl_u64 extent, unsigned cause) {
    cl_u64* record = report + CL_SCRATCH_WORDS + (cl_u64)site * CL_SITE_WORDS;
    atomicAdd(record, 1ULL);
    // The first violating thread keeps the witness; later ones only count.
    if (atomicCAS(record + 1, 0ULL, 1ULL) == 0ULL) {
        record[2] = (cl_u64)index;
        record[3] = kind;
        record[4] = threadIdx.x;
        record[5] = threadIdx.y;
        record[6] = threadIdx.z;
        record[7] = blockIdx.x;
        record[8] = blockIdx.y;
        record[9] = blockIdx.z;
        record[10] = extent;
        record[11] = cause;
    }
}

// `local` indexes `pointer`; `offset` is where `pointer` starts in the parameter's buffer (zero,
// or `r * n` for a pointer derived from a parameter, `float* row = a + r * n`). Each expression of
// the original access is evaluated exactly once.
template <typename T>
__device__ __forceinline__ T* cl_at(T* pointer, long long local, long long offset, cl_u64 bytes,
                                    unsigned* initialized, unsigned site, unsigned kind, cl_u64* report) {
    long long absolute = offset + local;
    cl_u64 extent = bytes / sizeof(T);
    if (absolute < 0 || (cl_u64)absolute >= extent) {
        cl_record(report, site, absolute, kind, extent, CL_OUT_OF_BOUNDS);
        return reinterpret_cast<T*>(report);
    }
    if (initialized != 0) {
        unsigned* word = initialized + (absolute >> 5);
        unsigned bit = 1u << (absolute & 31);
        if ((kind & CL_READ) && (*(volatile unsigned*)word & bit) == 0u) {
            cl_record(report, site, absolute, kind, extent, CL_UNINITIALIZED);
        }
        if (kind & CL_WRITE) {
            atomicOr(word, bit);
        }
    }
    return pointer + local;
}
