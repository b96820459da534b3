// Bad: an acquisition pipeline in the style of optical-coherence-tomography processors. The
// buffer length, block size and grid size live in file-scope variables that the init function
// sets once; the grid is the length rounded up to whole blocks, so the last block of each
// launch runs threads past the buffers, and no kernel tests its index.
#include "cuda_check.h"

int blockSize;
int gridSize;
int samplesPerBuffer = 0;
float* d_raw = NULL;
float* d_processed = NULL;

__global__ void subtractBackground(float* out, const float* in, float background, int samples) {
    int index = threadIdx.x + blockIdx.x * blockDim.x;
    out[index] = in[index] - background;  // expect: unguarded-thread-index
}

__global__ void halveIntoDisplay(float* display, const float* in, int samples) {
    int index = threadIdx.x + blockIdx.x * blockDim.x;
    display[index] = 0.5f * (in[2 * index] + in[2 * index + 1]);  // expect: unguarded-thread-index
}

void initializeProcessing(int samplesPerLine, int linesPerBuffer) {
    samplesPerBuffer = samplesPerLine * linesPerBuffer;
    CUDA_CHECK(cudaMalloc(&d_raw, samplesPerBuffer * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_processed, samplesPerBuffer * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_raw, 0, samplesPerBuffer * sizeof(float)));
    blockSize = 128;
    gridSize = (samplesPerBuffer + blockSize - 1) / blockSize;
}

void processBuffer(float background, float* d_display, cudaStream_t stream) {
    subtractBackground<<<gridSize, blockSize, 0, stream>>>(d_processed, d_raw, background, samplesPerBuffer);
    CUDA_CHECK(cudaGetLastError());
    halveIntoDisplay<<<gridSize / 2, blockSize, 0, stream>>>(d_display, d_processed, samplesPerBuffer / 2);
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    initializeProcessing(1000, 3);
    float* d_display;
    CUDA_CHECK(cudaMalloc(&d_display, samplesPerBuffer / 2 * sizeof(float)));
    processBuffer(1.0f, d_display, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_display));
    CUDA_CHECK(cudaFree(d_raw));
    CUDA_CHECK(cudaFree(d_processed));
    return 0;
}
