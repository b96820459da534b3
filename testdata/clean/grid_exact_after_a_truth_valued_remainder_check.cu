// The host refuses sizes the tiles do not divide, the remainder itself the condition of the
// exit, and sizes the word count from the checked half-width: every rounded-up grid below is
// exact, so the kernels need no guard of their own.
#include "cuda_check.h"

#define BLOCK_X 16
#define BLOCK_Y 16
#define SPIN_X_WORD 16
#define DIV_UP(a, b) (((a) + ((b) - 1)) / (b))

__global__ void lattice_init(const long long dim_x, unsigned long long *__restrict__ dst) {
  const int row = blockIdx.y * BLOCK_Y + threadIdx.y;
  const int col = blockIdx.x * BLOCK_X + threadIdx.x;
  dst[(long long)row * dim_x + col] = 0x5555555555555555ull;
}

int main(int argc, char **argv) {
  int X = argc > 1 ? atoi(argv[1]) : 1024;
  int Y = argc > 2 ? atoi(argv[2]) : 1024;
  if (!X || (X % 2) || ((X / 2) % (SPIN_X_WORD * 2 * BLOCK_X))) {
    fprintf(stderr, "Please specify an X dim multiple of %d\n", 2 * SPIN_X_WORD * 2 * BLOCK_X);
    exit(EXIT_FAILURE);
  }
  if (!Y || (Y % BLOCK_Y)) {
    fprintf(stderr, "Please specify a Y dim multiple of %d\n", BLOCK_Y);
    exit(EXIT_FAILURE);
  }
  const size_t words = (X / 2) / SPIN_X_WORD;
  unsigned long long *lattice = nullptr;
  CUDA_CHECK(cudaMalloc(&lattice, sizeof(*lattice) * (size_t)Y * words));
  dim3 grid(DIV_UP(words / 2, BLOCK_X), DIV_UP(Y, BLOCK_Y));
  dim3 block(BLOCK_X, BLOCK_Y);
  lattice_init<<<grid, block>>>(words / 2, lattice);
  CUDA_CHECK(cudaGetLastError());
  lattice_init<<<grid, block>>>(words / 2, lattice + (size_t)Y * words / 2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(lattice));
  return 0;
}
