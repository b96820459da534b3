// Clean: a benchmark allocates its buffers under `if (run == 0)` inside its timing loop (the loop
// is kept to time several runs). The first trip takes that branch, so every launch and copy later
// in the body sees allocated buffers, and the loop, from 0 to a constant 1, runs at least once, so
// the copies and frees after it do too.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void integrate(float4* pos, const float2* vel, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        pos[i].x += vel[i].x * dt;
        pos[i].y += vel[i].y * dt;
    }
}

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main(int argc, char** argv) {
    int run, step, nbodies, timesteps;
    float4 *posl, *pos;
    float2 *vell, *vel;

    for (run = 0; run < 1; run++) {  // in case multiple runs are desired for timing
        nbodies = atoi(argv[1]);
        if (nbodies < 1) {
            fprintf(stderr, "nbodies is too small: %d\n", nbodies);
            exit(-1);
        }
        timesteps = atoi(argv[2]);

        // allocate memory
        if (run == 0) {
            pos = (float4*)malloc(sizeof(float4) * nbodies);
            vel = (float2*)malloc(sizeof(float2) * nbodies);
            if (cudaSuccess != cudaMalloc((void**)&posl, sizeof(float4) * nbodies))
                fprintf(stderr, "could not allocate posd\n");
            if (cudaSuccess != cudaMalloc((void**)&vell, sizeof(float2) * nbodies))
                fprintf(stderr, "could not allocate veld\n");
        }

        for (int i = 0; i < nbodies; i++) {
            pos[i] = make_float4(i, 0.0f, 0.0f, 1.0f);
            vel[i] = make_float2(0.0f, 1.0f);
        }
        if (cudaSuccess != cudaMemcpy(posl, pos, sizeof(float4) * nbodies, cudaMemcpyHostToDevice))
            fprintf(stderr, "copying of pos to device failed\n");
        if (cudaSuccess != cudaMemcpy(vell, vel, sizeof(float2) * nbodies, cudaMemcpyHostToDevice))
            fprintf(stderr, "copying of vel to device failed\n");

        for (step = 0; step < timesteps; step++) {
            integrate<<<(nbodies + 255) / 256, 256>>>(posl, vell, 0.025f, nbodies);
        }
        if (cudaSuccess != cudaGetLastError())
            fprintf(stderr, "kernel launch failed\n");
    }

    // transfer final result back to CPU
    if (cudaSuccess != cudaMemcpy(pos, posl, sizeof(float4) * nbodies, cudaMemcpyDeviceToHost))
        fprintf(stderr, "copying of pos from device failed\n");
    printf("%.2e %.2e\n", pos[0].x, pos[0].y);

    free(pos);
    free(vel);
    cudaFree(posl);
    cudaFree(vell);
    return 0;
}

// The same with the test spelled `!run` and a bound the loop does not know: the launches inside
// the loop follow the first trip's allocation; nothing is used after the loop.
void time_scaling(const float* h_in, float* h_out, int n, int runs) {
    float* d_buf;
    for (int run = 0; run < runs; ++run) {
        if (!run) {
            if (cudaMalloc(&d_buf, n * sizeof(float)) != cudaSuccess) {
                fprintf(stderr, "cannot allocate d_buf\n");
                return;
            }
        }
        if (cudaMemcpy(d_buf, h_in, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
            fprintf(stderr, "upload failed\n");
        scale<<<(n + 127) / 128, 128>>>(d_buf, 2.0f, n);
        if (cudaGetLastError() != cudaSuccess)
            fprintf(stderr, "scale failed\n");
        if (cudaMemcpy(h_out, d_buf, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
            fprintf(stderr, "download failed\n");
        if (run == runs - 1 && cudaFree(d_buf) != cudaSuccess)
            fprintf(stderr, "cannot free d_buf\n");
    }
}
