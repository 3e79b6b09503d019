#pragma once

#include <string>
#include <vector>

namespace ps::host {

/// Where the embedded interpreter comes from.
struct InterpreterConfig {
    std::string pythonEnv;                  ///< a venv: its bin/python sets prefix and site-packages
    std::vector<std::string> extraPaths;    ///< put in front of sys.path (the precompile_studio package)
    std::string userEnv;                    ///< the user's own environment ("" none), for messages
    std::vector<std::string> userSiteDirs;  ///< its site folders: environment.attach() adds them
};

/// The one embedded CPython of the process.
///
/// Lifetime policy:
///  - at most one Interpreter exists at a time; it is created and destroyed on the main thread;
///  - it is configured from a PyConfig in isolated mode (no PYTHON* variables, no user site:
///    nothing in the user's shell matters) whose program name is the environment's python, so
///    the venv's site-packages are found from its pyvenv.cfg;
///  - every pybind11 object dies before the Interpreter does (destroy them in inner scopes);
///  - the destructor finalises (Py_FinalizeEx), which waits for non-daemon threads; a process
///    that must not wait (the worker, after a run of an arbitrary script) calls abandon() and
///    ends with _exit instead, since a user script's threads and torch's teardown are not ours
///    to wait for;
///  - it can be created again after destruction (restart), for pure-Python use; extension
///    modules such as torch cannot be imported twice into one process.
///
/// GIL policy: the constructor returns with the GIL released. Every thread that calls into
/// Python, the main thread included, holds a GilAcquire on its stack for the duration; a
/// long C++ section inside Python code that touches no Python object uses GilRelease.
class Interpreter {
public:
    explicit Interpreter(const InterpreterConfig& config);
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    /// Leave the interpreter running at process exit instead of finalising it.
    void abandon() { m_abandoned = true; }

    static bool isRunning();

    /// Python's version string, e.g. "3.11.7".
    std::string version() const;

private:
    void* m_mainThreadState = nullptr;  ///< PyThreadState* saved when the GIL was released
    bool m_abandoned = false;
};

}  // namespace ps::host
