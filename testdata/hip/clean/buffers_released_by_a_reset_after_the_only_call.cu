// Clean: the Visual Studio template's `addWithCuda` style. A helper allocates the device
// buffers, runs the kernel and returns without freeing them; a second helper allocates the
// program's file-level buffers. `main` calls each once and then resets the device, which
// releases every allocation made on it, so nothing is leaked.
#include "hip_check.h"

float* dev_field;
float* dev_model;

__global__ void addKernel(int* c, const int* a, const int* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

void addWithCuda(int* c, const int* a, const int* b, int n)
{
    int *dev_a, *dev_b, *dev_c;
    HIP_CHECK(hipMalloc(&dev_a, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&dev_b, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&dev_c, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(dev_a, a, n * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dev_b, b, n * sizeof(int), hipMemcpyHostToDevice));
    addKernel<<<(n + 255) / 256, 256>>>(dev_c, dev_a, dev_b, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(c, dev_c, n * sizeof(int), hipMemcpyDeviceToHost));
}

void gpu_memory_malloc(int cells)
{
    HIP_CHECK(hipMalloc(&dev_field, cells * sizeof(float)));
    HIP_CHECK(hipMalloc(&dev_model, cells * sizeof(float)));
}

void gpu_memory_free()
{
    HIP_CHECK(hipFree(dev_field));
}

int main()
{
    const int n = 5;
    int a[n] = {1, 2, 3, 4, 5}, b[n] = {10, 20, 30, 40, 50}, c[n] = {0};
    addWithCuda(c, a, b, n);
    gpu_memory_malloc(1024);
    HIP_CHECK(hipMemset(dev_field, 0, 1024 * sizeof(float)));
    HIP_CHECK(hipMemset(dev_model, 0, 1024 * sizeof(float)));
    gpu_memory_free();
    printf("{%d,%d,%d,%d,%d}\n", c[0], c[1], c[2], c[3], c[4]);
    HIP_CHECK(hipDeviceReset());
    return 0;
}
