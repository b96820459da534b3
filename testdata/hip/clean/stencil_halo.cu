// Clean: stencils with halos: interior guards `i > 0 && i < n - 1`, clamped shared-memory halo loads, uniform barriers.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define RADIUS 3
#define BLOCK 256

__global__ void smooth3(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) {
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
    }
}

__global__ void stencil1dShared(const float* in, float* out, int n) {
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int gi = blockIdx.x * blockDim.x + threadIdx.x;
    int li = threadIdx.x + RADIUS;

    // Clamp-to-edge loads so every thread reaches the barrier.
    tile[li] = in[min(gi, n - 1)];
    if (threadIdx.x < RADIUS) {
        tile[li - RADIUS] = in[min(max(gi - RADIUS, 0), n - 1)];
        tile[li + BLOCK] = in[min(gi + BLOCK, n - 1)];
    }
    __syncthreads();

    if (gi < n) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k) {
            acc += tile[li + k];
        }
        out[gi] = acc / (2 * RADIUS + 1);
    }
}

__global__ void heat2d(const float* t, float* tNew, int width, int height, float alpha) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 1 && x < width - 1 && y >= 1 && y < height - 1) {
        int c = y * width + x;
        tNew[c] = t[c] + alpha * (t[c - 1] + t[c + 1] + t[c - width] + t[c + width] - 4.0f * t[c]);
    }
}

int main() {
    const int n = 100000;
    std::vector<float> h_in(n), h_out(n);
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>((i * 31) % 17) - 8.0f;
    }
    float* d_in = nullptr;
    float* d_smooth = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_smooth, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    // Boundary elements are not written by smooth3; start from zeros.
    HIP_CHECK(hipMemset(d_smooth, 0, n * sizeof(float)));

    smooth3<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_smooth, n);
    HIP_CHECK(hipGetLastError());
    stencil1dShared<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_smooth, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("out[10] = %f\n", h_out[10]);

    const int width = 512, height = 384;
    const size_t gridBytes = (size_t)width * height * sizeof(float);
    std::vector<float> h_t((size_t)width * height);
    for (size_t i = 0; i < h_t.size(); ++i) {
        h_t[i] = (i % width == width / 2) ? 100.0f : 20.0f;
    }
    float* d_t = nullptr;
    float* d_tNew = nullptr;
    HIP_CHECK(hipMalloc(&d_t, gridBytes));
    HIP_CHECK(hipMalloc(&d_tNew, gridBytes));
    HIP_CHECK(hipMemcpy(d_t, h_t.data(), gridBytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_tNew, d_t, gridBytes, hipMemcpyDeviceToDevice));

    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    for (int step = 0; step < 100; ++step) {
        heat2d<<<grid, block>>>(d_t, d_tNew, width, height, 0.2f);
        HIP_CHECK(hipGetLastError());
        float* tmp = d_t;
        d_t = d_tNew;
        d_tNew = tmp;
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_t.data(), d_t, gridBytes, hipMemcpyDeviceToHost));
    printf("t[center] = %f\n", h_t[(height / 2) * width + width / 2]);

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_smooth));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipFree(d_t));
    HIP_CHECK(hipFree(d_tNew));
    return 0;
}
