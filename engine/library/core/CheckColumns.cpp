#include "library/core/CheckColumns.h"

#include "library/core/LibraryError.h"
#include "model/CheckOutcome.h"
#include "model/JsonLimits.h"

#include <array>
#include <unordered_map>
#include <utility>

namespace ps::library {

namespace {

constexpr std::array<std::pair<CheckColumns::Column, std::string_view>, 11> kNames{{
    {CheckColumns::Column::Id, "k.id"},
    {CheckColumns::Column::RunId, "k.run_id"},
    {CheckColumns::Column::CheckedAt, "k.checked_at"},
    {CheckColumns::Column::Target, "k.target"},
    {CheckColumns::Column::Outcome, "k.outcome"},
    {CheckColumns::Column::Runs, "k.runs"},
    {CheckColumns::Column::FirstCallMs, "k.first_call_ms"},
    {CheckColumns::Column::Torch, "k.torch"},
    {CheckColumns::Column::Reason, "k.reason"},
    {CheckColumns::Column::CheckedBy, "k.checked_by"},
    {CheckColumns::Column::CheckedRole, "k.checked_role"},
}};

constexpr bool inOrder()
{
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (static_cast<std::size_t>(kNames[i].first) != i)
            return false;
    return true;
}
static_assert(inOrder(), "kNames must list CheckColumns::Column in its order");

/// At most `limit` bytes, not cutting a UTF-8 sequence.
std::string cut(const std::string& text, std::size_t limit)
{
    if (text.size() <= limit)
        return text;
    std::size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end) + "...";
}

}  // namespace

const std::string& CheckColumns::list()
{
    static const std::string joined = [] {
        std::string out;
        for (const auto& [column, name] : kNames)
            out += (out.empty() ? "" : ", ") + std::string(name);
        return out;
    }();
    return joined;
}

CheckColumns::Values CheckColumns::prepare(const CheckRecord& check, const std::string& location)
{
    if (!model::checkOutcomeFromString(check.outcome))
        throw LibraryError(LibraryError::Kind::Invalid, location,
            "a check's outcome must be loads, fallback, refused or error, not '" + cut(check.outcome, 40) + "'");
    if (check.target.empty())
        throw LibraryError(LibraryError::Kind::Invalid, location, "a check names no target");
    Values v;
    v.target = cut(check.target, kMaxLabelBytes);
    v.outcome = check.outcome;
    v.torch = cut(check.torch, 256);
    v.reason = cut(check.reason, kMaxReasonBytes);
    v.runs = check.runs ? 1 : 0;
    if (check.firstCallMs && *check.firstCallMs >= 0)
        v.firstCallMs = check.firstCallMs;
    if (check.check.is_object()) {
        v.checkJson = check.check.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (v.checkJson.size() > kMaxCheckBytes)
            v.checkJson = "{}";
    } else {
        v.checkJson = "{}";
    }
    return v;
}

nlohmann::json CheckColumns::parseCheck(std::string_view text)
{
    auto value = model::JsonLimits::parse(text, kMaxCheckBytes, nullptr);
    return value && value->is_object() ? std::move(*value) : nlohmann::json();
}

void CheckColumns::attach(std::vector<RunSummary>& runs, std::vector<CheckRecord> checks)
{
    if (checks.empty())
        return;
    std::unordered_map<std::int64_t, std::size_t> at;
    at.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        at.emplace(runs[i].id, i);
    for (CheckRecord& c : checks)
        if (const auto it = at.find(c.runId); it != at.end())
            runs[it->second].checks.push_back(std::move(c));
}

}  // namespace ps::library
