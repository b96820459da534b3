// Shared by the host and the kernels; every project header is named from the project's root
// with angle brackets (`-I.` at the root), as gpu-voxels writes its includes.
#pragma once
#define BAND_WIDTH 16
struct Dims { unsigned x, y, z; };
