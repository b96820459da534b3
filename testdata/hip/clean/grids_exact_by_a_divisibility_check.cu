// Clean: the lattice side is read from the command line, and the program refuses a side that is
// not a multiple of 32 before it launches; the grid rounds up, but a multiple of the block leaves
// no thread over, so every thread's site is inside the lattice.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

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
    if (hipMalloc(&spins, side * side * sizeof(int)) != hipSuccess) return 1;
    if (hipMalloc(&field, side * side * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(spins, 0, side * side * sizeof(int)) != hipSuccess) return 1;
    if (hipMemset(field, 0, side * side * sizeof(float)) != hipSuccess) return 1;
    const dim3 block(16, 16);
    const dim3 grid((side + 15) / 16, (side + 15) / 16);
    hipLaunchKernelGGL(flip_spins, grid, block, 0, 0, spins, field, 0.44f, side);
    if (hipGetLastError() != hipSuccess) return 1;
    hipFree(spins);
    hipFree(field);
    return 0;
}
