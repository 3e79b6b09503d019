#pragma once

#include "model/Report.h"
#include "remote/RemoteTarget.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ps::library {
class ArtifactLibrary;
struct CheckRecord;
}  // namespace ps::library

namespace ps::run {

class RunPipeline;
class TempFolder;

/// Will a stored run's pair load there (`library check`, the library dock's Check On…)? Made from
/// a run of a library, it reads the run once: whether it may be checked at all (refusal(): not
/// trusted here, since its script and python_code execute; damaged blobs; no artifact), and
/// writes its pair and, where the run's own script file is gone or changed, its script into a
/// private folder. check() then loads the pair at one target (an environment here, or a host over
/// ssh) through a worker there, as a user's server would (docs/design/deploy.md); nothing is stored.
///
/// Thread contract: one thread makes it and calls check(); cancel() may come from any thread.
class StoredRunCheck {
public:
    struct Target {
        std::optional<std::string> pythonEnv;      ///< an environment here; nullopt: the studio's
        std::optional<remote::RemoteTarget> host;  ///< a host over ssh (the studio's environment there)
        std::string label;                         ///< the path, the host's name, or "the studio's environment"
    };
    struct Outcome {
        Target target;
        model::Report report;                   ///< the worker's report (status error: no check)
        std::optional<model::LoadCheck> check;  ///< nullopt: it could not be checked there
    };

    /// Reads run `runId` of `library`; throws library::LibraryError where it cannot be read.
    StoredRunCheck(const library::ArtifactLibrary& library, std::int64_t runId);
    /// The same from a library's location, opened read-only here (the window's pool thread).
    StoredRunCheck(const std::string& libraryLocation, std::int64_t runId);
    ~StoredRunCheck();

    /// Why the run cannot be checked, one line; "" when it can.
    const std::string& refusal() const { return m_refusal; }
    std::int64_t runId() const { return m_runId; }
    /// The capture whose pair is checked.
    const std::string& captureName() const { return m_capture; }
    /// The run's stamps (null: a run from before them).
    const nlohmann::json& stamps() const { return m_stamps; }

    /// Loads the pair at `target`; never throws (a target that cannot be reached is an outcome
    /// without a check, its report saying why). Not to be called when refusal() is set.
    /// `coldStart`: also the pair's cold-start ledger there (LoadCheck::coldStart; five fresh
    /// processes more, minutes on inductor: the worker is then given six times `timeoutSeconds`).
    Outcome check(const Target& target, double timeoutSeconds, bool coldStart = false);
    /// Ends the check under way (its worker killed); thread-safe.
    void cancel();

    /// "runs on 2 of 2 targets (1 with its cache, 1 compiling its kernels)", and what failed.
    static std::string headline(const std::vector<Outcome>& outcomes);
    /// 0 every target runs it and matches eager there; 1 one refuses it or gives other numbers;
    /// 2 one could not be checked.
    static int exitCode(const std::vector<Outcome>& outcomes);
    /// "loads with its cache", "compiles its kernels", "refused", "not checked".
    static std::string outcomeWords(const Outcome& outcome);
    /// The check's reason, or why there was none.
    static std::string reasonOf(const Outcome& outcome);

    /// Whether the target said something of the pair (it was checked there): what keep() keeps.
    /// Not: cancelled, unreachable, no check in its report.
    static bool learned(const Outcome& outcome) { return outcome.check.has_value(); }
    /// The outcome as the library keeps it; nullopt where nothing was learned().
    static std::optional<library::CheckRecord> recordOf(const Outcome& outcome);
    /// Keeps the outcomes that say something of the pair with the run in `library` (its
    /// identity as who checked). Returns how many were kept, or throws library::LibraryError
    /// (saying how many were kept before it, where some were).
    int keep(library::ArtifactLibrary& library, const std::vector<Outcome>& outcomes) const;
    /// The same in the library at `location`, opened for writing here (the window's pool
    /// thread); "" when kept, else one line saying why not.
    std::string keep(const std::string& location, const std::vector<Outcome>& outcomes) const;

private:
    void prepare(const library::ArtifactLibrary& library);

    std::int64_t m_runId = 0;
    std::string m_refusal;
    std::string m_capture;
    nlohmann::json m_stamps;
    std::string m_script;
    std::string m_backend;
    std::string m_tracer;
    bool m_usesGpu = false;
    std::size_t m_largestFile = 0;
    std::unique_ptr<TempFolder> m_folder;
    std::string m_codePath;
    std::string m_cachePath;
    std::mutex m_mutex;  ///< guards m_running and m_cancelled
    RunPipeline* m_running = nullptr;
    bool m_cancelled = false;
};

}  // namespace ps::run
