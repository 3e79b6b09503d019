#pragma once

#include "graph/LayoutCache.h"

#include <string>

namespace ps::library {

/// The graph view's layout cache kept in an artifact library (ArtifactLibrary::layout and
/// storeLayout). Each call opens the library on its own connection, so layout threads may call
/// it at once; a library that cannot be opened (missing, damaged, newer) just caches nothing.
class LibraryLayoutCache : public graph::LayoutCache {
public:
    explicit LibraryLayoutCache(std::string libraryPath);

    std::optional<std::string> load(const std::string& key) override;
    void store(const std::string& key, const std::string& bytes) override;

    const std::string& libraryPath() const { return m_path; }

private:
    std::string m_path;
};

}  // namespace ps::library
