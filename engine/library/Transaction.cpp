#include "library/Transaction.h"

#include "library/Connection.h"

namespace ps::library {

Transaction::Transaction(Connection& connection, Mode mode) : connection_(connection)
{
    connection_.exec(mode == Mode::Write ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction()
{
    if (!open_)
        return;
    try {
        connection_.exec("ROLLBACK");
    } catch (...) {
        // SQLite already rolled back (an I/O error or a full disk ends the transaction).
    }
}

void Transaction::commit()
{
    connection_.exec("COMMIT");
    open_ = false;
}

}  // namespace ps::library
