#include "compare/NodeFields.h"

#include <algorithm>

namespace ps::compare {

using nlohmann::json;

const std::string& NodeFields::text(const json& node, const char* key)
{
    static const std::string kEmpty;
    if (!node.is_object())
        return kEmpty;
    auto it = node.find(key);
    return it != node.end() && it->is_string() ? it->get_ref<const std::string&>() : kEmpty;
}

namespace {

/// node.module, or null (then text() reads "" from it).
const json& moduleOf(const json& node)
{
    static const json kNone;
    if (!node.is_object())
        return kNone;
    auto it = node.find("module");
    return it == node.end() ? kNone : *it;
}

}  // namespace

const std::string& NodeFields::modulePath(const json& node)
{
    return text(moduleOf(node), "path");
}

const std::string& NodeFields::moduleType(const json& node)
{
    return text(moduleOf(node), "type");
}

const std::string& NodeFields::shownName(const json& node)
{
    const std::string& qualname = text(node, "qualname");
    return text(node, "op") == "placeholder" && !qualname.empty() ? qualname : text(node, "name");
}

std::string_view NodeFields::owner(const json& node)
{
    const std::string& path = modulePath(node);
    if (!path.empty())
        return path;
    const std::string& kind = text(node, "kind");
    if (kind != "parameter" && kind != "buffer")
        return {};  // an input's qualname is its argument path ("x", "batch.ids"), no module
    const std::string& qualname = text(node, "qualname");
    const auto dot = qualname.rfind('.');
    return dot == std::string::npos ? std::string_view() : std::string_view(qualname).substr(0, dot);
}

std::string_view NodeFields::leafName(const json& node)
{
    const std::string& qualname = text(node, "qualname");
    const auto dot = qualname.rfind('.');
    return dot == std::string::npos ? std::string_view(qualname) : std::string_view(qualname).substr(dot + 1);
}

int NodeFields::depth(std::string_view path)
{
    return path.empty() ? 0 : 1 + static_cast<int>(std::count(path.begin(), path.end(), '.'));
}

std::string_view NodeFields::commonAncestor(std::string_view a, std::string_view b)
{
    std::size_t end = 0;
    for (std::size_t k = 0;; ++k) {
        const bool endA = k == a.size() || a[k] == '.';
        const bool endB = k == b.size() || b[k] == '.';
        if (endA || endB) {
            if (endA && endB)
                end = k;
            if (endA != endB || k == a.size() || k == b.size())
                break;
        } else if (a[k] != b[k]) {
            break;
        }
    }
    return a.substr(0, end);
}

}  // namespace ps::compare
