// Bad: PyTorch extension kernels whose tensor accessor subscripts go past a dimension. The
// grid is rounded up from the tensor's width, so the last block's extra threads index
// `acc[n][c][y][x]` with `x >= acc.size(3)`.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <typename scalar_t>
__global__ void scale_rows_kernel(
    const torch::PackedTensorAccessor32<scalar_t, 4, torch::RestrictPtrTraits> input,
    torch::PackedTensorAccessor32<scalar_t, 4, torch::RestrictPtrTraits> output,
    const scalar_t factor) {
  const int n = blockIdx.z;
  const int c = blockIdx.y;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = 0; y < input.size(2); ++y) {
    output[n][c][y][x] = input[n][c][y][x] * factor; // expect: unguarded-thread-index
  }
}

// guarded against the wrong dimension: x runs along the width, the test is on the height
__global__ void bias_kernel(
    at::PackedTensorAccessor64<float, 2, at::RestrictPtrTraits> out,
    const at::PackedTensorAccessor64<float, 1, at::RestrictPtrTraits> bias) {
  const int64_t row = blockIdx.y;
  const int64_t col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < out.size(0)) {
    out[row][col] += bias[col]; // expect: unguarded-thread-index
  }
}

torch::Tensor scale_rows(torch::Tensor input, double factor) {
  auto output = torch::empty_like(input);
  const int threads = 256;
  const dim3 blocks((input.size(3) + threads - 1) / threads, input.size(1), input.size(0));
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "scale_rows", ([&] {
    scale_rows_kernel<scalar_t><<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        input.packed_accessor32<scalar_t, 4, torch::RestrictPtrTraits>(),
        output.packed_accessor32<scalar_t, 4, torch::RestrictPtrTraits>(),
        static_cast<scalar_t>(factor));
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}

void add_bias(torch::Tensor out, torch::Tensor bias) {
  const int threads = 128;
  const dim3 blocks((out.size(1) + threads - 1) / threads, out.size(0));
  bias_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.packed_accessor64<float, 2, at::RestrictPtrTraits>(),
      bias.packed_accessor64<float, 1, at::RestrictPtrTraits>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
