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
// threadIdx.{x,y,z}, blockIdx.{x,y,z}, extent in elements, cause, then the footprint: one past the
// largest byte any in-bounds access of the site reached (what a correct launch needs).
//
// The guarded twin of a kernel rewrites a site `p[e]` whose finding suggests a guard to
// `(*cl_at_if(cond, p, e, ...))`: when `cond` is false the access goes to the scratch space and is
// not counted, as if the statement were wrapped in `if (cond)`.
#pragma once

typedef unsigned long long cl_u64;

// What cuda.h and cuda_runtime_api.h tell code built by nvcc about the toolkit, which a block
// choosing definitions by version (`#if CUDA_VERSION >= 11000`) reads.
#ifndef CUDA_VERSION
#define CUDA_VERSION (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION CUDA_VERSION
#endif

// Device helpers of project headers print the runtime's name of an error
// (`printf("%s", cudaGetErrorString(code))` in an assert helper); NVRTC declares neither name.
// The experiment never prints an error message, so any text will do.
#ifdef __CUDACC_RTC__
static __device__ __forceinline__ const char* cudaGetErrorString(int) { return "CUDA error"; }
static __device__ __forceinline__ const char* cudaGetErrorName(int) { return "cudaError"; }
#endif

// HIP's spellings of the built-in variables and of a dynamic shared array, for HIP kernels run
// as CUDA.
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z
#define HIP_DYNAMIC_SHARED(type, name) extern __shared__ type name[];

// The short unsigned names glibc's <sys/types.h> gives code built by nvcc (through
// cuda_runtime.h); NVRTC has no host headers. Redeclaring a typedef as the same type is allowed,
// so a file that declares them itself still compiles.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;

// The fixed-width integers and limits that code built by nvcc gets from the host's <cstdint>,
// <climits> and <cfloat>, which NVRTC does not have. When the experiment includes libcu++'s
// <cuda/std/cstdint> instead, or declares these names itself, CL_HAVE_CSTDINT is defined first.
// The types are libcu++'s under NVRTC, so a header that brings its names in later (the full
// <cooperative_groups.h>) redeclares them as the same types.
#ifndef CL_HAVE_CSTDINT
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
#endif
#ifndef INT_MAX
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#endif
#ifndef INT32_MAX
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#define SIZE_MAX 18446744073709551615UL
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-016
#endif

#define CL_SCRATCH_WORDS 128
#define CL_SITE_WORDS 13
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
    cl_u64* footprint = report + CL_SCRATCH_WORDS + (cl_u64)site * CL_SITE_WORDS + 12;
    cl_u64 end = ((cl_u64)absolute + 1ULL) * (cl_u64)sizeof(T);
    if (*(volatile cl_u64*)footprint < end) {
        atomicMax(footprint, end);
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

// The guarded twin's access: `keep` is the suggested guard, evaluated at the access.
template <typename T>
__device__ __forceinline__ T* cl_at_if(bool keep, T* pointer, long long local, long long offset, cl_u64 bytes,
                                       unsigned* initialized, unsigned site, unsigned kind, cl_u64* report) {
    if (!keep) {
        return reinterpret_cast<T*>(report);
    }
    return cl_at(pointer, local, offset, bytes, initialized, site, kind, report);
}

// The kernel's own arrays. An access `a[e]` of a local or `__shared__` array declared in the
// kernel with a fixed size is rewritten to `(*cl_in(a, e, site, kind, report))`, each dimension
// of `a[i][j]` in turn; an access of the block's dynamic shared memory (an `extern __shared__`
// array `s`, or a pointer `p` derived from it) to `(*cl_dyn(p, e, s, site, kind, report))`. An
// index past the array is recorded at its site and redirected, so the run goes on to reach a
// verdict on the kernel's global-memory accesses instead of faulting.

// Where an access past one of the kernel's arrays goes: the report's scratch space when the
// element fits in it, else the array's first element.
template <typename T>
__device__ __forceinline__ T* cl_redirect(T* first, cl_u64* report) {
    if (sizeof(T) <= CL_SCRATCH_WORDS * sizeof(cl_u64)) {
        return (T*)(void*)report;
    }
    return first;
}

template <typename T, unsigned long long N>
__device__ __forceinline__ T* cl_in(T (&array)[N], long long index, unsigned site, unsigned kind, cl_u64* report) {
    if (index < 0 || (cl_u64)index >= N) {
        cl_record(report, site, index, kind, N, CL_OUT_OF_BOUNDS);
        return cl_redirect(array + 0, report);
    }
    return array + index;
}

// The bytes of dynamic shared memory the launch gave the block.
__device__ __forceinline__ unsigned cl_dynamic_shared_bytes() {
    unsigned bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes;
}

template <typename T, typename S>
__device__ __forceinline__ T* cl_dyn(T* pointer, long long index, S* start, unsigned site, unsigned kind, cl_u64* report) {
    long long size = (long long)sizeof(T);
    long long byte = (long long)((const char*)pointer - (const char*)start) + index * size;
    long long bytes = (long long)cl_dynamic_shared_bytes();
    if (byte < 0 || byte + size > bytes) {
        cl_record(report, site, byte / size, kind, (cl_u64)(bytes / size), CL_OUT_OF_BOUNDS);
        return cl_redirect(pointer, report);
    }
    return pointer + index;
}

// Barrier arrivals: each block-wide barrier `b` of the kernel under test is rewritten to
// `(cl_arrive(report + CL_SCRATCH_WORDS + sites * CL_SITE_WORDS, b), CL_WAIT(barrier))`, which
// counts the threads of each block (the first CL_BARRIER_BLOCKS blocks) that reach it. Where every thread of
// a block reaches a barrier equally often, its count is a multiple of the block's size; any other
// count is a block where some threads waited at a barrier that others skipped or left before.
#define CL_BARRIER_BLOCKS 4096

// A launch whose threads wait at different barriers can hang; it is run again compiled with
// CL_BARRIERS_DO_NOT_WAIT, where a barrier only counts its arrivals (and a counting barrier such
// as `__syncthreads_count` gives 0).
#ifdef CL_BARRIERS_DO_NOT_WAIT
#define CL_WAIT(barrier) 0
#else
#define CL_WAIT(barrier) (barrier)
#endif

__device__ __forceinline__ void cl_arrive(cl_u64* barriers, unsigned barrier) {
    cl_u64 block = blockIdx.x + (cl_u64)gridDim.x * (blockIdx.y + (cl_u64)gridDim.y * blockIdx.z);
    if (block < CL_BARRIER_BLOCKS) {
        atomicAdd(barriers + (cl_u64)barrier * CL_BARRIER_BLOCKS + block, 1ULL);
    }
}
