// Clean: `int* d_cut_size(nullptr);` initialises the pointer to null (C++ direct
// initialisation, which the grammar reads as a function declarator). The kernel takes the
// pointer but no longer reads it, so passing null is the author's intent.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void extract_separators(const int* proj, int* permute, int n, int* cut_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  permute[i] = proj[i];
}

void permute_level(const int* d_proj, int* d_permute, int n) {
  int* d_cut_size(nullptr);
  extract_separators<<<(n + 255) / 256, 256>>>(d_proj, d_permute, n, d_cut_size);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
}

int main() {
  const int n = 1000;
  int *d_proj, *d_permute;
  HIP_CHECK(hipMalloc(&d_proj, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_permute, n * sizeof(int)));
  HIP_CHECK(hipMemset(d_proj, 0, n * sizeof(int)));
  permute_level(d_proj, d_permute, n);
  HIP_CHECK(hipFree(d_proj));
  HIP_CHECK(hipFree(d_permute));
  return 0;
}
