// Clean: a node's bound test is kept in a flag, and the branch that retires the node clears the
// flag and resets the index together (`valid = false; id = -1;`, as BVH builders write it):
// wherever the flag still holds, the index is the one it tested, below `end`.
#include <hip/hip_runtime.h>

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
    if (hipMalloc(&d_nodes, n * sizeof(int)) != hipSuccess) return 1;
    if (hipMemset(d_nodes, 0, n * sizeof(int)) != hipSuccess) return 1;
    const int begin = 10;
    hipLaunchKernelGGL(mark_nodes, (n - begin + 255) / 256, 256, 0, 0, d_nodes, begin, n);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipFree(d_nodes);
    return 0;
}
