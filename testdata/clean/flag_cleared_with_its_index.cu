// Clean: a node's bound test is kept in a flag, and the branch that retires the node clears the
// flag and resets the index together (`valid = false; id = -1;`, as BVH builders write it):
// wherever the flag still holds, the index is the one it tested, below `end`.
#include <cuda_runtime.h>

__global__ void mark_nodes(int* nodes, int begin, int end)
{
    int id = begin + blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = id < end;
    if (valid) {
        const int count = nodes[id];
        if (count == 0) {
            valid = false;
            id = -1;
        }
    }
    if (valid) nodes[id] = 1;
}

int main()
{
    const int n = 1000;
    int* d_nodes = nullptr;
    if (cudaMalloc(&d_nodes, n * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMemset(d_nodes, 0, n * sizeof(int)) != cudaSuccess) return 1;
    const int begin = 10;
    mark_nodes<<<(n - begin + 255) / 256, 256>>>(d_nodes, begin, n);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_nodes);
    return 0;
}
