// Clean: tiled shared-memory matmul; __syncthreads() in a loop whose trip count is uniform.
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

#define TILE 16

__global__ void matmulTiled(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int aCol = t * TILE + tx;
        int bRow = t * TILE + ty;
        As[ty][tx] = (row < M && aCol < K) ? A[row * K + aCol] : 0.0f;
        Bs[ty][tx] = (bRow < K && col < N) ? B[bRow * N + col] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int k = 0; k < TILE; ++k) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }

    if (row < M && col < N) {
        C[row * N + col] = sum;
    }
}

static void matmulReference(const std::vector<float>& a, const std::vector<float>& b,
                            std::vector<float>& c, int M, int N, int K) {
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            float s = 0.0f;
            for (int k = 0; k < K; ++k) {
                s += a[i * K + k] * b[k * N + j];
            }
            c[i * N + j] = s;
        }
    }
}

int main() {
    const int M = 300, N = 200, K = 250;
    std::vector<float> h_A((size_t)M * K), h_B((size_t)K * N), h_C((size_t)M * N), h_ref((size_t)M * N);
    for (auto& v : h_A) v = static_cast<float>(rand()) / RAND_MAX;
    for (auto& v : h_B) v = static_cast<float>(rand()) / RAND_MAX;

    float *d_A, *d_B, *d_C;
    HIP_CHECK(hipMalloc(&d_A, h_A.size() * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_B, h_B.size() * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_C, h_C.size() * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_A, h_A.data(), h_A.size() * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_B, h_B.data(), h_B.size() * sizeof(float), hipMemcpyHostToDevice));

    dim3 threads(TILE, TILE);
    dim3 blocks((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    hipLaunchKernelGGL(matmulTiled, blocks, threads, 0, 0, d_A, d_B, d_C, M, N, K);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_C.data(), d_C, h_C.size() * sizeof(float), hipMemcpyDeviceToHost));

    matmulReference(h_A, h_B, h_ref, M, N, K);
    double maxErr = 0.0;
    for (size_t i = 0; i < h_C.size(); ++i) {
        double e = h_C[i] > h_ref[i] ? h_C[i] - h_ref[i] : h_ref[i] - h_C[i];
        if (e > maxErr) maxErr = e;
    }
    printf("max abs error = %g\n", maxErr);

    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_B));
    HIP_CHECK(hipFree(d_C));
    return 0;
}
