// Clean: cooperative groups: grid-stride over cg::this_grid().thread_rank(), block.sync() and cg::sync(block) at uniform points.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

namespace cg = cooperative_groups;

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void squareAll(const float* in, float* out, unsigned long long n) {
    cg::grid_group grid = cg::this_grid();
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) {
        out[i] = in[i] * in[i];
    }
}

__global__ void negate(float* data, unsigned long long n) {
    unsigned long long i = cg::this_grid().thread_rank();
    if (i < n) {
        data[i] = -data[i];
    }
}

__global__ void blockSum(const float* in, float* blockSums, int n) {
    extern __shared__ float scratch[];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (gid < n) ? in[gid] : 0.0f;

    for (int offset = warp.size() / 2; offset > 0; offset /= 2) {
        v += warp.shfl_down(v, offset);
    }
    if (warp.thread_rank() == 0) {
        scratch[warp.meta_group_rank()] = v;
    }
    block.sync();

    if (warp.meta_group_rank() == 0) {
        float w = (warp.thread_rank() < warp.meta_group_size()) ? scratch[warp.thread_rank()] : 0.0f;
        for (int offset = warp.size() / 2; offset > 0; offset /= 2) {
            w += warp.shfl_down(w, offset);
        }
        if (block.thread_rank() == 0) {
            blockSums[blockIdx.x] = w;
        }
    }
    cg::sync(block);
}

int main() {
    const unsigned long long n = 3000000ULL;
    const int threads = 256;
    const int blocks = static_cast<int>((n + threads - 1) / threads);
    std::vector<float> h_in(n);
    for (unsigned long long i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(rand() % 200 - 100) / 10.0f;
    }

    float* d_in = nullptr;
    float* d_sq = nullptr;
    float* d_sums = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_sq, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_sums, blocks * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));

    hipLaunchKernelGGL(squareAll, 512, threads, 0, 0, d_in, d_sq, n);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(negate, blocks, threads, 0, 0, d_sq, n);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(blockSum, blocks, threads, (threads / 32) * sizeof(float), 0, d_sq, d_sums, static_cast<int>(n));
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    std::vector<float> h_sums(blocks);
    HIP_CHECK(hipMemcpy(h_sums.data(), d_sums, blocks * sizeof(float), hipMemcpyDeviceToHost));
    double total = 0.0;
    for (float s : h_sums) total += s;
    printf("sum of -x^2 = %f\n", total);

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_sq));
    HIP_CHECK(hipFree(d_sums));
    return 0;
}
