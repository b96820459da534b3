// Clean: grids taken from what an object holds (`in.numImages()`, directly or through a local):
// one block per image, and one layer of blocks per image under a grid whose x is rounded up.
// Each index is the image's block times the block's threads plus the thread: inside the
// buffers the host sizes by the image count.
#include "hip_check.h"

#define BLOCK 512

struct State {
  unsigned s;
};

struct ImageBatch {
  int numImages() const;
  int maxPixels() const;
  int width(int image) const;
  int height(int image) const;
  const unsigned char* pixel(int image, int y, int x) const;
};

__global__ void add_noise(float* images, State* states, int pixels_per_image) {
  const int image = blockIdx.x;
  const int id = threadIdx.x + blockIdx.x * blockDim.x;
  State local = states[id];
  for (int offset = threadIdx.x; offset < pixels_per_image; offset += blockDim.x) {
    local.s = local.s * 1664525u + 1013904223u;
    images[image * pixels_per_image + offset] += (local.s >> 8) * (1.0f / 16777216.0f);
  }
  states[id] = local;
}

__global__ void histogram_per_image(ImageBatch batch, int* histograms) {
  __shared__ int bins[256];
  const int bin = threadIdx.x;
  bins[bin] = 0;
  __syncthreads();
  const int image = blockIdx.z;
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  const int width = batch.width(image);
  if (at < width * batch.height(image)) {
    atomicAdd(&bins[*batch.pixel(image, at / width, at % width)], 1);
  }
  __syncthreads();
  if (bins[bin] > 0) {
    atomicAdd(&histograms[blockIdx.z * 256 + bin], bins[bin]);
  }
}

// `states` holds BLOCK states per image of the batch; `histograms` 256 bins per image.
void process(const ImageBatch& batch, float* images, State* states, int* histograms,
             hipStream_t stream) {
  hipLaunchKernelGGL(add_noise, batch.numImages(), BLOCK, 0, stream, images, states, batch.maxPixels());
  HIP_CHECK(hipGetLastError());
  const int images_in_batch = batch.numImages();
  HIP_CHECK(hipMemsetAsync(histograms, 0, sizeof(int) * 256 * images_in_batch, stream));
  const dim3 grid((batch.maxPixels() + 255) / 256, 1, images_in_batch);
  hipLaunchKernelGGL(histogram_per_image, grid, 256, 0, stream, batch, histograms);
  HIP_CHECK(hipGetLastError());
}
