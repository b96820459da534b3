// Bad: byte counts for vector, half and aliased element types computed with the size of another type.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

typedef double real_t;
using accum_t = double;

__global__ void integrate(const float4* pos, float4* vel, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = pos[i];
        vel[i] = make_float4(vel[i].x - p.x * dt, vel[i].y - p.y * dt, vel[i].z - p.z * dt, 0.0f);
    }
}

__global__ void toHalf(const float* in, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __float2half(in[i]);
    }
}

__global__ void axpy(real_t a, const real_t* x, real_t* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += a * x[i];
    }
}

// n particles, four floats each
static void stepParticles(const std::vector<float4>& h_pos, int n) {
    float4 *d_pos = nullptr, *d_vel = nullptr;
    CUDA_CHECK(cudaMalloc(&d_pos, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_vel, n * sizeof(float))); // expect: sizeof-mismatch
    CUDA_CHECK(cudaMemcpy(d_pos, h_pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_vel, 0, n * sizeof(float4)));
    integrate<<<(n + 255) / 256, 256>>>(d_pos, d_vel, 0.01f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_pos));
    CUDA_CHECK(cudaFree(d_vel));
}

static void convertToHalf(const std::vector<float>& h_in) {
    const int n = static_cast<int>(h_in.size());
    float* d_in = nullptr;
    __half* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(__half)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    toHalf<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    std::vector<__half> h_out(n);
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost)); // expect: sizeof-mismatch
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
}

static void runAxpy(const std::vector<real_t>& h_x, std::vector<real_t>& h_y) {
    const int n = static_cast<int>(h_x.size());
    real_t *d_x = nullptr, *d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float))); // expect: sizeof-mismatch
    CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(real_t)));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(real_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, h_y.data(), n * sizeof(real_t), cudaMemcpyHostToDevice));
    axpy<<<(n + 255) / 256, 256>>>(2.0, d_x, d_y, n);
    CUDA_CHECK(cudaGetLastError());
    const int numBlocks = (n + 255) / 256;
    accum_t* d_sums = nullptr;
    CUDA_CHECK(cudaMalloc(&d_sums, numBlocks * sizeof(float))); // expect: sizeof-mismatch
    CUDA_CHECK(cudaMemset(d_sums, 0, numBlocks * sizeof(accum_t)));
    CUDA_CHECK(cudaMemcpy(h_y.data(), d_y, n * sizeof(real_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
}

int main() {
    const int n = 4096;
    std::vector<float4> pos(n, make_float4(1.0f, 2.0f, 3.0f, 0.0f));
    stepParticles(pos, n);
    std::vector<float> values(n, 0.5f);
    convertToHalf(values);
    std::vector<real_t> x(n, 1.0), y(n, 2.0);
    runAxpy(x, y);
    printf("y[0] = %f\n", y[0]);
    return 0;
}
