#include "run/StoredRunRepro.h"

#include "library/core/ArtifactLibrary.h"
#include "run/RunPipeline.h"
#include "run/StoredRunScript.h"
#include "run/TempFolder.h"

#include <stdexcept>

namespace ps::run {

StoredRunRepro::StoredRunRepro(const library::ArtifactLibrary& library, std::int64_t runId) : m_runId(runId)
{
    prepare(library);
}

StoredRunRepro::StoredRunRepro(const std::string& libraryLocation, std::int64_t runId) : m_runId(runId)
{
    const library::ArtifactLibrary library(libraryLocation, {.create = false, .readOnly = true});
    prepare(library);
}

StoredRunRepro::~StoredRunRepro() = default;

void StoredRunRepro::prepare(const library::ArtifactLibrary& library)
{
    const library::RunRecord record = library.show(m_runId);
    m_refusal = StoredRunScript::refusal(library, record, m_runId, "is not run again: its script would execute here");
    if (!m_refusal.empty())
        return;
    const model::Report stored = model::Report::fromJson(record.report);
    if (stored.captures.empty()) {
        m_refusal = "run " + std::to_string(m_runId) + " made no capture, so it has no graph to cut";
        return;
    }
    // The backend and tracer it ran with (a command line's --backend among them); a script that
    // calls precompile itself names its own again.
    if (stored.captures.size() == 1) {
        m_backend = stored.captures.front().backend;
        m_tracer = stored.captures.front().tracer;
    }
    m_folder = std::make_unique<TempFolder>();
    if (m_folder->path().empty())
        throw std::runtime_error("cannot make a temporary folder for the repro");
    m_script = StoredRunScript::place(record, m_folder->path());
}

model::Report StoredRunRepro::make(const protocol::ReproRequest& request, const std::optional<std::string>& pythonEnv,
    double timeoutSeconds, const protocol::RunObserver& observer)
{
    RunPipeline pipeline = RunPipeline::forEnvironment(pythonEnv);
    {
        std::lock_guard lock(m_mutex);
        if (m_cancelled)
            return model::Report::failed(m_script, model::RunStatus::Cancelled, "cancelled");
        m_running = &pipeline;
    }
    PipelineOptions options;
    options.run.script = m_script;
    options.run.backend = m_backend;
    options.run.tracer = m_tracer;
    // The run again (its verification and localisation too: twice a run's time), the shrink within
    // its budget and its last trial, then repro.py once in a fresh process (at most 300 s).
    options.run.timeoutSeconds = timeoutSeconds * 2 + request.budgetSeconds + 900;
    options.run.repro = request;
    model::Report report = pipeline.run(options, observer).report;
    {
        std::lock_guard lock(m_mutex);
        m_running = nullptr;
    }
    pipeline.shutdown();
    return report;
}

void StoredRunRepro::cancel()
{
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    if (m_running)
        m_running->cancel();
}

}  // namespace ps::run
