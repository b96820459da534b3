// Copies a beam to the device: the fluence buffer is replaced, the volumes are made afresh.
// The class's destructor, in include/beam.cuh, frees all but the dose.
#include "../include/beam.cuh"

int beam_to_device(BeamDevice& beam, const float* fluence, int width, int height, int depth) {
    if (beam.fluence) {
        if (cudaFree(beam.fluence) != cudaSuccess) return 1;
    }
    const size_t area = (size_t)width * height;
    if (cudaMalloc((void**)&beam.fluence, area * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemcpy(beam.fluence, fluence, area * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) return 1;
    if (cudaMallocPitch((void**)&beam.terma, &beam.terma_pitch, area * sizeof(float), depth) != cudaSuccess) return 1;
    if (cudaMallocPitch((void**)&beam.dose, &beam.dose_pitch, area * sizeof(float), depth) != cudaSuccess) return 1; // expect: device-memory-leak
    if (cudaMemset2D(beam.terma, beam.terma_pitch, 0, area * sizeof(float), depth) != cudaSuccess) return 1;
    if (cudaMemset2D(beam.dose, beam.dose_pitch, 0, area * sizeof(float), depth) != cudaSuccess) return 1;
    return 0;
}
