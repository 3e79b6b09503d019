#include <pybind11/pybind11.h>

#include "host/PythonError.h"

namespace py = pybind11;

namespace ps::host {

namespace {

bool isLibraryFile(const std::string& f)
{
    return f.empty() || f[0] == '<' || f.find("/site-packages/") != std::string::npos
        || f.find("/lib/python3") != std::string::npos || f.find("/precompile_studio/") != std::string::npos;
}

std::string composeWhat(const std::string& type, const std::string& message, const std::string& file, int line)
{
    std::string where = line > 0 ? file + ":" + std::to_string(line) + ": " : std::string();
    return where + type + ": " + message;
}

}  // namespace

PythonError::PythonError(std::string type, std::string message, std::string traceback, std::string file, int line)
    : std::runtime_error(composeWhat(type, message, file, line)),
      m_type(std::move(type)),
      m_message(std::move(message)),
      m_traceback(std::move(traceback)),
      m_file(std::move(file)),
      m_line(line)
{ }

PythonError PythonError::fetch()
{
    PyObject *rawType = nullptr, *rawValue = nullptr, *rawTb = nullptr;
    PyErr_Fetch(&rawType, &rawValue, &rawTb);
    if (!rawType)
        return PythonError("RuntimeError", "no Python error was set", "", "", 0);
    PyErr_NormalizeException(&rawType, &rawValue, &rawTb);
    if (rawTb && rawValue)
        PyException_SetTraceback(rawValue, rawTb);
    auto type = py::reinterpret_steal<py::object>(rawType);
    auto value = py::reinterpret_steal<py::object>(rawValue ? rawValue : Py_NewRef(Py_None));
    auto tb = py::reinterpret_steal<py::object>(rawTb ? rawTb : Py_NewRef(Py_None));

    std::string typeName = py::str(type.attr("__name__"));
    std::string message;
    std::string traceback;
    std::string file;
    int line = 0;
    try {
        message = py::str(value);
        auto tbModule = py::module_::import("traceback");
        for (auto part : tbModule.attr("format_exception")(type, value, tb))
            traceback += py::str(part).cast<std::string>();
        if (py::isinstance(value, py::reinterpret_borrow<py::object>(PyExc_SyntaxError))) {
            if (!value.attr("filename").is_none())
                file = py::str(value.attr("filename"));
            if (!value.attr("lineno").is_none())
                line = value.attr("lineno").cast<int>();
            if (!value.attr("msg").is_none())
                message = py::str(value.attr("msg"));
        } else if (!tb.is_none()) {
            for (auto fr : tbModule.attr("extract_tb")(tb)) {
                std::string f = py::str(fr.attr("filename"));
                if (!isLibraryFile(f) || file.empty()) {
                    file = f;
                    line = fr.attr("lineno").cast<int>();
                }
            }
        }
    } catch (const py::error_already_set&) {
        PyErr_Clear();  // describing the error failed; keep what we have
    }
    return PythonError(std::move(typeName), std::move(message), std::move(traceback), std::move(file), line);
}

}  // namespace ps::host
