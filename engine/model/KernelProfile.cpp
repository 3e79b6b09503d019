#include "model/KernelProfile.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ps::model {

namespace {
using F = JsonFields;

/// A time or count as the profile may hold it: finite and not negative, else absent.
std::optional<double> measure(const nlohmann::json& j, const char* key)
{
    const auto v = F::number(j, key);
    if (!v || !std::isfinite(*v) || *v < 0)
        return std::nullopt;
    return v;
}
}  // namespace

double KernelProfile::kernelsUs() const
{
    double sum = 0;
    for (const auto& k : kernels)
        sum += k.selfUs;
    return sum;
}

std::optional<KernelProfile> KernelProfile::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    KernelProfile p;
    p.calls = std::max<std::int64_t>(0, F::integer(j, "calls").value_or(0));
    p.wallUs = measure(j, "wall_us");
    p.profiledWallUs = measure(j, "profiled_wall_us");
    p.overheadUs = measure(j, "overhead_us");
    p.unattributedUs = measure(j, "unattributed_us");
    p.error = F::text(j, "error");
    if (const auto& ks = F::member(j, "kernels"); ks.is_array())
        for (const auto& k : ks) {
            if (!k.is_object())
                continue;
            KernelTime t;
            t.name = F::text(k, "name");
            t.count = std::max<std::int64_t>(0, F::integer(k, "count").value_or(0));
            t.selfUs = measure(k, "self_us").value_or(0);
            if (const auto& nodes = F::member(k, "nodes"); nodes.is_array())
                for (const auto& n : nodes)
                    if (n.is_string() && !n.get_ref<const std::string&>().empty())
                        t.nodes.push_back(n.get<std::string>());
            p.kernels.push_back(std::move(t));
        }
    return p;
}

}  // namespace ps::model
