// Clean: the loop limit is rounded up to a multiple of 32 by a helper (`round_up(w, 32)`), so
// the lanes of a warp cross it together and the ballots are reached by whole warps.
#include <cuda_runtime.h>

__host__ __device__ int div_up(int x, int y) { return (x + y - 1) / y; }
__host__ __device__ int round_up(int x, int y) { return div_up(x, y) * y; }

__global__ void row_counts(const unsigned char* mask, int h, int w, int* out) {
    const int x0 = threadIdx.x + blockIdx.x * blockDim.x;
    const int y = threadIdx.y + blockIdx.y * blockDim.y;
    const int w_32 = round_up(w, 32);
    if (y >= h) return;
    for (int x = x0; x < w_32; x += blockDim.x * gridDim.x) {
        unsigned active = __ballot_sync(0xffffffff, x < w);
        if (x < w) out[y * w + x] = __popc(__ballot_sync(active, mask[y * w + x]));
    }
}

int count_rows(const unsigned char* mask, int h, int w, int* out) {
    row_counts<<<dim3(div_up(w, 32), div_up(h, 4)), dim3(32, 4)>>>(mask, h, w, out);
    return cudaGetLastError() != cudaSuccess;
}
