// Clean: a pointer to rows of four indices, `unsigned (*d_rows)[4]`, is a pointer the host
// allocates on the device and copies into, not a stack array of four pointers.
#include "cuda_check.h"

__global__ void sum_rows(const unsigned (*rows)[4], int count, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = (float)(rows[i][0] + rows[i][1] + rows[i][2] + rows[i][3]);
    }
}

void sums(const unsigned (*h_rows)[4], int count, float* h_out) {
    unsigned (*d_rows)[4] = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_rows, count * sizeof(*d_rows)));
    CUDA_CHECK(cudaMalloc(&d_out, count * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_rows, h_rows, count * sizeof(*d_rows), cudaMemcpyHostToDevice));
    sum_rows<<<(count + 127) / 128, 128>>>(d_rows, count, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_rows));
    CUDA_CHECK(cudaFree(d_out));
}
