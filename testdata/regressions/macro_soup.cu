#define HD __host__ __device__ __attribute__((always_inline))
DEV static int f(int, float);
CMP_SWP(K, a, b, int, c, d)
x = new int*[n]
auto l = [=] __device__ __host__ (int i) { return i; };
printf("a"X"b" Y(Z) "c");
CUDA_CHECK(cudaMalloc(&p, n))
#pragma unroll
CUDA_CHECK(cudaFree(p))// c
#if 1 ? 2 : (3 / 0)
#elif (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1
#endif
typeid(
va_arg(l, char*
