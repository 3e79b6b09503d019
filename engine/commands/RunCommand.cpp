#include "commands/RunCommand.h"

#include "commands/ReportPrinter.h"
#include "library/core/DefaultLibraryPath.h"
#include "library/core/LibraryLocator.h"
#include "library/core/TerminalText.h"
#include "model/ChromeTrace.h"
#include "run/RunPipeline.h"
#include "share/HtmlReport.h"

#include "share/JunitReport.h"
#include <filesystem>

#include <fstream>
#include <map>
#include <ostream>
#include <set>

namespace ps::commands {

namespace {

// How much of the script's output is echoed live to the terminal; the rest is counted.
constexpr std::size_t kRunEchoLimit = 1024 * 1024;

// --trace FILE: the run's compile-time events as a Chrome trace (Perfetto, chrome://tracing).
// The error in words, or "" once written.
std::string writeTrace(const model::Report& report, const std::string& path)
{
    if (!model::ChromeTrace::available(report))
        return "no capture of this run has a compile profile";
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file)
        return "cannot write " + path;
    file << model::ChromeTrace::fromReport(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
         << "\n";
    file.close();
    return file ? std::string() : "cannot write " + path;
}

// One script's run: its report (with what its outputs added) and its exit code.
struct ScriptRun {
    model::Report report;
    int exitCode = 2;
    int runCode = 2;  ///< the run's own (model::Report::exitCode), before its outputs were written
};

// Runs one script with the options every script shares, echoing its output and progress to
// `err`, then writes its own outputs (--export, --trace). `exportedSoFar` holds the files the
// earlier scripts of this command exported: one written again is said as an export failure.
// The outputs that are per script go here (an --html of one run would too); --junit, which
// takes every run, is written by execute() after the last.
ScriptRun runScript(const RunCommandOptions& options, const std::string& script, std::ostream& err,
    std::set<std::string>& exportedSoFar, const std::string& htmlPath)
{
    run::PipelineOptions pipeline;
    pipeline.run = options.run;
    pipeline.run.script = script;
    if (options.store) {
        pipeline.libraryPath = options.libraryPath.empty() ? library::defaultLibraryPath() : options.libraryPath;
        // A team library that cannot be reached: the run waits in the local one.
        if (library::LibraryLocator::kindOf(*pipeline.libraryPath) != library::LibraryLocator::Kind::File)
            pipeline.fallbackLibraryPath = library::defaultLibraryPath();
    }
    pipeline.exportDir = options.exportDir;

    std::size_t echoed = 0;
    bool noted = false;
    protocol::RunObserver observer;
    observer.onOutput = [&](int, std::string_view data) {
        if (echoed < kRunEchoLimit) {
            const auto take = std::min(data.size(), kRunEchoLimit - echoed);
            err.write(data.data(), static_cast<std::streamsize>(take));
            echoed += take;
        } else if (!noted) {
            err << "\n[precompile-studio: more output than " << kRunEchoLimit << " bytes; the rest is not echoed]\n";
            noted = true;
        }
    };
    if (!options.json)
        observer.onStage = [&](model::Stage stage, const std::string& capture) {
            err << "[" << model::toString(stage) << (capture.empty() ? "" : " " + library::TerminalText::safe(capture))
                << "]\n";
        };

    if (!options.json)
        observer.onTransfer = [&](const std::string& file, std::uint64_t done, std::uint64_t total) {
            // Only what takes a while to arrive is worth a line.
            if (total >= (16u << 20))
                err << "[transfer " << library::TerminalText::safe(file) << " " << (done >> 20) << "/" << (total >> 20)
                    << " MiB]\n";
        };

    auto runner = options.remote ? run::RunPipeline::forHost(*options.remote)
                                 : run::RunPipeline::forEnvironment(options.pythonEnv);
    run::RunResult result = runner.run(pipeline, observer);
    err.flush();

    ScriptRun done;
    auto& report = result.report;
    if (report.storeError && !options.json)
        err << "precompile-studio: the run was not stored: " << library::TerminalText::safe(*report.storeError) << "\n";
    std::string exportError;
    if (options.exportDir) {
        exportError = runner.exportError();
        for (const auto& file : result.exported)
            if (exportError.empty() && !exportedSoFar.insert(file).second)
                exportError = file
                    + " was also exported by an earlier script of this run and is overwritten: "
                      "give the captures different names, or export the scripts apart";
        if (!exportError.empty()) {
            err << "precompile-studio: export failed: " << library::TerminalText::safe(exportError) << "\n";
            report.extra()["export_error"] = exportError;
        } else {
            report.extra()["exported"] = result.exported;
            if (!options.json)
                for (const auto& file : result.exported)
                    err << "wrote " << library::TerminalText::safe(file) << "\n";
        }
    }

    std::string traceError;
    if (options.traceFile) {
        traceError = writeTrace(report, *options.traceFile);
        if (!traceError.empty())
            err << "precompile-studio: trace not written: " << library::TerminalText::safe(traceError) << "\n";
        else if (!options.json)
            err << "wrote " << library::TerminalText::safe(*options.traceFile) << "\n";
    }

    // --html: the page of this run, with the script as it ran and each capture's python_code.
    // A page that cannot be written is exit 2 whatever the run said: the reader it was for
    // gets nothing.
    std::string htmlError;
    if (!htmlPath.empty()) {
        std::vector<std::optional<std::string>> code;
        for (const auto& bytes : result.artifacts)
            code.push_back(bytes.pythonCode);
        htmlError = share::HtmlReport::save(htmlPath, share::HtmlReport::forRun(report, result.scriptText, code));
        if (!htmlError.empty())
            err << "precompile-studio: report page not written: " << library::TerminalText::safe(htmlError) << "\n";
        else if (!options.json)
            err << "wrote " << library::TerminalText::safe(htmlPath) << "\n";
    }

    const int code = report.exitCode();
    done.runCode = code;
    done.exitCode = code == 0 && (!exportError.empty() || !traceError.empty()) ? 2 : code;
    if (!htmlError.empty())
        done.exitCode = 2;
    done.report = std::move(report);
    return done;
}

// The closing line of several scripts: "3 scripts: 1 ok, 1 problem found, 1 could not run (exit 2)";
// each script's (run code, exit code). A 2 the run itself did not give is an output (--export,
// --html) that could not be written.
std::string closingLine(const std::vector<std::pair<int, int>>& codes, int exitCode)
{
    std::size_t ok = 0, problems = 0, failed = 0, unstored = 0, unwritten = 0;
    for (const auto& [run, code] : codes) {
        if (code == 0)
            ++ok;
        else if (code == 1)
            ++problems;
        else if (code == 3)
            ++unstored;
        else if (run == 0 || run == 1 || run == 3)
            ++unwritten;
        else
            ++failed;
    }
    std::string line = std::to_string(codes.size()) + " scripts: " + std::to_string(ok) + " ok";
    auto add = [&](std::size_t n, const char* one, const char* many) {
        if (n > 0)
            line += ", " + std::to_string(n) + " " + (n == 1 ? one : many);
    };
    add(problems, "problem found", "problems found");
    add(failed, "could not run", "could not run");
    add(unwritten, "output not written", "outputs not written");
    add(unstored, "not stored", "not stored");
    return line + " (exit " + std::to_string(exitCode) + ")\n";
}

}  // namespace

int RunCommand::worstExitCode(int a, int b)
{
    // Best to worst: ok, ok but not stored, a problem found, could not run. A run that could not
    // run says nothing about its script, which is worse for a CI job than a problem found.
    auto rank = [](int code) { return code == 0 ? 0 : code == 3 ? 1 : code == 1 ? 2 : 3; };
    const int worse = rank(a) >= rank(b) ? a : b;
    return rank(worse) == 3 ? 2 : worse;
}

std::string RunCommand::usageProblem(const RunCommandOptions& options)
{
    if (options.scripts.empty())
        return "no script was given";
    if (options.traceFile && options.scripts.size() > 1)
        return "--trace writes one file for one run: give it with one script (" + std::to_string(options.scripts.size())
            + " were given)";
    return {};
}

std::vector<std::string> RunCommand::htmlPaths(const RunCommandOptions& options)
{
    std::vector<std::string> paths;
    if (!options.htmlPath)
        return std::vector<std::string>(options.scripts.size());
    if (options.scripts.size() == 1)
        return {*options.htmlPath};
    std::map<std::string, int> seen;
    for (const auto& script : options.scripts) {
        std::string stem = std::filesystem::path(script).stem().string();
        if (stem.empty())
            stem = "run";
        const int n = ++seen[stem];
        paths.push_back(
            (std::filesystem::path(*options.htmlPath) / (n == 1 ? stem : stem + "-" + std::to_string(n))).string()
            + ".html");
    }
    return paths;
}

int RunCommand::execute(const RunCommandOptions& options, std::ostream& out, std::ostream& err)
{
    if (const auto problem = usageProblem(options); !problem.empty()) {
        err << "precompile-studio run: " << problem << "\n";
        return 2;
    }
    const std::vector<std::string> htmlFiles = htmlPaths(options);
    if (options.htmlPath && options.scripts.size() > 1) {
        std::error_code ec;
        std::filesystem::create_directories(*options.htmlPath, ec);
        if (ec) {
            err << "precompile-studio run: --html " << library::TerminalText::safe(*options.htmlPath)
                << ": cannot make the folder for the pages: " << ec.message() << "\n";
            return 2;
        }
    }
    const std::size_t count = options.scripts.size();
    const bool several = count > 1;
    std::set<std::string> exported;
    std::vector<std::pair<int, int>> codes;
    // Outputs made of every run take each report as its run ends (no report is kept).
    std::optional<share::JunitReport> junit;
    if (options.junitFile)
        junit.emplace();
    int exitCode = 0;
    // Several scripts with --json: one JSON array of their reports, written as each run ends.
    if (options.json && several)
        out << "[\n";
    for (std::size_t i = 0; i < count; ++i) {
        const std::string& script = options.scripts[i];
        if (several && !options.json)
            out << (i ? "\n" : "") << "=== [" << i + 1 << "/" << count << "] " << library::TerminalText::safe(script)
                << " ===\n"
                << std::flush;
        ScriptRun run = runScript(options, script, err, exported, htmlFiles[i]);
        if (junit)
            junit->add(script, run.report);
        if (options.json)
            out << (several && i ? ",\n" : "")
                << run.report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << (several ? "" : "\n");
        else
            out << ReportPrinter::summary(run.report);
        out.flush();
        codes.emplace_back(run.runCode, run.exitCode);
        exitCode = worstExitCode(exitCode, run.exitCode);
    }
    if (options.json && several)
        out << "\n]\n";
    if (junit) {
        if (const auto error = junit->write(*options.junitFile); !error.empty()) {
            err << "precompile-studio: JUnit XML not written: " << library::TerminalText::safe(error) << "\n";
            exitCode = worstExitCode(exitCode, 2);
        } else if (!options.json) {
            err << "wrote " << library::TerminalText::safe(*options.junitFile) << " (JUnit XML: " << junit->tests()
                << " tests, " << junit->failures() << " failures, " << junit->errors() << " errors)\n";
        }
    }
    if (several && !options.json)
        out << "\n" << closingLine(codes, exitCode);
    out.flush();
    return exitCode;
}

}  // namespace ps::commands
