#include "commands/LibraryDiff.h"

#include "compare/RunDiffPrinter.h"
#include "library/ArtifactLibrary.h"
#include "library/TerminalText.h"

#include <sstream>

namespace ps::commands {

compare::RunSide LibraryDiff::load(const library::ArtifactLibrary& library, std::int64_t runId)
{
    const library::RunRecord record = library.show(runId, false);
    compare::RunSide side;
    side.label = "run #" + std::to_string(runId);
    if (!record.summary.name.empty())
        side.label += " (" + record.summary.name + ")";
    side.report = record.report;
    side.scriptText = record.scriptText;
    for (const library::CaptureRecord& capture : record.summary.captures) {
        if (!capture.pythonCodeSha256) {
            side.pythonCode.emplace_back(std::nullopt);
            continue;
        }
        // verified against its hash: a damaged blob throws instead of being compared
        side.pythonCode.emplace_back(library.artifact(runId, capture.index).pythonCode);
    }
    return side;
}

int LibraryDiff::run(
    const library::ArtifactLibrary& library, std::int64_t a, std::int64_t b, bool json, std::ostream& out)
{
    const compare::RunSide left = load(library, a);
    const compare::RunSide right = load(library, b);
    const compare::RunDiff diff = compare::RunDiff::compare(left, right);
    if (json) {
        out << diff.toJson(left, right).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::ostringstream text;
        compare::RunDiffPrinter::print(diff, left, right, text);
        // script lines and python_code of an imported run are someone else's bytes
        out << library::TerminalText::safe(text.str(), true);
    }
    return diff.equivalent() ? 0 : 1;
}

}  // namespace ps::commands
