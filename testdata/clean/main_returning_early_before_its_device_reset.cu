// Clean: a self-checking program in the style of a cryptography benchmark. `main` allocates,
// verifies the result and returns early on the first mismatch; otherwise it ends with
// `cudaDeviceReset()`, which releases every buffer it allocated. A `return` from `main` ends the
// process, which releases them too, so no path leaks.
#include <cstdio>
#include "cuda_check.h"

__global__ void reduceModQ(int* out, const int* in, int q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] % q;
}

int main()
{
    const int n = 4096, q = 3329;
    static int h_in[n], h_out[n];
    for (int i = 0; i < n; i++) h_in[i] = i * 7;
    int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    reduceModQ<<<(n + 255) / 256, 256>>>(d_out, d_in, q, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        if (h_out[i] != h_in[i] % q) {
            printf("wrong result at %d\n", i);
            return 0;
        }
    }
    printf("all correct\n");
    CUDA_CHECK(cudaDeviceReset());
    return 0;
}
