#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>

namespace ps::compare {

/// What became of one thing (a python_code section, a kernel) between side a and side b.
enum class Change {
    Same,
    Changed,  ///< on both sides, different (a kernel: its code)
    Refused,  ///< a kernel fused differently: it computes other nodes on the other side
    Added,    ///< only on side b
    Removed,  ///< only on side a
};

/// The report's words: "same", "changed", "refused", "added", "removed".
std::string_view toString(Change change);
/// In a reader's words: as toString(), but "fused differently" for Refused.
std::string_view describe(Change change);
std::optional<Change> changeFromString(std::string_view text);

std::ostream& operator<<(std::ostream& out, Change change);

}  // namespace ps::compare
