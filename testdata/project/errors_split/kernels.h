#pragma once
#include <cuda_runtime.h>

void launch_saxpy(float a, const float* x, float* y, int n, cudaStream_t stream);
void launch_clear(float* y, int n, cudaStream_t stream);
