// Clean: counts the host rounds up to a multiple of what one block covers, allocates with and
// launches over exactly: threads past the real count land in the padding, never past the
// buffer. The count rounded up in place (`n = (n + per - 1) / per * per`) with a grid of
// `n / per` blocks reading four values per thread through `int4`; a count padded to whole blocks
// of 256 with a `%` test, planes of it laid one after another, and a grid rounded up over it
// (exact, since the count is already a multiple of the block); a `float4` view written with a C
// cast.
#include "hip_check.h"

#define THREADS 256
#define PLANES 3

// Four neighbouring items per thread, loaded and stored as one 16-byte vector.
template <int BLOCK>
__global__ void shift_items(const int* in, int* out, int offset) {
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    int items[4];
    reinterpret_cast<int4*>(items)[0] = reinterpret_cast<const int4*>(in)[v];
    for (int k = 0; k < 4; ++k) items[k] += offset;
    reinterpret_cast<int4*>(out)[v] = reinterpret_cast<int4*>(items)[0];
}

template <int BLOCK>
void shift_all(int* h_items, int count, int offset) {
    const int per_thread = 4;
    const int per_block = BLOCK * per_thread;
    count = (count + per_block - 1) / per_block * per_block;
    int* d_in;
    int* d_out;
    HIP_CHECK(hipMalloc((void**)&d_in, sizeof(int) * count));
    HIP_CHECK(hipMalloc((void**)&d_out, sizeof(int) * count));
    HIP_CHECK(hipMemcpy(d_in, h_items, sizeof(int) * count, hipMemcpyHostToDevice));
    const int blocks = count / per_block;
    dim3 grid(blocks);
    dim3 block(BLOCK);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(shift_items<BLOCK>), grid, block, 0, 0, d_in, d_out, offset);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_items, d_out, sizeof(int) * count, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
}

// Every plane of the padded cells starts from the same far-field value.
__global__ void fill_planes(int cells, float* planes, const float* far_field) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    for (int p = 0; p < PLANES; p++) planes[c + p * cells] = far_field[p];
}

// Halves every value of a padded buffer, four at a time.
__global__ void halve4(float* values) {
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = ((float4*)values)[q];
    v.x *= 0.5f;
    v.y *= 0.5f;
    v.z *= 0.5f;
    v.w *= 0.5f;
    ((float4*)values)[q] = v;
}

void start(const float* h_far_field, int cells) {
    int padded;
    padded = THREADS * (cells / THREADS + (cells % THREADS != 0));
    float* d_far_field;
    float* d_planes;
    HIP_CHECK(hipMalloc((void**)&d_far_field, sizeof(float) * PLANES));
    HIP_CHECK(hipMemcpy(d_far_field, h_far_field, sizeof(float) * PLANES, hipMemcpyHostToDevice));
    HIP_CHECK(hipMalloc((void**)&d_planes, sizeof(float) * padded * PLANES));
    dim3 grid((padded + THREADS - 1) / THREADS);
    hipLaunchKernelGGL(fill_planes, grid, THREADS, 0, 0, padded, d_planes, d_far_field);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(halve4, padded * PLANES / 4 / THREADS, THREADS, 0, 0, d_planes);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_planes));
    HIP_CHECK(hipFree(d_far_field));
}
