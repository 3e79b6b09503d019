// libFuzzer target: a report's `worker` object (where a run ran and what that worker had), as
// it arrives in a team member's run, an imported NAME.json or from a remote host. Read through
// JsonLimits like every report; WorkerInfo::fromJson and its words must never throw, whatever
// the types of the members.
#include "FuzzCheck.h"
#include "model/JsonLimits.h"
#include "model/WorkerInfo.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string why;
    const auto j = ps::model::JsonLimits::parse(text, std::size_t{1} << 20, &why);
    if (!j)
        return 0;
    // The object on its own, and inside a report as the front ends read it.
    for (const auto* value : {&*j, j->is_object() && j->contains("worker") ? &(*j)["worker"] : &*j}) {
        const auto info = ps::model::WorkerInfo::fromJson(*value);
        if (!info) {
            if (value->is_object())
                ps::fuzz::broken("an object is always read", text);
            continue;
        }
        (void)info->place();
        (void)info->deviceSummary();
        (void)info->summary();
        (void)info->where();
        if (info->machine().empty())
            ps::fuzz::broken("a run's machine is never blank", text);
    }
    return 0;
}
