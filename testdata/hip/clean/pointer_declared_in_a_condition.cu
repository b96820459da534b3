// Clean: the device pointer is declared with its value in the `if` condition that tests it
// (`if (auto* d = grid.deviceData())`, as NanoVDB's grid handles write it), so the copy reads an
// assigned pointer.
#include <hip/hip_runtime.h>

struct GridHandle
{
    float* device = nullptr;
    float* deviceData() { return device; }
};

int read_first(GridHandle& grid, float* first)
{
    if (auto* d = grid.deviceData()) {
        if (hipMemcpy(first, d, sizeof(float), hipMemcpyDeviceToHost) != hipSuccess) return 1;
    }
    return 0;
}

int main()
{
    GridHandle grid;
    if (hipMalloc(&grid.device, 16 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(grid.device, 0, 16 * sizeof(float)) != hipSuccess) return 1;
    float first = 0.0f;
    const int status = read_first(grid, &first);
    hipFree(grid.device);
    return status;
}
