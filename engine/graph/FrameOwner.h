#pragma once

#include <cstdint>
#include <string_view>

namespace ps::graph {

/// Whose code a stack frame is (precompile_studio/common/frames.py): the user's script or
/// project, an installed package's, or torch's. Unknown: a word this build does not know.
enum class FrameOwner : std::uint8_t { Unknown, User, Package, Torch };

/// "user", "package", "torch"; "" for Unknown.
std::string_view toString(FrameOwner owner);
/// The report's word; Unknown for any other.
FrameOwner frameOwnerFromString(std::string_view word);

}  // namespace ps::graph
