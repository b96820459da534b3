#ifndef UTILS_HPP_
#define UTILS_HPP_

#include <cuda_compat.hpp>
#include <device_function_modifier.hpp>

// x / y rounded up; only for non-negative integers
template <typename T>
HOST_DEVICE_FUNCTION
T UIntDivRU(T x, T y) {
    return (x + y - 1) / y;
}

#endif
