#include "library/sqlite/SqlitePreflight.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>

#include "library/core/LibraryError.h"

namespace ps::library {

namespace fs = std::filesystem;
using Kind = LibraryError::Kind;

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

std::uint32_t bigEndian(const unsigned char* p, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

/// Whether SQLite may write the library's folder (its -wal and -shm live there), with why not.
std::optional<std::string> folderNotWritable(const std::string& path)
{
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    if (::access(folder.c_str(), W_OK | X_OK) == 0)
        return std::nullopt;
    return errno == EROFS ? "the library is on a read-only file system; left untouched"
                          : "the library is read-only: its folder " + folder
            + " cannot be written (SQLite keeps the library's -wal and -shm there); left untouched";
}

}  // namespace

bool SqlitePreflight::walPending(const std::string& path)
{
    struct stat wal { };
    return ::stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0;
}

void SqlitePreflight::check(const std::string& path, bool create, bool readOnly)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            throw LibraryError(Kind::CannotOpen, path, std::string("cannot be read: ") + std::strerror(errno));
        if (!create)
            throw LibraryError(Kind::CannotOpen, path, "no library file there");
        const fs::path parent = fs::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty())
            fs::create_directories(parent, ec);
        if (ec)
            throw LibraryError(Kind::CannotOpen, path, "cannot create its folder: " + ec.message());
        return;
    }
    if (!S_ISREG(st.st_mode))
        throw LibraryError(Kind::CannotOpen, path, "not a regular file");
    // The permission bits, not only access(): root may write anything, but a file made
    // read-only says the user wants it left alone.
    if (!readOnly) {
        if (::access(path.c_str(), W_OK) != 0 && errno == EROFS)
            throw LibraryError(Kind::ReadOnly, path, "the library is on a read-only file system; left untouched");
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path.c_str(), W_OK) != 0)
            throw LibraryError(Kind::ReadOnly, path, "the library file is read-only; left untouched");
        if (auto why = folderNotWritable(path))
            throw LibraryError(Kind::ReadOnly, path, *why);
    }
    if (st.st_size == 0)
        return;  // an empty file is an empty database

    std::array<unsigned char, 100> header{};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw LibraryError(Kind::CannotOpen, path, std::string("cannot be read: ") + std::strerror(errno));
    const ssize_t n = ::pread(fd, header.data(), header.size(), 0);
    ::close(fd);
    if (n < 16 || std::memcmp(header.data(), kSqliteMagic.data(), 16) != 0) {
        const bool startsLikeSqlite
            = n > 0 && n < 16 && std::memcmp(header.data(), kSqliteMagic.data(), static_cast<std::size_t>(n)) == 0;
        if (!startsLikeSqlite)
            throw LibraryError(Kind::NotSqlite, path, "not an SQLite database; left untouched");
    }
    if (n < static_cast<ssize_t>(header.size()))
        throw LibraryError(Kind::Corrupt, path,
            "truncated: " + std::to_string(st.st_size) + " bytes, less than an SQLite header; left untouched");
    // Bytes 28..31 count the pages, valid when the change counter (24) equals 92..95. With a
    // WAL beside the file, the pages may still be in the WAL: let SQLite judge then.
    std::uint32_t pageSize = bigEndian(&header[16], 2);
    if (pageSize == 1)
        pageSize = 65536;
    const std::uint32_t pages = bigEndian(&header[28], 4);
    const bool countValid = bigEndian(&header[24], 4) == bigEndian(&header[92], 4);
    if (countValid && !walPending(path) && pages > 0
        && static_cast<std::uint64_t>(st.st_size) < static_cast<std::uint64_t>(pages) * pageSize)
        throw LibraryError(Kind::Corrupt, path,
            "truncated: " + std::to_string(st.st_size) + " bytes, its header says "
                + std::to_string(static_cast<std::uint64_t>(pages) * pageSize) + "; left untouched");
}

}  // namespace ps::library
