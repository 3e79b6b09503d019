#include "library/postgres/PostgresTransaction.h"

#include <exception>

#include "library/postgres/PostgresConnection.h"

namespace ps::library {

PostgresTransaction::PostgresTransaction(PostgresConnection& db, Mode mode) : db_(db)
{
    db_.run(mode == Mode::Read ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
}

PostgresTransaction::~PostgresTransaction()
{
    if (!open_)
        return;
    try {
        db_.run("ROLLBACK");
    } catch (const std::exception&) {
        // The connection is gone: the server rolled back already.
    }
}

void PostgresTransaction::commit()
{
    db_.run("COMMIT");
    open_ = false;
}

}  // namespace ps::library
