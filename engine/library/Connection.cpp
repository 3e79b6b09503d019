#include "library/Connection.h"

#include <sqlite3.h>

#include "library/LibraryError.h"
#include "library/Statement.h"

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

}  // namespace

Connection::Connection(const std::string& path, bool create) : path_(path)
{
    const int flags
        = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw LibraryError(kindOf(rc), path_, "cannot open the library: " + why);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

Connection::~Connection()
{
    sqlite3_close_v2(db_);
}

void Connection::exec(std::string_view sql)
{
    const std::string text(sql);
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        sqlite3_free(error);
        fail(rc, "running " + text.substr(0, 60));
    }
}

Statement Connection::prepare(std::string_view sql)
{
    return Statement(*this, sql);
}

std::int64_t Connection::queryInt(std::string_view sql)
{
    Statement st(*this, sql);
    return st.step() ? st.integer(0) : 0;
}

std::string Connection::queryText(std::string_view sql)
{
    Statement st(*this, sql);
    return st.step() ? st.text(0) : std::string();
}

std::int64_t Connection::lastInsertRowid() const
{
    return sqlite3_last_insert_rowid(db_);
}

std::int64_t Connection::changes() const
{
    return sqlite3_changes64(db_);
}

bool Connection::readOnly() const
{
    return sqlite3_db_readonly(db_, "main") == 1;
}

void Connection::fail(int rc, std::string_view doing) const
{
    const auto kind = kindOf(rc);
    std::string message;
    switch (kind) {
    case LibraryError::Kind::Busy:
        message = "the library is busy: another program held it for more than " + std::to_string(kBusyTimeoutMs / 1000)
            + " s";
        break;
    case LibraryError::Kind::NotSqlite:
        message = "not an SQLite database";
        break;
    case LibraryError::Kind::Corrupt:
        message = "the library file is damaged or truncated";
        break;
    case LibraryError::Kind::ReadOnly:
        message = "the library cannot be written";
        break;
    default:
        message = "SQLite error";
        break;
    }
    message += " (" + std::string(doing) + ": " + sqlite3_errmsg(db_) + ")";
    throw LibraryError(kind, path_, message);
}

}  // namespace ps::library
