// Clean: stencils with halos: interior guards `i > 0 && i < n - 1`, clamped shared-memory halo loads, uniform barriers.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
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
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_smooth, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    // Boundary elements are not written by smooth3; start from zeros.
    CUDA_CHECK(cudaMemset(d_smooth, 0, n * sizeof(float)));

    smooth3<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_smooth, n);
    CUDA_CHECK(cudaGetLastError());
    stencil1dShared<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_smooth, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("out[10] = %f\n", h_out[10]);

    const int width = 512, height = 384;
    const size_t gridBytes = (size_t)width * height * sizeof(float);
    std::vector<float> h_t((size_t)width * height);
    for (size_t i = 0; i < h_t.size(); ++i) {
        h_t[i] = (i % width == width / 2) ? 100.0f : 20.0f;
    }
    float* d_t = nullptr;
    float* d_tNew = nullptr;
    CUDA_CHECK(cudaMalloc(&d_t, gridBytes));
    CUDA_CHECK(cudaMalloc(&d_tNew, gridBytes));
    CUDA_CHECK(cudaMemcpy(d_t, h_t.data(), gridBytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_tNew, d_t, gridBytes, cudaMemcpyDeviceToDevice));

    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    for (int step = 0; step < 100; ++step) {
        heat2d<<<grid, block>>>(d_t, d_tNew, width, height, 0.2f);
        CUDA_CHECK(cudaGetLastError());
        float* tmp = d_t;
        d_t = d_tNew;
        d_tNew = tmp;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_t.data(), d_t, gridBytes, cudaMemcpyDeviceToHost));
    printf("t[center] = %f\n", h_t[(height / 2) * width + width / 2]);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_smooth));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_t));
    CUDA_CHECK(cudaFree(d_tNew));
    return 0;
}
