// A launch argument redefined in terms of itself (`t = (t + 1) * (t + 1) / t`, SiftGPU's edge
// threshold): reading its value must not follow the definition into each of its own mentions,
// which took minutes for one launch.
__global__ void threshold(float* out, float t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = t;
}

void run(float* out, float t, int n) {
    t = (t + 1) * (t + 1) / t;
    t = (t + t) * (t + t) / (t * t);
    threshold<<<(n + 255) / 256, 256>>>(out, t, n);
}
