// Indices rebuilt from a flat position that a guard bounds: the position is split into
// coordinates by dividing by the extents, and the remainder that carries to the next axis only
// ever shrinks, so every coordinate, and the offset recombined from them, stays inside the
// tensor the position came from.
#include <hip/hip_runtime.h>

// Reverses the axes named in `reversed` of a dense tensor of `rank` dimensions: each output
// element reads the input element at its mirrored coordinates.
__global__ void reverse_axes(const float* in, float* out, const long* extent, const long* pitch,
                             const int* reversed, int rank, long total)
{
    long flat = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (flat >= total) {
        return;
    }
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
    out[flat] = in[source];
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

// Copies a box out of a larger tensor: the output position is split into coordinates from the
// last axis to the first, each quotient carried on to the next axis.
__global__ void copy_box(const float* in, float* out, const int* box, const int* corner,
                         const int* pitch, int rank, int count)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index >= count) {
        return;
    }
    int rest = index;
    int from = 0;
    for (int d = rank - 1; d >= 0; d--) {
        int next = rest / box[d];
        int coordinate = rest - next * box[d];
        from += (corner[d] + coordinate) * pitch[d];
        rest = next;
    }
    out[index] = in[from];
}

hipError_t launch_copy_box(const float* in, float* out, const int* box, const int* corner,
                            const int* pitch, int rank, int count, hipStream_t stream)
{
    hipLaunchKernelGGL(copy_box, (count + 127) / 128, 128, 0, stream, in, out, box, corner, pitch, rank, count);
    return hipGetLastError();
}

// Mirrors the axes set in `mirrored` (one bit per axis): the position is divided in place, one
// axis per trip, and the remainder handed back for the next axis at the end of the trip.
__global__ void mirror_gather(const float* in, float* out, const int* pitch, const int* extent,
                              unsigned mirrored, int rank, int count)
{
    int walk = blockIdx.x * blockDim.x + threadIdx.x;
    if (walk >= count) {
        return;
    }
    const int position = walk;
    int left_over = 0;
    int from = 0;
    for (int d = 0; d < rank; ++d) {
        const int before = walk;
        walk = walk / pitch[d];
        left_over = before - walk * pitch[d];
        const int coordinate = ((mirrored >> d) & 1u) ? extent[d] - 1 - walk : walk;
        from += coordinate * pitch[d];
        walk = left_over;
    }
    out[position] = in[from];
}

hipError_t launch_mirror_gather(const float* in, float* out, const int* pitch,
                                 const int* extent, unsigned mirrored, int rank, int count,
                                 hipStream_t stream)
{
    mirror_gather<<<(count + 255) / 256, 256, 0, stream>>>(in, out, pitch, extent, mirrored,
                                                          rank, count);
    return hipGetLastError();
}
