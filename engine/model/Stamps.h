#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// What an artifact depends on (the report's `stamps`, a check's `check.target`): read where it
/// was made or where it was loaded. A load elsewhere compiles its kernels again, or is refused,
/// where one of these differs (docs/design/deploy.md). Never throws.
struct Stamps {
    std::string arch;    ///< x86_64, aarch64
    std::string python;  ///< 3.11.7
    std::string torch;   ///< 2.15.0+cu132
    std::string torchGit;
    std::string cuda;               ///< torch's CUDA version; "" a CPU build
    std::string triton;             ///< "" none installed
    std::string cpuIsa;             ///< the instruction set Inductor builds C++ kernels for; "" not read
    std::vector<std::string> gpus;  ///< compute capabilities seen ("9.0"); empty: no GPU
    std::string precompileApi;      ///< precompile-call (2.14), capture-load (2.15); "" unknown

    /// nullopt when `j` is not an object with a torch version (a report from before stamps).
    static std::optional<Stamps> fromJson(const nlohmann::json& j);
    /// "torch 2.15.0+cu132 · Python 3.11.7 · Triton 3.9.0 · avx2 · x86_64 CPU" (unknown parts left out).
    std::string summary() const;
    /// [(label, value)] in the order a person reads them, each value in words ("-" unknown).
    std::vector<std::pair<std::string, std::string>> rows() const;
};

}  // namespace ps::model
