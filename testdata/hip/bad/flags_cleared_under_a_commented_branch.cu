// Bad: the flag is cleared for the threads past the last particle, but the neighbour count is
// read before the flag is tested: those threads read past the end of `n_neigh`.
#include <hip/hip_runtime.h>

template <int tpp>
__global__ void pair_forces(float* force, const unsigned* n_neigh, const float* r, unsigned N)
{
    const unsigned idx = blockIdx.x * (blockDim.x / tpp) + threadIdx.x / tpp;
    bool active = true;
    if (idx >= N) {
        // keep the thread: it takes part in the shuffle below
        active = false;
    }
    float f = 0.0f;
    const unsigned n = n_neigh[idx]; // expect: unguarded-thread-index
    if (active) {
        for (unsigned k = threadIdx.x % tpp; k < n; k += tpp) f += r[idx] / (k + 1);
    }
    for (int s = tpp / 2; s > 0; s /= 2) f += __shfl_down_sync(0xffffffff, f, s, tpp);
    if (active && threadIdx.x % tpp == 0) force[idx] = f;
}

void compute_forces(float* force, const unsigned* n_neigh, const float* r, unsigned N)
{
    const unsigned block = 256;
    pair_forces<4><<<N / (block / 4) + 1, block>>>(force, n_neigh, r, N);
    if (hipGetLastError() != hipSuccess) return;
}
