// Clean: the bound test sits in a bare block of its own (a scope for the row's locals), and its
// early return still holds after the block: every access below is guarded.
#include <cuda_runtime.h>

__global__ void gather_rows(const float* const* rows, float* out, int num_vec, int vec_size)
{
    const int global_index = blockIdx.x * blockDim.x + threadIdx.x;
    {
        const int total = num_vec;
        if (global_index >= total) return;
    }
    {
        if (global_index >= num_vec) return;
    }
    const float* src = rows[global_index];
    for (int k = 0; k < vec_size; ++k) {
        out[global_index * vec_size + k] = src[k];
    }
}

void gather(const float* const* rows, float* out, int num_vec, int vec_size, cudaStream_t stream)
{
    gather_rows<<<(num_vec + 127) / 128, 128, 0, stream>>>(rows, out, num_vec, vec_size);
    if (cudaGetLastError() != cudaSuccess) return;
}
