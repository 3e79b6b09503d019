#pragma once

#include "compare/RunDiff.h"
#include "model/Report.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::share {

/// The one-file HTML report (docs/design/html-report.md): a run, or two runs
/// compared, as one self-contained page that a browser opens from disk with no network access.
/// PageData builds what it shows, PageWriter the file around it; engine/share/page/report.js
/// draws it in the page.
class HtmlReport {
public:
    /// The page of one run (see PageData::forRun for the arguments).
    static std::string forRun(const model::Report& report, const std::string& scriptText,
        const std::vector<std::optional<std::string>>& pythonCode);
    /// The page of `library diff A B`.
    static std::string forDiff(const compare::RunDiff& diff, const compare::RunSide& a, const compare::RunSide& b);

    /// Writes the page to `path` (replacing it). "" once written, else why not in one line:
    /// "cannot write PATH: No such file or directory".
    static std::string save(const std::string& path, const std::string& html);
};

}  // namespace ps::share
