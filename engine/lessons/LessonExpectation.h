#pragma once

#include "lessons/LessonSide.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::lessons {

/// One thing a report found, as a learner reads it.
struct LessonFinding {
    std::string what;     ///< "violation (inv 1 constant-tensor, line 17)"
    std::string message;  ///< the message's first line (at most 300 characters)
    std::string fix;      ///< the fix in one sentence ("" when the report names none)
};

/// What a lesson's expect.json says its scripts report, set against a run's report, and the
/// words a learner reads it in (`precompile-studio lessons run` and the window's Lessons dock):
///
///     {"broken": EXPECT, "fixed": EXPECT}
///     EXPECT = {"status": "ok|violation|error",
///               "violation": VIOLATION|null,          (script-level, e.g. a failed load)
///               "captures": [{"status": "...", "violation": VIOLATION|null,
///                             "verify": null|{"status": "...", "matches_eager": B,
///                                             "grads_match": B, "buffers_match": B, "inputs_match": B,
///                                             "runtime": null|{"status": "...", "matches_eager": B,
///                                                              "invariant": N, "rule": "...", "line": N}},
///                             "warnings": [{"invariant": N, "rule": "...", "line": N}]}]}
///     VIOLATION = {"invariant": N|null, "rule": "...", "line": N|null}
///
/// Only the keys expect.json names are compared (so it lists only stable fields), except
/// "warnings", which must be exactly the expected set: no warning more, none less. A "line"
/// is a line of the script itself; a location in another file reads "FILE:LINE".
class LessonExpectation {
public:
    /// The stable fields of a schema-1 report, in expect.json's shape. `script` is the path the
    /// report's lines are read against.
    static nlohmann::json stableFields(const nlohmann::json& report, const std::string& script);
    /// "captures[0].verify.status: expected \"mismatch\", got \"ok\"", ... (empty: it matches)
    static std::vector<std::string> compare(const nlohmann::json& expected, const nlohmann::json& actual);
    /// The first side (kLessonSides) that a whole expect.json has no object for; nullopt when it
    /// has both.
    static std::optional<LessonSide> missingSide(const nlohmann::json& expect);
    /// expect[side]: what expect.json says that side reports (null when it says nothing).
    static const nlohmann::json& expected(const nlohmann::json& expect, LessonSide side);

    /// j[key], or null when `j` is no object or has no such key: reads reports and expect.json
    /// of any shape without throwing.
    static const nlohmann::json& field(const nlohmann::json& j, const char* key);
    /// j's string, or `fallback` when j is no string.
    static std::string text(const nlohmann::json& j, const char* fallback);

    // The words `lessons run` prints, for the window to say the same.
    /// "inv 1 constant-tensor, line 17" for a violation of stableFields(); "-" for null.
    static std::string violationText(const nlohmann::json& stableViolation);
    /// "mismatch, differs from eager, grads differ" for a verify of stableFields(); "-" for null.
    static std::string verifyText(const nlohmann::json& stableVerify);
    /// "ok, matches eager" or "violation: inv 7 ..." for a verify's runtime; "-" for null.
    static std::string runtimeText(const nlohmann::json& stableRuntime);
    /// The script's violation, then each capture's violation, runtime violation and warnings.
    static std::vector<LessonFinding> findings(const nlohmann::json& report, const std::string& script);
};

}  // namespace ps::lessons
