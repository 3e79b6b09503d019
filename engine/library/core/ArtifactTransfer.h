#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ps::library {

class LibraryStore;

/// Moves artifacts between the library and NAME.py / NAME.cache / NAME.json files
/// (ArtifactLibrary::exportRun and importArtifact), through ArtifactFiles, the one reader and
/// writer of that format, over any store. Thread contract: that of its store.
class ArtifactTransfer {
public:
    explicit ArtifactTransfer(LibraryStore& store) : store_(store) { }

    /// Writes the files of every capture of the run that has an artifact; checks every blob
    /// before writing any file. Returns the paths written.
    std::vector<std::string> exportRun(std::int64_t runId, const std::string& dir) const;
    /// Imports NAME.py with its NAME.cache and NAME.json as a new, untrusted run; returns its id.
    std::int64_t importArtifact(const std::string& pythonCodePath);

private:
    LibraryStore& store_;
};

}  // namespace ps::library
