#include "compare/DiffCauses.h"

#include "model/JsonFields.h"
#include "model/WorkerInfo.h"

#include "compare/TextDiff.h"

#include <map>
#include <set>

namespace ps::compare {

namespace {

using nlohmann::json;
using ps::model::JsonFields;

std::string range(int start, int count)
{
    if (count <= 1)
        return "line " + std::to_string(start);
    return "lines " + std::to_string(start) + "-" + std::to_string(start + count - 1);
}

std::string joinedWords(const std::vector<std::string>& parts, std::size_t most)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size() && i < most; ++i)
        out += (i ? "; " : "") + parts[i];
    if (parts.size() > most)
        out += "; and " + std::to_string(parts.size() - most) + " more";
    return out;
}

std::string phrase(const std::vector<Difference>& diffs, std::size_t most)
{
    std::vector<std::string> parts;
    for (const Difference& d : diffs)
        parts.push_back(d.what + " " + d.before + " -> " + d.after);
    return joinedWords(parts, most);
}

}  // namespace

std::vector<std::string> DiffCauses::describeScript(const TextDiff& script)
{
    std::vector<std::string> out;
    for (const TextDiff::Hunk& h : script.hunks()) {
        if (h.aCount > 0 && h.bCount > 0)
            out.push_back(range(h.bStart, h.bCount) + " edited");
        else if (h.bCount > 0)
            out.push_back(range(h.bStart, h.bCount) + " added");
        else
            out.push_back(std::string(h.aCount == 1 ? "a line" : std::to_string(h.aCount) + " lines")
                + " removed before line " + std::to_string(h.bStart));
    }
    return out;
}

std::vector<Difference> DiffCauses::inputs(const json& captureA, const json& captureB)
{
    std::vector<Difference> out;
    auto entries = [](const json& capture) {
        std::map<std::string, json> byPath;
        const json& inputs = JsonFields::member(capture, "inputs");
        const json& list = JsonFields::member(inputs, "entries");
        if (list.is_array())
            for (const json& e : list)
                if (e.is_object() && e.contains("path") && e["path"].is_string())
                    byPath.emplace(e["path"].get<std::string>(), e);
        return byPath;
    };
    if (JsonFields::member(captureA, "inputs").is_null() || JsonFields::member(captureB, "inputs").is_null())
        return out;  // not recorded on a side: nothing can be said
    const auto a = entries(captureA);
    const auto b = entries(captureB);
    std::set<std::string> paths;
    for (const auto& [p, e] : a)
        paths.insert(p);
    for (const auto& [p, e] : b)
        paths.insert(p);
    for (const std::string& path : paths) {
        auto ea = a.find(path);
        auto eb = b.find(path);
        if (ea == a.end() || eb == b.end()) {
            const json& e = ea == a.end() ? eb->second : ea->second;
            const std::string what = JsonFields::show(JsonFields::member(e, "kind")) + " " + path;
            out.push_back({path, ea == a.end() ? "absent" : what, eb == b.end() ? "absent" : what});
            continue;
        }
        for (const char* key : {"kind", "type", "shape", "dtype", "stride", "device", "requires_grad", "length",
                 "training", "parameters", "parameter_elements", "buffers", "value"}) {
            const json& va = JsonFields::member(ea->second, key);
            const json& vb = JsonFields::member(eb->second, key);
            if (va != vb)
                out.push_back({path + " " + key, JsonFields::show(va), JsonFields::show(vb)});
        }
        const json& sa = JsonFields::member(ea->second, "structure_sha256");
        const json& sb = JsonFields::member(eb->second, "structure_sha256");
        if (sa != sb && JsonFields::member(ea->second, "parameters") == JsonFields::member(eb->second, "parameters"))
            out.push_back({path + " parameters' names or shapes", "as traced", "differ"});
    }
    return out;
}

std::vector<Difference> DiffCauses::options(const json& captureA, const json& captureB)
{
    std::vector<Difference> out;
    for (const char* key : {"backend", "tracer"}) {
        const json& va = JsonFields::member(captureA, key);
        const json& vb = JsonFields::member(captureB, key);
        if (va != vb)
            out.push_back({key, JsonFields::show(va), JsonFields::show(vb)});
    }
    const json& da = JsonFields::member(captureA, "decompositions");
    const json& db = JsonFields::member(captureB, "decompositions");
    if (JsonFields::member(da, "sha256") != JsonFields::member(db, "sha256")) {
        auto words = [](const json& d) {
            if (d.is_null())
                return std::string("none");
            const json& count = JsonFields::member(d, "count");
            return JsonFields::show(count) + " op" + (count == json(1) ? "" : "s");
        };
        out.push_back({"decompositions", words(da), words(db)});
    }
    return out;
}

std::vector<Difference> DiffCauses::provenance(const json& reportA, const json& reportB)
{
    std::vector<Difference> out;
    const json& pa = JsonFields::member(reportA, "provenance");
    const json& pb = JsonFields::member(reportB, "provenance");
    if (!pa.is_object() || !pb.is_object())
        return out;
    auto compareAt = [&](const std::string& what, const json& va, const json& vb) {
        if (va != vb)
            out.push_back({what, JsonFields::show(va), JsonFields::show(vb)});
    };
    compareAt("torch", JsonFields::member(JsonFields::member(pa, "torch"), "version"),
        JsonFields::member(JsonFields::member(pb, "torch"), "version"));
    compareAt("torch git", JsonFields::member(JsonFields::member(pa, "torch"), "git"),
        JsonFields::member(JsonFields::member(pb, "torch"), "git"));
    // The precompile API changed with the torch series (2.14's call, 2.15's capture and load).
    const auto wa = model::WorkerInfo::fromJson(JsonFields::member(reportA, "worker"));
    const auto wb = model::WorkerInfo::fromJson(JsonFields::member(reportB, "worker"));
    if (wa && wb && !wa->precompileApi.empty() && !wb->precompileApi.empty())
        compareAt("precompile API", wa->precompileApi, wb->precompileApi);
    compareAt("python", JsonFields::member(pa, "python"), JsonFields::member(pb, "python"));
    compareAt("machine", JsonFields::member(JsonFields::member(pa, "machine"), "arch"),
        JsonFields::member(JsonFields::member(pb, "machine"), "arch"));
    const json& isaA = JsonFields::member(JsonFields::member(pa, "machine"), "cpu_vec_isa");
    const json& isaB = JsonFields::member(JsonFields::member(pb, "machine"), "cpu_vec_isa");
    if (!isaA.is_null() && !isaB.is_null())  // null: inductor did not run there
        compareAt("CPU vector ISA", isaA, isaB);
    // What only the stamps record (deploy/stamps.py): Triton's build and the GPUs' architectures,
    // which decide whether a GPU artifact's kernels are reused where it loads.
    const json& sa = JsonFields::member(reportA, "stamps");
    const json& sb = JsonFields::member(reportB, "stamps");
    if (sa.is_object() && sb.is_object()) {
        compareAt("Triton", JsonFields::member(sa, "triton"), JsonFields::member(sb, "triton"));
        compareAt("GPU architectures", JsonFields::member(sa, "gpus"), JsonFields::member(sb, "gpus"));
    }
    compareAt("environment", JsonFields::member(JsonFields::member(pa, "environment"), "user_env"),
        JsonFields::member(JsonFields::member(pb, "environment"), "user_env"));
    return out;
}

std::vector<Difference> DiffCauses::where(const json& reportA, const json& reportB)
{
    std::vector<Difference> out;
    const auto wa = model::WorkerInfo::fromJson(JsonFields::member(reportA, "worker"));
    const auto wb = model::WorkerInfo::fromJson(JsonFields::member(reportB, "worker"));
    if (!wa || !wb)
        return out;  // not recorded on a side: nothing can be said
    if (wa->place() != wb->place())
        out.push_back({"host", wa->place(), wb->place()});
    if (wa->deviceSummary() != wb->deviceSummary())
        out.push_back({"devices", wa->deviceSummary(), wb->deviceSummary()});
    return out;
}

void DiffCauses::explain(RunDiff& diff, const RunSide& a, const RunSide& b)
{
    std::vector<std::string>& why = diff.m_why;
    const std::string pathA = JsonFields::show(JsonFields::member(a.report, "script"));
    const std::string pathB = JsonFields::show(JsonFields::member(b.report, "script"));
    if (!diff.m_scriptChanges.empty()) {
        std::string line = "the script changed: " + joinedWords(diff.m_scriptChanges, 6);
        if (pathA != pathB)
            line += " (" + pathA + " -> " + pathB + ")";
        why.push_back(line);
    }
    if (!diff.m_scriptUnknown.empty())
        why.push_back("the script cannot be compared: " + diff.m_scriptUnknown);
    std::vector<std::string> inputs;
    std::vector<std::string> options;
    for (const CaptureComparison& c : diff.m_captures) {
        const std::string prefix = diff.m_captures.size() > 1 ? c.name + ": " : std::string();
        if (!c.inputs.empty())
            inputs.push_back(prefix + phrase(c.inputs, 4));
        if (!c.options.empty())
            options.push_back(prefix + phrase(c.options, 4));
    }
    if (!inputs.empty())
        why.push_back("the inputs changed: " + joinedWords(inputs, 3));
    if (!options.empty())
        why.push_back("options changed: " + joinedWords(options, 3));
    if (!diff.m_provenance.empty())
        why.push_back("torch or the machine changed: " + phrase(diff.m_provenance, 6));
    if (const auto where = DiffCauses::where(a.report, b.report); !where.empty())
        why.push_back("ran on another host or device: " + phrase(where, 2));
    for (const auto* side : {&a, &b})
        if (!JsonFields::member(side->report, "provenance").is_object())
            why.push_back(side->label
                + " records no provenance (stored before it was recorded): its inputs, torch and "
                  "machine cannot be compared");
    if (why.empty() && !diff.m_equivalent)
        why.push_back("no recorded cause: the same script, inputs, options, torch, machine and host gave different "
                      "artifacts "
                      "(nondeterminism in the backend or the script)");
}

}  // namespace ps::compare
