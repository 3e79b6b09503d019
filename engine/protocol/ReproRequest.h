#pragma once

#include <optional>
#include <string>

namespace ps::protocol {

/// `library repro`: after the run's captures are verified again, the worker cuts the captured
/// graph of one of them from where its drift starts and writes the smallest cut that still
/// reproduces it as `dir/repro.py` + `dir/inputs.pt` (the report's `repro`; docs/design/repro.md).
struct ReproRequest {
    std::string dir;                     ///< where repro.py and inputs.pt are written
    std::optional<std::string> node;     ///< the node to start from; nullopt: the first drift start
    std::optional<std::string> capture;  ///< the capture, by name or index; nullopt: the first that drifted
    double budgetSeconds = 120;          ///< how long the shrink may take
};

}  // namespace ps::protocol
