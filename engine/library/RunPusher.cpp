#include "library/RunPusher.h"

#include <map>
#include <optional>

#include "library/ArtifactLibrary.h"
#include "library/LibraryError.h"
#include "library/RunCopier.h"

namespace ps::library {

RunPusher::Result RunPusher::push(ArtifactLibrary& local, const std::string& to)
{
    Result result;
    // Waiting runs by the team library they go to.
    std::map<std::string, std::vector<std::int64_t>> waiting;
    for (const auto& entry : local.outbox())
        if (!entry.pushedId) {
            waiting[to.empty() ? entry.target : to].push_back(entry.runId);
            ++result.waiting;
        }
    for (const auto& [target, ids] : waiting) {
        try {
            ArtifactLibrary team(target);
            const RunCopier::Result copied = RunCopier::copy(local, team, ids);
            // There already (pushed before, the mark lost): found by uid, marked now.
            std::map<std::string, std::int64_t> teamIds;
            if (copied.alreadyThere > 0)
                for (const auto& s : team.list())
                    teamIds.emplace(s.uid, s.id);
            for (const std::int64_t id : ids) {
                std::optional<std::int64_t> there;
                for (const auto& [from, into] : copied.copied)
                    if (from == id)
                        there = into;
                if (!there)
                    if (const auto it = teamIds.find(local.show(id, false).summary.uid); it != teamIds.end())
                        there = it->second;
                if (!there)
                    continue;
                local.markPushed(id, *there);
                result.pushed.push_back(Pushed{id, team.path(), *there});
            }
            result.failures.insert(result.failures.end(), copied.failures.begin(), copied.failures.end());
        } catch (const LibraryError& e) {
            // The team library away or refusing: its runs stay kept. Anything else is the
            // local library's problem, for the caller.
            if (e.file() == local.path())
                throw;
            result.unreached.push_back(Unreached{target, e.what(), ids.size()});
        }
    }
    return result;
}

}  // namespace ps::library
