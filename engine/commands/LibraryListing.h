#pragma once

#include <string>

namespace ps::commands {

struct LibraryOptions;

/// `library ls` and `library show`: the runs of a library as a table (or `--json`), and one run
/// whole: where and with what it ran, who stored it, where its pair was checked (the latest
/// check at each target), its captures and their blobs (each checked; a damaged one is named
/// and exits 1). Both open the library read-only.
class LibraryListing {
public:
    static int list(const std::string& libraryPath, const LibraryOptions& options);
    static int show(const std::string& libraryPath, const LibraryOptions& options);
};

}  // namespace ps::commands
