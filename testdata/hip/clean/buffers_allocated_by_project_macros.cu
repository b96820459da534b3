// Clean: a simulator that allocates and frees device memory through its own macros, each
// wrapping the CUDA call in an error check. The macro's parameter is the buffer the call
// allocates or frees, so the copy after `SAFE_ALOC_GPU(result_gpu, ...)` writes allocated
// memory and `SAFE_FREE_GPU` releases it.
#include <cstdio>
#include <hip/hip_runtime.h>

#define hipSafeCall(err) __cudaSafeCall(err, __FILE__, __LINE__)
inline void __cudaSafeCall(hipError err, const char *file, const int line)
{
    if (hipSuccess != err) fprintf(stderr, "%s:%i %s\n", file, line, hipGetErrorString(err));
}
#define SAFE_ALOC_GPU(X, Y) hipSafeCall(hipMalloc((void **)&(X), (Y)));
#define SAFE_FREE_GPU(X)                  \
    if ((X) != NULL) {                    \
        hipSafeCall(hipFree((X)));      \
        (X) = NULL;                       \
    }

__global__ void expectation_z(const double *sv, double *result, long dim)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < dim) atomicAdd(result, sv[i] * sv[i]);
}

double get_expectation_z(const double *sv_gpu, long dim)
{
    double result = 0.0;
    double *result_gpu;
    SAFE_ALOC_GPU(result_gpu, sizeof(double));
    hipSafeCall(hipMemcpy(result_gpu, &result, sizeof(double), hipMemcpyHostToDevice));
    int threads = 256;
    int blocks = (dim + threads - 1) / threads;
    hipLaunchKernelGGL(expectation_z, blocks, threads, 0, 0, sv_gpu, result_gpu, dim);
    hipSafeCall(hipGetLastError());
    hipSafeCall(hipMemcpy(&result, result_gpu, sizeof(double), hipMemcpyDeviceToHost));
    SAFE_FREE_GPU(result_gpu);
    return result;
}
