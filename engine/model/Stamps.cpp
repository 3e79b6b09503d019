#include "model/Stamps.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

namespace ps::model {

namespace {

std::string gpuWords(const std::vector<std::string>& gpus)
{
    std::string out;
    for (const auto& g : gpus)
        out += (out.empty() ? "sm " : ", sm ") + g;
    return out;
}

}  // namespace

std::optional<Stamps> Stamps::fromJson(const nlohmann::json& j)
{
    if (!j.is_object() || JsonFields::text(j, "torch").empty())
        return std::nullopt;
    Stamps s;
    s.arch = JsonFields::text(j, "arch");
    s.python = JsonFields::text(j, "python");
    s.torch = JsonFields::text(j, "torch");
    s.torchGit = JsonFields::text(j, "torch_git");
    s.cuda = JsonFields::text(j, "cuda");
    s.triton = JsonFields::text(j, "triton");
    s.cpuIsa = JsonFields::text(j, "cpu_isa");
    s.precompileApi = JsonFields::text(j, "precompile_api");
    if (const auto& gpus = JsonFields::member(j, "gpus"); gpus.is_array())
        for (const auto& g : gpus)
            if (g.is_string())
                s.gpus.push_back(g.get<std::string>());
    return s;
}

std::string Stamps::summary() const
{
    std::string out = "torch " + torch;
    if (!python.empty())
        out += " · Python " + python;
    if (!triton.empty())
        out += " · Triton " + triton;
    if (!cpuIsa.empty())
        out += " · " + cpuIsa;
    out += " · " + (gpus.empty() ? (arch.empty() ? std::string("CPU") : arch + " CPU") : gpuWords(gpus));
    return out;
}

std::vector<std::pair<std::string, std::string>> Stamps::rows() const
{
    const auto shown = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
    return {{"machine", shown(arch)}, {"Python", shown(python)}, {"torch", shown(torch)},
        {"CUDA (torch's build)", cuda.empty() ? "none (a CPU build)" : cuda}, {"Triton", shown(triton)},
        {"CPU instruction set", cpuIsa.empty() ? "- (not read: no Inductor kernel)" : cpuIsa},
        {"GPU architectures", gpus.empty() ? "none" : gpuWords(gpus)}, {"precompile API", shown(precompileApi)}};
}

}  // namespace ps::model
