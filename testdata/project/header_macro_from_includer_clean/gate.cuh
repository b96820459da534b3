// Clean: this header calls SAFE_ALLOC_GPU without including util.cuh; every file that includes
// it includes util.cuh first, so the macro takes `gpu`'s address and allocates it before the
// copy.
#pragma once

struct Gate {
    int op;
    int qubit;
    double theta;
    Gate* upload() const {
        Gate* gpu;
        SAFE_ALLOC_GPU(gpu, sizeof(Gate));
        CUDA_SAFE_CALL(cudaMemcpy(gpu, this, sizeof(Gate), cudaMemcpyHostToDevice));
        return gpu;
    }
};
