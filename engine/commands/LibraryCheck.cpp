#include "commands/LibraryCheck.h"

#include "commands/LibraryCommand.h"
#include "commands/LibraryText.h"
#include "commands/ReportPrinter.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/TerminalText.h"
#include "model/JsonFields.h"
#include "remote/SshDestination.h"
#include "run/StoredRunCheck.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace ps::commands {

using library::TerminalText;
using TargetOutcome = run::StoredRunCheck::Outcome;

namespace {

std::string seconds(const std::optional<double>& s)
{
    if (!s)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, *s < 10 ? "%.2f s" : "%.1f s", *s);
    return buf;
}

nlohmann::json toJson(const run::StoredRunCheck& check, const std::vector<TargetOutcome>& outcomes, int code)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& o : outcomes)
        rows.push_back({{"target", o.target.label},
            {"python_env", o.target.pythonEnv ? nlohmann::json(*o.target.pythonEnv) : nlohmann::json(nullptr)},
            {"host", o.target.host ? nlohmann::json(o.target.host->host) : nlohmann::json(nullptr)},
            {"status", model::toString(o.report.status)}, {"message", o.report.message},
            {"check", model::JsonFields::member(o.report.extra(), "check")}});
    return {{"run_id", check.runId()}, {"capture", check.captureName()}, {"made", check.stamps()},
        {"summary", run::StoredRunCheck::headline(outcomes)}, {"exit_code", code}, {"targets", rows}};
}

void printMatrix(std::ostream& out, const std::vector<TargetOutcome>& outcomes)
{
    std::size_t width = 6;
    for (const auto& o : outcomes)
        width = std::max(width, std::min<std::size_t>(TerminalText::safe(o.target.label).size(), 48));
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-*s  %-16s  %-22s  %10s  %s\n", static_cast<int>(width), "target", "torch",
        "outcome", "first call", "matches eager");
    out << buf;
    for (const auto& o : outcomes) {
        std::string label = TerminalText::safe(o.target.label);
        if (label.size() > width)
            label = "..." + label.substr(label.size() - width + 3);
        const std::string torch = o.check && o.check->target ? o.check->target->torch : "-";
        std::snprintf(buf, sizeof buf, "  %-*s  %-16s  %-22s  %10s  %s\n", static_cast<int>(width), label.c_str(),
            TerminalText::safe(torch).c_str(), run::StoredRunCheck::outcomeWords(o).c_str(),
            seconds(o.check ? o.check->firstCallS : std::nullopt).c_str(),
            o.check ? o.check->matchesWords().c_str() : "-");
        out << buf;
    }
    for (const auto& o : outcomes) {
        out << "  " << TerminalText::safe(o.target.label) << ": "
            << TerminalText::safe(run::StoredRunCheck::reasonOf(o)) << "\n";
        if (o.check && !o.check->verdictMessage.empty() && o.check->verdict != "matches")
            out << "    against eager there: " << TerminalText::safe(o.check->verdictMessage) << "\n";
        if (o.check && o.check->coldStart)
            ReportPrinter::printColdStart(out, *o.check->coldStart);
    }
}

}  // namespace

int LibraryCheck::run(library::ArtifactLibrary& library, const LibraryOptions& options, std::ostream& out,
    std::ostream& err, const std::string& cannotKeep)
{
    run::StoredRunCheck check(library, options.id);
    if (!check.refusal().empty()) {
        err << "precompile-studio: " << TerminalText::location(library.path()) << ": "
            << TerminalText::safe(check.refusal()) << "\n";
        return 1;
    }
    std::vector<run::StoredRunCheck::Target> targets;
    for (const auto& e : options.pythonEnvs)
        targets.push_back({.pythonEnv = e, .label = e});
    for (const auto& on : options.hosts) {
        // HOST, or HOST=ENV: a Python environment there (no ssh destination holds '=').
        const std::size_t eq = on.find('=');
        const std::string host = on.substr(0, eq);
        const std::string env = eq == std::string::npos ? std::string() : on.substr(eq + 1);
        targets.push_back({.host = remote::RemoteTarget{host, options.remoteStudio, options.remoteDir, env},
            .label = remote::SshDestination::displayName(host) + (env.empty() ? "" : " (" + env + ")")});
    }
    if (targets.empty())
        targets.push_back({.label = "the studio's environment"});

    std::vector<TargetOutcome> outcomes;
    for (const auto& t : targets) {
        if (!options.json)
            err << "checking run " << options.id << (t.host ? " on " : " in ") << TerminalText::safe(t.label)
                << "...\n";
        outcomes.push_back(check.check(t, options.timeoutSeconds, options.coldStart));
    }
    const int code = run::StoredRunCheck::exitCode(outcomes);
    // Kept with the run, so that `library show` and the window say where it was checked.
    std::string notKept = cannotKeep.empty() ? library.readOnlyReason() : cannotKeep;
    int kept = 0;
    if (notKept.empty()) {
        try {
            kept = check.keep(library, outcomes);
        } catch (const library::LibraryError& e) {
            notKept = e.what();
        }
    }
    if (options.json) {
        nlohmann::json j = toJson(check, outcomes, code);
        j["kept"] = notKept.empty() ? nlohmann::json(kept) : nlohmann::json(false);
        j["not_kept_because"] = notKept;
        out << LibraryText::dumpJson(j, 2) << "\n";
        return code;
    }
    out << "run " << options.id << " (" << TerminalText::safe(check.captureName())
        << "): " << run::StoredRunCheck::headline(outcomes) << "\n";
    if (const auto made = model::Stamps::fromJson(check.stamps()))
        out << "  made with " << TerminalText::safe(made->summary()) << "\n";
    printMatrix(out, outcomes);
    if (!notKept.empty())
        out << "  not kept in the library: " << TerminalText::safe(notKept) << "\n";
    else if (kept > 0)
        out << "  kept with run " << options.id << " (library show " << options.id << " lists where it was checked)\n";
    return code;
}

}  // namespace ps::commands
