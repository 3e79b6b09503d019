#include "commands/LibrarySync.h"

#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/LibraryCommand.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/LibraryLocator.h"
#include "library/core/RunCopier.h"
#include "library/core/RunPusher.h"
#include "library/core/TerminalText.h"

namespace ps::commands {

using library::ArtifactLibrary;
using library::LibraryError;
using library::LibraryLocator;
using json = nlohmann::json;

namespace {

using library::TerminalText;

}  // namespace

int LibrarySync::push(const std::string& localPath, const LibraryOptions& o)
{
    ArtifactLibrary local(localPath, ArtifactLibrary::OpenOptions{false, false});
    const library::RunPusher::Result result = library::RunPusher::push(local, o.to);
    json out = {{"library", LibraryLocator::redacted(local.path())}, {"waiting", result.waiting},
        {"pushed", json::array()}, {"unreached", json::array()}, {"failures", result.failures}};
    for (const auto& p : result.pushed) {
        out["pushed"].push_back(
            {{"run_id", p.runId}, {"target", LibraryLocator::redacted(p.target)}, {"target_run_id", p.targetRunId}});
        if (!o.json)
            std::cout << "pushed run " << p.runId << " to " << TerminalText::location(p.target) << " as run "
                      << p.targetRunId << "\n";
    }
    for (const auto& u : result.unreached) {
        out["unreached"].push_back(
            {{"target", LibraryLocator::redacted(u.target)}, {"why", u.why}, {"waiting", u.waiting}});
        std::cerr << "precompile-studio: " << TerminalText::safe(u.why) << "; " << u.waiting
                  << " run(s) stay kept for it in " << TerminalText::location(local.path()) << "\n";
    }
    for (const auto& failure : result.failures)
        std::cerr << "precompile-studio: " << TerminalText::safe(failure) << "\n";
    if (o.json)
        std::cout << out.dump(2) << "\n";
    else if (result.waiting == 0)
        std::cout << "no run is waiting to be pushed in " << TerminalText::location(local.path()) << "\n";
    else if (result.complete())
        std::cout << "pushed " << result.pushed.size() << " run(s); none is waiting any more\n";
    if (!result.unreached.empty())
        return 2;
    return result.failures.empty() ? 0 : 1;
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
        std::cerr << "precompile-studio: " << TerminalText::safe(failure) << "\n";
    if (o.json) {
        json copied = json::array();
        for (const auto& [a, b] : result.copied)
            copied.push_back({{"from_run_id", a}, {"to_run_id", b}});
        std::cout << json{{"from", LibraryLocator::redacted(from.path())}, {"to", LibraryLocator::redacted(to.path())},
            {"copied", copied}, {"already_there", result.alreadyThere.size()}, {"failures", result.failures}}
                         .dump(2)
                  << "\n";
    } else {
        std::cout << "copied " << result.copied.size() << " run(s) from " << TerminalText::location(from.path())
                  << " to " << TerminalText::location(to.path()) << " (" << result.alreadyThere.size()
                  << " there already"
                  << (result.failures.empty() ? "" : ", " + std::to_string(result.failures.size()) + " failed")
                  << ")\n";
    }
    return result.failures.empty() ? 0 : 1;
}

}  // namespace ps::commands
