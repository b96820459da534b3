// The tile width shared by the host and the kernel of constants_in_a_namespace_opened_below.cu
// (not itself a fixture), in a namespace whose brace is on its own line.
#pragma once

namespace tiles
{
static constexpr int TILE = 128;
}  // namespace tiles
