#include "commands/ReportPrinter.h"

#include <cstdio>
#include <sstream>

namespace ps::commands {

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
    // The first line tells the truth first: the verdict word never says "ok" for a run that
    // failed a check or that was not stored.
    out << report.script << ": " << report.verdict();
    if (report.status == model::RunStatus::Ok && report.storeError) {
        out << ": " << *report.storeError << "\n";
        if (!report.message.empty())
            out << "  the run itself: " << report.message << "\n";
    } else {
        if (!report.message.empty())
            out << ": " << report.message;
        out << "\n";
        if (report.storeError)
            out << "  not stored: " << *report.storeError << "\n";
    }
    // A contract outcome of the script itself (e.g. it loaded a mismatched python_code / cache).
    if (auto v = report.extra().find("violation"); v != report.extra().end() && v->is_object()) {
        if (auto rule = v->find("rule"); rule != v->end() && rule->is_string())
            out << "  rule: " << rule->get<std::string>() << "\n";
        if (auto fix = v->find("fix"); fix != v->end() && fix->is_string() && !fix->get<std::string>().empty())
            out << "  fix: " << fix->get<std::string>() << "\n";
    }
    for (const auto& c : report.captures) {
        out << "  " << c.name << "  [" << c.backend << ", " << c.tracer << "]  " << model::toString(c.status) << "\n";
        if (c.artifact)
            out << "    python_code " << bytes(c.artifact->pythonCodeBytes) << " (sha256 "
                << c.artifact->pythonCodeSha256.substr(0, 12) << ")  cache " << bytes(c.artifact->cacheBytes)
                << " (sha256 " << c.artifact->cacheSha256.substr(0, 12) << ")\n";
        if (c.violation) {
            out << "    " << c.violation->oneLine() << "\n";
            if (!c.violation->rule.empty())
                out << "    rule: " << c.violation->rule << "\n";
            if (!c.violation->fix.empty())
                out << "    fix: " << c.violation->fix << "\n";
        }
        if (c.outcome && c.outcomeWhere != "capture") {
            out << "    " << (c.outcomeWhere.empty() ? std::string("verify") : c.outcomeWhere) << ": "
                << c.outcome->oneLine() << "\n";
            if (!c.outcome->rule.empty())
                out << "    rule: " << c.outcome->rule << "\n";
        }
        if (auto w = c.json.find("warnings"); w != c.json.end() && w->is_array())
            for (const auto& item : *w) {
                if (!item.is_object())
                    continue;
                // A warning reads like a violation (Violation::fromJson never throws on odd fields).
                const model::Violation warning = model::Violation::fromJson(item);
                out << "    warning";
                if (warning.invariant)
                    out << " (invariant " << *warning.invariant << ")";
                if (!warning.rule.empty())
                    out << " " << warning.rule;
                out << ": ";
                if (warning.location && warning.location->line > 0)
                    out << warning.location->file << ":" << warning.location->line << ": ";
                out << warning.message.substr(0, warning.message.find('\n')) << "\n";
                if (!warning.fix.empty())
                    out << "      fix: " << warning.fix << "\n";
            }
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
    }
    if (report.runId)
        out << "  stored as run " << *report.runId << "\n";
    return out.str();
}

}  // namespace ps::commands
