#include <pybind11/embed.h>

#include "host/Interpreter.h"

#include "host/ArenaRecycler.h"
#include "host/PythonError.h"

#include <stdexcept>

namespace py = pybind11;

namespace ps::host {

namespace {
bool g_running = false;

void check(PyStatus status, const char* what)
{
    if (PyStatus_Exception(status))
        throw std::runtime_error(std::string("cannot configure Python (") + what
            + "): " + (status.err_msg ? status.err_msg : "unknown error"));
}
}  // namespace

Interpreter::Interpreter(const InterpreterConfig& config)
{
    if (g_running)
        throw std::logic_error("an Interpreter is already running in this process");
    // UTF-8 mode: the worker's process runs in whatever locale started it (often C/POSIX, where
    // Python's stdio would be ASCII and a script printing "é" would fail its capture); a script's
    // text, paths and output are UTF-8 whatever the locale, as the studio reads them.
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    check(Py_PreInitialize(&pre), "UTF-8 mode");
    PyConfig pc;
    PyConfig_InitIsolatedConfig(&pc);
    struct Clear {
        PyConfig* c;
        ~Clear() { PyConfig_Clear(c); }
    } clear{&pc};
    const std::string program = config.pythonEnv + "/bin/python";
    check(PyConfig_SetBytesString(&pc, &pc.program_name, program.c_str()), "program name");
    pc.install_signal_handlers = 0;  // SIGINT/SIGTERM keep their default: the front end kills us
    pc.parse_argv = 0;
    try {
        py::initialize_interpreter(&pc, 0, nullptr, false);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("cannot start Python from ") + program + ": " + e.what());
    }
    g_running = true;
    ArenaRecycler::install();
    {
        py::list path = py::module_::import("sys").attr("path");
        for (auto it = config.extraPaths.rbegin(); it != config.extraPaths.rend(); ++it)
            path.insert(0, *it);
    }
    m_mainThreadState = PyEval_SaveThread();
}

Interpreter::~Interpreter()
{
    if (m_abandoned)
        return;
    PyEval_RestoreThread(static_cast<PyThreadState*>(m_mainThreadState));
    py::finalize_interpreter();
    g_running = false;
}

bool Interpreter::isRunning()
{
    return g_running;
}

std::string Interpreter::version() const
{
    return std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION) + "."
        + std::to_string(PY_MICRO_VERSION);
}

}  // namespace ps::host
