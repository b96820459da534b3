// Bad: the flag tested the shell index before it was moved to the segment's shells, so the
// clamp replaces only the threads past `nbas` in the first segment: a thread whose shell is in
// range but whose shifted shell is past the table still reads past its end.
#include <hip/hip_runtime.h>

#define BAS_SLOTS 8
#define ANG_OF 1

__global__ void recontract_segment(double* __restrict__ norms, const int* __restrict__ bas,
                                   int nbas, int shell_offset)
{
    int sh = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = sh < nbas;
    sh += shell_offset;
    if (!valid) {
        sh = 0;
    }
    int l = bas[sh * BAS_SLOTS + ANG_OF]; // expect: unguarded-thread-index
    if (valid) {
        norms[sh] = l;
    }
}

void recontract(double* norms, const int* bas, int nbas, int shell_offset)
{
    recontract_segment<<<(nbas + 127) / 128, 128>>>(norms, bas, nbas, shell_offset);
    if (hipGetLastError() != hipSuccess) return;
}
