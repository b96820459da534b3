// Clean: the host buffers are made with `new` inside a `try` whose only handler reports the
// failure and exits, so every path that reaches the copies below has both buffers.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void pack_cells(const int* __restrict__ in, int* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[4 * i] & in[4 * i + 1];
}

int main() {
    const int cells = 1 << 16;
    int *host_input, *host_output, *device_input, *device_output;
    try {
        host_input = new int[cells * 4];
        host_output = new int[cells];
    } catch (std::bad_alloc&) {
        fprintf(stderr, "host allocation failed\n");
        exit(EXIT_FAILURE);
    }
    for (int i = 0; i < cells * 4; i++) host_input[i] = i;
    CUDA_CHECK(cudaMalloc((void**)&device_input, sizeof(int) * cells * 4));
    CUDA_CHECK(cudaMalloc((void**)&device_output, sizeof(int) * cells));
    if (cudaMemcpy(device_input, host_input, sizeof(int) * cells * 4, cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "copy failed\n");
        exit(EXIT_FAILURE);
    }
    pack_cells<<<(cells + 255) / 256, 256>>>(device_input, device_output, cells);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host_output, device_output, sizeof(int) * cells, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(device_input));
    CUDA_CHECK(cudaFree(device_output));
    delete[] host_input;
    delete[] host_output;
    return 0;
}
