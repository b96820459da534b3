// Clean: the success path frees both buffers and returns; the frees under the labels after the
// `return` run only when a check macro jumps there, before the success path's frees.
#include <cuda_runtime.h>

typedef enum { SUCCESS = 0, FAILURE = 1 } status_t;
#define CHK(stmt, label) do { if (!(stmt)) goto label; } while (0)
#define CHK_CU_SUCCESS(stmt, label) CHK((stmt) == cudaSuccess, label)

__global__ void scale(int n, float factor, float *values)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        values[i] *= factor;
}

status_t scale_on_gpu(int n, float factor, float *host_values)
{
    float *values = NULL;
    int *flags = NULL;
    CHK_CU_SUCCESS(cudaMalloc((void **)&values, n * sizeof(float)), err);
    CHK_CU_SUCCESS(cudaMalloc((void **)&flags, sizeof(int)), err_free_values);
    CHK_CU_SUCCESS(cudaMemcpy(values, host_values, n * sizeof(float), cudaMemcpyHostToDevice),
                   err_free_all);
    scale<<<(n + 255) / 256, 256>>>(n, factor, values);
    CHK_CU_SUCCESS(cudaGetLastError(), err_free_all);
    CHK_CU_SUCCESS(cudaMemcpy(host_values, values, n * sizeof(float), cudaMemcpyDeviceToHost),
                   err_free_all);
    CHK_CU_SUCCESS(cudaFree(values), err);
    CHK_CU_SUCCESS(cudaFree(flags), err);
    return SUCCESS;

err_free_all:
    (void)cudaFree(flags);
err_free_values:
    (void)cudaFree(values);
err:
    return FAILURE;
}
