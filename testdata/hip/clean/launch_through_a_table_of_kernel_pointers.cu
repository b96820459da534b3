// Clean: an FFT plan keeps its kernels in a table of function pointers and launches through it
// (`plan.layer_1[0]<<<blocks, threads>>>`). The launch is one of each kernel the file assigns to
// that member: the grid {step / CONT, N / step / 256} of 256 x CONT tiles covers [0, N) exactly.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "hip_check.h"
#define CONT 16
#define NUM_WARP 8

template <int CONT_SIZE>
__global__ void layer_256_1(int step, half2* in)
{
    int block_start = blockIdx.y * step * 256 + blockIdx.x * CONT_SIZE;
    int t_block = threadIdx.x + threadIdx.y * blockDim.x;
    for (int i = 0; i < 256 * CONT_SIZE; i += NUM_WARP * 32) {
        int eid = i + t_block;
        half2 ele = in[block_start + eid / CONT_SIZE * step + eid % CONT_SIZE];
        in[block_start + eid / CONT_SIZE * step + eid % CONT_SIZE] = __hmul2(ele, ele);
    }
}

struct Plan { int N, n_layers; void (*layer_1[1])(int, half2*); };

void create(Plan& plan, int n) { plan.N = n; plan.layer_1[0] = layer_256_1<CONT>; }

void exec(const Plan& plan, half2* data)   // N is a power of 256 times CONT
{
    dim3 threads = {32, NUM_WARP};
    int step = CONT;
    dim3 blocks = {(unsigned)(step / CONT), (unsigned)(plan.N / step / 256)};
    plan.layer_1[0]<<<blocks, threads>>>(step, data);
    HIP_CHECK(hipGetLastError());
}
