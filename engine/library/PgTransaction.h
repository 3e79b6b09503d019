#pragma once

namespace ps::library {

class PgConnection;

/// BEGIN in the constructor, ROLLBACK in the destructor unless commit() ran. A Read
/// transaction is one REPEATABLE READ READ ONLY snapshot: every query in it sees the same
/// committed runs, and it never blocks a writer.
class PgTransaction {
public:
    enum class Mode { Write, Read };
    explicit PgTransaction(PgConnection& db, Mode mode = Mode::Write);
    ~PgTransaction();
    PgTransaction(const PgTransaction&) = delete;
    PgTransaction& operator=(const PgTransaction&) = delete;

    void commit();

private:
    PgConnection& db_;
    bool open_ = true;
};

}  // namespace ps::library
