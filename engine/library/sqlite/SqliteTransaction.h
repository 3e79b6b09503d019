#pragma once

namespace ps::library {

class SqliteConnection;

/// BEGIN ... COMMIT, rolled back when destroyed uncommitted.
///
/// Write transactions are IMMEDIATE: they take the write lock up front, so any waiting happens
/// in the busy handler at BEGIN and a transaction never fails half way for want of a lock.
/// Keep them short: other processes wait on them. Read transactions (deferred) give several
/// queries one snapshot without blocking writers (WAL).
class SqliteTransaction {
public:
    enum class Mode { Write, Read };

    explicit SqliteTransaction(SqliteConnection& connection, Mode mode = Mode::Write);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;

    void commit();

private:
    SqliteConnection& connection_;
    bool open_ = true;
};

}  // namespace ps::library
