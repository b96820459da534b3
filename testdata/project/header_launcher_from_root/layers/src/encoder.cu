#include "layers/include/row_ops.h"

void encoder_forward(float* hidden, const float* residual, const float* gamma, const float* bias,
                     int tokens, int hidden_size, cudaStream_t stream) {
  encoder::row_scale_launcher(hidden, residual, gamma, tokens, hidden_size, hidden_size, stream);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return;
  encoder::bias_add_launcher(hidden, bias, tokens, hidden_size, stream);
  err = cudaGetLastError();
  if (err != cudaSuccess) return;
}
