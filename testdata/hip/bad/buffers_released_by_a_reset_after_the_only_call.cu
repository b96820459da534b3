// Bad: a helper allocates the device buffers, runs the kernel and returns without freeing
// them. `main` resets the device at its end, but it calls the helper once per batch in a
// loop, so every call but the last leaves three buffers behind until that reset.
#include "hip_check.h"

__global__ void addKernel(int* c, const int* a, const int* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

void addWithCuda(int* c, const int* a, const int* b, int n)
{
    int *dev_a, *dev_b, *dev_c;
    HIP_CHECK(hipMalloc(&dev_a, n * sizeof(int)));  // expect: device-memory-leak
    HIP_CHECK(hipMalloc(&dev_b, n * sizeof(int)));  // expect: device-memory-leak
    HIP_CHECK(hipMalloc(&dev_c, n * sizeof(int)));  // expect: device-memory-leak
    HIP_CHECK(hipMemcpy(dev_a, a, n * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dev_b, b, n * sizeof(int), hipMemcpyHostToDevice));
    addKernel<<<(n + 255) / 256, 256>>>(dev_c, dev_a, dev_b, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(c, dev_c, n * sizeof(int), hipMemcpyDeviceToHost));
}

int main()
{
    const int n = 5;
    int a[n] = {1, 2, 3, 4, 5}, b[n] = {10, 20, 30, 40, 50}, c[n] = {0};
    for (int batch = 0; batch < 4; batch++) {
        addWithCuda(c, a, b, n);
    }
    printf("{%d,%d,%d,%d,%d}\n", c[0], c[1], c[2], c[3], c[4]);
    HIP_CHECK(hipDeviceReset());
    return 0;
}
