#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ps::commands {

/// One folder of resources/lessons/: lesson.md, broken.py, fixed.py and expect.json.
struct Lesson {
    std::string name;   ///< the folder's name, e.g. "inv1-closed-over-tensor"
    std::string dir;
    std::string title;  ///< lesson.md's first heading
    std::string lessonMd, broken, fixed, expect;  ///< paths (each may be missing on disk)
    bool complete = false;  ///< all four files are there
};

/// One thing a report found, as a learner reads it.
struct LessonFinding {
    std::string what;     ///< "violation (inv 1 constant-tensor, line 17)"
    std::string message;  ///< the message's first line (at most 300 characters)
    std::string fix;      ///< the fix in one sentence ("" when the report names none)
};

struct LessonsOptions {
    bool json = false;
    std::optional<std::string> pythonEnv;
    std::optional<std::string> lessonsDir;  ///< default: defaultLessonsDir()
    double timeoutSeconds = 600;            ///< per script
};

/// `precompile-studio lessons ls|run NAME [--json]`.
///
/// `run` sends broken.py and fixed.py through the normal run path (the same worker request as
/// `precompile-studio run SCRIPT --no-store`: nothing goes into the artifact library) and
/// compares each report with the lesson's expect.json:
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
class LessonsCommand {
public:
    /// $PS_RESOURCES_DIR/lessons, else the source tree's resources/lessons (compile time).
    static std::string defaultLessonsDir();
    static std::vector<Lesson> list(const std::string& lessonsDir);
    static std::optional<Lesson> find(const std::string& lessonsDir, const std::string& name);

    /// The stable fields of a schema-1 report, in expect.json's shape. `script` is the path the
    /// report's lines are read against.
    static nlohmann::json stableFields(const nlohmann::json& report, const std::string& script);
    /// "captures[0].verify.status: expected \"mismatch\", got \"ok\"", ... (empty: it matches)
    static std::vector<std::string> compare(const nlohmann::json& expected, const nlohmann::json& actual);

    /// j[key], or null when `j` is no object or has no such key: reads reports and expect.json
    /// of any shape without throwing.
    static const nlohmann::json& field(const nlohmann::json& j, const char* key);

    // The words `lessons run` prints, for the window to say the same.
    /// "inv 1 constant-tensor, line 17" for a violation of stableFields(); "-" for null.
    static std::string violationText(const nlohmann::json& stableViolation);
    /// "mismatch, differs from eager, grads differ" for a verify of stableFields(); "-" for null.
    static std::string verifyText(const nlohmann::json& stableVerify);
    /// "ok, matches eager" or "violation: inv 7 ..." for a verify's runtime; "-" for null.
    static std::string runtimeText(const nlohmann::json& stableRuntime);
    /// The script's violation, then each capture's violation, runtime violation and warnings.
    static std::vector<LessonFinding> findings(const nlohmann::json& report, const std::string& script);

    /// Exit codes: 0 ok; 2 the lessons folder cannot be read.
    static int ls(const LessonsOptions& options, std::ostream& out, std::ostream& err);
    /// Exit codes: 0 both scripts report what expect.json says; 1 either differs (or could not
    /// run); 2 no such lesson, or its expect.json is missing or not valid.
    static int run(const std::string& name, const LessonsOptions& options, std::ostream& out, std::ostream& err);
};

} // namespace ps::commands
