// Bad: the launch passes 180 degrees but gives the shared memory of 90: the threads from 91 on
// store past the `2 * (MAX_DEGREES + 1)` ints of the block's copy.
#include <cuda_runtime.h>

#define MAX_DEGREES 90

__global__ void min_area(const int* areas, int* best, const int degrees)
{
    extern __shared__ int pairs[];
    const int angle = threadIdx.x;
    if (angle > degrees) {
        return;
    }
    pairs[2 * angle] = areas[blockIdx.x * 2 * (degrees + 1) + 2 * angle]; // expect: out-of-range-access
    pairs[2 * angle + 1] = areas[blockIdx.x * 2 * (degrees + 1) + 2 * angle + 1]; // expect: out-of-range-access
    best[blockIdx.x * (degrees + 1) + angle] = min(pairs[2 * angle], pairs[2 * angle + 1]); // expect: out-of-range-access, out-of-range-access
}

void find_min_area(const int* areas, int* best, int batch, cudaStream_t stream)
{
    const dim3 block(256);
    const size_t bytes = 2 * (MAX_DEGREES + 1) * sizeof(int);
    min_area<<<batch, block, bytes, stream>>>(areas, best, 2 * MAX_DEGREES);
    if (cudaGetLastError() != cudaSuccess) return;
}
