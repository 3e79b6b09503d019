#pragma once

#include "model/Report.h"

#include <string>
#include <vector>

namespace ps::commands {

/// Writes each capture's artifact as NAME.py and NAME.cache (byte-exact copies of what
/// precompile returned) and NAME.json (the run's report) into a folder.
class ArtifactExport {
public:
    /// `fromDir` holds the worker's capture-N.py / capture-N.cache. Returns the files written.
    /// Throws std::runtime_error naming the file that could not be written.
    static std::vector<std::string> write(const model::Report& report, const std::string& fromDir,
                                          const std::string& toDir);
    /// A capture name made safe as a file name.
    static std::string fileStem(const std::string& name);
};

} // namespace ps::commands
