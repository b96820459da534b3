#pragma once
// One kernel, two implementations: the build compiles exactly one of lstm_pointwise.cu and
// slstm_pointwise.cu, chosen by the model's configuration.
__global__ void pointwise(int n, const float *x, float *y);
