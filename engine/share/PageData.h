#pragma once

#include "compare/RunDiff.h"
#include "model/Report.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::share {

/// The data an HTML report draws (engine/share/page/report.js reads it), built from the same
/// model the window and `run` read, so that the page says what they say: the verdict's words
/// (model::RunVerdict), the exit code, the report itself, the script's text for the source
/// lines, each capture's python_code and its graph for the graph panel (PageGraph).
class PageData {
public:
    /// One run: its report, the script as it was run ("" when unknown) and each capture's
    /// python_code (index-aligned with report.captures; nullopt where a capture has none).
    static nlohmann::json forRun(const model::Report& report, const std::string& scriptText,
        const std::vector<std::optional<std::string>>& pythonCode);

    /// Two runs compared: the RunDiff (its JSON and RunDiffPrinter's words), each side's
    /// verdict, and per capture both graphs with their marks (a node removed from a, added in
    /// b, or changed: {name: "removed"|"added"|"changed"}).
    static nlohmann::json forDiff(const compare::RunDiff& diff, const compare::RunSide& a, const compare::RunSide& b);

    /// The graph panel's data for one capture (PageGraph::toJson); null where the capture has
    /// no graph or this build has no graph panel.
    static nlohmann::json graphOf(const model::Capture& capture);
    /// {word: tone} for every outcome word a page shows (model::toneTable and the diff's
    /// "equivalent" / "differ"): the page colours by it and decides nothing by words itself.
    static nlohmann::json tones();
    /// {checks, how}: what verification skipped within its budget and how to run every check,
    /// in the words `run` and the window use (Verification::skippedChecks); null: nothing.
    static nlohmann::json skippedOf(const model::Capture& capture);
    /// The cache section as the window shows it (model::CacheInfo::facts): {facts: [{label, text,
    /// tone}], entries: [{kind, key, bytes}]}, or {absent: why} when the report has none.
    static nlohmann::json cacheOf(const model::Capture& capture);
};

}  // namespace ps::share
