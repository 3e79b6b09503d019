#include "library/sqlite/SqliteTransaction.h"

#include "library/sqlite/SqliteConnection.h"

namespace ps::library {

SqliteTransaction::SqliteTransaction(SqliteConnection& connection, Mode mode) : connection_(connection)
{
    connection_.exec(mode == Mode::Write ? "BEGIN IMMEDIATE" : "BEGIN");
}

SqliteTransaction::~SqliteTransaction()
{
    if (!open_)
        return;
    try {
        connection_.exec("ROLLBACK");
    } catch (...) {
        // SQLite already rolled back (an I/O error or a full disk ends the transaction).
    }
}

void SqliteTransaction::commit()
{
    connection_.exec("COMMIT");
    open_ = false;
}

}  // namespace ps::library
