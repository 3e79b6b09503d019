#pragma once

// Test support for the worker suites: `precompile-studio run` as a user runs it.

#include "StudioProcess.h"
#include "WithoutWorkerPool.h"

#include "protocol/WorkerLaunch.h"
#include "protocol/WorkerLocator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ps::test {

struct StudioRun {
    ProcessResult process;
    nlohmann::json report;
    double seconds = 0;
};

inline std::string fixture(const std::string& name)
{
    return std::string(PS_TEST_SOURCE_DIR) + "/tests/fixtures/scripts/" + name;
}

inline std::string example(const std::string& name)
{
    return std::string(PS_TEST_SOURCE_DIR) + "/resources/examples/" + name;
}

/// The environment this run of the suite uses: PS_PYTHON_ENV (the torch-2.14 registration), else
/// the build's default one.
inline std::string suiteEnvironment()
{
    const char* forced = std::getenv("PS_PYTHON_ENV");
    return forced && *forced ? std::string(forced)
                             : std::filesystem::path(PS_TEST_PYTHON).parent_path().parent_path().string();
}

/// The torch series of suiteEnvironment().
inline std::string suiteTorchSeries()
{
    return ps::protocol::WorkerLocator::torchSeriesOf(suiteEnvironment()).value_or("unknown");
}

/// A launch of the built worker of suiteEnvironment()'s torch, with that environment.
inline ps::protocol::WorkerLaunch suiteWorkerLaunch()
{
    return {.executable
        = (std::filesystem::path(PS_TEST_STUDIO).parent_path() / ("precompile-studio-worker-" + suiteTorchSeries()))
              .string(),
        .pythonEnv = suiteEnvironment(),
        .pythonPackageDir = std::string(PS_TEST_SOURCE_DIR) + "/engine/python"};
}

/// The Python of suiteEnvironment().
inline std::string suitePython()
{
    return suiteEnvironment() + "/bin/python";
}

/// A fixture script written for this suite's torch: NAME.py, or NAME_torchX.Y.py where one exists.
inline std::string fixtureForTorch(const std::string& name)
{
    const std::string stem = name.substr(0, name.size() - 3);
    const std::string versioned = fixture(stem + "_torch" + suiteTorchSeries() + ".py");
    return std::filesystem::exists(versioned) ? versioned : fixture(name);
}

/// An example written for this suite's torch: NAME.py, or NAME_torchX.Y.py where one exists.
inline std::string exampleForTorch(const std::string& name)
{
    const std::string stem = name.substr(0, name.size() - 3);
    const std::string versioned = example(stem + "_torch" + suiteTorchSeries() + ".py");
    return std::filesystem::exists(versioned) ? versioned : example(name);
}

/// What is wrong with a report the front end wrote, measured against docs/report.schema.json
/// (tests/support/validate_report.py in the studio's Python); "" when it follows the schema.
inline std::string schemaProblems(const nlohmann::json& report)
{
    TempDir dir;
    const std::string file = dir.file("report.json");
    std::ofstream(file) << report.dump();
    const auto check
        = runProcess({PS_TEST_PYTHON, std::string(PS_TEST_SOURCE_DIR) + "/tests/support/validate_report.py", file});
    return check.exitCode == 0 ? std::string() : check.out + check.err;
}

/// Whether a run may report internal_errors: failures of the studio's own code that the worker
/// survived (precompile_studio/common/internal_errors.py), a studio bug in any run a test does not
/// make fail on purpose.
enum class InternalErrors { Forbidden, Allowed };

/// The internal_errors of a report (or of each report of an array: several scripts), one line
/// each; "" when there are none.
inline std::string internalErrorsOf(const nlohmann::json& report)
{
    if (report.is_array()) {
        std::string all;
        for (const auto& one : report)
            all += internalErrorsOf(one);
        return all;
    }
    std::string lines;
    if (report.is_object() && report.contains("internal_errors") && report["internal_errors"].is_array())
        for (const auto& entry : report["internal_errors"])
            lines += entry.dump().substr(0, 500) + "\n";
    return lines;
}

/// `precompile-studio [global...] run SCRIPT --json [args...]`, its JSON report parsed and
/// checked against the schema, and (unless `internalErrors` allows them) to carry no internal_errors.
inline StudioRun runStudio(const std::string& script, const std::vector<std::string>& args = {},
    const std::vector<std::string>& global = {}, InternalErrors internalErrors = InternalErrors::Forbidden)
{
    std::vector<std::string> argv = {PS_TEST_STUDIO};
    argv.insert(argv.end(), global.begin(), global.end());
    argv.insert(argv.end(), {"run", script, "--json", "--no-store"});
    argv.insert(argv.end(), args.begin(), args.end());
    const auto t0 = std::chrono::steady_clock::now();
    StudioRun run;
    run.process = runProcess(argv);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    try {
        run.report = nlohmann::json::parse(run.process.out);
    } catch (const nlohmann::json::exception& e) {
        ADD_FAILURE() << "stdout is not one JSON report: " << e.what()
                      << "\nstdout: " << run.process.out.substr(0, 2000)
                      << "\nstderr: " << run.process.err.substr(0, 2000);
        return run;
    }
    if (const auto problems = schemaProblems(run.report); !problems.empty())
        ADD_FAILURE() << "the report does not follow docs/report.schema.json:\n" << problems;
    if (const auto errors = internalErrorsOf(run.report);
        !errors.empty() && internalErrors == InternalErrors::Forbidden)
        ADD_FAILURE() << "the studio's own code failed and the run went on (internal_errors; pass "
                         "InternalErrors::Allowed where a test means it):\n"
                      << errors;
    return run;
}

}  // namespace ps::test
