// Game of life where the grid is the board: the kernel takes no size, its cells are indexed by
// the thread's rank in the two-dimensional grid (`gridDim.x * blockDim.x * y + x`), and the host
// allocates exactly blocks times threads cells on each axis. No rank reaches past the board.
#include "hip_check.h"

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
    next[cell] = neighbours == 3 || (alive && neighbours == 2);
}

struct Board {
    dim3 threads;
    dim3 blocks;
    unsigned char* cells;
    unsigned char* scratch;
    void step() {
        life_step<<<blocks, threads>>>(cells, scratch);
        HIP_CHECK(hipGetLastError());
    }
};
