// The project's shared header: code written for old toolkits keeps calling __shfl and
// __shfl_up, which map to their _sync forms when the toolkit is 9.0 or newer.
#pragma once
#include <cuda.h>

#if CUDA_VERSION >= 9000 && __CUDA_ARCH__ >= 300
#undef __shfl
#define __shfl(var, srcLane, width) __shfl_sync(0xFFFFFFFFu, var, srcLane, width)
#undef __shfl_up
#define __shfl_up(var, delta, width) __shfl_up_sync(0xFFFFFFFFu, var, delta, width)
#endif
