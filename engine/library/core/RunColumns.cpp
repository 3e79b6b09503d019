#include "library/core/RunColumns.h"

#include <utility>

namespace ps::library {

namespace {

/// Each enum's columns, in its order: the one table the select lists are made from.
constexpr std::array<std::pair<RunColumns::Summary, std::string_view>, 12> kSummaryNames{{
    {RunColumns::Summary::Id, "r.id"},
    {RunColumns::Summary::CreatedAt, "r.created_at"},
    {RunColumns::Summary::Name, "r.name"},
    {RunColumns::Summary::ScriptPath, "r.script_path"},
    {RunColumns::Summary::Status, "r.status"},
    {RunColumns::Summary::Message, "r.message"},
    {RunColumns::Summary::Origin, "r.origin"},
    {RunColumns::Summary::Trusted, "r.trusted"},
    {RunColumns::Summary::Uid, "r.uid"},
    {RunColumns::Summary::RanOn, "r.ran_on"},
    {RunColumns::Summary::StoredBy, "r.stored_by"},
    {RunColumns::Summary::StoredRole, "r.stored_role"},
}};

constexpr std::array<std::pair<RunColumns::Capture, std::string_view>, 9> kCaptureNames{{
    {RunColumns::Capture::Index, "c.idx"},
    {RunColumns::Capture::Name, "c.name"},
    {RunColumns::Capture::Backend, "c.backend"},
    {RunColumns::Capture::Tracer, "c.tracer"},
    {RunColumns::Capture::Status, "c.status"},
    {RunColumns::Capture::Invariant, "c.invariant"},
    {RunColumns::Capture::Message, "c.message"},
    {RunColumns::Capture::PythonCodeSha256, "c.python_code_sha256"},
    {RunColumns::Capture::CacheSha256, "c.cache_sha256"},
}};

template <class Names> constexpr bool inOrder(const Names& names)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (static_cast<std::size_t>(names[i].first) != i)
            return false;
    return true;
}
static_assert(inOrder(kSummaryNames), "kSummaryNames must list RunColumns::Summary in its order");
static_assert(inOrder(kCaptureNames), "kCaptureNames must list RunColumns::Capture in its order");

template <class Names> std::string joined(const Names& names)
{
    std::string out;
    for (const auto& [column, name] : names) {
        if (!out.empty())
            out += ", ";
        out += name;
    }
    return out;
}

}  // namespace

const std::string& RunColumns::summaryList()
{
    static const std::string list = joined(kSummaryNames);
    return list;
}

const std::string& RunColumns::captureList()
{
    static const std::string list = joined(kCaptureNames);
    return list;
}

}  // namespace ps::library
