// Clean: a localization-microscopy fitter in the style of single-molecule fitting packages. Each
// thread fits one `sz * sz` spot; the kernel returns once its item index `bx * BlockSize + tx`
// reaches the spot count, then offsets the data by `sz * sz` times that index, written out term
// by term. The buffer holds `sz * sz` floats per spot.
#include "hip_check.h"

__device__ void centerOfMass(int sz, const float* data, float* x, float* y) {
    float sum = 0.0f, sx = 0.0f, sy = 0.0f;
    for (int j = 0; j < sz; j++) {
        for (int i = 0; i < sz; i++) {
            float v = data[sz * j + i];
            sum += v;
            sx += v * i;
            sy += v * j;
        }
    }
    *x = sum > 0.0f ? sx / sum : 0.0f;
    *y = sum > 0.0f ? sy / sum : 0.0f;
}

__global__ void fitSpots(const float* d_data, int sz, float* d_x, float* d_y, int Nfits) {
    int tx = threadIdx.x;
    int bx = blockIdx.x;
    int BlockSize = blockDim.x;
    if ((bx * BlockSize + tx) >= Nfits) return;
    const float* s_data = d_data + (sz * sz * bx * BlockSize + sz * sz * tx);
    centerOfMass(sz, s_data, &d_x[bx * BlockSize + tx], &d_y[bx * BlockSize + tx]);
}

int main() {
    const int sz = 11, Nfits = 1000, blockSize = 64;
    float *d_data, *d_x, *d_y;
    HIP_CHECK(hipMalloc(&d_data, sz * sz * Nfits * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_x, Nfits * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_y, Nfits * sizeof(float)));
    HIP_CHECK(hipMemset(d_data, 0, sz * sz * Nfits * sizeof(float)));
    hipLaunchKernelGGL(fitSpots, (Nfits + blockSize - 1) / blockSize, blockSize, 0, 0, d_data, sz, d_x, d_y, Nfits);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_data));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    return 0;
}
