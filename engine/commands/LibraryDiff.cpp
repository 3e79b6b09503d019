#include "commands/LibraryDiff.h"

#include "compare/RunDiffPrinter.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/RunSideLoader.h"
#include "library/core/TerminalText.h"
#include "share/HtmlReport.h"

#include <iostream>

#include <sstream>

namespace ps::commands {

int LibraryDiff::run(const library::ArtifactLibrary& library, std::int64_t a, std::int64_t b, bool json,
    std::ostream& out, const std::string& htmlPath, std::ostream* err)
{
    const compare::RunSide left = library::RunSideLoader::load(library, a);
    const compare::RunSide right = library::RunSideLoader::load(library, b);
    const compare::RunDiff diff = compare::RunDiff::compare(left, right);
    if (json) {
        out << diff.toJson(left, right).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::ostringstream text;
        compare::RunDiffPrinter::print(diff, left, right, text);
        // script lines and python_code of an imported run are someone else's bytes
        out << library::TerminalText::safe(text.str(), true);
    }
    if (!htmlPath.empty()) {
        const std::string error = share::HtmlReport::save(htmlPath, share::HtmlReport::forDiff(diff, left, right));
        if (!error.empty()) {
            (err ? *err : std::cerr) << "precompile-studio: " << library::TerminalText::safe(error) << "\n";
            return 2;
        }
    }
    return diff.equivalent() ? 0 : 1;
}

}  // namespace ps::commands
