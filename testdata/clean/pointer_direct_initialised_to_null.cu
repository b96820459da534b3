// Clean: `int* d_cut_size(nullptr);` initialises the pointer to null (C++ direct
// initialisation, which the grammar reads as a function declarator). The kernel takes the
// pointer but no longer reads it, so passing null is the author's intent.
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void extract_separators(const int* proj, int* permute, int n, int* cut_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  permute[i] = proj[i];
}

void permute_level(const int* d_proj, int* d_permute, int n) {
  int* d_cut_size(nullptr);
  extract_separators<<<(n + 255) / 256, 256>>>(d_proj, d_permute, n, d_cut_size);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

int main() {
  const int n = 1000;
  int *d_proj, *d_permute;
  CUDA_CHECK(cudaMalloc(&d_proj, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_permute, n * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_proj, 0, n * sizeof(int)));
  permute_level(d_proj, d_permute, n);
  CUDA_CHECK(cudaFree(d_proj));
  CUDA_CHECK(cudaFree(d_permute));
  return 0;
}
