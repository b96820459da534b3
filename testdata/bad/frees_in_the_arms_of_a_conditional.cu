// Bad: the device buffer is freed, and then released again through a `?:` whose device arm
// frees it a second time.
#include <cuda_runtime.h>

enum class space_t { device, host };

void release_twice(size_t count, space_t space)
{
    float* buffer;
    if (cudaMalloc(&buffer, count * sizeof(float)) != cudaSuccess) return;
    if (cudaFree(buffer) != cudaSuccess) return;
    (space == space_t::device) ? cudaFree(buffer) : cudaFreeHost(buffer); // expect: double-free
}
