#pragma once

#include "model/Report.h"

#include <functional>
#include <optional>
#include <string>

namespace ps::share {

/// Runs as JUnit XML in the dialect of Jenkins xUnit's junit-10.xsd, which GitLab's, Jenkins' and
/// GitHub's test reporters read (docs/design/junit-and-several-scripts.md): <testsuites> with the totals, one
/// <testsuite> per run (a script), one <testcase> per capture, named after it, classname the script as given and time
/// the capture's timings in seconds. A violation or a mismatch against eager is a <failure> whose message is the
/// finding in one line and whose text has the source line `file:line  code` and the fix; an error (of the capture, or a
/// run that could not go on) an <error>; numerics drift a passing case with a <system-out> note. A run that ended
/// before any capture, or whose exit code says a problem no capture carries (a timeout after the captures, the script's
/// own violation, not stored), gets one more test case named after the script with that problem.
class JunitReport {
public:
    /// The text of line `line` of `file`, or nullopt (no such file or line).
    using SourceLines = std::function<std::optional<std::string>(const std::string& file, int line)>;

    /// sourceLines: where the code of a finding's line is read from; by default the file itself
    /// (the run's script is on this machine; a line it cannot read is left out).
    explicit JunitReport(SourceLines sourceLines = {});

    /// Adds the run of `script` (its name as given on the command line) as one <testsuite>.
    void add(const std::string& script, const model::Report& report);

    /// The whole document (UTF-8, XML 1.0; everything from a run escaped by MarkupText).
    std::string xml() const;
    /// Writes xml() to `path`: "" once written, else the error in words.
    std::string write(const std::string& path) const;

    int tests() const { return m_tests; }
    int failures() const { return m_failures; }
    int errors() const { return m_errors; }

    /// A file's line, read from disk (at most the first 64 MiB are read), trimmed of its end.
    static std::optional<std::string> readSourceLine(const std::string& file, int line);

private:
    SourceLines m_sourceLines;
    std::string m_suites;
    int m_tests = 0;
    int m_failures = 0;
    int m_errors = 0;
    double m_seconds = 0;
};

}  // namespace ps::share
