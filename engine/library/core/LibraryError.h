#pragma once

#include <stdexcept>
#include <string>

namespace ps::library {

/// The one error type of the artifact library. what() always starts with the file it is about
/// (the library file or database, or the file being imported), so a message can be shown as it
/// is.
class LibraryError : public std::runtime_error {
public:
    enum class Kind {
        NotSqlite,    ///< the file is not an SQLite database
        NotLibrary,   ///< an SQLite database, but not a Precompile Studio library
        Corrupt,      ///< SQLite reports the file damaged or truncated
        NewerSchema,  ///< written by a newer studio: user_version above ours
        ReadOnly,     ///< the file (or its folder) cannot be written, or the role may only read
        DiskFull,     ///< the file system holding the library has no space left
        Busy,         ///< another program held the library past the busy timeout
        CannotOpen,   ///< missing file (when not creating) or an unopenable path
        Damaged,      ///< a blob no longer matches its sha256 (or is missing)
        NotFound,     ///< no such run
        Mismatch,     ///< an import refused: the pair does not belong together
        Invalid,      ///< bad input from the caller (a malformed report, ...)
        Io,           ///< reading or writing an export/import file failed
        Sqlite,       ///< any other SQLite failure
        Unreachable,  ///< the database server cannot be reached (down, refused, network)
        Server,       ///< any other failure the database server reports
    };

    LibraryError(Kind kind, std::string file, const std::string& message);

    Kind kind() const noexcept { return kind_; }
    const std::string& file() const noexcept { return file_; }

    static const char* kindName(Kind kind) noexcept;

private:
    Kind kind_;
    std::string file_;
};

}  // namespace ps::library
