// A launch wrapper whose locals are defined from each other: tracing the grid back to the
// wrapper's parameters must end (it once overflowed the stack).
template <typename K, typename... A>
void launch(K k, dim3 g, dim3 b, int n, A... a) {
    int y;
    int x = y;
    y = x;
    k<<<x, b>>>(a...);
}
__global__ void fill(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f; }
void run(float* out, int n) { launch(fill, dim3(n), dim3(256), n, out); }
