// Bad: two locals named `n` in sibling blocks. The first now differs between the lanes of a warp
// (one row per lane), so the broadcast under `n < size_n` leaves part of the last warp out; the
// second `n` is another variable.
#include <hip/hip_runtime.h>

__device__ float first_lane(const float* in) {
    float s = threadIdx.x == 0 ? in[0] : 0.0f;
    return __shfl_sync(0xffffffff, s, 0);
}

__global__ void broadcast_rows(const float* in, float* out, int size_n) {
    __shared__ float rows[4 * 32];
    const int n_base = blockIdx.x * 4;
    for (int pass = 0; pass < 2; ++pass) {
        {
            int n = n_base * 32 + threadIdx.x;
            if (n < size_n) rows[threadIdx.y * 32 + threadIdx.x] = first_lane(in + n * 32 + pass); // expect: partial-warp-shuffle
        }
        __syncthreads();
        for (int i = threadIdx.y * 32 + threadIdx.x; i < 4 * 32; i += 128) {
            int n = n_base + i % 4;
            if (n < size_n) out[n * 32 + i / 4] = rows[i];
        }
        __syncthreads();
    }
}

int run_broadcast(const float* in, float* out, int size_n) {
    broadcast_rows<<<(size_n + 3) / 4, dim3(32, 4)>>>(in, out, size_n);
    return hipGetLastError() != hipSuccess;
}
