#include <cstdio>
#include <voxels/map.hpp>

int main()
{
  const Dims dims{256, 96, 1};
  const size_t bytes = dims.x * dims.y * sizeof(int);
  int *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, bytes) != cudaSuccess) return 1;
  if (cudaMalloc(&out, bytes) != cudaSuccess) return 1;
  if (cudaMemset(in, 0, bytes) != cudaSuccess) return 1;
  if (propagate(in, out, dims, 8) != cudaSuccess) printf("launch failed\n");
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  if (cudaFree(in) != cudaSuccess || cudaFree(out) != cudaSuccess) return 1;
  return 0;
}
