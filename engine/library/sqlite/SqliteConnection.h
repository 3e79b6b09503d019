#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;

namespace ps::library {

class SqliteStatement;

/// One sqlite3 connection, closed on destruction. Every failure becomes a LibraryError naming
/// the file. Thread contract: a SqliteConnection (and its Statements) is used from one thread at a
/// time; other threads and processes open their own.
class SqliteConnection {
public:
    enum class Access {
        ReadWrite,
        ReadOnly,   ///< SQLite's read-only open: takes the usual locks, never writes the file
        Immutable,  ///< ?immutable=1: no locks, no -shm; only for a file nothing can write now
    };

    /// Opens `path` (read-write by default); creates it when `create` (otherwise a missing file
    /// is CannotOpen). Sets the busy timeout and nothing else: the caller decides what to write.
    SqliteConnection(const std::string& path, bool create, Access access = Access::ReadWrite);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    const std::string& path() const noexcept { return path_; }
    sqlite3* handle() const noexcept { return db_; }

    void exec(std::string_view sql);
    SqliteStatement prepare(std::string_view sql);
    /// The integer of a one-row, one-column query such as "PRAGMA user_version".
    std::int64_t queryInt(std::string_view sql);
    std::string queryText(std::string_view sql);

    std::int64_t lastInsertRowid() const;
    std::int64_t changes() const;
    bool readOnly() const;

    /// Throws the LibraryError for SQLite result code `rc`, with `doing` as context.
    [[noreturn]] void fail(int rc, std::string_view doing) const;

    static constexpr int kBusyTimeoutMs = 10'000;

private:
    std::string path_;
    sqlite3* db_ = nullptr;
};

}  // namespace ps::library
