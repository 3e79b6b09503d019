#include "share/PageData.h"

#include "model/Tone.h"

#include "compare/GraphDiff.h"
#include "compare/RunDiffPrinter.h"
#include "compare/TextDiff.h"
#include "model/RunVerdict.h"
#include "share/PageAssets.h"
#include "share/PageGraph.h"

#include <algorithm>
#include <sstream>

namespace ps::share {

namespace {

using json = nlohmann::json;

const json& member(const json& j, const char* key)
{
    static const json kNull;
    if (!j.is_object())
        return kNull;
    auto it = j.find(key);
    return it == j.end() ? kNull : *it;
}

json verdictOf(const model::Report& report)
{
    return {{"word", model::toString(report.verdict())}, {"message", report.message}, {"exit_code", report.exitCode()},
        {"all_good", report.allGood()}};
}

// The report as the page reads it: the captured graphs travel once, in the graph panel's form,
// so the report's own copy (the largest part of it) is left out; how many nodes it had stays.
json reportWithoutGraphs(const model::Report& report, std::vector<int>& nodeCounts)
{
    json j = report.toJson();
    if (auto captures = j.find("captures"); captures != j.end() && captures->is_array())
        for (auto& c : *captures) {
            const json& list = member(member(c, "graph"), "node_list");
            nodeCounts.push_back(list.is_array() ? static_cast<int>(list.size()) : 0);
            if (c.is_object())
                c.erase("graph");
        }
    return j;
}

json sideOf(const compare::RunSide& side)
{
    const model::Report report = model::Report::fromJson(side.report);
    return {{"label", side.label}, {"script", report.script}, {"run_id", member(side.report, "run_id")},
        {"verdict", verdictOf(report)}};
}

// The diff's marks on one side's graph: its nodes the other side lacks, and those changed.
json marksOf(const compare::GraphDiff& graph, const json& nodeList, bool sideA)
{
    json marks = json::object();
    const auto name = [&](int index) -> std::string {
        if (!nodeList.is_array() || index < 0 || index >= static_cast<int>(nodeList.size()))
            return {};
        const json& n = member(nodeList[static_cast<std::size_t>(index)], "name");
        return n.is_string() ? n.get<std::string>() : std::string();
    };
    for (int i : sideA ? graph.removed() : graph.added())
        if (auto n = name(i); !n.empty())
            marks[n] = sideA ? "removed" : "added";
    for (const auto& change : graph.changed())
        if (auto n = name(sideA ? change.a : change.b); !n.empty())
            marks[n] = "changed";
    return marks;
}

// The lines first..last (1-based, inclusive) of a text; none where the range is 0.
std::vector<std::string_view> slice(const std::vector<std::string_view>& lines, int first, int last)
{
    if (first <= 0 || last < first)
        return {};
    const auto from = std::min(static_cast<std::size_t>(first - 1), lines.size());
    const auto to = std::min(static_cast<std::size_t>(last), lines.size());
    return {lines.begin() + static_cast<std::ptrdiff_t>(from), lines.begin() + static_cast<std::ptrdiff_t>(to)};
}

// A changed python_code section as the page shows it: the studio's line diff (TextDiff) of its
// two slices, rows [kind " " "-" "+" or "…" for skipped unchanged lines, line of a, line of b,
// text], three unchanged lines kept around each change, at most kMaxRows rows.
json sectionDiff(const compare::SectionChange& section, const std::vector<std::string_view>& linesA,
    const std::vector<std::string_view>& linesB)
{
    constexpr std::size_t kMaxRows = 2000;
    constexpr int kContext = 3;
    const auto a = slice(linesA, section.startA, section.endA);
    const auto b = slice(linesB, section.startB, section.endB);
    const compare::TextDiff diff = compare::TextDiff::compareLines(a, b);
    const auto& rows = diff.rows();
    std::vector<char> keep(rows.size(), 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].kind != compare::TextDiff::Kind::Same)
            for (std::size_t k = i >= kContext ? i - kContext : 0; k < rows.size() && k <= i + kContext; ++k)
                keep[k] = 1;
    json out = json::array();
    bool skipped = false;
    for (std::size_t i = 0; i < rows.size() && out.size() < kMaxRows; ++i) {
        if (!keep[i]) {
            skipped = true;
            continue;
        }
        if (skipped)
            out.push_back({"…", nullptr, nullptr, ""});
        skipped = false;
        const auto& r = rows[i];
        const bool removed = r.kind == compare::TextDiff::Kind::Removed;
        const bool added = r.kind == compare::TextDiff::Kind::Added;
        const std::string_view text = added ? b[static_cast<std::size_t>(r.b)] : a[static_cast<std::size_t>(r.a)];
        out.push_back({removed ? "-"
                : added        ? "+"
                               : " ",
            added ? json(nullptr) : json(section.startA + r.a), removed ? json(nullptr) : json(section.startB + r.b),
            std::string(text)});
    }
    if (skipped || out.size() >= kMaxRows)
        out.push_back({"…", nullptr, nullptr, ""});
    return out;
}

}  // namespace

json PageData::skippedOf(const model::Capture& capture)
{
    const auto checks = capture.verify ? capture.verify->skippedChecks() : std::vector<std::string>();
    if (checks.empty())
        return nullptr;
    return {{"checks", checks}, {"how", capture.verify->everyCheckHow()}};
}

json PageData::cacheOf(const model::Capture& capture)
{
    if (!capture.cache)
        return {{"absent", model::CacheInfo::absentText(capture.status)}};
    json facts = json::array();
    for (const auto& f : capture.cache->facts())
        facts.push_back(
            {{"label", f.label}, {"text", f.text}, {"tone", f.tone ? json(model::toString(*f.tone)) : json(nullptr)}});
    json entries = json::array();
    for (const auto& e : capture.cache->entries)
        entries.push_back({{"kind", e.kind}, {"key", e.key}, {"bytes", e.bytes}});
    return {{"facts", std::move(facts)}, {"entries", std::move(entries)}};
}

json PageData::tones()
{
    json out = json::object();
    for (const auto& [word, tone] : model::toneTable())
        out[std::string(word)] = model::toString(tone);
    // the diff page's own words: whether two runs' artifacts are equivalent
    out["equivalent"] = model::toString(model::Tone::Good);
    out["differ"] = out["differs"] = model::toString(model::Tone::Warn);
    return out;
}

json PageData::graphOf(const model::Capture& capture)
{
    // A page without graph.js could not draw it: the graph then stays out (the page says so).
    if (PageAssets::builtIn().graphJs.empty())
        return nullptr;
    return PageGraph::toJson(capture);
}

json PageData::forRun(const model::Report& report, const std::string& scriptText,
    const std::vector<std::optional<std::string>>& pythonCode)
{
    std::vector<int> nodeCounts;
    json page = {{"kind", "run"}, {"verdict", verdictOf(report)}, {"script_text", scriptText},
        {"report", reportWithoutGraphs(report, nodeCounts)}, {"tones", tones()}};
    json captures = json::array();
    for (std::size_t i = 0; i < report.captures.size(); ++i) {
        json code = i < pythonCode.size() && pythonCode[i] ? json(*pythonCode[i]) : json(nullptr);
        captures.push_back({{"python_code", std::move(code)}, {"graph", graphOf(report.captures[i])},
            {"graph_nodes", i < nodeCounts.size() ? nodeCounts[i] : 0}, {"skipped", skippedOf(report.captures[i])},
            {"cache", cacheOf(report.captures[i])}});
    }
    page["captures"] = std::move(captures);
    // What the artifacts depend on, in the words `library show` prints (model::Stamps).
    page["stamps"] = report.stamps ? json(report.stamps->summary()) : json(nullptr);
    return page;
}

json PageData::forDiff(const compare::RunDiff& diff, const compare::RunSide& a, const compare::RunSide& b)
{
    std::ostringstream text;
    compare::RunDiffPrinter::print(diff, a, b, text);
    json page = {{"kind", "diff"}, {"equivalent", diff.equivalent()}, {"exit_code", diff.equivalent() ? 0 : 1},
        {"tones", tones()}, {"text", text.str()}, {"diff", diff.toJson(a, b)}, {"a", sideOf(a)}, {"b", sideOf(b)}};
    const json& capturesA = member(a.report, "captures");
    const json& capturesB = member(b.report, "captures");
    json captures = json::array();
    for (const auto& c : diff.captures()) {
        const json& x = c.indexA >= 0 && capturesA.is_array() && c.indexA < static_cast<int>(capturesA.size())
            ? capturesA[static_cast<std::size_t>(c.indexA)]
            : json();
        const json& y = c.indexB >= 0 && capturesB.is_array() && c.indexB < static_cast<int>(capturesB.size())
            ? capturesB[static_cast<std::size_t>(c.indexB)]
            : json();
        json entry = {{"name", c.name}};
        entry["graph_a"] = x.is_object() ? graphOf(model::Capture::fromJson(x)) : json(nullptr);
        entry["graph_b"] = y.is_object() ? graphOf(model::Capture::fromJson(y)) : json(nullptr);
        entry["marks_a"] = marksOf(c.graph, member(member(x, "graph"), "node_list"), true);
        entry["marks_b"] = marksOf(c.graph, member(member(y, "graph"), "node_list"), false);
        // Each changed python_code section's line diff, index-aligned with diff.captures[].python_code.sections.
        const auto codeOf = [](const compare::RunSide& side, int index) -> const std::string* {
            if (index < 0 || index >= static_cast<int>(side.pythonCode.size())
                || !side.pythonCode[static_cast<std::size_t>(index)])
                return nullptr;
            return &*side.pythonCode[static_cast<std::size_t>(index)];
        };
        const std::string* codeA = codeOf(a, c.indexA);
        const std::string* codeB = codeOf(b, c.indexB);
        const auto linesA = codeA ? compare::TextDiff::splitLines(*codeA) : std::vector<std::string_view>();
        const auto linesB = codeB ? compare::TextDiff::splitLines(*codeB) : std::vector<std::string_view>();
        json sections = json::array();
        for (const auto& section : c.code.sections())
            sections.push_back(
                section.status == compare::Change::Same ? json(nullptr) : sectionDiff(section, linesA, linesB));
        entry["code_sections"] = std::move(sections);
        captures.push_back(std::move(entry));
    }
    page["captures"] = std::move(captures);
    return page;
}

}  // namespace ps::share
