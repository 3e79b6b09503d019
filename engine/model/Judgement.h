#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>

namespace ps::model {

/// The float64 judge's word on a value, or on a capture's verification as a whole
/// (verify/accuracy.py): the artifact's error against a float64 run of eager fn next to eager's
/// own error.
enum class Judgement {
    Matches,  ///< within tolerance, or within a multiple of eager's own error: rounding
    Drift,    ///< far beyond eager's error, yet no contract broken: numerics drift
    Wrong,    ///< other sizes or dtypes, or an error of a tenth of the value's RMS
    None,     ///< no verdict: the float64 run failed or a value had no counterpart
};

/// "matches", "numerics drift", "wrong" or "no verdict".
std::string_view toString(Judgement judgement);
/// The judgement a report word names: "matches", "drift" (a value's word) or "numerics drift"
/// (a capture's), "wrong"; nullopt for any other word.
std::optional<Judgement> judgementFromString(std::string_view text);

std::ostream& operator<<(std::ostream& out, Judgement judgement);

}  // namespace ps::model
