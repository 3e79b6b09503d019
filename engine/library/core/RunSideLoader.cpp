#include "library/core/RunSideLoader.h"

#include "library/core/ArtifactLibrary.h"

namespace ps::library {

compare::RunSide RunSideLoader::load(const ArtifactLibrary& library, std::int64_t runId)
{
    const RunRecord record = library.show(runId, false);
    compare::RunSide side;
    side.label = "run #" + std::to_string(runId);
    if (!record.summary.name.empty())
        side.label += " (" + record.summary.name + ")";
    side.report = record.report;
    side.scriptText = record.scriptText;
    for (const CaptureRecord& capture : record.summary.captures) {
        if (!capture.pythonCodeSha256) {
            side.pythonCode.emplace_back(std::nullopt);
            continue;
        }
        side.pythonCode.emplace_back(library.artifact(runId, capture.index).pythonCode);
    }
    return side;
}

}  // namespace ps::library
