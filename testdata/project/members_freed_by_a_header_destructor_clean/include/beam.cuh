// A beam's device buffers; its destructor releases every one of them.
#pragma once
#include <cuda_runtime.h>

class BeamDevice {
public:
    BeamDevice() : fluence(nullptr), terma(nullptr), dose(nullptr) {}
    ~BeamDevice() {
        if (this->fluence != nullptr) cudaFree(this->fluence);
        if (this->terma != nullptr) cudaFree(this->terma);
        if (this->dose != nullptr) cudaFree(this->dose);
    }
    float* fluence;
    float* terma;
    float* dose;
    size_t terma_pitch, dose_pitch;
};

int beam_to_device(BeamDevice& beam, const float* fluence, int width, int height, int depth);
