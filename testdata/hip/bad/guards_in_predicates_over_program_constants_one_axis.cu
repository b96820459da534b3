// Bad: a pseudo-spectral solver with its grid sizes fixed at compile time keeps its bounds test
// in a predicate helper; `in_kx_range(idx)` bounds only `idx` (by the program's constant `NX`),
// so threads of the last block on `y` (the grid is rounded up to 16 modes) read `ky` and write
// `phi` past the `NYC` modes they hold.
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define NX 64
#define NY 64
#define NYC (NY / 2 + 1)
#define NZ 32

__device__ bool in_kx_range(int idx) {
    if (idx < NX)
        return true;
    else
        return false;
}

__global__ void solve_potential(float2* phi, const float2* g, const float* kx, const float* ky) {
    unsigned int idy = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int idx = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idz = blockIdx.z * blockDim.z + threadIdx.z;
    if (in_kx_range(idx) && idz < NZ) {
        unsigned int idxyz = idy + NYC * (idx + NX * idz);
        float k2 = ky[idy] * ky[idy] + kx[idx] * kx[idx]; // expect: unguarded-thread-index
        phi[idxyz] = make_float2(g[idxyz].x / k2, g[idxyz].y / k2); // expect: unguarded-thread-index
    }
}

int main() {
    const size_t cells = (size_t)NX * NYC * NZ;
    float2 *phi = nullptr, *g = nullptr;
    float *kx = nullptr, *ky = nullptr;
    HIP_CHECK(hipMalloc(&phi, cells * sizeof(float2)));
    HIP_CHECK(hipMalloc(&g, cells * sizeof(float2)));
    HIP_CHECK(hipMalloc(&kx, NX * sizeof(float)));
    HIP_CHECK(hipMalloc(&ky, NYC * sizeof(float)));
    HIP_CHECK(hipMemset(g, 0, cells * sizeof(float2)));
    HIP_CHECK(hipMemset(kx, 0, NX * sizeof(float)));
    HIP_CHECK(hipMemset(ky, 0, NYC * sizeof(float)));
    dim3 block(16, 4, 4);
    dim3 grid((NYC + 15) / 16, (NX + 3) / 4, (NZ + 3) / 4);
    solve_potential<<<grid, block>>>(phi, g, kx, ky);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(phi));
    HIP_CHECK(hipFree(g));
    HIP_CHECK(hipFree(kx));
    HIP_CHECK(hipFree(ky));
    return 0;
}
