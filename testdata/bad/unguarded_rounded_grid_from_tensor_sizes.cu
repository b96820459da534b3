// Bad: the same token loop launched over a grid rounded up to blocks of 256 threads. The
// threads of the last block past `tokens.numel()` read and write past the end of the tensor.
#include <torch/extension.h>

template <typename scalar_t>
__global__ void scale_tokens_kernel(scalar_t* __restrict__ tokens, const float* __restrict__ scale,
                                    const int D) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  tokens[at] = static_cast<scalar_t>(tokens[at] * scale[at / D]); // expect: unguarded-thread-index
}

void scale_tokens(torch::Tensor tokens, const torch::Tensor scale) {
  const int B = tokens.size(0);
  const int D = tokens.size(1);
  const int threads = 256;
  const int blocks = (B * D + threads - 1) / threads;
  AT_DISPATCH_FLOATING_TYPES(tokens.scalar_type(), "scale_tokens", ([&] {
    scale_tokens_kernel<scalar_t><<<blocks, threads>>>(tokens.data_ptr<scalar_t>(),
                                                       scale.data_ptr<float>(), D);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
