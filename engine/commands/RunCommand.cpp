#include "commands/RunCommand.h"

#include "commands/ReportPrinter.h"
#include "library/DefaultLibraryPath.h"
#include "library/LibraryLocator.h"
#include "library/TerminalText.h"
#include "model/ChromeTrace.h"
#include "run/RunPipeline.h"

#include <fstream>
#include <ostream>

namespace ps::commands {

namespace {

// How much of the script's output is echoed live to the terminal; the rest is counted.
constexpr std::size_t kEchoLimit = 1024 * 1024;

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

}  // namespace

int RunCommand::execute(const RunCommandOptions& options, std::ostream& out, std::ostream& err)
{
    run::PipelineOptions pipeline;
    pipeline.run = options.run;
    if (options.store) {
        pipeline.libraryPath = options.libraryPath.empty() ? library::defaultLibraryPath() : options.libraryPath;
        // A team library that cannot be reached: the run waits in the local one.
        if (library::LibraryLocator::isPostgres(*pipeline.libraryPath))
            pipeline.fallbackLibraryPath = library::defaultLibraryPath();
    }
    pipeline.exportDir = options.exportDir;

    std::size_t echoed = 0;
    bool noted = false;
    protocol::RunObserver observer;
    observer.onOutput = [&](int, std::string_view data) {
        if (echoed < kEchoLimit) {
            const auto take = std::min(data.size(), kEchoLimit - echoed);
            err.write(data.data(), static_cast<std::streamsize>(take));
            echoed += take;
        } else if (!noted) {
            err << "\n[precompile-studio: more output than " << kEchoLimit << " bytes; the rest is not echoed]\n";
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

    auto& report = result.report;
    if (report.storeError && !options.json)
        err << "precompile-studio: the run was not stored: " << library::TerminalText::safe(*report.storeError) << "\n";
    if (options.exportDir) {
        if (!runner.exportError().empty()) {
            err << "precompile-studio: export failed: " << library::TerminalText::safe(runner.exportError()) << "\n";
            report.extra()["export_error"] = runner.exportError();
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

    if (options.json)
        out << report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
        out << ReportPrinter::summary(report);
    out.flush();
    const int code = report.exitCode();
    return code == 0 && (!runner.exportError().empty() || !traceError.empty()) ? 2 : code;
}

}  // namespace ps::commands
