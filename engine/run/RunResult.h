#pragma once

#include "model/Report.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::run {

/// The bytes precompile returned for one capture, or why they are not there.
struct CaptureBytes {
    std::optional<std::string> pythonCode;
    std::optional<std::string> cache;
    std::string error;  ///< e.g. the worker's file could not be read, or a stored blob is damaged
};

/// Everything one run produced: the report (with run_id, stored, store_error set), the script
/// as it was run, and each capture's bytes, index-aligned with report.captures.
struct RunResult {
    model::Report report;
    std::string scriptText;
    std::vector<CaptureBytes> artifacts;
    std::vector<std::string> exported;  ///< the files --export wrote
    double elapsedSeconds = 0;
};

}  // namespace ps::run
