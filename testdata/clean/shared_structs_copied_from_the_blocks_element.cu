// Clean: one warp per block, every lane copies the block's own record (reached through a
// local pointer to it) into shared structs. The lanes store the same bytes, so whichever
// store lands last the structs hold the record; nothing reads them before the barrier.
#include "cuda_check.h"

#define MAX_ATOMS 64

struct Coords { float xyz[3 * MAX_ATOMS]; };
struct Forces { float f[3 * MAX_ATOMS]; };
struct Model { Coords coords; Forces forces; int atoms; };

__global__ void relax(const Model* models, float* energies) {
    const int lane = threadIdx.x + blockDim.x * threadIdx.y;
    const Model* model = &models[blockIdx.x];
    __shared__ Coords coords;
    coords = model->coords;
    __shared__ Forces forces;
    forces = (*model).forces;
    __syncthreads();
    float e = 0.0f;
    for (int k = lane; k < 3 * model->atoms; k += blockDim.x * blockDim.y) {
        e += coords.xyz[k] * forces.f[k];
    }
    energies[blockIdx.x * blockDim.x * blockDim.y + lane] = e;
}

int main() {
    const int runs = 128;
    Model* h_models = (Model*)calloc(runs, sizeof(Model));
    for (int r = 0; r < runs; ++r) h_models[r].atoms = MAX_ATOMS;
    Model* d_models;
    float* d_energies;
    CUDA_CHECK(cudaMalloc(&d_models, runs * sizeof(Model)));
    CUDA_CHECK(cudaMalloc(&d_energies, runs * 32 * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_models, h_models, runs * sizeof(Model), cudaMemcpyHostToDevice));
    relax<<<runs, dim3(16, 2)>>>(d_models, d_energies);
    CUDA_CHECK(cudaGetLastError());
    float h_energies[32];
    CUDA_CHECK(cudaMemcpy(h_energies, d_energies, sizeof(h_energies), cudaMemcpyDeviceToHost));
    printf("%f\n", h_energies[0]);
    CUDA_CHECK(cudaFree(d_models));
    CUDA_CHECK(cudaFree(d_energies));
    free(h_models);
    return 0;
}
