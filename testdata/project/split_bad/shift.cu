// Bad: defined here, launched from main.cu with a grid rounded up from `n`; the last block's
// threads past `n` write out of bounds. The launch in main.cu is the finding's label.
#include "shift.h"

__global__ void shift(float* values, int n, float by) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    values[i] += by; // expect: unguarded-thread-index
}
