// Clean: a hologram generator keeps its device buffers in file-level pointers. `startCUDA`
// allocates them; `stopCUDA` frees some, destroys the FFT plan and ends with an unconditional
// `cudaDeviceReset()`, which destroys the context and every allocation still in it, so the
// buffers it does not free one by one are released with the others.
#include "cuda_check.h"

float* d_spots;
float* d_phases;
float* d_weights;
float* d_amplitudes;

int startCUDA(int spots, int pixels)
{
    CUDA_CHECK(cudaMalloc((void**)&d_spots, spots * 4 * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&d_phases, pixels * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&d_weights, spots * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&d_amplitudes, spots * sizeof(float)));
    return 0;
}

int stopCUDA()
{
    CUDA_CHECK(cudaFree(d_spots));
    CUDA_CHECK(cudaFree(d_phases));
    CUDA_CHECK(cudaDeviceReset());
    return 0;
}
