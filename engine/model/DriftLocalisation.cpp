#include "model/DriftLocalisation.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ps::model {

namespace {
using F = JsonFields;
}  // namespace

std::optional<DriftLocalisation> DriftLocalisation::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    const std::string word = F::text(j, "status");
    DriftLocalisation d;
    if (word == "done")
        d.status = Status::Done;
    else if (word == "skipped")
        d.status = Status::Skipped;
    else if (word == "failed")
        d.status = Status::Failed;
    else
        return std::nullopt;
    d.reason = F::text(j, "reason");
    d.observed = std::max<std::int64_t>(0, F::integer(j, "observed").value_or(0));
    if (const auto s = F::number(j, "seconds"); s && std::isfinite(*s) && *s >= 0)
        d.seconds = s;
    return d;
}

std::string_view toString(DriftLocalisation::Status status)
{
    switch (status) {
    case DriftLocalisation::Status::Done:
        return "done";
    case DriftLocalisation::Status::Skipped:
        return "skipped";
    case DriftLocalisation::Status::Failed:
        return "failed";
    }
    return "failed";
}

}  // namespace ps::model
