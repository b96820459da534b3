// Bad: the device buffer is freed, and then released again through a `?:` whose device arm
// frees it a second time.
#include <hip/hip_runtime.h>

enum class space_t { device, host };

void release_twice(size_t count, space_t space)
{
    float* buffer;
    if (hipMalloc(&buffer, count * sizeof(float)) != hipSuccess) return;
    if (hipFree(buffer) != hipSuccess) return;
    (space == space_t::device) ? hipFree(buffer) : hipHostFree(buffer); // expect: double-free
}
