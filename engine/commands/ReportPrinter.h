#pragma once

#include "model/Report.h"

#include <iosfwd>
#include <string>

namespace ps::commands {

/// The readable summary `precompile-studio run` prints without --json.
class ReportPrinter {
public:
    static std::string summary(const model::Report& report);
    static std::string bytes(std::int64_t n);
    /// The cold-start ledger: its line, then a row per step, each line starting with `indent`.
    static void printColdStart(std::ostream& out, const model::ColdStart& cold, const std::string& indent = "    ");
};

}  // namespace ps::commands
