// Bad: a grid taken from what an object holds is still rounded up when the launch rounds it
// (`(batch.numPixels() + 255) / 256`): the threads of the last block past the batch's pixels
// scale pixels past the end of the buffer.
#include <cuda_runtime.h>

struct ImageBatch {
  int numPixels() const;
  float* data() const;
};

__global__ void scale_pixels(float* pixels, float factor) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  pixels[at] *= factor; // expect: unguarded-thread-index
}

void scale(const ImageBatch& batch, float factor, cudaStream_t stream) {
  const int pixels = batch.numPixels();
  scale_pixels<<<(pixels + 255) / 256, 256, 0, stream>>>(batch.data(), factor);
  if (cudaGetLastError() != cudaSuccess) return;
}
