// Clean: one thread per coefficient of a ring of n = 1 << n_power, one blockIdx.y per modulus.
// The only launch (src/host/op.cu, found through the include root of src/CMakeLists.txt) gives
// n / 256 blocks of 256 threads, so no thread lies past its ring.
#include <ring/kernel/add.cuh>
namespace ring {
__global__ void add_one(unsigned long long *out, const unsigned long long *in, int n_power)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int location = idx + (blockIdx.y << n_power);
    out[location] = in[location] + 1;
}
}
