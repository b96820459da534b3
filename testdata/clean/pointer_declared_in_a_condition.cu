// Clean: the device pointer is declared with its value in the `if` condition that tests it
// (`if (auto* d = grid.deviceData())`, as NanoVDB's grid handles write it), so the copy reads an
// assigned pointer.
#include <cuda_runtime.h>

struct GridHandle
{
    float* device = nullptr;
    float* deviceData() { return device; }
};

int read_first(GridHandle& grid, float* first)
{
    if (auto* d = grid.deviceData()) {
        if (cudaMemcpy(first, d, sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    }
    return 0;
}

int main()
{
    GridHandle grid;
    if (cudaMalloc(&grid.device, 16 * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(grid.device, 0, 16 * sizeof(float)) != cudaSuccess) return 1;
    float first = 0.0f;
    const int status = read_first(grid, &first);
    cudaFree(grid.device);
    return status;
}
