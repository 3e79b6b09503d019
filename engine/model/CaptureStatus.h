#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>

namespace ps::model {

/// How one precompile call of a run ended, verification and runtime checks included.
enum class CaptureStatus {
    Ok,         ///< captured; where verification ran, the artifact loaded, matched eager and
                ///< passed every runtime check
    Mismatch,   ///< the artifact ran, but its outputs, gradients, buffers or inputs differ from eager
    Violation,  ///< a contract outcome at capture, load, call or the runtime_inputs call
    Error,      ///< precompile or verification failed for another reason
};

/// "ok", "mismatch", "violation" or "error".
std::string_view toString(CaptureStatus status);
/// The status a word names; nullopt for any other word.
std::optional<CaptureStatus> captureStatusFromString(std::string_view text);

/// Writes the word (for test messages and logs).
std::ostream& operator<<(std::ostream& out, CaptureStatus status);

}  // namespace ps::model
