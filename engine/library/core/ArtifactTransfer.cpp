#include "library/core/ArtifactTransfer.h"

#include <filesystem>
#include <utility>

#include "library/core/ArtifactFiles.h"
#include "library/core/LibraryError.h"
#include "library/core/LibraryRecords.h"
#include "library/core/LibraryStore.h"

namespace ps::library {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Kind = LibraryError::Kind;

std::vector<std::string> ArtifactTransfer::exportRun(std::int64_t runId, const std::string& dir) const
{
    const RunRecord record = store_.show(runId, false);
    std::vector<CaptureArtifact> artifacts;
    for (const CaptureRecord& c : record.summary.captures)
        if (c.pythonCodeSha256 && c.cacheSha256)
            artifacts.push_back(store_.artifact(runId, c.index));
    if (artifacts.empty())
        throw LibraryError(Kind::NotFound, store_.location(),
            "run " + std::to_string(runId) + " has no artifact to export (status "
                + std::string(statusWord(record.summary.status)) + ")");
    return ArtifactFiles::write(dir, record.report, artifacts, record.summary.name);
}

std::int64_t ArtifactTransfer::importArtifact(const std::string& pythonCodePath)
{
    ArtifactFiles::Pair pair = ArtifactFiles::read(pythonCodePath);
    NewRun run;
    // Moved, not copied: the report is the imported file's, kept as found but for its captures.
    json capture = std::move(pair.report["captures"][pair.captureIndex]);
    run.report = std::move(pair.report);
    run.report["status"] = capture.value("status", std::string("ok"));
    run.report["captures"] = json::array();
    run.report["captures"].push_back(std::move(capture));
    std::error_code ec;
    const fs::path absolute = fs::absolute(pythonCodePath, ec);
    run.report["imported_from"] = ec ? pythonCodePath : absolute.string();
    run.name = pair.name;
    run.origin = RunOrigin::Import;
    run.trusted = false;
    run.captures.push_back(NewCapture{std::move(pair.pythonCode), std::move(pair.cache)});
    return store_.insert(run);
}

}  // namespace ps::library
