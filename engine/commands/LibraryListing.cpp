#include "commands/LibraryListing.h"

#include "commands/LibraryCommand.h"
#include "commands/LibraryText.h"
#include "commands/NodeStackPrinter.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryLocator.h"
#include "library/core/TerminalText.h"
#include "model/CheckOutcome.h"
#include "model/JsonFields.h"
#include "model/Stamps.h"
#include "model/WorkerInfo.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <set>

namespace ps::commands {

namespace {

using ps::library::ArtifactLibrary;
using json = nlohmann::json;
using library::TerminalText;

constexpr ArtifactLibrary::OpenOptions kListingReadOnly{.create = false, .readOnly = true};

/// A text printed on several lines: each line terminal-safe, continuation lines indented.
std::string indentedLines(const std::string& text, const std::string& indent)
{
    std::string out = ps::library::TerminalText::safe(text, true);
    for (std::size_t at = out.find('\n'); at != std::string::npos; at = out.find('\n', at + 1))
        out.insert(at + 1, indent);
    return out;
}

std::string backendsOf(const ps::library::RunSummary& run)
{
    std::set<std::string> seen;
    std::string out;
    for (const auto& c : run.captures)
        if (seen.insert(c.backend).second)
            out += (out.empty() ? "" : ",") + c.backend;
    return out.empty() ? "-" : out;
}

json captureJson(const ps::library::CaptureRecord& c)
{
    json j = {{"index", c.index}, {"name", c.name}, {"backend", c.backend}, {"tracer", c.tracer},
        {"status", ps::library::statusWord(c.status)}, {"message", c.message}};
    j["invariant"] = c.invariant ? json(*c.invariant) : json(nullptr);
    j["python_code_sha256"] = c.pythonCodeSha256 ? json(*c.pythonCodeSha256) : json(nullptr);
    j["cache_sha256"] = c.cacheSha256 ? json(*c.cacheSha256) : json(nullptr);
    return j;
}

json checksJson(const std::vector<ps::library::CheckRecord>& checks)
{
    json out = json::array();
    for (const auto& k : checks)
        out.push_back({{"target", k.target}, {"outcome", k.outcome}, {"runs", k.runs},
            {"first_call_s", k.firstCallMs ? json(static_cast<double>(*k.firstCallMs) / 1000.0) : json(nullptr)},
            {"torch", k.torch}, {"reason", k.reason}, {"checked_at", k.checkedAt},
            {"checked_by", {{"user", k.checkedBy.user}, {"role", k.checkedBy.role}}}});
    return out;
}

json summaryJson(const ps::library::RunSummary& s, const ps::library::RunTrust& trust)
{
    json captures = json::array();
    for (const auto& c : s.captures)
        captures.push_back(captureJson(c));
    return {{"run_id", s.id}, {"created_at", s.createdAt}, {"name", s.name}, {"script", s.scriptPath},
        {"status", ps::library::statusWord(s.status)}, {"message", s.message}, {"origin", toString(s.origin)},
        {"trusted", trust.trusted()}, {"untrusted_because", trust.why()}, {"uid", s.uid}, {"ran_on", s.ranOn},
        {"stored_by", {{"user", s.storedBy.user}, {"role", s.storedBy.role}}}, {"captures", captures},
        {"checks", checksJson(s.checks)}};
}

/// "alice", or the role when the OS user is unknown, or "-".
std::string storedByText(const ps::library::Identity& by)
{
    if (!by.user.empty())
        return by.user;
    return by.role.empty() ? std::string("-") : by.role;
}

/// "checked   /envs/torch-2.14: compiles its kernels · first call 1.40 s · 2026-12-07 08:10 by alice",
/// the latest check at each target.
void printChecks(const std::vector<ps::library::CheckRecord>& checks)
{
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const auto& k = checks[i];
        std::cout << (i == 0 ? "checked   " : "          ") << LibraryText::shortLine(k.target, 48) << ": "
                  << ps::model::keptCheckWords(k.outcome, k.runs);
        if (k.firstCallMs) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2f s", static_cast<double>(*k.firstCallMs) / 1000.0);
            std::cout << " \u00b7 first call " << buf;
        }
        std::string when = LibraryText::shortLine(k.checkedAt.substr(0, 16), 16);
        if (when.size() > 10)
            when[10] = ' ';
        std::cout << " \u00b7 " << when << " by " << LibraryText::shortLine(storedByText(k.checkedBy), 24) << "\n";
        if (!k.runs && !k.reason.empty())
            std::cout << "            " << LibraryText::shortLine(k.reason, 100) << "\n";
    }
}

}  // namespace

int LibraryListing::list(const std::string& path, const LibraryOptions& o)
{
    std::vector<ps::library::RunSummary> runs;
    std::vector<ps::library::RunTrust> trust;  // each run's, for this user
    using Kind = ps::library::LibraryLocator::Kind;
    if (ps::library::LibraryLocator::kindOf(path) != Kind::File || std::filesystem::exists(path)) {
        ArtifactLibrary library(path, kListingReadOnly);
        ps::library::ListQuery query;
        query.search = o.search;
        if (!o.status.empty()) {
            query.status = ps::model::runStatusFromString(o.status);
            if (!query.status) {
                std::cerr << "precompile-studio: library ls --status " << TerminalText::safe(o.status)
                          << ": not a run status (ok, mismatch, violation, error, timeout, worker_died, cancelled, "
                             "protocol_error, connection_lost)\n";
                return 2;
            }
        }
        query.backend = o.backend;
        runs = library.list(query);
        for (const auto& r : runs)
            trust.push_back(library.trustOf(r));
    }
    if (o.json) {
        json out = {{"schema", 1}, {"library", library::LibraryLocator::redacted(path)}, {"runs", json::array()}};
        for (std::size_t i = 0; i < runs.size(); ++i)
            out["runs"].push_back(summaryJson(runs[i], trust[i]));
        std::cout << LibraryText::dumpJson(out) << "\n";
        return 0;
    }
    if (runs.empty()) {
        std::cout << "no runs in " << TerminalText::location(path) << "\n";
        return 0;
    }
    std::cout << std::left << std::setw(7) << "ID" << std::setw(21) << "CREATED (UTC)" << std::setw(11) << "STATUS"
              << std::setw(15) << "BACKEND" << std::setw(9) << "TRUSTED" << std::setw(25) << "WHERE" << std::setw(13)
              << "BY" << std::setw(28) << "NAME"
              << "MESSAGE\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        std::string created = LibraryText::shortLine(r.createdAt.substr(0, 19), 20);
        if (created.size() > 10)
            created[10] = ' ';
        std::cout << std::left << std::setw(7) << r.id << std::setw(21) << created << std::setw(11)
                  << LibraryText::shortLine(std::string(ps::library::statusWord(r.status)), 10) << std::setw(15)
                  << LibraryText::shortLine(backendsOf(r), 14) << std::setw(9) << (trust[i].trusted() ? "yes" : "no")
                  << std::setw(25) << LibraryText::shortLine(r.ranOn.empty() ? "-" : r.ranOn, 24) << std::setw(13)
                  << LibraryText::shortLine(storedByText(r.storedBy), 12) << std::setw(28)
                  << LibraryText::shortLine(r.name, 27) << LibraryText::shortLine(r.message, 60) << "\n";
    }
    return 0;
}

int LibraryListing::show(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kListingReadOnly);
    const ps::library::RunRecord record = library.show(o.id);
    const auto& s = record.summary;
    if (!o.node.empty()) {
        const int found = NodeStackPrinter::print(record.report, o.node, o.json, std::cout, std::cerr);
        for (const auto& d : record.damaged)
            std::cerr << "precompile-studio: " << TerminalText::location(path) << ": run " << s.id << ": damaged blob "
                      << TerminalText::safe(d.sha256) << ": " << TerminalText::safe(d.detail) << "\n";
        return found != 0 || !record.damaged.empty() ? 1 : 0;
    }
    if (o.json) {
        std::cout << LibraryText::dumpJson(record.report, 2) << "\n";
    } else {
        std::cout << "run " << s.id << "  " << TerminalText::safe(s.name) << "  " << ps::library::statusWord(s.status)
                  << "  " << TerminalText::safe(s.createdAt) << "\n"
                  << "script    " << TerminalText::safe(s.scriptPath) << "\n"
                  << "origin    " << toString(s.origin) << "\n";
        if (const auto trust = library.trustOf(s); trust.trusted())
            std::cout << "trust     trusted\n";
        else
            std::cout << "trust     not trusted: " << TerminalText::safe(trust.why())
                      << "\n          once you trust it: precompile-studio library trust " << s.id << "\n";
        if (const auto worker = ps::model::WorkerInfo::fromJson(ps::model::JsonFields::member(record.report, "worker")))
            std::cout << "where     " << TerminalText::safe(worker->machine())
                      << (worker->torch.empty() ? std::string() : " \u00b7 torch " + TerminalText::safe(worker->torch))
                      << " \u00b7 " << TerminalText::safe(worker->deviceSummary()) << "\n";
        if (const auto stamps = ps::model::Stamps::fromJson(ps::model::JsonFields::member(record.report, "stamps")))
            std::cout << "stamps    " << TerminalText::safe(stamps->summary()) << "\n";
        if (!s.storedBy.user.empty() || !s.storedBy.role.empty())
            std::cout << "stored by " << TerminalText::safe(storedByText(s.storedBy))
                      << (s.storedBy.role.empty() ? std::string()
                                                  : " (database role " + TerminalText::safe(s.storedBy.role) + ")")
                      << "\n";
        if (!s.message.empty())
            std::cout << "message   " << indentedLines(s.message, "          ") << "\n";
        printChecks(s.checks);
        for (const auto& c : s.captures) {
            std::cout << "capture " << c.index << "  " << TerminalText::safe(c.name) << "  "
                      << TerminalText::safe(c.backend) << "/" << TerminalText::safe(c.tracer) << "  "
                      << ps::library::statusWord(c.status);
            if (c.invariant)
                std::cout << "  invariant " << *c.invariant;
            std::cout << "\n";
            if (!c.message.empty())
                std::cout << "    " << LibraryText::shortLine(c.message, 100) << "\n";
            if (c.pythonCodeSha256)
                std::cout << "    python_code  " << LibraryText::humanBytes(c.pythonCodeBytes.value_or(0))
                          << "  sha256 " << TerminalText::safe(*c.pythonCodeSha256) << "\n";
            if (c.cacheSha256)
                std::cout << "    cache        " << LibraryText::humanBytes(c.cacheBytes.value_or(0)) << "  sha256 "
                          << TerminalText::safe(*c.cacheSha256) << "\n";
        }
    }
    for (const auto& d : record.damaged)
        std::cerr << "precompile-studio: " << TerminalText::location(path) << ": run " << s.id << ": damaged blob "
                  << TerminalText::safe(d.sha256) << ": " << TerminalText::safe(d.detail) << "\n";
    return record.damaged.empty() ? 0 : 1;
}

}  // namespace ps::commands
