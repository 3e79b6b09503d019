#pragma once

#include <cstdint>
#include <string>

namespace ps::library {
class ArtifactLibrary;
struct RunRecord;
}  // namespace ps::library

namespace ps::run {

/// A stored run's script made to run again here (`library check`, `library repro`): whether it
/// may (refusal()), and where (place()).
class StoredRunScript {
public:
    /// Why run `runId` of `library` may not run again here, one line ("" when it may): damaged
    /// blobs, or not trusted by this user (`what`: "is not checked: its script and python_code
    /// would execute here").
    static std::string refusal(const library::ArtifactLibrary& library, const library::RunRecord& record,
        std::int64_t runId, const std::string& what);
    /// The script to run: the run's own file where it is still there unchanged (its neighbours
    /// import as they did), else the stored text under its name in `folder`. Throws
    /// std::runtime_error where it cannot be written.
    static std::string place(const library::RunRecord& record, const std::string& folder);
};

}  // namespace ps::run
