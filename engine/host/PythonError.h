#pragma once

#include <stdexcept>
#include <string>

namespace ps::host {

/// A Python exception, carried into C++: its type, message, formatted traceback and the
/// innermost user file:line (a frame outside the standard library, site-packages and the
/// precompile_studio package; for a SyntaxError, where the syntax error is).
class PythonError : public std::runtime_error {
public:
    PythonError(std::string type, std::string message, std::string traceback, std::string file, int line);

    /// Takes (and clears) the current Python error indicator. Needs the GIL and a set error.
    static PythonError fetch();

    const std::string& type() const { return m_type; }
    const std::string& message() const { return m_message; }
    const std::string& traceback() const { return m_traceback; }
    const std::string& file() const { return m_file; }
    int line() const { return m_line; }

private:
    std::string m_type;
    std::string m_message;
    std::string m_traceback;
    std::string m_file;
    int m_line;
};

}  // namespace ps::host
