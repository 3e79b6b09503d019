#include "library/core/RunDocumentCheck.h"

#include "library/core/LibraryError.h"
#include "library/core/LibraryStore.h"

#include <string_view>

namespace ps::library {

namespace {

std::string quotedWord(const std::string& name)
{
    // The problem names the capture by its position, never by the hostile text itself.
    return name.size() <= 40 && RunDocumentCheck::nameProblem(name).empty() ? "'" + name + "'" : "(unnamed)";
}

}  // namespace

std::string RunDocumentCheck::nameProblem(const std::string& name)
{
    bool control = false, separator = false;
    for (unsigned char c : name) {
        control |= c < 0x20 || c == 0x7f;
        separator |= c == '/' || c == '\\';
    }
    if (control && separator)
        return "holds control characters and a path separator";
    if (control)
        return "holds control characters";
    return separator ? "holds a path separator" : "";
}

std::vector<std::string> RunDocumentCheck::summaryProblems(const RunSummary& run)
{
    std::vector<std::string> out;
    const std::string who = "run " + std::to_string(run.id) + ": ";
    if (auto problem = nameProblem(run.name); !problem.empty())
        out.push_back(who + "its name " + problem);
    if (!run.status)
        out.push_back(who + "its status is not one the studio knows");
    return out;
}

std::vector<std::string> RunDocumentCheck::problemsOf(const RunRecord& run)
{
    std::vector<std::string> out = summaryProblems(run.summary);
    const std::string who = "run " + std::to_string(run.summary.id) + ": ";
    for (const CaptureRecord& c : run.summary.captures) {
        const std::string capture = "capture " + std::to_string(c.index) + " " + quotedWord(c.name);
        if (auto problem = nameProblem(c.name); !problem.empty())
            out.push_back(who + "the name of capture " + std::to_string(c.index) + " " + problem);
        if (!c.status)
            out.push_back(who + capture + " has a status the studio does not know");
        for (const auto* sha : {&c.pythonCodeSha256, &c.cacheSha256})
            if (*sha && !(**sha).empty() && (**sha).size() != 64)
                out.push_back(who + capture + " names a blob whose key is not a sha256");
    }
    const nlohmann::json& report = run.report;
    if (!report.is_object()) {
        out.push_back(who + "its report is not a JSON object");
        return out;
    }
    if (const auto schema = report.find("schema"); schema == report.end() || *schema != 1)
        out.push_back(who + "its report is not a schema-1 report");
    const auto captures = report.find("captures");
    if (captures == report.end() || !captures->is_array())
        out.push_back(who + "its report has no list of captures");
    else if (captures->size() != run.summary.captures.size())
        out.push_back(who + "its report lists " + std::to_string(captures->size()) + " capture(s), the library "
            + std::to_string(run.summary.captures.size()));
    return out;
}

std::vector<std::string> RunDocumentCheck::problems(const LibraryStore& store)
{
    std::vector<std::string> out;
    for (const RunSummary& s : store.list(ListQuery{})) {
        try {
            for (auto& problem : problemsOf(store.show(s.id, false)))
                out.push_back(std::move(problem));
        } catch (const LibraryError& e) {
            if (e.kind() == LibraryError::Kind::NotFound) {  // listed, but its document is gone
                out.push_back("run " + std::to_string(s.id) + ": its report and script are missing");
                continue;
            }
            if (e.kind() != LibraryError::Kind::Corrupt)
                throw;
            // what() starts with the library's location: the line names the run instead.
            std::string why = e.what();
            if (why.rfind(e.file() + ": ", 0) == 0)
                why.erase(0, e.file().size() + 2);
            out.push_back("run " + std::to_string(s.id) + ": " + why);
            for (auto& problem : summaryProblems(s))
                out.push_back(std::move(problem));
        }
    }
    return out;
}

}  // namespace ps::library
