// A loop whose step reads its own counter more than once, around barriers: following what the
// counter carries must count each loop once, not once per read of the counter in each step
// (that took minutes on this file).
__global__ void halving_steps(const float *a, float *out, int n)
{
    __shared__ float s[256];
    for (int i = threadIdx.x + 1; i < n; i += (i >> 1) + (i & 1) + (i >> 2) + (i >> 3)) {
        s[threadIdx.x] = a[i];
        __syncthreads();
        for (int j = i; j < n; j += j + j + j + (j >> 1)) {
            s[threadIdx.x] += a[j];
            __syncthreads();
        }
    }
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void doubling_steps(float *a, int n)
{
    __shared__ float s[256];
    for (int i = threadIdx.x + 1, k = i; i < n; i += i + i + k, k += k + i + k) {
        s[threadIdx.x] = a[i];
        __syncthreads();
    }
}
