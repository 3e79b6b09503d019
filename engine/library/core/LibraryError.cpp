#include "library/core/LibraryError.h"

namespace ps::library {

LibraryError::LibraryError(Kind kind, std::string file, const std::string& message)
    : std::runtime_error(file.empty() ? message : file + ": " + message), kind_(kind), file_(std::move(file))
{ }

const char* LibraryError::kindName(Kind kind) noexcept
{
    switch (kind) {
    case Kind::NotSqlite:
        return "not_sqlite";
    case Kind::NotLibrary:
        return "not_library";
    case Kind::Corrupt:
        return "corrupt";
    case Kind::NewerSchema:
        return "newer_schema";
    case Kind::ReadOnly:
        return "read_only";
    case Kind::DiskFull:
        return "disk_full";
    case Kind::Busy:
        return "busy";
    case Kind::CannotOpen:
        return "cannot_open";
    case Kind::Damaged:
        return "damaged";
    case Kind::NotFound:
        return "not_found";
    case Kind::Mismatch:
        return "mismatch";
    case Kind::Invalid:
        return "invalid";
    case Kind::Io:
        return "io";
    case Kind::Sqlite:
        return "sqlite";
    case Kind::Unreachable:
        return "unreachable";
    case Kind::Server:
        return "server";
    }
    return "unknown";
}

}  // namespace ps::library
