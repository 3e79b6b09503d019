#include "share/HtmlReport.h"

#include "share/MarkupText.h"
#include "share/PageData.h"
#include "share/PageWriter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace ps::share {

std::string HtmlReport::forRun(const model::Report& report, const std::string& scriptText,
    const std::vector<std::optional<std::string>>& pythonCode)
{
    std::string title = MarkupText::fileName(report.script.empty() ? std::string("run") : report.script) + ": "
        + std::string(model::toString(report.verdict()));
    if (report.runId)
        title += " (run #" + std::to_string(*report.runId) + ")";
    return PageWriter::write(
        title + " · Precompile Studio", PageData::forRun(report, scriptText, pythonCode), PageAssets::builtIn());
}

std::string HtmlReport::forDiff(const compare::RunDiff& diff, const compare::RunSide& a, const compare::RunSide& b)
{
    const std::string title = a.label + " vs " + b.label + ": " + (diff.equivalent() ? "equivalent" : "differ");
    return PageWriter::write(title + " · Precompile Studio", PageData::forDiff(diff, a, b), PageAssets::builtIn());
}

std::string HtmlReport::save(const std::string& path, const std::string& html)
{
    const auto fail = [&](int error) { return "cannot write " + path + ": " + std::strerror(error); };
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), std::fclose);
    if (!file)
        return fail(errno);
    if (std::fwrite(html.data(), 1, html.size(), file.get()) != html.size())
        return fail(errno);
    if (std::fclose(file.release()) != 0)
        return fail(errno);
    return {};
}

}  // namespace ps::share
