#pragma once

namespace ps::library {

class PostgresConnection;

/// BEGIN in the constructor, ROLLBACK in the destructor unless commit() ran. A Read
/// transaction is one REPEATABLE READ READ ONLY snapshot: every query in it sees the same
/// committed runs, and it never blocks a writer.
class PostgresTransaction {
public:
    enum class Mode { Write, Read };
    explicit PostgresTransaction(PostgresConnection& db, Mode mode = Mode::Write);
    ~PostgresTransaction();
    PostgresTransaction(const PostgresTransaction&) = delete;
    PostgresTransaction& operator=(const PostgresTransaction&) = delete;

    void commit();

private:
    PostgresConnection& db_;
    bool open_ = true;
};

}  // namespace ps::library
