#pragma once

// Test support: run a command line to completion and collect its exit code and output.

#include <string>
#include <vector>

namespace ps::test {

struct ProcessResult {
    int exitCode = -1;  ///< the exit status, or 128 + signal
    std::string out;
    std::string err;
};

/// Runs argv[0] with argv, stdin from /dev/null, and waits for it.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});

/// A fresh temporary directory, removed with the object.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }
    std::string write(const std::string& name, const std::string& content) const;

private:
    std::string m_path;
};

}  // namespace ps::test
