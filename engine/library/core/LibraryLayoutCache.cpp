#include "library/core/LibraryLayoutCache.h"

#include "library/core/ArtifactLibrary.h"

#include <exception>

namespace ps::library {

LibraryLayoutCache::LibraryLayoutCache(std::string libraryPath) : m_path(std::move(libraryPath))
{ }

std::optional<std::string> LibraryLayoutCache::load(const std::string& key)
{
    try {
        ArtifactLibrary library(m_path, ArtifactLibrary::OpenOptions{.create = false});
        return library.layout(key);
    } catch (const std::exception&) {  // missing, damaged, newer, out of memory: no layout
        return std::nullopt;
    }
}

void LibraryLayoutCache::store(const std::string& key, const std::string& bytes)
{
    try {
        ArtifactLibrary library(m_path, ArtifactLibrary::OpenOptions{.create = false});
        library.storeLayout(key, bytes);
    } catch (const std::exception&) {
        // a layout that cannot be kept is laid out again next time
    }
}

}  // namespace ps::library
