// Clean: unified (managed) memory written by the host and read by kernels, synchronised before host reads.
#include <cstdio>
#include <cstdlib>
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

struct Particle {
    float x, y, vx, vy;
};

__global__ void integrate(Particle* particles, int count, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        Particle p = particles[i];
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        particles[i] = p;
    }
}

__global__ void addVectors(const float* a, const float* b, float* c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        c[i] = a[i] + b[i];
    }
}

int main() {
    const int N = 1 << 20;
    float *a, *b, *c;
    HIP_CHECK(hipMallocManaged(&a, N * sizeof(float)));
    HIP_CHECK(hipMallocManaged(&b, N * sizeof(float)));
    HIP_CHECK(hipMallocManaged(&c, N * sizeof(float)));

    for (int i = 0; i < N; ++i) {
        a[i] = 1.0f + (i % 7);
        b[i] = 2.0f * (i % 5);
    }

    hipLaunchKernelGGL(addVectors, 256, 256, 0, 0, a, b, c, N);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    float maxError = 0.0f;
    for (int i = 0; i < N; ++i) {
        float expected = 1.0f + (i % 7) + 2.0f * (i % 5);
        float diff = c[i] - expected;
        if (diff < 0) diff = -diff;
        if (diff > maxError) maxError = diff;
    }
    printf("max error: %f\n", maxError);

    const int count = 4096;
    Particle* particles = nullptr;
    HIP_CHECK(hipMallocManaged(&particles, count * sizeof(Particle)));
    for (int i = 0; i < count; ++i) {
        particles[i].x = static_cast<float>(i);
        particles[i].y = 0.0f;
        particles[i].vx = static_cast<float>(rand() % 10) * 0.1f;
        particles[i].vy = 1.0f;
    }
    for (int step = 0; step < 10; ++step) {
        hipLaunchKernelGGL(integrate, (count + 127) / 128, 128, 0, 0, particles, count, 0.01f);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipDeviceSynchronize());
    printf("particle 1: (%f, %f)\n", particles[1].x, particles[1].y);

    HIP_CHECK(hipFree(particles));
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    return 0;
}
