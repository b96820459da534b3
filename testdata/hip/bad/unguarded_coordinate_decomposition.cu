// The twin of testdata/clean/coordinate_decomposition.cu with the test of the flat position
// taken away: the coordinates rebuilt from it are no more bounded than it is.
#include <hip/hip_runtime.h>

// The flat position itself is never tested against the element count.
__global__ void reverse_axes(const float* in, float* out, const long* extent, const long* pitch,
                             const int* reversed, int rank, long total)
{
    long flat = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long left = flat;
    long source = 0;
    for (int d = 0; d < rank; d++) {
        long carried = left;
        long coordinate = left / pitch[d];
        left = carried - coordinate * pitch[d];
        if (reversed[d]) {
            coordinate = extent[d] - 1 - coordinate;
        }
        source += coordinate * pitch[d];
    }
    out[flat] = in[source]; // expect: unguarded-thread-index, unguarded-thread-index
}

hipError_t launch_reverse_axes(const float* in, float* out, const long* extent,
                                const long* pitch, const int* reversed, int rank, long total,
                                hipStream_t stream)
{
    const int threads = 256;
    const unsigned blocks = (unsigned)((total + threads - 1) / threads);
    hipLaunchKernelGGL(reverse_axes, blocks, threads, 0, stream, in, out, extent, pitch, reversed, rank, total);
    return hipGetLastError();
}
