// Bad: a localization-microscopy fitter in the style of single-molecule fitting packages. Each
// thread fits one `sz * sz` spot at `sz * sz` times its item index, written out term by term,
// but the kernel never tests that index against the spot count: the last block's threads past
// it read past the data.
#include "cuda_check.h"

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
    const float* s_data = d_data + (sz * sz * bx * BlockSize + sz * sz * tx);
    centerOfMass(sz, s_data, &d_x[bx * BlockSize + tx], &d_y[bx * BlockSize + tx]);  // expect: unguarded-thread-index, unguarded-thread-index
}

int main() {
    const int sz = 11, Nfits = 1000, blockSize = 64;
    float *d_data, *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_data, sz * sz * Nfits * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_x, Nfits * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, Nfits * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_data, 0, sz * sz * Nfits * sizeof(float)));
    fitSpots<<<(Nfits + blockSize - 1) / blockSize, blockSize>>>(d_data, sz, d_x, d_y, Nfits);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    return 0;
}
