// Clean: a buffer lives in device or pinned host memory, chosen by its space; it is allocated
// and released through the arms of a `?:`, and only one arm runs.
#include <cuda_runtime.h>

enum class space_t { device, host };

template <typename T>
T* allocate(size_t count, space_t space)
{
    T* pointer = nullptr;
    (space == space_t::device) ? cudaMalloc(&pointer, count * sizeof(T))
                               : cudaMallocHost(&pointer, count * sizeof(T));
    return pointer;
}

template <typename T>
void release(T* pointer, space_t space)
{
    if (!pointer) return;
    (space == space_t::device) ? cudaFree(pointer) : cudaFreeHost(pointer);
}

void round_trip(size_t count)
{
    float* staging;
    const bool on_device = count > 1024;
    if (on_device ? cudaMalloc(&staging, count * sizeof(float)) != cudaSuccess
                  : cudaMallocHost(&staging, count * sizeof(float)) != cudaSuccess)
        return;
    on_device ? cudaFree(staging) : cudaFreeHost(staging);
}
