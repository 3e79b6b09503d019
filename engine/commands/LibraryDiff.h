#pragma once

#include "compare/RunDiff.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ps::library {
class ArtifactLibrary;
}

namespace ps::commands {

/// `library diff A B [--json]`: two stored runs compared (engine/compare), the verdict first.
class LibraryDiff {
public:
    /// Prints the comparison (text, terminal-safe; or JSON) and returns the exit code: 0 the
    /// artifacts are equivalent, 1 they differ. With `htmlPath`, also writes the comparison as
    /// one HTML page there (share::HtmlReport); 2 when that file cannot be written (the reason
    /// on `err`). Library errors are thrown.
    static int run(const library::ArtifactLibrary& library, std::int64_t a, std::int64_t b, bool json,
        std::ostream& out, const std::string& htmlPath = {}, std::ostream* err = nullptr);
};

}  // namespace ps::commands
