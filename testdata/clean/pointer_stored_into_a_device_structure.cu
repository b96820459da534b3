// Clean: the spheres' buffer is handed to a structure in device memory by copying the pointer's
// value into it (`cudaMemcpy(&d_env->spheres, &d_spheres, sizeof(Sphere*), ...)`); the cleanup
// reads the pointer back from the device and frees it there.
#include <cuda_runtime.h>
#include "cuda_check.h"
struct Sphere { float x, y, z, r; };
struct Env { Sphere* spheres; unsigned num_spheres; };

__global__ void count_hits(const Env* env, const float* q, int n, int* hits) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (unsigned s = 0; s < env->num_spheres; s++)
        if (env->spheres[s].x < q[i]) atomicAdd(hits, 1);
}

inline void setup_env(Env*& d_env, const Env& h_env) {
    CUDA_CHECK(cudaMalloc(&d_env, sizeof(Env)));
    CUDA_CHECK(cudaMemset(d_env, 0, sizeof(Env)));
    if (h_env.num_spheres > 0) {
        Sphere* d_spheres;
        CUDA_CHECK(cudaMalloc(&d_spheres, sizeof(Sphere) * h_env.num_spheres));
        CUDA_CHECK(cudaMemcpy(d_spheres, h_env.spheres, sizeof(Sphere) * h_env.num_spheres, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(&(d_env->spheres), &d_spheres, sizeof(Sphere*), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(&(d_env->num_spheres), &h_env.num_spheres, sizeof(unsigned), cudaMemcpyHostToDevice));
    }
}

inline void cleanup_env(Env* d_env, const Env& h_env) {
    if (h_env.num_spheres > 0) {
        Sphere* d_spheres;
        CUDA_CHECK(cudaMemcpy(&d_spheres, &(d_env->spheres), sizeof(Sphere*), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFree(d_spheres));
    }
    CUDA_CHECK(cudaFree(d_env));
}

void run(const Env& h_env, const float* d_q, int n, int* d_hits) {
    Env* env;
    setup_env(env, h_env);
    count_hits<<<(n + 255) / 256, 256>>>(env, d_q, n, d_hits);
    CUDA_CHECK(cudaGetLastError());
    cleanup_env(env, h_env);
}
