#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace ps::commands {

/// The side-by-side table `precompile-studio lessons run` prints: a row a stable field, one
/// column for broken.py and one for fixed.py, each cell wrapped at 40 characters.
class LessonTable {
public:
    struct Row {
        std::string label;
        std::vector<std::string> cells[2];  ///< broken's lines, fixed's lines
    };

    /// The rows for the stable fields (LessonExpectation::stableFields) of broken.py's and
    /// fixed.py's reports: status, the script's violation, then each capture's status,
    /// violation, verify, runtime call and warnings.
    static std::vector<Row> rows(const nlohmann::json (&actual)[2]);
    /// The "expect.json" row: "matches" or "N difference(s)" for each side's mismatches.
    static Row verdict(const nlohmann::json (&mismatches)[2]);
    /// The heads "broken.py (1.2 s)" and "fixed.py (0.8 s)", then the rows.
    static void print(std::ostream& out, const std::vector<Row>& rows, const double (&seconds)[2]);
    /// `text` cut at spaces into lines of at most `width` characters (a longer word is cut).
    static std::vector<std::string> wrap(const std::string& text, std::size_t width);
};

}  // namespace ps::commands
