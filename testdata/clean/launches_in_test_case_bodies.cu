// Clean: the kernel writes one flag per thread with no test, and its only launch, in a Catch2
// test case named by strings, runs exactly the 256 threads the buffers hold.
#include <cuda_runtime.h>
#include <catch2/catch_test_macros.hpp>

__global__ void mark_found(bool* found, const int* keys, int sentinel)
{
    found[threadIdx.x + blockIdx.x * blockDim.x] =
        keys[threadIdx.x + blockIdx.x * blockDim.x] != sentinel;
}

TEST_CASE("shared memory map finds every key", "[map][shared]")
{
    constexpr int num_keys = 256;
    bool* found = nullptr;
    int* keys = nullptr;
    REQUIRE(cudaMalloc(&found, num_keys * sizeof(bool)) == cudaSuccess);
    REQUIRE(cudaMalloc(&keys, num_keys * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(keys, 0, num_keys * sizeof(int)) == cudaSuccess);
    mark_found<<<8, 32>>>(found, keys, -1);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(cudaFree(keys) == cudaSuccess);
    REQUIRE(cudaFree(found) == cudaSuccess);
}
