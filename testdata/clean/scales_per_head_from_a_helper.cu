// Clean: an attention kernel reads one row of key scales per head. The head is grid `y`, which
// every launch makes exactly the head count; the row's length is a helper of the kernel's sizes
// (`div_ceil(kv_len, 128) * 4`), the same for every thread of the launch; the lane picks one of
// 4 slots. Grid `x` is rounded up from the query length, but the scales' index does not use it,
// and the rows, which do, are guarded.
#include <cuda_runtime.h>
#include <cstdint>

__host__ __device__ inline uint32_t div_ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__global__ void attn_scale(const float* __restrict__ k_scale, float* __restrict__ out,
                           uint32_t qo_len, uint32_t kv_len) {
  const uint32_t head = blockIdx.y;
  const uint32_t num_block_k = div_ceil(kv_len, 128);
  const uint32_t k_scale_idx = head * (num_block_k * 4) + threadIdx.x % 4;
  const float scale = k_scale[k_scale_idx];
  const uint32_t row = blockIdx.x * 64 + threadIdx.x / 2;
  if (row < qo_len) out[head * qo_len + row] = scale;
}

cudaError_t launch(const float* k_scale, float* out, uint32_t qo_len, uint32_t kv_len,
                   uint32_t heads) {
  dim3 grid(div_ceil(qo_len, 64), heads);
  attn_scale<<<grid, 128>>>(k_scale, out, qo_len, kv_len);
  return cudaGetLastError();
}
