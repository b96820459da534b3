// Bad: a batch norm walks the planes in tiles of NTX, a grid-stride loop whose variable is a
// thread's column in the tile plus whole tiles. The launch gives blocks 16 wide whatever the
// plane count, so when it is not a multiple of 16 the last tile has threads past `nPlanes`: they
// leave the loop while the others wait at its barriers.
#include <hip/hip_runtime.h>
#include <algorithm>

template <typename T, int NTX, int NTY>
__global__ void bn_scale(T* x, const T* w, int nPlanes, int nActive) {
  __shared__ T W[NTX];
  for (int plane = threadIdx.x + blockIdx.x * NTX; plane < nPlanes; plane += gridDim.x * NTX) {
    if (threadIdx.y == 0) W[threadIdx.x] = w[plane];
    __syncthreads(); // expect: divergent-barrier
    for (int row = threadIdx.y; row < nActive; row += NTY) x[row * nPlanes + plane] *= W[threadIdx.x];
    __syncthreads(); // expect: divergent-barrier
  }
}

template <typename T>
hipError_t bn(T* x, const T* w, int nPlanes, int nActive) {
  bn_scale<T, 16, 64><<<std::min(16, (nPlanes + 15) / 16), dim3(16, 64)>>>(x, w, nPlanes, nActive);
  return hipGetLastError();
}

template hipError_t bn<float>(float*, const float*, int, int);
