// Clean: a 3-wide convolution along a row reads its neighbours through a conditional whose test
// bounds the column on both sides, `(y < rows && c >= 0 && c < cols) ? in[...] : 0.f` (the
// grammar alone would take `y<rows && c>` for a template's arguments). Every read is guarded.
// (A library kernel: no launch in sight says anything of the grid.)

__global__ void row_conv(float* out, const float* in, const float* taps, int rows, int cols) {
  const int x = blockDim.x * blockIdx.x + threadIdx.x;
  const int y = blockDim.y * blockIdx.y + threadIdx.y;
  float acc = 0.f;
  for (int t = -1; t <= 1; ++t) {
    const int c = x + t;
    acc += (y < rows && c >= 0 && c < cols) ? taps[t + 1] * in[y * cols + c] : 0.f;
  }
  if (x < cols && y < rows) out[y * cols + x] = acc;
}
