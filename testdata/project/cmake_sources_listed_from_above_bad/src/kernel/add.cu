// Bad: the same kernel, but the only launch (src/host/op.cu) rounds the ring up to whole blocks
// of 256 threads: rings of fewer than 256 coefficients run threads past their end.
#include <ring/kernel/add.cuh>
namespace ring {
__global__ void add_one(unsigned long long *out, const unsigned long long *in, int n_power)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int location = idx + (blockIdx.y << n_power);
    out[location] = in[location] + 1; // expect: unguarded-thread-index
}
}
