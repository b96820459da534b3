// Clean: a rotary embedding over points, one block per token and one thread per channel. The
// grid is the token count read from the tensor (`tokens.size(0) * tokens.size(1)`) and the block
// its channel count, so no thread lies past the problem and the kernel needs no guard.
#include <torch/extension.h>

template <typename scalar_t>
__global__ void point_rope_kernel(scalar_t* __restrict__ tokens, const int64_t* __restrict__ pos,
                                  const int D, const float base) {
  extern __shared__ float inv_freq[];
  const int Q = D / 6;
  if (threadIdx.x < Q) {
    inv_freq[threadIdx.x] = 1.0f / powf(base, threadIdx.x / float(Q));
  }
  __syncthreads();
  const int axis = threadIdx.x * 3 / D;
  const float angle = pos[blockIdx.x * 3 + axis] * inv_freq[threadIdx.x % Q];
  const int at = blockIdx.x * D + threadIdx.x;
  tokens[at] = static_cast<scalar_t>(tokens[at] * cosf(angle));
}

void point_rope(torch::Tensor tokens, const torch::Tensor pos, const float base) {
  const int B = tokens.size(0);
  const int N = tokens.size(1);
  const int D = tokens.size(2);
  TORCH_CHECK(pos.is_contiguous(), "positions are not contiguous");
  TORCH_CHECK(pos.size(0) == B && pos.size(1) == N && pos.size(2) == 3, "bad pos.shape");
  TORCH_CHECK(D % 6 == 0, "token dim must be a multiple of 6");

  const int threads = D;
  const int blocks = B * N;
  AT_DISPATCH_FLOATING_TYPES(tokens.scalar_type(), "point_rope", ([&] {
    point_rope_kernel<scalar_t><<<blocks, threads, sizeof(float) * (D / 6)>>>(
        tokens.data_ptr<scalar_t>(), pos.data_ptr<int64_t>(), D, base);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
