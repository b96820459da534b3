// Clean: a hologram generator keeps its device buffers in file-level pointers. `startCUDA`
// allocates them; `stopCUDA` frees some, destroys the FFT plan and ends with an unconditional
// `hipDeviceReset()`, which destroys the context and every allocation still in it, so the
// buffers it does not free one by one are released with the others.
#include "hip_check.h"

float* d_spots;
float* d_phases;
float* d_weights;
float* d_amplitudes;

int startCUDA(int spots, int pixels)
{
    HIP_CHECK(hipMalloc((void**)&d_spots, spots * 4 * sizeof(float)));
    HIP_CHECK(hipMalloc((void**)&d_phases, pixels * sizeof(float)));
    HIP_CHECK(hipMalloc((void**)&d_weights, spots * sizeof(float)));
    HIP_CHECK(hipMalloc((void**)&d_amplitudes, spots * sizeof(float)));
    return 0;
}

int stopCUDA()
{
    HIP_CHECK(hipFree(d_spots));
    HIP_CHECK(hipFree(d_phases));
    HIP_CHECK(hipDeviceReset());
    return 0;
}
