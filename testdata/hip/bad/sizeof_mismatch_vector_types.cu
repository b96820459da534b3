// Bad: byte counts for vector, half and aliased element types computed with the size of another type.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
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
    HIP_CHECK(hipMalloc(&d_pos, n * sizeof(float4)));
    HIP_CHECK(hipMalloc(&d_vel, n * sizeof(float))); // expect: sizeof-mismatch
    HIP_CHECK(hipMemcpy(d_pos, h_pos.data(), n * sizeof(float4), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_vel, 0, n * sizeof(float4)));
    integrate<<<(n + 255) / 256, 256>>>(d_pos, d_vel, 0.01f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_pos));
    HIP_CHECK(hipFree(d_vel));
}

static void convertToHalf(const std::vector<float>& h_in) {
    const int n = static_cast<int>(h_in.size());
    float* d_in = nullptr;
    __half* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(__half)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    toHalf<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    std::vector<__half> h_out(n);
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost)); // expect: sizeof-mismatch
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
}

static void runAxpy(const std::vector<real_t>& h_x, std::vector<real_t>& h_y) {
    const int n = static_cast<int>(h_x.size());
    real_t *d_x = nullptr, *d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(float))); // expect: sizeof-mismatch
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(real_t)));
    HIP_CHECK(hipMemcpy(d_x, h_x.data(), n * sizeof(real_t), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, h_y.data(), n * sizeof(real_t), hipMemcpyHostToDevice));
    axpy<<<(n + 255) / 256, 256>>>(2.0, d_x, d_y, n);
    HIP_CHECK(hipGetLastError());
    const int numBlocks = (n + 255) / 256;
    accum_t* d_sums = nullptr;
    HIP_CHECK(hipMalloc(&d_sums, numBlocks * sizeof(float))); // expect: sizeof-mismatch
    HIP_CHECK(hipMemset(d_sums, 0, numBlocks * sizeof(accum_t)));
    HIP_CHECK(hipMemcpy(h_y.data(), d_y, n * sizeof(real_t), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_sums));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
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
