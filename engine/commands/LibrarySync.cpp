#include "commands/LibrarySync.h"

#include <iostream>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/LibraryCommand.h"
#include "library/ArtifactLibrary.h"
#include "library/LibraryError.h"
#include "library/RunCopier.h"
#include "library/TerminalText.h"

namespace ps::commands {

using library::ArtifactLibrary;
using library::LibraryError;
using json = nlohmann::json;

namespace {

std::string safe(const std::string& text)
{
    return library::TerminalText::safe(text);
}

}  // namespace

int LibrarySync::push(const std::string& localPath, const LibraryOptions& o)
{
    ArtifactLibrary local(localPath, ArtifactLibrary::OpenOptions{false, false});
    // Waiting runs by the team library they go to.
    std::map<std::string, std::vector<std::int64_t>> waiting;
    for (const auto& entry : local.outbox())
        if (!entry.pushedId)
            waiting[o.to.empty() ? entry.target : o.to].push_back(entry.runId);
    json out = {{"library", local.path()}, {"pushed", json::array()}, {"failures", json::array()}};
    int exit = 0;
    std::size_t pushed = 0;
    for (const auto& [target, ids] : waiting) {
        try {
            ArtifactLibrary team(target);
            const auto result = library::RunCopier::copy(local, team, ids);
            // Already there (pushed before, its mark lost): found by uid, marked now.
            std::map<std::string, std::int64_t> teamIds;
            if (result.alreadyThere > 0)
                for (const auto& s : team.list())
                    teamIds.emplace(s.uid, s.id);
            for (const std::int64_t id : ids) {
                std::optional<std::int64_t> there;
                for (const auto& [from, to] : result.copied)
                    if (from == id)
                        there = to;
                if (!there) {
                    const auto it = teamIds.find(local.show(id, false).summary.uid);
                    if (it != teamIds.end())
                        there = it->second;
                }
                if (!there)
                    continue;
                local.markPushed(id, *there);
                ++pushed;
                out["pushed"].push_back({{"run_id", id}, {"target", team.path()}, {"target_run_id", *there}});
                if (!o.json)
                    std::cout << "pushed run " << id << " to " << safe(team.path()) << " as run " << *there << "\n";
            }
            for (const auto& failure : result.failures) {
                out["failures"].push_back(failure);
                std::cerr << "precompile-studio: " << safe(failure) << "\n";
                exit = std::max(exit, 1);
            }
        } catch (const LibraryError& e) {
            if (e.kind() != LibraryError::Kind::Unreachable && e.kind() != LibraryError::Kind::ReadOnly)
                throw;
            out["failures"].push_back(e.what());
            std::cerr << "precompile-studio: " << safe(e.what()) << "; " << ids.size() << " run(s) stay kept for it in "
                      << safe(local.path()) << "\n";
            exit = 2;
        }
    }
    if (o.json)
        std::cout << out.dump(2) << "\n";
    else if (waiting.empty())
        std::cout << "no run is waiting to be pushed in " << safe(local.path()) << "\n";
    else if (exit == 0)
        std::cout << "pushed " << pushed << " run(s); none is waiting any more\n";
    return exit;
}

int LibrarySync::copy(const LibraryOptions& o)
{
    ArtifactLibrary from(o.from, ArtifactLibrary::OpenOptions{false, true});
    ArtifactLibrary to(o.to);
    const auto result = library::RunCopier::copy(from, to, o.runIds, [&](std::size_t done, std::size_t total) {
        if (!o.json && total >= 20 && (done % 100 == 0 || done == total))
            std::cerr << "copied " << done << " of " << total << "\r" << (done == total ? "\n" : "") << std::flush;
    });
    for (const auto& failure : result.failures)
        std::cerr << "precompile-studio: " << safe(failure) << "\n";
    if (o.json) {
        json copied = json::array();
        for (const auto& [a, b] : result.copied)
            copied.push_back({{"from_run_id", a}, {"to_run_id", b}});
        std::cout << json{{"from", from.path()}, {"to", to.path()}, {"copied", copied},
            {"already_there", result.alreadyThere}, {"failures", result.failures}}
                         .dump(2)
                  << "\n";
    } else {
        std::cout << "copied " << result.copied.size() << " run(s) from " << safe(from.path()) << " to "
                  << safe(to.path()) << " (" << result.alreadyThere << " there already"
                  << (result.failures.empty() ? "" : ", " + std::to_string(result.failures.size()) + " failed")
                  << ")\n";
    }
    return result.failures.empty() ? 0 : 1;
}

}  // namespace ps::commands
