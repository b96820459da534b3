// The kernel's declaration, shared by the file that defines it and the file that launches it.
#pragma once
__global__ void scaleRows(float* values, int width, float factor);
