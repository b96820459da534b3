// Clean: tensor accessor subscripts bounded by the accessor's own extents, by a grid-stride
// loop over the element count, or by a launch with one block per row and one thread per column.
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
  if (x >= input.size(3)) {
    return;
  }
  for (int y = 0; y < input.size(2); ++y) {
    output[n][c][y][x] = input[n][c][y][x] * factor;
  }
}

__global__ void blend_kernel(
    const at::PackedTensorAccessor64<float, 4, at::RestrictPtrTraits> dists,
    at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits> alphas,
    const int N, const int H, const int W, const int K) {
  const int stride = gridDim.x * blockDim.x;
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < N * H * W; t += stride) {
    const int n = t / (H * W);
    const int y = (t % (H * W)) / W;
    const int x = t % W;
    float alpha = 1.0f;
    for (int k = 0; k < K; ++k) {
      alpha *= 1.0f - dists[n][y][x][k];
    }
    alphas[n][y][x] = 1.0f - alpha;
  }
}

__global__ void row_sum_kernel(
    const at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> in,
    at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> out) {
  const int row = blockIdx.x;
  const int col = threadIdx.x;
  out[row][col] = in[row][col] + in[row][0];
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

void blend(torch::Tensor dists, torch::Tensor alphas) {
  const int N = dists.size(0), H = dists.size(1), W = dists.size(2), K = dists.size(3);
  blend_kernel<<<64, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      dists.packed_accessor64<float, 4, at::RestrictPtrTraits>(),
      alphas.packed_accessor64<float, 3, at::RestrictPtrTraits>(), N, H, W, K);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void row_sum(torch::Tensor in, torch::Tensor out) {
  const int rows = in.size(0);
  const int cols = in.size(1);
  row_sum_kernel<<<rows, cols, 0, at::cuda::getCurrentCUDAStream()>>>(
      in.packed_accessor32<float, 2, at::RestrictPtrTraits>(),
      out.packed_accessor32<float, 2, at::RestrictPtrTraits>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// A shorter subscript chain is a view of a sub-tensor and an `&` takes an address: neither
// touches memory, so only the element reads, under the width test, are accesses.
__global__ void correlation_kernel(
    const torch::PackedTensorAccessor32<float, 4, torch::RestrictPtrTraits> fmap1,
    const torch::PackedTensorAccessor32<float, 4, torch::RestrictPtrTraits> fmap2,
    torch::PackedTensorAccessor32<float, 3, torch::RestrictPtrTraits> corr) {
  const int b = blockIdx.z;
  const int h = blockIdx.y;
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  auto row = fmap1[b][h][w];
  float* cell = &corr[b][h][w];
  if (w < fmap1.size(2)) {
    float sum = 0.0f;
    for (int c = 0; c < fmap1.size(3); ++c) {
      sum += row[c] * fmap2[b][h][w][c];
    }
    *cell = sum;
  }
}

void correlation(torch::Tensor fmap1, torch::Tensor fmap2, torch::Tensor corr) {
  const int threads = 64;
  const dim3 blocks((fmap1.size(2) + threads - 1) / threads, fmap1.size(1), fmap1.size(0));
  correlation_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      fmap1.packed_accessor32<float, 4, torch::RestrictPtrTraits>(),
      fmap2.packed_accessor32<float, 4, torch::RestrictPtrTraits>(),
      corr.packed_accessor32<float, 3, torch::RestrictPtrTraits>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
