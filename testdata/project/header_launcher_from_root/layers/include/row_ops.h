// Row operations of an encoder layer: the kernels are declared here and launched by the
// launchers below; `layers/src/row_ops.cu` defines their specializations. Both source files
// include this header by its path from the project's root, as the build's include path has it.
#pragma once
#include <cuda_runtime.h>

namespace encoder {

template <typename T>
__global__ void row_scale(T* out, const T* in, const T* gamma, int n);

template <typename T>
__global__ void bias_add(T* out, const T* bias, int n, int total);

// One block per row, one thread per column: the block is the row, and a row wider than 1,024
// columns fails the launch (the header declares kernels, so it is linted with the sources).
template <typename T>
void row_scale_launcher(T* out, const T* in, const T* gamma, int m, int n, int hidden_dim,
                        cudaStream_t stream) {
  dim3 grid(m), block(hidden_dim); // expect: invalid-launch-config
  row_scale<<<grid, block, 0, stream>>>(out, in, gamma, n);
}

// Blocks of 256 threads over every element, the count rounded up.
template <typename T>
void bias_add_launcher(T* out, const T* bias, int m, int n, cudaStream_t stream) {
  const int total = m * n;
  bias_add<<<(total + 255) / 256, 256, 0, stream>>>(out, bias, n, total);
}

}  // namespace encoder
