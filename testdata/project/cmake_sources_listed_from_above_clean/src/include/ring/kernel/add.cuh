#pragma once
#include <cuda_runtime.h>
namespace ring {
// the kernel's declaration, shared by the file that defines it and the one that launches it
__global__ void add_one(unsigned long long *out, const unsigned long long *in, int n_power);
}
