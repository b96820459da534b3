// Bad: the early return in the bare block tests a bound one too far (`>` admits
// `global_index == num_vec`), and the second kernel's block returns on the row size alone.
#include <hip/hip_runtime.h>

__global__ void gather_rows(const float* const* rows, float* out, int num_vec, int vec_size)
{
    const int global_index = blockIdx.x * blockDim.x + threadIdx.x;
    {
        if (global_index > num_vec) return;
    }
    const float* src = rows[global_index]; // expect: out-of-range-access
    for (int k = 0; k < vec_size; ++k) {
        out[global_index * vec_size + k] = src[k];
    }
}

__global__ void scatter_rows(const float* const* rows, float* out, int num_vec, int vec_size)
{
    const int global_index = blockIdx.x * blockDim.x + threadIdx.x;
    {
        if (vec_size == 0) return;
    }
    const float* src = rows[global_index]; // expect: unguarded-thread-index
    out[global_index] = src[0];
}

void gather(const float* const* rows, float* out, int num_vec, int vec_size, hipStream_t stream)
{
    gather_rows<<<(num_vec + 127) / 128, 128, 0, stream>>>(rows, out, num_vec, vec_size);
    scatter_rows<<<(num_vec + 127) / 128, 128, 0, stream>>>(rows, out, num_vec, vec_size);
    if (hipGetLastError() != hipSuccess) return;
}
