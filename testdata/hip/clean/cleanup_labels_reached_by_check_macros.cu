// Clean: the success path frees both buffers and returns; the frees under the labels after the
// `return` run only when a check macro jumps there, before the success path's frees.
#include <hip/hip_runtime.h>

typedef enum { SUCCESS = 0, FAILURE = 1 } status_t;
#define CHK(stmt, label) do { if (!(stmt)) goto label; } while (0)
#define CHK_CU_SUCCESS(stmt, label) CHK((stmt) == hipSuccess, label)

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
    CHK_CU_SUCCESS(hipMalloc((void **)&values, n * sizeof(float)), err);
    CHK_CU_SUCCESS(hipMalloc((void **)&flags, sizeof(int)), err_free_values);
    CHK_CU_SUCCESS(hipMemcpy(values, host_values, n * sizeof(float), hipMemcpyHostToDevice),
                   err_free_all);
    scale<<<(n + 255) / 256, 256>>>(n, factor, values);
    CHK_CU_SUCCESS(hipGetLastError(), err_free_all);
    CHK_CU_SUCCESS(hipMemcpy(host_values, values, n * sizeof(float), hipMemcpyDeviceToHost),
                   err_free_all);
    CHK_CU_SUCCESS(hipFree(values), err);
    CHK_CU_SUCCESS(hipFree(flags), err);
    return SUCCESS;

err_free_all:
    (void)hipFree(flags);
err_free_values:
    (void)hipFree(values);
err:
    return FAILURE;
}
