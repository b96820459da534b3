// Bad: device pointers declared but never hipMalloc'd (or assigned) before being passed to a kernel or a copy.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void product(const float* weights, const float* inputs, float* outputs, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        outputs[i] = weights[i] * inputs[i];
    }
}

static void forgotOutputAllocation(const std::vector<float>& h_w, const std::vector<float>& h_x) {
    const int size = static_cast<int>(h_w.size());
    float* d_weights = nullptr;
    float* d_inputs = nullptr;
    float* d_outputs;
    HIP_CHECK(hipMalloc(&d_weights, size * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_inputs, size * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_weights, h_w.data(), size * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_inputs, h_x.data(), size * sizeof(float), hipMemcpyHostToDevice));

    product<<<(size + 255) / 256, 256>>>(d_weights, d_inputs, d_outputs, size); // expect: uninitialized-device-pointer
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(d_weights));
    HIP_CHECK(hipFree(d_inputs));
}

static void uploadWithoutAllocation(const std::vector<int>& h_labels) {
    int* d_labels;
    HIP_CHECK(hipMemcpy(d_labels, h_labels.data(), h_labels.size() * sizeof(int), hipMemcpyHostToDevice)); // expect: uninitialized-device-pointer
}

int main() {
    const int size = 4096;
    std::vector<float> h_w(size), h_x(size);
    std::vector<int> h_labels(size);
    for (int i = 0; i < size; ++i) {
        h_w[i] = 0.5f + (i % 3);
        h_x[i] = static_cast<float>(rand()) / RAND_MAX;
        h_labels[i] = i % 10;
    }
    forgotOutputAllocation(h_w, h_x);
    uploadWithoutAllocation(h_labels);
    return 0;
}
