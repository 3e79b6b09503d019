#pragma once

#include <cstdint>
#include <string>

namespace ps::model {

/// Hashes and sizes of the (python_code, cache) pair precompile returned.
struct ArtifactInfo {
    std::string pythonCodeSha256;
    std::int64_t pythonCodeBytes = 0;
    std::string cacheSha256;
    std::int64_t cacheBytes = 0;
};

}  // namespace ps::model
