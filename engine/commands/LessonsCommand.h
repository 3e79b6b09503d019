#pragma once

#include "remote/RemoteTarget.h"

#include "lessons/LessonCatalogue.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ps::commands {

struct LessonsOptions {
    bool json = false;
    std::optional<std::string> pythonEnv;
    std::optional<std::string> lessonsDir;       ///< default: LessonCatalogue::defaultLessonsDir()
    double timeoutSeconds = 600;                 ///< per script
    std::optional<remote::RemoteTarget> remote;  ///< run on another host (--host)
};

/// `precompile-studio lessons ls|run NAME [--json]`.
///
/// `run` sends broken.py and fixed.py through the normal run path (the same worker request as
/// `precompile-studio run SCRIPT --no-store`: nothing goes into the artifact library) and
/// compares each report with the lesson's expect.json (LessonExpectation says how), printing
/// a LessonTable or, with --json, both reports and their differences.
class LessonsCommand {
public:
    /// Exit codes: 0 ok; 2 the lessons folder cannot be read.
    static int ls(const LessonsOptions& options, std::ostream& out, std::ostream& err);
    /// Exit codes: 0 both scripts report what expect.json says; 1 either differs (or could not
    /// run); 2 no such lesson, or its expect.json is missing or not valid.
    static int run(const std::string& name, const LessonsOptions& options, std::ostream& out, std::ostream& err);
};

}  // namespace ps::commands
