#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace ps::library {

/// `library export --with-loader`: load_NAME.py beside NAME.py and NAME.cache, a small script
/// that needs only torch. Run, it compares this machine's stamps (torch, Python, Triton, the CPU
/// instruction set Inductor builds for, the GPUs) with those the pair was made with and says in
/// one line what does not match, then loads the pair with this torch's own precompile API and
/// says whether it loaded (exit 0 it loads and every stamp matches, 1 it loads but a stamp
/// differs, 2 it does not load). Imported, its load() returns the loaded artifact.
class LoaderScript {
public:
    /// The script for the pair NAME (the file stem of NAME.py) made with `stamps` (the report's
    /// stamps; null: unknown, then only the torch series from `torchVersion` is checked).
    static std::string text(const std::string& name, const nlohmann::json& stamps, const std::string& torchVersion);
    /// "load_" + name + ".py".
    static std::string fileName(const std::string& name);
};

}  // namespace ps::library
