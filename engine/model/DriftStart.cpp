#include "model/DriftStart.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace ps::model {

namespace {

constexpr std::size_t kNamed = 3;

const std::string& stringMember(const nlohmann::json& node, const char* key)
{
    static const std::string none;
    const auto it = node.find(key);
    return it != node.end() && it->is_string() ? it->get_ref<const std::string&>() : none;
}

}  // namespace

std::vector<DriftStart> DriftStart::of(const Verification::Accuracy& accuracy, const nlohmann::json& graph)
{
    std::unordered_map<std::string, const nlohmann::json*> byName;
    if (graph.is_object())
        if (const auto list = graph.find("node_list"); list != graph.end() && list->is_array())
            for (const auto& n : *list)
                if (n.is_object())
                    byName.emplace(stringMember(n, "name"), &n);
    std::vector<DriftStart> out;
    auto add = [&](const std::string& node, const std::string& element) {
        auto it = std::find_if(out.begin(), out.end(), [&](const DriftStart& s) { return s.node == node; });
        if (it == out.end()) {
            DriftStart s;
            s.node = node;
            if (const auto n = byName.find(node); n != byName.end())
                if (const auto m = n->second->find("module"); m != n->second->end() && m->is_object())
                    s.module = stringMember(*m, "path");
            out.push_back(std::move(s));
            it = out.end() - 1;
        }
        if (!element.empty() && std::find(it->via.begin(), it->via.end(), element) == it->via.end())
            it->via.push_back(element);
    };
    for (const auto& start : accuracy.driftStarts) {
        // An element of a node of several outputs: its node (the getitem's first input).
        std::string producer;
        if (const auto n = byName.find(start);
            n != byName.end() && stringMember(*n->second, "target").find("getitem") != std::string::npos)
            if (const auto inputs = n->second->find("inputs");
                inputs != n->second->end() && inputs->is_array() && !inputs->empty() && inputs->front().is_string())
                producer = inputs->front().get<std::string>();
        if (!producer.empty()) {
            add(producer, start);
            continue;
        }
        add(start, "");
        if (const auto via = accuracy.driftStartsVia.find(start); via != accuracy.driftStartsVia.end())
            for (const auto& element : via->second)
                add(start, element);
    }
    return out;
}

std::string DriftStart::label() const
{
    return module.empty() ? node : node + " (" + module + ")";
}

std::string DriftStart::phrase(
    const std::vector<DriftStart>& starts, const std::function<std::string(std::string_view)>& shown)
{
    std::string out;
    for (std::size_t i = 0; i < starts.size() && i < kNamed; ++i)
        out += (i ? ", " : "") + shown(starts[i].label());
    if (starts.size() > kNamed)
        out += " and " + std::to_string(starts.size() - kNamed) + " more";
    return out;
}

}  // namespace ps::model
