#ifndef CUDA_COMPAT_HPP_
#define CUDA_COMPAT_HPP_

// lets the same sources build with a host compiler: kernels become inline functions
#ifndef __CUDA_ARCH__
#undef __global__
#define __global__ inline __attribute__((always_inline))
#endif

#endif
