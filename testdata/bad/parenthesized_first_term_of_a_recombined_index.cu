// The same recombined index with the outer coordinate never tested: the parenthesized first term
// is read as the sum it is, and the unbounded `tid_k` is still found.
#include "cuda_check.h"
__global__ void halo_copy(int n_i, int n_j, int nx, int ny, int n_ghost, float *pot)
{
  int tid, tid_i, tid_j, tid_k, dst;
  tid = threadIdx.x + blockIdx.x * blockDim.x;
  tid_k = tid / (n_i * n_j);
  tid_j = (tid - tid_k * n_i * n_j) / n_i;
  tid_i = tid - tid_k * n_i * n_j - tid_j * n_i;
  if (tid_i < 0 || tid_i >= n_i || tid_j < 0 || tid_j >= n_j) return;
  dst = (tid_k) + (tid_i)*nx + (tid_j)*nx * ny;
  pot[dst] = 0.0f; // expect: unguarded-thread-index
}

void launch(float *pot, int nx, int ny, int nz, int n_ghost)
{
  int size = n_ghost * ny * nz;
  halo_copy<<<(size - 1) / 256 + 1, 256>>>(ny, nz, nx, ny, n_ghost, pot);
  CUDA_CHECK(cudaGetLastError());
}
