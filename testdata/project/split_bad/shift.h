#pragma once
__global__ void shift(float* values, int n, float by);
