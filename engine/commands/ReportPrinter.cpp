#include "commands/ReportPrinter.h"

#include "commands/KernelProfilePrinter.h"

#include "model/DriftStart.h"
#include "model/WorkerInfo.h"

#include "library/core/TerminalText.h"
#include "model/JsonFields.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <vector>

namespace ps::commands {

namespace {

using library::TerminalText;

// Everything in a report but the studio's own words came from the script or its worker (a name,
// a path, a message, a rule): it is printed through TerminalText so that it cannot retitle,
// clear or rewrite the terminal. `text` keeps the newlines of texts that span lines.
std::string text(std::string_view s)
{
    return library::TerminalText::safe(s, true);
}

// The accuracy verdict with both errors against float64 and where it starts, and what
// verification left out to stay within its budget:
//     accuracy: numerics drift (against float64: artifact 1.2e-02, eager 5.9e-06, 2e+03x); drift starts at
//     native_batch_norm_backward_4 (model.layer4.0.bn1)
//     verify: skipped second call, perturbed trial small, load without cache (run with --deep-verify ...)
void printVerification(std::ostream& out, const model::Verification& v, const nlohmann::json& graph)
{
    if (v.accuracy && v.accuracy->verdict != model::Judgement::None) {
        const auto& a = *v.accuracy;
        out << "    accuracy: " << model::toString(a.verdict);
        if (a.artifactError && a.eagerError) {
            char buf[128];
            std::snprintf(
                buf, sizeof buf, " (against float64: artifact %.2g, eager %.2g", *a.artifactError, *a.eagerError);
            out << buf;
            if (a.ratio) {
                std::snprintf(buf, sizeof buf, ", %.3gx", *a.ratio);
                out << buf;
            }
            out << ")";
        }
        if (!a.driftStarts.empty())
            out << (a.verdict == model::Judgement::Drift ? "; drift starts at " : "; the difference starts at ")
                << model::DriftStart::phrase(
                       model::DriftStart::of(a, graph), [](std::string_view s) { return TerminalText::safe(s); });
        else if (a.localise && a.localise->status != model::DriftLocalisation::Status::Done)
            out << "; where it starts: " << model::toString(a.localise->status) << " ("
                << TerminalText::safe(a.localise->reason) << ")";
        out << "\n";
    }
    // A perturbed trial that drifted is the backend's arithmetic, not a contract finding: said as
    // drift, with the judge's figures.
    const auto* trials = v.perturbed ? &v.perturbed->trials : nullptr;
    for (std::size_t i = 0; trials && i < trials->size(); ++i)
        if (const auto& t = (*trials)[i]; t.status == model::Verification::Trial::Status::Drift) {
            out << "    perturbed inputs (" << TerminalText::safe(t.kind)
                << "): " << TerminalText::safe(t.note.empty() ? "numerics drift" : t.note) << "\n";
            break;
        }
    // The marked dims at other sizes, every trial (few): "marked dims: other-sizes ok (x dim 0 = 7)".
    if (v.resized && v.resized->ran) {
        out << "    marked dims:";
        for (std::size_t i = 0; i < v.resized->trials.size(); ++i) {
            const auto& t = v.resized->trials[i];
            out << (i ? ", " : " ") << TerminalText::safe(t.kind) << " " << model::toString(t.status);
            if (!t.sizes.empty())
                out << " (" << TerminalText::safe(t.sizes) << ")";
        }
        out << "\n";
    }
    const std::vector<std::string> skipped = v.skippedChecks();
    if (skipped.empty())
        return;
    out << "    verify: skipped ";
    for (std::size_t i = 0; i < skipped.size(); ++i)
        out << (i ? ", " : "") << TerminalText::safe(skipped[i]);
    out << " (" << TerminalText::safe(v.everyCheckHow()) << ")\n";
}

// torch._precompile's warnings (a capture's, or the run's own when it has no capture), one line
// each with its fix.
void printWarnings(std::ostream& out, const std::vector<model::Violation>& warnings, const char* indent)
{
    for (const auto& warning : warnings) {
        out << indent << "warning";
        if (warning.invariant)
            out << " (invariant " << *warning.invariant << ")";
        if (!warning.rule.empty())
            out << " " << TerminalText::safe(warning.rule);
        out << ": ";
        if (warning.location && warning.location->line > 0)
            out << TerminalText::safe(warning.location->file) << ":" << warning.location->line << ": ";
        const std::string& words = warning.summary.empty() ? warning.message : warning.summary;
        out << TerminalText::safe(words.substr(0, words.find('\n'))) << "\n";
        if (!warning.fix.empty())
            out << indent << "  fix: " << text(warning.fix) << "\n";
    }
}

// The chain from the user's line through the package frame that raised to the torch op, one
// link a line (precompile_studio/common/frames.py).
void printChain(std::ostream& out, const model::Violation& violation)
{
    const char* lead = "    via: ";
    for (const auto& step : violation.chain) {
        const std::string link = step.describe();
        if (link.empty())
            continue;
        out << lead << TerminalText::safe(link) << "\n";
        lead = "         ";
    }
}

// Where a runtime shape rejection comes from (captures[i].specialisation): the guard the runtime
// sizes break and the user's line that made it, the runtime_inputs line beside it; or why none
// was named.
//     shape guard: x.shape[0] <= 2, false at the runtime sizes, at wrong.py:7: if x.shape[0] > 2:
//     runtime_inputs: /home/me/wrong.py:15
void printSpecialisation(std::ostream& out, const model::Capture& c)
{
    out << "    shape guard: " << TerminalText::safe(c.specialisation->describe()) << "\n";
    if (!c.verify || !c.verify->runtime || !c.verify->runtime->violation)
        return;
    if (const auto& at = c.verify->runtime->violation->calledAt; at && at->line > 0)
        out << "    runtime_inputs: " << TerminalText::safe(at->file) << ":" << at->line << "\n";
}

// How many times the studio's own code failed and the run went on (the worker's internal_errors,
// each entry with its count, bounded so that no report can overflow the sum); 0 for a report
// without the field.
std::int64_t internalErrorCount(const nlohmann::json& extra)
{
    constexpr std::int64_t kMostPerEntry = std::int64_t{1} << 30;
    const auto& list = model::JsonFields::member(extra, "internal_errors");
    std::int64_t n = 0;
    if (list.is_array())
        for (const auto& entry : list)
            n += std::clamp<std::int64_t>(model::JsonFields::integer(entry, "count").value_or(1), 1, kMostPerEntry);
    return n;
}

}  // namespace

std::string ReportPrinter::bytes(std::int64_t n)
{
    char buf[32];
    if (n < 1024)
        std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(n));
    else if (n < 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", n / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", n / (1024.0 * 1024.0));
    return buf;
}

std::string ReportPrinter::summary(const model::Report& report)
{
    std::ostringstream out;
    // The first line tells the truth first: the verdict TerminalText::safe never says "ok" for a run that
    // failed a check or that was not stored.
    out << TerminalText::safe(report.script) << ": " << model::toString(report.verdict());
    if (report.status == model::RunStatus::Ok && report.storeError) {
        out << ": " << text(*report.storeError) << "\n";
        if (!report.message.empty())
            out << "  the run itself: " << text(report.message) << "\n";
    } else {
        if (!report.message.empty())
            out << ": " << text(report.message);
        out << "\n";
        if (report.storeError)
            out << "  not stored: " << text(*report.storeError) << "\n";
    }
    // Where it ran, when that was not here (a run here says nothing new).
    if (const auto worker = model::WorkerInfo::fromJson(model::JsonFields::member(report.extra(), "worker"));
        worker && worker->remote())
        out << "  ran on " << text(worker->summary()) << "\n";
    // A bug of the studio's the run survived: said, never on the first line, never in the exit code.
    if (const auto n = internalErrorCount(report.extra()); n > 0)
        out << "  internal errors: " << n << " (a studio bug, not your script: see internal_errors in the report)\n";
    // A contract outcome of the script itself (e.g. it loaded a mismatched python_code / cache).
    if (auto v = report.extra().find("violation"); v != report.extra().end() && v->is_object()) {
        if (auto rule = v->find("rule"); rule != v->end() && rule->is_string())
            out << "  rule: " << TerminalText::safe(rule->get<std::string>()) << "\n";
        if (auto fix = v->find("fix"); fix != v->end() && fix->is_string() && !fix->get<std::string>().empty())
            out << "  fix: " << text(fix->get<std::string>()) << "\n";
    }
    printWarnings(out, model::Violation::listFromJson(model::JsonFields::member(report.extra(), "warnings")), "  ");
    for (const auto& c : report.captures) {
        out << "  " << TerminalText::safe(c.name) << "  [" << TerminalText::safe(c.backend) << ", "
            << TerminalText::safe(c.tracer) << "]  " << model::toString(c.status) << "\n";
        if (c.artifact)
            out << "    python_code " << bytes(c.artifact->pythonCodeBytes) << " (sha256 "
                << TerminalText::safe(c.artifact->pythonCodeSha256.substr(0, 12)) << ")  cache "
                << bytes(c.artifact->cacheBytes) << " (sha256 "
                << TerminalText::safe(c.artifact->cacheSha256.substr(0, 12)) << ")\n";
        if (c.violation) {
            out << "    " << TerminalText::safe(c.violation->oneLine()) << "\n";
            printChain(out, *c.violation);
            if (!c.violation->rule.empty())
                out << "    rule: " << TerminalText::safe(c.violation->rule) << "\n";
            if (!c.violation->fix.empty())
                out << "    fix: " << text(c.violation->fix) << "\n";
        }
        if (c.outcome && c.outcomeStage != model::Stage::Capture) {
            out << "    " << model::toString(c.outcomeStage.value_or(model::Stage::Verify)) << ": "
                << TerminalText::safe(c.outcome->oneLine()) << "\n";
            if (!c.outcome->rule.empty())
                out << "    rule: " << TerminalText::safe(c.outcome->rule) << "\n";
        }
        if (c.specialisation)
            printSpecialisation(out, c);
        printWarnings(out, c.warnings, "    ");
        if (c.verify)
            printVerification(out, *c.verify, c.json.contains("graph") ? c.json["graph"] : nlohmann::json());
        if (!c.timings.empty()) {
            out << "    timings:";
            for (const char* key : {"script", "precompile", "load", "load_no_cache", "call", "call_eager"})
                if (auto it = c.timings.find(key); it != c.timings.end()) {
                    char buf[64];
                    std::snprintf(buf, sizeof buf, " %s %.3f s", key, it->second);
                    out << buf;
                }
            out << "\n";
        }
        if (c.compileProfile && !c.compileProfile->phases.empty())
            out << "    " << c.compileProfile->summary() << "\n";  // the studio's own words only
        KernelProfilePrinter::print(out, c);
        if (c.coldStart)
            ReportPrinter::printColdStart(out, *c.coldStart);
    }
    if (report.runId)
        out << "  stored as run " << *report.runId << "\n";
    return out.str();
}

void ReportPrinter::printColdStart(std::ostream& out, const model::ColdStart& cold, const std::string& indent)
{
    if (!cold.ran) {
        out << indent << "cold start: " << TerminalText::safe(cold.reason) << "\n";
        return;
    }
    out << indent << "cold start: " << TerminalText::safe(cold.message);
    if (cold.importS) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (import torch %.2f s apart)", *cold.importS);
        out << buf;
    }
    out << "\n";
    for (const auto& m : cold.steps) {
        char buf[192];
        const std::string what(model::ColdStart::words(m.step));
        if (m.firstCallS)
            std::snprintf(buf, sizeof buf, "%s  %-34s %9.3f s", indent.c_str(), what.c_str(), *m.firstCallS);
        else
            std::snprintf(buf, sizeof buf, "%s  %-34s %11s", indent.c_str(), what.c_str(), "-");
        out << buf;
        if (!m.error.empty())
            out << "  failed: " << TerminalText::safe(m.error);
        else if (m.kernelsCompiled)
            out << "  (" << *m.kernelsCompiled << (*m.kernelsCompiled == 1 ? " kernel" : " kernels") << " compiled)";
        out << "\n";
    }
}

}  // namespace ps::commands
