#pragma once

#include "model/Capture.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// The schema-1 report of one run (DESIGN.md, "run --json"). Built from the worker's JSON;
/// the front end sets the statuses only it can know (timeout, worker_died) and run_id.
class Report {
public:
    static constexpr int kSchema = 1;

    std::string script;
    std::string status;   ///< ok | violation | error | timeout | worker_died
    std::string message;
    std::optional<std::int64_t> runId;
    std::vector<Capture> captures;

    static Report fromJson(const nlohmann::json& j);
    /// A report for a run that produced no worker report at all.
    static Report failed(std::string script, std::string status, std::string message);

    /// The JSON object: the worker's object with the typed fields written over it.
    nlohmann::json toJson() const;
    /// Extra top-level fields the front end adds (log, error details, ...).
    nlohmann::json& extra() { return m_extra; }
    const nlohmann::json& extra() const { return m_extra; }

    /// 0 every capture ok; 1 a capture ended in a violation or error; 2 the script could
    /// not run (an error before any capture, a timeout, a dead worker).
    int exitCode() const;

private:
    nlohmann::json m_extra = nlohmann::json::object();
};

} // namespace ps::model
