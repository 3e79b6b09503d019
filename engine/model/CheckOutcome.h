#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ps::model {

/// What became of a stored pair loaded in another environment (the report's check.outcome).
enum class CheckOutcome {
    Loads,     ///< loaded and called, no kernel compiled: its cache served it
    Fallback,  ///< it ran, but compiled its kernels or could not use its cache
    Refused,   ///< the load or the first call raised
    Error,     ///< the script could not run there (not the artifact's doing)
};

/// "loads", "fallback", "refused", "error".
std::string_view toString(CheckOutcome outcome);
std::optional<CheckOutcome> checkOutcomeFromString(std::string_view text);
/// "loads with its cache", "compiles its kernels", "refused", "not checked".
std::string_view words(CheckOutcome outcome);
/// A kept check in words: words() of a known outcome word, "runs, with other numbers than
/// eager" when it ran but `runs` is false, "unknown outcome" for a word no studio writes.
std::string keptCheckWords(std::string_view outcome, bool runs);

}  // namespace ps::model
