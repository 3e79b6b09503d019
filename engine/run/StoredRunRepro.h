#pragma once

#include "model/Report.h"
#include "protocol/ReproRequest.h"
#include "protocol/RunObserver.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace ps::library {
class ArtifactLibrary;
}

namespace ps::run {

class RunPipeline;
class TempFolder;

/// `library repro` (the window's Make Repro…): a stored run's script run again here in a worker,
/// its captures verified as at first, and from where a capture's drift starts the smallest cut of
/// its captured graph that still reproduces the drift written as repro.py + inputs.pt
/// (docs/design/repro.md). The run must be trusted here: its script executes. Nothing is stored.
///
/// Thread contract: one thread makes it and calls make(); cancel() may come from any thread.
class StoredRunRepro {
public:
    /// Reads run `runId` of `library`; throws library::LibraryError where it cannot be read.
    StoredRunRepro(const library::ArtifactLibrary& library, std::int64_t runId);
    /// The same from a library's location, opened read-only here (the window's pool thread).
    StoredRunRepro(const std::string& libraryLocation, std::int64_t runId);
    ~StoredRunRepro();

    /// Why the run cannot be made a repro of, one line; "" when it can.
    const std::string& refusal() const { return m_refusal; }
    std::int64_t runId() const { return m_runId; }

    /// Runs the script again in `pythonEnv` (nullopt: the studio's) and makes the repro; never
    /// throws. The report's repro says what was written or why nothing was; a report without one
    /// is a run that failed before it (its status and message say why). The worker is given the
    /// run's timeout plus the shrink's budget and the fresh process that confirms it.
    model::Report make(const protocol::ReproRequest& request, const std::optional<std::string>& pythonEnv,
        double timeoutSeconds, const protocol::RunObserver& observer = {});
    /// Ends the repro under way (its worker killed); thread-safe.
    void cancel();

private:
    void prepare(const library::ArtifactLibrary& library);

    std::int64_t m_runId = 0;
    std::string m_refusal;
    std::string m_script;
    std::optional<std::string> m_backend;
    std::optional<std::string> m_tracer;
    std::unique_ptr<TempFolder> m_folder;
    std::mutex m_mutex;  ///< guards m_running and m_cancelled
    RunPipeline* m_running = nullptr;
    bool m_cancelled = false;
};

}  // namespace ps::run
