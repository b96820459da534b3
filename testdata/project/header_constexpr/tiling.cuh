// Tiling constants shared by the transpose kernels and their launches, declared as typed
// constants of a namespace rather than as macros.
#pragma once
#include <cstdint>

namespace tiling {

constexpr uint32_t THREADS_PER_WARP = 32;
constexpr int kWarpsPerTile = 8;  // one tile per block

// A member of the same name inside a class is no constant of the namespace.
struct Wide {
  static constexpr int kWarpsPerTile = 16;
};

}  // namespace tiling
