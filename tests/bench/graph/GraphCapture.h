#pragma once

// The bench's real graphs: a script of this folder run through `precompile-studio run` (the
// worker, eager backend, nothing stored), its first capture's graph kept. Capturing takes
// minutes on a small machine; a cache folder, when given, keeps each capture beside the hash
// of its script's text and hands it back while the script is unchanged.

#include <nlohmann/json.hpp>

#include <QString>

#include <optional>
#include <string>

namespace ps::bench {

struct BenchGraph {
    std::string label;  ///< "1k", "gpt", ...
    nlohmann::json graph;
    nlohmann::json lowering;
};

class GraphCapture {
public:
    /// Captures `script` (a path) as `label`; nullopt with the reason in `why` when the worker
    /// cannot run it. `cacheDir` empty: no cache.
    static std::optional<BenchGraph> capture(
        const std::string& label, const QString& script, const QString& cacheDir, std::string* why);
};

}  // namespace ps::bench
