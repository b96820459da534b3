// Clean: unified (managed) memory written by the host and read by kernels, synchronised before host reads.
#include <cstdio>
#include <cstdlib>
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
    CUDA_CHECK(cudaMallocManaged(&a, N * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&b, N * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&c, N * sizeof(float)));

    for (int i = 0; i < N; ++i) {
        a[i] = 1.0f + (i % 7);
        b[i] = 2.0f * (i % 5);
    }

    addVectors<<<256, 256>>>(a, b, c, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

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
    CUDA_CHECK(cudaMallocManaged(&particles, count * sizeof(Particle)));
    for (int i = 0; i < count; ++i) {
        particles[i].x = static_cast<float>(i);
        particles[i].y = 0.0f;
        particles[i].vx = static_cast<float>(rand() % 10) * 0.1f;
        particles[i].vy = 1.0f;
    }
    for (int step = 0; step < 10; ++step) {
        integrate<<<(count + 127) / 128, 128>>>(particles, count, 0.01f);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("particle 1: (%f, %f)\n", particles[1].x, particles[1].y);

    CUDA_CHECK(cudaFree(particles));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    return 0;
}
