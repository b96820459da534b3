// The top-level CMakeLists.txt puts include/rnd on the include path for this folder, so the
// header is named by its file name alone.
#include <cuda_runtime.h>
#include <rnd_kernels.cuh>

cudaError_t randomize(float *targets, curandState *states, unsigned n)
{
    uniform_fill<<<(n + NUM_RND_THREADS_PER_BLOCK - 1) / NUM_RND_THREADS_PER_BLOCK, NUM_RND_THREADS_PER_BLOCK>>>(targets, states, n);
    return cudaGetLastError();
}
