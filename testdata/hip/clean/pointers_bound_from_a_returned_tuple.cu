// Clean: two device pools carved out of one allocation come back as a tuple; the structured
// binding names two device pointers, not a stack array.
#include <hip/hip_runtime.h>
#include <tuple>

struct DeviceStack {
    unsigned char *data = nullptr;
    size_t bytes = 0;
};

std::tuple<unsigned *, unsigned *> carve_pools(DeviceStack &stack, unsigned warps)
{
    size_t traversal = size_t(warps) * 1024 * sizeof(unsigned);
    size_t neighbours = size_t(warps) * 32 * sizeof(unsigned);
    if (stack.bytes < traversal + neighbours) {
        if (hipFree(stack.data) != hipSuccess ||
            hipMalloc((void **)&stack.data, traversal + neighbours) != hipSuccess)
            return {nullptr, nullptr};
        stack.bytes = traversal + neighbours;
    }
    return {reinterpret_cast<unsigned *>(stack.data),
            reinterpret_cast<unsigned *>(stack.data + traversal)};
}

__global__ void fill_pools(unsigned warps, unsigned *traversal, unsigned *neighbours)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned lane = threadIdx.x % 32;
    if (warp >= warps)
        return;
    traversal[warp * 1024 + lane] = lane;
    neighbours[warp * 32 + lane] = lane;
}

int fill(DeviceStack &stack, unsigned warps)
{
    auto [traversal, neighbours] = carve_pools(stack, warps);
    if (traversal == nullptr)
        return 1;
    fill_pools<<<(warps * 32 + 255) / 256, 256>>>(warps, traversal, neighbours);
    return hipGetLastError() != hipSuccess || hipDeviceSynchronize() != hipSuccess;
}
