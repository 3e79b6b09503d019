#pragma once

#include <cstddef>
#include <string>

namespace ps::remote {

/// What the relay and the front end agree on besides the messages (docs/design/
/// remote-runs.md): the relay's private folder holds script/NAME (the script's text as sent),
/// pair/ (`library check`'s python_code and cache as sent) and out/ (the worker's capture-N.py
/// and capture-N.cache); artifact files travel back in chunks.
class RemoteLayout {
public:
    static std::string scriptPath(const std::string& folder, const std::string& name)
    {
        return folder + "/script/" + name;
    }
    static std::string outDir(const std::string& folder) { return folder + "/out"; }
    /// `library check`'s pair as the relay keeps it: part "python_code" or "cache".
    static std::string pairPath(const std::string& folder, const std::string& part)
    {
        return folder + (part == "cache" ? "/pair/artifact.cache" : "/pair/artifact.py");
    }
    /// An artifact file's name: capture-N.py or capture-N.cache, nothing else crosses.
    static bool isArtifactName(const std::string& name);
    /// A script's file name as it goes to the host: its base name when that is a plain name,
    /// else "script.py".
    static std::string scriptName(const std::string& localPath);
    static constexpr std::size_t kChunkBytes = 4u << 20;
};

}  // namespace ps::remote
