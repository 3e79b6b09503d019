#include "commands/RunCommand.h"

#include "commands/ArtifactExport.h"
#include "commands/ReportPrinter.h"
#include "library/ArtifactLibrary.h"
#include "library/DefaultLibraryPath.h"
#include "library/LibraryError.h"
#include "model/Report.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunClient.h"
#include "protocol/WorkerLocator.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <ostream>

namespace ps::commands {

namespace fs = std::filesystem;

namespace {

// How much of the script's output is echoed live to the terminal; the rest is counted.
constexpr std::size_t kEchoLimit = 1024 * 1024;

class TempDir {
public:
    TempDir()
    {
        std::string tmpl = (fs::temp_directory_path() / "precompile-studio-run-XXXXXX").string();
        if (::mkdtemp(tmpl.data()))
            m_path = tmpl;
    }
    ~TempDir()
    {
        std::error_code ec;
        if (!m_path.empty())
            fs::remove_all(m_path, ec);
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

std::optional<std::string> readFile(const fs::path& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return std::nullopt;
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Keeps the run, whatever its status, in the library; returns the run id. A failure to store
// is reported and leaves the run's outcome as it was: nothing already stored is touched.
std::optional<std::int64_t> store(model::Report& report, const std::string& workDir, const std::string& libraryPath,
                                  std::ostream& err)
{
    library::NewRun run;
    run.report = report.toJson();
    for (std::size_t i = 0; i < report.captures.size(); ++i) {
        library::NewCapture c;
        if (report.captures[i].artifact) {
            c.pythonCode = readFile(fs::path(workDir) / ("capture-" + std::to_string(i) + ".py"));
            c.cache = readFile(fs::path(workDir) / ("capture-" + std::to_string(i) + ".cache"));
        }
        run.captures.push_back(std::move(c));
    }
    run.scriptText = readFile(report.script).value_or("");
    if (run.scriptText.size() > 16 * 1024 * 1024)
        run.scriptText.resize(16 * 1024 * 1024);
    const std::string path = libraryPath.empty() ? library::defaultLibraryPath() : libraryPath;
    try {
        library::ArtifactLibrary lib(path);
        return lib.insert(run);
    } catch (const std::exception& e) {
        err << "precompile-studio: the run was not stored: " << e.what() << "\n";
        report.extra()["store_error"] = e.what();
        return std::nullopt;
    }
}

int finish(const model::Report& report, bool json, std::ostream& out)
{
    if (json)
        out << report.toJson().dump(2) << "\n";
    else
        out << ReportPrinter::summary(report);
    out.flush();
    return report.exitCode();
}

} // namespace

int RunCommand::execute(const RunCommandOptions& options, std::ostream& out, std::ostream& err)
{
    const std::string script = fs::absolute(options.run.script).lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(script, ec)) {
        auto report = model::Report::failed(script, "error",
                                            fs::exists(script, ec) ? script + " is not a regular file"
                                                                   : "no such file: " + script);
        return finish(report, options.json, out);
    }

    protocol::WorkerLaunch launch;
    try {
        launch = protocol::WorkerLocator::locate(options.pythonEnv);
    } catch (const protocol::ProtocolError& e) {
        return finish(model::Report::failed(script, "error", e.what()), options.json, out);
    }

    TempDir work;
    protocol::RunOptions run = options.run;
    run.script = script;
    run.outDir = work.path();

    std::size_t echoed = 0;
    bool noted = false;
    protocol::RunObserver observer;
    observer.onOutput = [&](int, std::string_view data) {
        if (echoed < kEchoLimit) {
            const auto take = std::min(data.size(), kEchoLimit - echoed);
            err.write(data.data(), static_cast<std::streamsize>(take));
            echoed += take;
        } else if (!noted) {
            err << "\n[precompile-studio: more output than " << kEchoLimit
                << " bytes; the rest is not echoed]\n";
            noted = true;
        }
    };
    if (!options.json)
        observer.onStage = [&](const std::string& stage, const std::string& capture) {
            err << "[" << stage << (capture.empty() ? "" : " " + capture) << "]\n";
        };

    protocol::RunClient client(launch);
    model::Report report = client.run(run, observer);
    err.flush();

    if (options.store) {
        if (!options.json)
            err << "[store]\n";
        report.runId = store(report, work.path(), options.libraryPath, err);
    }

    if (options.exportDir) {
        try {
            for (const auto& file : ArtifactExport::write(report, work.path(), *options.exportDir))
                if (!options.json)
                    err << "wrote " << file << "\n";
        } catch (const std::exception& e) {
            err << "precompile-studio: export failed: " << e.what() << "\n";
            finish(report, options.json, out);
            return 2;
        }
    }
    return finish(report, options.json, out);
}

} // namespace ps::commands
