#include "library/core/RunPusher.h"

#include <map>

#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/RunCopier.h"

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
            // Runs there already were pushed before and lost their mark: marked now.
            for (const auto* copies : {&copied.copied, &copied.alreadyThere})
                for (const auto& [id, there] : *copies) {
                    local.markPushed(id, there);
                    result.pushed.push_back(Pushed{id, team.path(), there});
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
