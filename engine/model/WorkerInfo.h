#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// Where a run ran and what that worker had: the report's `worker` object, written by the front
/// end (RunClient) from the transport and the worker's hello, before any script ran.
struct WorkerInfo {
    struct Device {
        int index = 0;
        std::string name;
        std::optional<std::int64_t> memoryBytes;
        std::string capability;  ///< "9.0"; "" unknown
    };
    std::optional<std::string> host;  ///< the ssh destination's host; nullopt: this computer
    std::string hostname;             ///< the machine's own name for itself
    std::string studio;               ///< the studio's version there
    int protocol = 0;
    std::string python;
    std::string torch;
    std::string cuda;  ///< torch's CUDA version; "" a CPU build
    /// "precompile-call" (torch 2.14's precompile(fn, *inputs)) or "capture-load" (2.15's
    /// capture/load); "" where not recorded.
    std::string precompileApi;
    std::vector<Device> devices;

    /// nullopt when `j` is not an object (a report from before the field existed).
    static std::optional<WorkerInfo> fromJson(const nlohmann::json& j);
    bool remote() const { return host.has_value(); }
    /// "this computer" or the host's name.
    std::string place() const;
    /// "1x NVIDIA H200", "2x A100-SXM4-80GB, 1x T4", or "CPU".
    std::string deviceSummary() const;
    /// "gpu-box · torch 2.14.1+cu130 · 1x NVIDIA H200" (the status bar's words).
    std::string summary() const;
    /// Where it ran, in words that mean the same to everyone who reads a shared library:
    /// "gpu-box · 1x NVIDIA H200", "ci-runner-3 · CPU" (the machine's own name for a local run).
    std::string where() const;
    /// The host it ran on, else the machine's own name, else "unknown host".
    std::string machine() const;
};

}  // namespace ps::model
