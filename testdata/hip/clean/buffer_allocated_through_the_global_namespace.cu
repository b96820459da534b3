// Clean: `::hipMalloc` (the global namespace named, as C++ code inside a namespace writes it)
// allocates like `hipMalloc`. The buffer holds exactly blocks * kBlock generators and the only
// launch runs blocks blocks of kBlock threads, so `gens[id]` stays inside it.
#include <hip/hip_runtime.h>
#include "hip_check.h"

static constexpr int kBlocksPerSM = 2;
static constexpr int kBlock = 256;

struct State { unsigned long long s; };

__global__ void __launch_bounds__(kBlock, kBlocksPerSM)
init_generators(State* gens, unsigned long long seed)
{
  int id = threadIdx.x + blockDim.x * blockIdx.x;
  State state = gens[id];
  state.s = seed ^ (unsigned long long)id;
  gens[id] = state;
}

namespace rng {
State* make_generators(unsigned long long seed, hipStream_t stream, int* count)
{
  int device, sms;
  HIP_CHECK(::hipGetDevice(&device));
  HIP_CHECK(::hipDeviceGetAttribute(&sms, hipDevAttrMultiProcessorCount, device));
  int generators = kBlock * sms * kBlocksPerSM;
  State* gens = nullptr;
  HIP_CHECK(::hipMalloc(&gens, generators * sizeof(State)));
  hipLaunchKernelGGL(init_generators, kBlocksPerSM * sms, kBlock, 0, stream, gens, seed);
  HIP_CHECK(::hipGetLastError());
  *count = generators;
  return gens;
}
}  // namespace rng
