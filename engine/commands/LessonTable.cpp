#include "commands/LessonTable.h"

#include "lessons/LessonExpectation.h"
#include "library/core/TerminalText.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace ps::commands {

using lessons::LessonExpectation;
using nlohmann::json;
using Words = LessonExpectation;  // the cells read as `lessons run`'s words

std::vector<std::string> LessonTable::wrap(const std::string& text, std::size_t width)
{
    std::vector<std::string> lines;
    std::string rest = text;
    while (rest.size() > width) {
        std::size_t cut = rest.rfind(' ', width);
        if (cut == std::string::npos || cut == 0)
            cut = width;
        lines.push_back(rest.substr(0, cut));
        rest = rest.substr(cut == width ? cut : cut + 1);
    }
    lines.push_back(rest);
    return lines;
}

std::vector<LessonTable::Row> LessonTable::rows(const json (&actual)[2])
{
    std::vector<Row> rows;
    auto add = [&](const std::string& label, const std::vector<std::string>& a, const std::vector<std::string>& b) {
        rows.push_back({label, {a, b}});
    };
    add("status", {LessonExpectation::text(LessonExpectation::field(actual[0], "status"), "?")},
        {LessonExpectation::text(LessonExpectation::field(actual[1], "status"), "?")});
    if (actual[0]["violation"].is_object() || actual[1]["violation"].is_object())
        add("script", {Words::violationText(actual[0]["violation"])}, {Words::violationText(actual[1]["violation"])});
    const std::size_t n = std::max(actual[0]["captures"].size(), actual[1]["captures"].size());
    for (std::size_t i = 0; i < n; ++i) {
        json c[2];
        for (int k = 0; k < 2; ++k)
            c[k] = i < actual[k]["captures"].size() ? actual[k]["captures"][i] : json(nullptr);
        auto cell = [&](int k, auto&& f) -> std::vector<std::string> {
            return c[k].is_object() ? std::vector<std::string>{f(c[k])} : std::vector<std::string>{""};
        };
        add(n > 1 ? "capture " + std::to_string(i + 1) : "capture",
            cell(0, [](const json& j) { return LessonExpectation::text(LessonExpectation::field(j, "status"), "?"); }),
            cell(1, [](const json& j) { return LessonExpectation::text(LessonExpectation::field(j, "status"), "?"); }));
        add("  violation", cell(0, [](const json& j) { return Words::violationText(j["violation"]); }),
            cell(1, [](const json& j) { return Words::violationText(j["violation"]); }));
        add("  verify", cell(0, [](const json& j) { return Words::verifyText(j["verify"]); }),
            cell(1, [](const json& j) { return Words::verifyText(j["verify"]); }));
        const bool anyRuntime
            = (c[0].is_object() && c[0]["verify"].is_object() && c[0]["verify"]["runtime"].is_object())
            || (c[1].is_object() && c[1]["verify"].is_object() && c[1]["verify"]["runtime"].is_object());
        if (anyRuntime)
            add("  runtime",
                cell(0,
                    [](const json& j) {
                        return j["verify"].is_object() ? Words::runtimeText(j["verify"]["runtime"]) : std::string("-");
                    }),
                cell(1, [](const json& j) {
                    return j["verify"].is_object() ? Words::runtimeText(j["verify"]["runtime"]) : std::string("-");
                }));
        std::vector<std::string> w[2];
        for (int k = 0; k < 2; ++k) {
            if (!c[k].is_object())
                continue;
            for (const auto& item : c[k]["warnings"])
                w[k].push_back(Words::violationText(item));
            if (w[k].empty())
                w[k].push_back("none");
        }
        add("  warnings", w[0], w[1]);
    }
    return rows;
}

LessonTable::Row LessonTable::verdict(const json (&mismatches)[2])
{
    Row verdict{"expect.json", {}};
    for (int k = 0; k < 2; ++k)
        verdict.cells[k] = {mismatches[k].empty()
                ? "matches"
                : std::to_string(mismatches[k].size()) + " difference" + (mismatches[k].size() == 1 ? "" : "s")};
    return verdict;
}

void LessonTable::print(std::ostream& out, const std::vector<Row>& rows, const double (&seconds)[2])
{
    char head[2][64];
    for (int k = 0; k < 2; ++k)
        std::snprintf(head[k], sizeof head[k], "%s.py (%.1f s)",
            std::string(lessons::toString(lessons::kLessonSides[k])).c_str(), seconds[k]);
    const std::string heads[2] = {head[0], head[1]};
    constexpr std::size_t kLabel = 13, kCol = 40;
    auto pad
        = [](const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); };
    out << pad("", kLabel) << pad(heads[0], kCol + 2) << heads[1] << "\n";
    for (const auto& row : rows) {
        std::vector<std::string> lines[2];
        for (int k = 0; k < 2; ++k)
            for (const auto& cell : row.cells[k])  // made terminal-safe before it is measured and cut
                for (auto& l : wrap(library::TerminalText::safe(cell), kCol))
                    lines[k].push_back(l);
        const std::size_t h = std::max(lines[0].size(), lines[1].size());
        for (std::size_t i = 0; i < h; ++i) {
            const std::string left = i < lines[0].size() ? lines[0][i] : "";
            const std::string right = i < lines[1].size() ? lines[1][i] : "";
            std::string line = pad(i == 0 ? row.label : "", kLabel) + pad(left, kCol + 2) + right;
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            out << line << "\n";
        }
    }
}

}  // namespace ps::commands
