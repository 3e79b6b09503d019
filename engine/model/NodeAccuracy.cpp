#include "model/NodeAccuracy.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace ps::model {

namespace {
using F = JsonFields;

std::optional<double> errorAt(const nlohmann::json& j, const char* key)
{
    const auto v = F::number(j, key);
    if (!v || !std::isfinite(*v) || *v < 0)
        return std::nullopt;
    return v;
}
}  // namespace

std::optional<double> NodeAccuracy::bandRatio() const
{
    if (!error || !eagerError)
        return std::nullopt;
    if (*eagerError > 0)
        return *error / *eagerError;
    return *error > 0 ? std::numeric_limits<double>::infinity() : 1.0;
}

std::vector<NodeAccuracy> NodeAccuracy::listFromJson(const nlohmann::json& j)
{
    std::vector<NodeAccuracy> out;
    if (!j.is_array())
        return out;
    for (const auto& e : j) {
        NodeAccuracy n;
        n.node = F::text(e, "node");
        if (n.node.empty())
            continue;
        n.error = errorAt(e, "error");
        n.eagerError = errorAt(e, "eager_error");
        n.leavesBand = F::flag(e, "leaves_band").value_or(false);
        out.push_back(std::move(n));
    }
    return out;
}

}  // namespace ps::model
