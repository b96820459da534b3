// Clean: the lattice side is read from the command line, and the program refuses a side that is
// not a multiple of 32 before it launches; the grid rounds up, but a multiple of the block leaves
// no thread over, so every thread's site is inside the lattice.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void flip_spins(int* spins, const float* field, float beta, int side)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int site = y * side + x;
    spins[site] = field[site] * beta > 0.5f ? -spins[site] : spins[site];
}

int main(int argc, char** argv)
{
    const int side = argc > 1 ? atoi(argv[1]) : 64;
    if (side % 32 != 0) {
        fprintf(stderr, "the side must be a multiple of 32\n");
        return 1;
    }
    int* spins;
    float* field;
    if (cudaMalloc(&spins, side * side * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMalloc(&field, side * side * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(spins, 0, side * side * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMemset(field, 0, side * side * sizeof(float)) != cudaSuccess) return 1;
    const dim3 block(16, 16);
    const dim3 grid((side + 15) / 16, (side + 15) / 16);
    flip_spins<<<grid, block>>>(spins, field, 0.44f, side);
    if (cudaGetLastError() != cudaSuccess) return 1;
    cudaFree(spins);
    cudaFree(field);
    return 0;
}
