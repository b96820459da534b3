// Clean: the spheres' buffer is handed to a structure in device memory by copying the pointer's
// value into it (`hipMemcpy(&d_env->spheres, &d_spheres, sizeof(Sphere*), ...)`); the cleanup
// reads the pointer back from the device and frees it there.
#include <hip/hip_runtime.h>
#include "hip_check.h"
struct Sphere { float x, y, z, r; };
struct Env { Sphere* spheres; unsigned num_spheres; };

__global__ void count_hits(const Env* env, const float* q, int n, int* hits) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (unsigned s = 0; s < env->num_spheres; s++)
        if (env->spheres[s].x < q[i]) atomicAdd(hits, 1);
}

inline void setup_env(Env*& d_env, const Env& h_env) {
    HIP_CHECK(hipMalloc(&d_env, sizeof(Env)));
    HIP_CHECK(hipMemset(d_env, 0, sizeof(Env)));
    if (h_env.num_spheres > 0) {
        Sphere* d_spheres;
        HIP_CHECK(hipMalloc(&d_spheres, sizeof(Sphere) * h_env.num_spheres));
        HIP_CHECK(hipMemcpy(d_spheres, h_env.spheres, sizeof(Sphere) * h_env.num_spheres, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(&(d_env->spheres), &d_spheres, sizeof(Sphere*), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(&(d_env->num_spheres), &h_env.num_spheres, sizeof(unsigned), hipMemcpyHostToDevice));
    }
}

inline void cleanup_env(Env* d_env, const Env& h_env) {
    if (h_env.num_spheres > 0) {
        Sphere* d_spheres;
        HIP_CHECK(hipMemcpy(&d_spheres, &(d_env->spheres), sizeof(Sphere*), hipMemcpyDeviceToHost));
        HIP_CHECK(hipFree(d_spheres));
    }
    HIP_CHECK(hipFree(d_env));
}

void run(const Env& h_env, const float* d_q, int n, int* d_hits) {
    Env* env;
    setup_env(env, h_env);
    count_hits<<<(n + 255) / 256, 256>>>(env, d_q, n, d_hits);
    HIP_CHECK(hipGetLastError());
    cleanup_env(env, h_env);
}
