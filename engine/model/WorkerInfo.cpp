#include "model/WorkerInfo.h"

#include "model/JsonFields.h"

#include <algorithm>

namespace ps::model {

std::optional<WorkerInfo> WorkerInfo::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    WorkerInfo w;
    // A blank host names no machine: read as not recorded, never shown as an empty name.
    if (const auto& host = JsonFields::member(j, "host");
        host.is_string() && !host.get_ref<const std::string&>().empty())
        w.host = host.get<std::string>();
    w.hostname = JsonFields::text(j, "hostname");
    w.studio = JsonFields::text(j, "studio");
    w.protocol = static_cast<int>(JsonFields::integer(j, "protocol").value_or(0));
    w.python = JsonFields::text(j, "python");
    w.torch = JsonFields::text(j, "torch");
    w.cuda = JsonFields::text(j, "cuda");
    w.precompileApi = JsonFields::text(j, "precompile_api");
    if (const auto& devices = JsonFields::member(j, "devices"); devices.is_array()) {
        for (const auto& d : devices) {
            if (!d.is_object())
                continue;
            Device device;
            device.index = static_cast<int>(JsonFields::integer(d, "index").value_or(0));
            device.name = JsonFields::text(d, "name");
            device.memoryBytes = JsonFields::integer(d, "memory_bytes");
            device.capability = JsonFields::text(d, "capability");
            w.devices.push_back(std::move(device));
        }
    }
    return w;
}

std::string WorkerInfo::place() const
{
    return host ? *host : std::string("this computer");
}

std::string WorkerInfo::deviceSummary() const
{
    if (devices.empty())
        return "CPU";
    // Counted by name, in the order first seen.
    std::vector<std::pair<std::string, int>> counts;
    for (const auto& d : devices) {
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == d.name; });
        if (it == counts.end())
            counts.emplace_back(d.name.empty() ? std::string("GPU") : d.name, 1);
        else
            ++it->second;
    }
    std::string out;
    for (const auto& [name, count] : counts)
        out += (out.empty() ? "" : ", ") + std::to_string(count) + "x " + name;
    return out;
}

std::string WorkerInfo::summary() const
{
    std::string out = place();
    if (!torch.empty())
        out += " \u00b7 torch " + torch;
    out += " \u00b7 " + deviceSummary();
    return out;
}

std::string WorkerInfo::machine() const
{
    if (host)
        return *host;
    return hostname.empty() ? std::string("unknown host") : hostname;
}

std::string WorkerInfo::where() const
{
    return machine() + " \u00b7 " + deviceSummary();
}

}  // namespace ps::model
