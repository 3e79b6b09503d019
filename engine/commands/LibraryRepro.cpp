#include "commands/LibraryRepro.h"

#include "commands/LibraryCommand.h"
#include "commands/LibraryText.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/TerminalText.h"
#include "model/JsonFields.h"
#include "run/StoredRunRepro.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <ostream>

namespace ps::commands {

using library::TerminalText;

namespace {

std::string figure(const std::optional<double>& x)
{
    if (!x)
        return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", *x);
    return buf;
}

void printWritten(std::ostream& out, const model::Repro& r, double budget)
{
    out << "  wrote";
    for (std::size_t i = 0; i < r.files.size(); ++i)
        out << (i ? " and " : " ") << TerminalText::location(r.files[i]);
    out << "\n  ops (" << r.ops.size() << " of the graph's " << r.graphOps << "):";
    for (const auto& op : r.ops)
        out << " " << TerminalText::safe(op);
    char buf[256];
    std::snprintf(buf, sizeof buf,
        "\n  shrunk from %lld ops to %zu, %lld input elements, %lld steps in %.1f s (budget %.0f s)\n",
        static_cast<long long>(r.grownOps), r.ops.size(), static_cast<long long>(r.elements),
        static_cast<long long>(r.steps), r.shrinkS.value_or(0.0), budget);
    out << buf;
    std::snprintf(
        buf, sizeof buf, "  %-28s %-9s %9s  %9s %9s %9s\n", "output", "dtype", "elements", "compiled", "eager", "band");
    out << buf;
    for (const auto& o : r.outputs) {
        std::snprintf(buf, sizeof buf, "  %-28s %-9s %9lld  %9s %9s %9s%s\n", TerminalText::safe(o.name).c_str(),
            TerminalText::safe(o.dtype).c_str(), static_cast<long long>(o.elements), figure(o.compiledError).c_str(),
            figure(o.eagerError).c_str(), figure(o.band).c_str(), o.outside ? "  outside eager's band" : "");
        out << buf;
    }
    if (r.freshExit) {
        std::snprintf(buf, sizeof buf, "  `python repro.py` in a fresh process exits %d (%s) in %.1f s\n", *r.freshExit,
            *r.freshExit == 1 ? "reproduces" : "does not reproduce", r.freshS.value_or(0.0));
        out << buf;
    }
}

}  // namespace

int LibraryRepro::run(
    const library::ArtifactLibrary& library, const LibraryOptions& options, std::ostream& out, std::ostream& err)
{
    run::StoredRunRepro repro(library, options.id);
    if (!repro.refusal().empty()) {
        err << "precompile-studio: " << TerminalText::location(library.path()) << ": "
            << TerminalText::safe(repro.refusal()) << "\n";
        return 1;
    }
    protocol::ReproRequest request;
    std::error_code ec;
    const auto dir = std::filesystem::absolute(options.dir, ec);
    request.dir = ec ? options.dir : dir.lexically_normal().string();
    if (!options.node.empty())
        request.node = options.node;
    if (!options.captures.empty())
        request.capture = options.captures.front();
    request.budgetSeconds = options.budgetSeconds;

    protocol::RunObserver observer;
    if (!options.json) {
        err << "running run " << options.id << "'s script again to cut its graph...\n";
        observer.onStage = [&](model::Stage stage, const std::string& capture) {
            err << "[" << model::toString(stage) << (capture.empty() ? "" : " " + TerminalText::safe(capture)) << "]\n";
        };
        observer.onStageDetail = [&](const std::string& detail) { err << "  " << TerminalText::safe(detail) << "\n"; };
    }
    const std::optional<std::string> env
        = options.pythonEnvs.empty() ? std::nullopt : std::optional<std::string>(options.pythonEnvs.front());
    const model::Report report = repro.make(request, env, options.timeoutSeconds, observer);
    int code = 2;
    if (report.repro)
        code = report.repro->written ? 0 : 1;

    if (options.json) {
        out << LibraryText::dumpJson(
            {{"run_id", options.id}, {"exit_code", code}, {"status", model::toString(report.status)},
                {"message", report.message}, {"repro", model::JsonFields::member(report.extra(), "repro")}},
            2)
            << "\n";
        return code;
    }
    const std::string run = "run " + std::to_string(options.id);
    if (!report.repro) {
        out << run << ": no repro: the run could not be made again: " << TerminalText::safe(report.message) << "\n";
        return code;
    }
    const model::Repro& r = *report.repro;
    out << run << (r.capture.empty() ? "" : " (" + TerminalText::safe(r.capture) + ")") << ": "
        << (r.written ? "" : "no repro: ") << TerminalText::safe(r.reason) << "\n";
    out << "  the run again: " << TerminalText::safe(LibraryText::shortLine(report.message, 300)) << "\n";
    if (r.written)
        printWritten(out, r, options.budgetSeconds);
    return code;
}

}  // namespace ps::commands
