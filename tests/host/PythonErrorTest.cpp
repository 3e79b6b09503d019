#include <pybind11/embed.h>

#include "StudioProcess.h"
#include "host/GilAcquire.h"
#include "host/Interpreter.h"
#include "host/PythonError.h"

#include <gtest/gtest.h>

namespace py = pybind11;
using namespace ps::host;

namespace {
PythonError raiseFrom(const std::string& code, const std::string& path)
{
    try {
        py::module_::import("runpy").attr("run_path")(path);
    } catch (py::error_already_set& e) {
        e.restore();
        return PythonError::fetch();
    }
    (void)code;
    throw std::runtime_error("the script did not raise");
}
}  // namespace

TEST(PythonError, CarriesTypeMessageTracebackAndTheUsersLine)
{
    ps::test::TempDir dir;
    const std::string code = "def f():\n    return {}['missing']\n\nf()\n";
    const std::string path = dir.write("user.py", code);
    Interpreter interp({.pythonEnv = PS_TEST_PYTHON_ENV});
    GilAcquire gil;
    const PythonError err = raiseFrom(code, path);
    EXPECT_EQ(err.type(), "KeyError");
    EXPECT_EQ(err.message(), "'missing'");
    EXPECT_EQ(err.file(), path);
    EXPECT_EQ(err.line(), 2);
    EXPECT_NE(err.traceback().find("line 4, in <module>"), std::string::npos) << err.traceback();
    EXPECT_EQ(std::string(err.what()), path + ":2: KeyError: 'missing'");
    EXPECT_FALSE(PyErr_Occurred());
}

TEST(PythonError, SyntaxErrorPointsAtTheBadLine)
{
    ps::test::TempDir dir;
    const std::string code = "x = 1\ny = (\n";
    const std::string path = dir.write("bad.py", code);
    Interpreter interp({.pythonEnv = PS_TEST_PYTHON_ENV});
    GilAcquire gil;
    const PythonError err = raiseFrom(code, path);
    EXPECT_EQ(err.type(), "SyntaxError");
    EXPECT_EQ(err.file(), path);
    EXPECT_EQ(err.line(), 2);
}
