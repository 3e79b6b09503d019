#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ps::protocol {

/// `library check`: instead of a run, the worker loads a stored pair from these two files in a
/// fresh process of its environment, as a user's server would, and reports the outcome (the
/// report's `check`). The script is the run's own, to build fn's example inputs there.
struct PairCheck {
    std::string pythonCode;  ///< NAME.py
    std::string cache;       ///< NAME.cache
    std::string backend;     ///< the capture's backend
    std::string tracer;      ///< the capture's tracer
    nlohmann::json stamps;   ///< the run's stamps (null: unknown), to name what differs there
    bool usesGpu = false;    ///< the capture's example tensors were on a GPU
    bool coldStart = false;  ///< also the cold-start ledger there, of this pair (check.cold_start)
};

}  // namespace ps::protocol
