#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// What `library repro` made of a capture's drift (the report's `repro`): the smallest cut of the
/// captured graph that still reproduces it, written as repro.py + inputs.pt and confirmed in a
/// fresh Python process, or why none was written. Never throws.
struct Repro {
    struct Output {
        std::string name;
        std::string dtype;
        std::int64_t elements = 0;
        std::optional<double> compiledError;  ///< nullopt: not finite
        std::optional<double> eagerError;
        std::optional<double> band;
        bool outside = false;  ///< the compiled error is outside eager's band
    };
    bool written = false;  ///< status "written"; false: "none"
    std::string capture;
    std::string reason;
    std::string start;               ///< the node the cut starts from
    std::vector<std::string> files;  ///< repro.py, inputs.pt
    std::vector<std::string> ops;    ///< the cut's ops, in graph order
    std::int64_t graphOps = 0;
    std::int64_t grownOps = 0;  ///< the cut that first reproduced, before the shrink
    std::int64_t elements = 0;  ///< the inputs' elements kept
    std::int64_t steps = 0;     ///< cuts tried
    std::optional<double> shrinkS;
    std::vector<Output> outputs;
    std::optional<int> freshExit;  ///< `python repro.py` in a fresh process: its exit
    std::optional<double> freshS;
    std::string freshOutput;

    /// The report's repro; nullopt when it is absent or has no status the studio knows.
    static std::optional<Repro> fromJson(const nlohmann::json& j);
};

}  // namespace ps::model
