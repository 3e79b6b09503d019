#include "library/core/RunCopier.h"

#include <algorithm>
#include <unordered_map>

#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"

namespace ps::library {

NewRun RunCopier::read(ArtifactLibrary& from, std::int64_t runId)
{
    RunRecord record = from.show(runId, false);
    const RunSummary& s = record.summary;
    NewRun run;
    record.report.erase("run_id");
    run.report = std::move(record.report);
    run.scriptText = std::move(record.scriptText);
    run.name = s.name;
    run.origin = s.origin;
    run.trusted = s.trusted;
    run.uid = s.uid;
    run.createdAt = s.createdAt;
    if (!s.storedBy.user.empty() || !s.storedBy.role.empty())
        run.storedBy = s.storedBy;
    for (const CaptureRecord& c : s.captures) {
        NewCapture bytes;
        if (c.pythonCodeSha256 && c.cacheSha256) {
            CaptureArtifact artifact = from.artifact(runId, c.index);
            bytes.pythonCode = std::move(artifact.pythonCode);
            bytes.cache = std::move(artifact.cache);
        }
        run.captures.push_back(std::move(bytes));
    }
    return run;
}

RunCopier::Result RunCopier::copy(
    ArtifactLibrary& from, ArtifactLibrary& to, const std::vector<std::int64_t>& runIds, const Progress& progress)
{
    Result result;
    std::unordered_map<std::string, std::int64_t> there;  // uid -> id in the target
    for (const RunSummary& s : to.list())
        there.emplace(s.uid, s.id);
    // Each source run's uid, oldest first, so that ids in the target keep their order.
    std::vector<std::pair<std::int64_t, std::string>> todo;
    const std::vector<RunSummary> source = from.list();
    for (auto it = source.rbegin(); it != source.rend(); ++it)
        if (runIds.empty() || std::find(runIds.begin(), runIds.end(), it->id) != runIds.end())
            todo.emplace_back(it->id, it->uid);
    for (const std::int64_t id : runIds)
        if (std::none_of(todo.begin(), todo.end(), [id](const auto& t) { return t.first == id; }))
            result.failures.push_back("run " + std::to_string(id) + ": no such run in " + from.path());
    for (std::size_t i = 0; i < todo.size(); ++i) {
        const auto& [id, uid] = todo[i];
        if (const auto it = there.find(uid); !uid.empty() && it != there.end()) {
            result.alreadyThere.emplace_back(id, it->second);
        } else {
            try {
                const NewRun run = read(from, id);
                result.copied.emplace_back(id, to.insert(run));
            } catch (const LibraryError& e) {
                // The target gone or refusing is not one run's problem: stop there.
                if (e.file() == to.path() && e.kind() != LibraryError::Kind::Invalid)
                    throw;
                result.failures.push_back("run " + std::to_string(id) + ": " + e.what());
            }
        }
        if (progress)
            progress(i + 1, todo.size());
    }
    return result;
}

}  // namespace ps::library
