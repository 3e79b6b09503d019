#include "library/LibraryLayoutCache.h"

#include "library/ArtifactLibrary.h"
#include "library/LibraryError.h"

#include <stdexcept>

namespace ps::library {

LibraryLayoutCache::LibraryLayoutCache(std::string libraryPath) : m_path(std::move(libraryPath)) {}

std::optional<std::string> LibraryLayoutCache::load(const std::string& key)
{
    try {
        ArtifactLibrary library(m_path, ArtifactLibrary::OpenOptions{.create = false});
        return library.layout(key);
    } catch (const LibraryError&) {
        return std::nullopt;
    }
}

void LibraryLayoutCache::store(const std::string& key, const std::string& bytes)
{
    try {
        ArtifactLibrary library(m_path, ArtifactLibrary::OpenOptions{.create = false});
        library.storeLayout(key, bytes);
    } catch (const LibraryError&) {
        // a layout that cannot be kept is laid out again next time
    } catch (const std::runtime_error&) {
    }
}

}  // namespace ps::library
