#pragma once

#include "model/Report.h"

#include <nlohmann/json.hpp>

namespace ps::model {

/// A run's compile-time events as a Chrome trace (the Trace Event Format's JSON object, which
/// Perfetto and chrome://tracing open): one process per capture that has a compile profile,
/// named after it; one track per thread of the worker with its real id and name, holding torch's
/// and the studio's timed events as complete ("X") events, nested per thread, under a
/// "precompile" span on the calling thread; and a "phases" track with the breakdown laid end to
/// end. Times are microseconds from the start of each precompile call.
class ChromeTrace {
public:
    /// Whether any capture of the report has a compile profile (else the trace would be empty).
    static bool available(const Report& report);
    /// The trace; never throws (a report without profiles gives a trace with no events).
    static nlohmann::json fromReport(const Report& report);
};

}  // namespace ps::model
