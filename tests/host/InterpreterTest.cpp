#include <pybind11/embed.h>

#include "host/ArenaRecycler.h"
#include "host/GilAcquire.h"
#include "host/GilRelease.h"
#include "host/Interpreter.h"

#include <gtest/gtest.h>

#include <thread>

namespace py = pybind11;
using namespace ps::host;

namespace {
InterpreterConfig config()
{
    return InterpreterConfig{.pythonEnv = PS_TEST_PYTHON_ENV, .extraPaths = {"/nonexistent-extra-path"}};
}
}  // namespace

TEST(Interpreter, StartsFromTheEnvironmentAndStops)
{
    {
        Interpreter interp(config());
        EXPECT_TRUE(Interpreter::isRunning());
        GilAcquire gil;
        auto sys = py::module_::import("sys");
        EXPECT_EQ(py::str(sys.attr("prefix")).cast<std::string>(), std::string(PS_TEST_PYTHON_ENV));
        EXPECT_EQ(py::str(sys.attr("path")[py::int_(0)]).cast<std::string>(), "/nonexistent-extra-path");
        // isolated: the user's PYTHON* variables play no part
        EXPECT_EQ(sys.attr("flags").attr("isolated").cast<int>(), 1);
        // the environment's site-packages is importable
        EXPECT_NO_THROW(py::module_::import("pytest"));
        EXPECT_EQ(interp.version().substr(0, 2), "3.");
    }
    EXPECT_FALSE(Interpreter::isRunning());
}

TEST(Interpreter, RestartsWithAFreshState)
{
    {
        Interpreter interp(config());
        GilAcquire gil;
        py::exec("import builtins\nbuiltins.leftover = 42\n");
        EXPECT_TRUE(py::hasattr(py::module_::import("builtins"), "leftover"));
    }
    {
        Interpreter interp(config());
        GilAcquire gil;
        EXPECT_FALSE(py::hasattr(py::module_::import("builtins"), "leftover"));
        EXPECT_EQ(py::eval("6 * 7").cast<int>(), 42);
    }
}

TEST(Interpreter, ReusesFrameStackChunksInsteadOfMappingEachAnew)
{
    Interpreter interp(config());
    GilAcquire gil;
    // Recursion that goes back and forth over many depths crosses the edge of the thread's
    // 16 KiB frame-stack chunks thousands of times; CPython frees a chunk each time its first
    // frame returns. Without the recycler every crossing maps a fresh chunk.
    const std::size_t mappedBefore = ArenaRecycler::mapped();
    const std::size_t reusedBefore = ArenaRecycler::reused();
    py::exec(R"(
def down(n):
    return 0 if n == 0 else 1 + down(n - 1)
for _ in range(20):
    for depth in range(0, 600, 3):
        assert down(depth) == depth
)",
        py::globals());
    const std::size_t mapped = ArenaRecycler::mapped() - mappedBefore;
    const std::size_t reused = ArenaRecycler::reused() - reusedBefore;
    EXPECT_GT(reused, 1000u) << "the frame stack's chunks were not handed out again";
    EXPECT_LT(mapped, 20u) << "each crossing mapped a new chunk";
}

TEST(Interpreter, OnlyOneAtATime)
{
    Interpreter interp(config());
    EXPECT_THROW(Interpreter second(config()), std::logic_error);
}

TEST(Interpreter, OtherThreadsTakeTheGilWithAGuard)
{
    Interpreter interp(config());
    {
        GilAcquire gil;
        py::exec("counter = [0]", py::globals());
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([] {
            for (int i = 0; i < 100; ++i) {
                GilAcquire gil;
                py::exec("counter[0] += 1", py::globals());
            }
        });
    for (auto& t : threads)
        t.join();
    GilAcquire gil;
    EXPECT_EQ(py::eval("counter[0]", py::globals()).cast<int>(), 400);
    {
        GilRelease release;  // a C++ section that touches no Python object
        std::thread([] {
            GilAcquire inner;
            py::exec("counter[0] = -1", py::globals());
        }).join();
    }
    EXPECT_EQ(py::eval("counter[0]", py::globals()).cast<int>(), -1);
}
