#ifndef DEVICE_FUNCTION_MODIFIER_HPP_
#define DEVICE_FUNCTION_MODIFIER_HPP_

#ifdef __CUDACC__
#define HOST_DEVICE_FUNCTION __host__ __device__ inline
#else
#define HOST_DEVICE_FUNCTION inline
#endif

#endif
