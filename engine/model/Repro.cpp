#include "model/Repro.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

namespace ps::model {

namespace {

std::vector<std::string> texts(const nlohmann::json& j, const char* key)
{
    std::vector<std::string> out;
    if (const auto& a = JsonFields::member(j, key); a.is_array())
        for (const auto& v : a)
            if (v.is_string())
                out.push_back(v.get<std::string>());
    return out;
}

}  // namespace

std::optional<Repro> Repro::fromJson(const nlohmann::json& j)
{
    using F = JsonFields;
    if (!j.is_object())
        return std::nullopt;
    const std::string status = F::text(j, "status");
    if (status != "written" && status != "none")
        return std::nullopt;
    Repro r;
    r.written = status == "written";
    r.capture = F::text(j, "capture");
    r.reason = F::text(j, "reason");
    r.start = F::text(j, "start");
    r.files = texts(j, "files");
    r.ops = texts(j, "ops");
    r.graphOps = F::integer(j, "graph_ops").value_or(0);
    r.grownOps = F::integer(j, "grown_ops").value_or(0);
    r.elements = F::integer(j, "elements").value_or(0);
    r.steps = F::integer(j, "steps").value_or(0);
    r.shrinkS = F::number(j, "shrink_s");
    if (const auto& outs = F::member(j, "outputs"); outs.is_array())
        for (const auto& o : outs)
            if (o.is_object())
                r.outputs.push_back({F::text(o, "name"), F::text(o, "dtype"), F::integer(o, "elements").value_or(0),
                    F::number(o, "compiled_error"), F::number(o, "eager_error"), F::number(o, "band"),
                    F::flag(o, "outside").value_or(false)});
    const auto& fresh = F::member(j, "fresh");
    if (const auto code = F::integer(fresh, "exit"))
        r.freshExit = static_cast<int>(*code);
    r.freshS = F::number(fresh, "seconds");
    r.freshOutput = F::text(fresh, "output");
    return r;
}

}  // namespace ps::model
