#if defined(A) && (B
#ifdef
__global__ void k(float* o) { CHECK(cudaFree(o)
  const char* s = R"x(never closed
#define M(a, \