#pragma once

#include "model/Report.h"

#include <string>

namespace ps::commands {

/// The readable summary `precompile-studio run` prints without --json.
class ReportPrinter {
public:
    static std::string summary(const model::Report& report);
    static std::string bytes(std::int64_t n);
};

}  // namespace ps::commands
