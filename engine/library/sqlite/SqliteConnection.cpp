#include "library/sqlite/SqliteConnection.h"

#include <sqlite3.h>

#include <cerrno>
#include <filesystem>

#include "library/core/LibraryError.h"
#include "library/sqlite/SqliteStatement.h"

namespace ps::library {

namespace {

LibraryError::Kind kindOf(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return LibraryError::Kind::Busy;
    case SQLITE_NOTADB:
        return LibraryError::Kind::NotSqlite;
    case SQLITE_CORRUPT:
        return LibraryError::Kind::Corrupt;
    case SQLITE_READONLY:
    case SQLITE_PERM:
        return LibraryError::Kind::ReadOnly;
    case SQLITE_CANTOPEN:
        return LibraryError::Kind::CannotOpen;
    default:
        return LibraryError::Kind::Sqlite;
    }
}

/// What the operating system said, where it says more than SQLite's code: a full disk and a
/// read-only file system reach SQLite as a plain I/O error (e.g. when the -shm cannot grow).
LibraryError::Kind kindOf(int rc, int systemErrno)
{
    const int primary = rc & 0xff;
    if (primary == SQLITE_FULL)
        return LibraryError::Kind::DiskFull;
    if (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN) {
        if (systemErrno == ENOSPC || systemErrno == EDQUOT)
            return LibraryError::Kind::DiskFull;
        if (systemErrno == EROFS || systemErrno == EACCES || systemErrno == EPERM)
            return LibraryError::Kind::ReadOnly;
    }
    return kindOf(rc);
}

/// A plain-words message for the kinds a user can act on; the rest keep SQLite's detail.
std::string messageFor(LibraryError::Kind kind, int rc, std::string_view doing, const char* sqliteMessage)
{
    switch (kind) {
    case LibraryError::Kind::DiskFull:
        return "the disk holding the library is full; free some space and try again";
    case LibraryError::Kind::ReadOnly:
        return rc == SQLITE_READONLY_DIRECTORY
            ? "the library is read-only: its folder cannot be written (SQLite keeps its -wal and -shm there)"
            : "the library is read-only: its file or folder cannot be written";
    case LibraryError::Kind::Busy:
        return "the library is busy: another program held it for more than "
            + std::to_string(SqliteConnection::kBusyTimeoutMs / 1000) + " s";
    case LibraryError::Kind::NotSqlite:
        return "not an SQLite database";
    case LibraryError::Kind::Corrupt:
        return "the library file is damaged or truncated (" + std::string(doing) + ": " + sqliteMessage + ")";
    default:
        return "SQLite error (" + std::string(doing) + ": " + sqliteMessage + ")";
    }
}

/// `path` as an SQLite URI with ?immutable=1: absolute, with the characters URIs reserve escaped.
std::string immutableUri(const std::string& path)
{
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(path, ec).string();
    std::string uri = "file://";
    for (const unsigned char c : ec ? path : absolute) {
        if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
            static constexpr char kHex[] = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 0xf];
        } else {
            uri += static_cast<char>(c);
        }
    }
    return uri + "?immutable=1";
}

}  // namespace

SqliteConnection::SqliteConnection(const std::string& path, bool create, Access access) : path_(path)
{
    int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    std::string name = path;
    switch (access) {
    case Access::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
        break;
    case Access::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Access::Immutable:
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        name = immutableUri(path);
        break;
    }
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const int systemErrno = db_ ? sqlite3_system_errno(db_) : 0;
        const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        const auto kind = kindOf(rc, systemErrno);
        throw LibraryError(kind, path_,
            kind == LibraryError::Kind::DiskFull || kind == LibraryError::Kind::ReadOnly
                ? messageFor(kind, rc, "", "")
                : "cannot open the library: " + why);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

SqliteConnection::~SqliteConnection()
{
    sqlite3_close_v2(db_);
}

void SqliteConnection::exec(std::string_view sql)
{
    const std::string text(sql);
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        sqlite3_free(error);
        fail(rc, "running " + text.substr(0, 60));
    }
}

SqliteStatement SqliteConnection::prepare(std::string_view sql)
{
    return SqliteStatement(*this, sql);
}

std::int64_t SqliteConnection::queryInt(std::string_view sql)
{
    SqliteStatement st(*this, sql);
    return st.step() ? st.integer(0) : 0;
}

std::string SqliteConnection::queryText(std::string_view sql)
{
    SqliteStatement st(*this, sql);
    return st.step() ? st.text(0) : std::string();
}

std::int64_t SqliteConnection::lastInsertRowid() const
{
    return sqlite3_last_insert_rowid(db_);
}

std::int64_t SqliteConnection::changes() const
{
    return sqlite3_changes64(db_);
}

bool SqliteConnection::readOnly() const
{
    return sqlite3_db_readonly(db_, "main") == 1;
}

void SqliteConnection::fail(int rc, std::string_view doing) const
{
    const auto kind = kindOf(rc, sqlite3_system_errno(db_));
    throw LibraryError(kind, path_, messageFor(kind, rc, doing, sqlite3_errmsg(db_)));
}

}  // namespace ps::library
