// Clean: a particle-in-cell current deposit accumulates into a tile of the grid held in dynamic
// shared memory, with its locals declared once at the top as the C original does. The local `nn`
// holds a count of particles (from the thread's pass) and the tile's clipped width, and, per
// particle, the cell the particle's loaded position falls in less the tile's origin: the value
// that reaches the deposit is data placed relative to the block, not the thread's position, and
// the particles sorted into the tile lie inside it.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void deposit_current(const float* ppart, const int* kpic, float* cu, int* deposited,
                                float qm, int nppmx, int nx, int ny, int mx, int my, int mx1,
                                int mxy1) {
    int noff, moff, npp, npoff, i, j, ii, nn, mm;
    float x, y, dxp, dyp;
    extern __shared__ float scu[];
    const int mxv = mx + 1;
    const int k = blockIdx.x + gridDim.x * blockIdx.y;
    if (k < mxy1) {
        noff = k / mx1;
        moff = my * noff;
        noff = mx * (k - mx1 * noff);
        npp = kpic[k];
        npoff = 2 * nppmx * k;
        i = threadIdx.x;
        while (i < mxv * (my + 1)) {
            scu[i] = 0.0f;
            i += blockDim.x;
        }
        __syncthreads();
        ii = (npp - 1) / (int)blockDim.x + 1;
        for (i = 0; i < ii; i++) {
            j = threadIdx.x + blockDim.x * i;
            if (j < npp) {
                x = ppart[j + npoff];
                y = ppart[j + npoff + nppmx];
                nn = x;
                mm = y;
                dxp = qm * (x - (float)nn);
                dyp = y - (float)mm;
                nn = (nn - noff) + mxv * (mm - moff);
                atomicAdd(&scu[nn], (qm - dxp) * (1.0f - dyp));
                atomicAdd(&scu[nn + 1], dxp * (1.0f - dyp));
                atomicAdd(&scu[nn + mxv], (qm - dxp) * dyp);
                atomicAdd(&scu[nn + mxv + 1], dxp * dyp);
            }
            nn = npp - blockDim.x * i;
            if (nn > blockDim.x) nn = blockDim.x;
            if (threadIdx.x == 0) deposited[k] += nn;
        }
        __syncthreads();
        nn = nx + 1 - noff;
        mm = ny + 1 - moff;
        nn = mxv < nn ? mxv : nn;
        mm = my + 1 < mm ? my + 1 : mm;
        ii = threadIdx.x;
        while (ii < mxv * (my + 1)) {
            j = ii / mxv;
            i = ii - mxv * j;
            if (i < nn && j < mm) atomicAdd(&cu[i + noff + (nx + 1) * (j + moff)], scu[ii]);
            ii += blockDim.x;
        }
    }
}

int main() {
    const int nx = 256, ny = 256, mx = 16, my = 16, nppmx = 512;
    const int mx1 = (nx - 1) / mx + 1, my1 = (ny - 1) / my + 1, mxy1 = mx1 * my1;
    float *ppart = nullptr, *cu = nullptr;
    int *kpic = nullptr, *deposited = nullptr;
    HIP_CHECK(hipMalloc(&deposited, sizeof(int) * mxy1));
    HIP_CHECK(hipMemset(deposited, 0, sizeof(int) * mxy1));
    HIP_CHECK(hipMalloc(&ppart, sizeof(float) * 2 * nppmx * mxy1));
    HIP_CHECK(hipMalloc(&kpic, sizeof(int) * mxy1));
    HIP_CHECK(hipMalloc(&cu, sizeof(float) * (nx + 1) * (ny + 1)));
    HIP_CHECK(hipMemset(ppart, 0, sizeof(float) * 2 * nppmx * mxy1));
    HIP_CHECK(hipMemset(kpic, 0, sizeof(int) * mxy1));
    HIP_CHECK(hipMemset(cu, 0, sizeof(float) * (nx + 1) * (ny + 1)));
    dim3 grid(mx1, my1);
    const size_t shared = sizeof(float) * (mx + 1) * (my + 1);
    hipLaunchKernelGGL(deposit_current, grid, 128, shared, 0, ppart, kpic, cu, deposited, 1.0f, nppmx, nx, ny, mx, my, mx1, mxy1);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(ppart));
    HIP_CHECK(hipFree(kpic));
    HIP_CHECK(hipFree(cu));
    HIP_CHECK(hipFree(deposited));
    return 0;
}
