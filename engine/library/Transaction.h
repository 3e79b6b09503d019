#pragma once

namespace ps::library {

class Connection;

/// BEGIN ... COMMIT, rolled back when destroyed uncommitted.
///
/// Write transactions are IMMEDIATE: they take the write lock up front, so any waiting happens
/// in the busy handler at BEGIN and a transaction never fails half way for want of a lock.
/// Keep them short: other processes wait on them. Read transactions (deferred) give several
/// queries one snapshot without blocking writers (WAL).
class Transaction {
public:
    enum class Mode { Write, Read };

    explicit Transaction(Connection& connection, Mode mode = Mode::Write);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    void commit();

private:
    Connection& connection_;
    bool open_ = true;
};

}  // namespace ps::library
