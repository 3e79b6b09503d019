#include "library/PgTransaction.h"

#include <exception>

#include "library/PgConnection.h"

namespace ps::library {

PgTransaction::PgTransaction(PgConnection& db, Mode mode) : db_(db)
{
    db_.run(mode == Mode::Read ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
}

PgTransaction::~PgTransaction()
{
    if (!open_)
        return;
    try {
        db_.run("ROLLBACK");
    } catch (const std::exception&) {
        // The connection is gone: the server rolled back already.
    }
}

void PgTransaction::commit()
{
    db_.run("COMMIT");
    open_ = false;
}

}  // namespace ps::library
