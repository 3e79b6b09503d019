#pragma once

#include <string>

namespace ps::library {

/// The checks ArtifactLibrary makes on a library file before SQLite touches it, so that nothing
/// (not even a -wal beside it) is made for a file that will be refused, and the refusal says
/// what is wrong in plain words: not a regular file, not SQLite, truncated, read-only.
class SqlitePreflight {
public:
    /// Throws LibraryError when the file at `path` cannot be opened as asked. A missing file is
    /// CannotOpen unless `create`, then its folder is made. Unless `readOnly`, a file, folder or
    /// file system that cannot be written is ReadOnly.
    static void check(const std::string& path, bool create, bool readOnly);
    /// Whether a non-empty -wal lies beside `path`: writes not yet in the file itself.
    static bool walPending(const std::string& path);
};

}  // namespace ps::library
