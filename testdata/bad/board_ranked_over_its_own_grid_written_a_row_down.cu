// Game of life where the grid is the board, but the copy writes each cell one row down: the rank
// plus the width reaches past the board in the last row of the grid.
#include "cuda_check.h"

__global__ void life_step(const unsigned char* current, unsigned char* next) {
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int width = gridDim.x * blockDim.x;
    int height = gridDim.y * blockDim.y;
    int cell = width * y + x;
    unsigned char alive = current[cell];
    int neighbours = 0;
    if (x > 0 && x < width - 1 && y > 0 && y < height - 1) {
        neighbours = current[cell - 1] + current[cell + 1] + current[cell - width] +
                     current[cell + width];
    }
    next[cell + width] = neighbours == 3 || (alive && neighbours == 2);  // expect: unguarded-thread-index
}

struct Board {
    dim3 threads;
    dim3 blocks;
    unsigned char* cells;
    unsigned char* scratch;
    void step() {
        life_step<<<blocks, threads>>>(cells, scratch);
        CUDA_CHECK(cudaGetLastError());
    }
};
