#include "library/sqlite/SqliteStatement.h"

#include <sqlite3.h>

#include "library/sqlite/SqliteConnection.h"

namespace ps::library {

SqliteStatement::SqliteStatement(SqliteConnection& connection, std::string_view sql) : connection_(&connection)
{
    const int rc = sqlite3_prepare_v2(connection.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
    if (rc != SQLITE_OK)
        connection.fail(rc, "preparing " + std::string(sql.substr(0, 60)));
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(stmt_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept : connection_(other.connection_), stmt_(other.stmt_)
{
    other.stmt_ = nullptr;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value)
{
    const int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK)
        connection_->fail(rc, "binding a parameter");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text)
{
    // Copied: text is small, and a caller may bind a temporary.
    const int rc = sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK)
        connection_->fail(rc, "binding a parameter");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::optional<std::string>& text)
{
    return text ? bind(index, std::string_view(*text)) : bindNull(index);
}

SqliteStatement& SqliteStatement::bind(int index, std::optional<std::int64_t> value)
{
    return value ? bind(index, *value) : bindNull(index);
}

SqliteStatement& SqliteStatement::bindBlob(int index, std::string_view bytes)
{
    // A zero-length blob must still be a blob, not NULL: data() may be null for empty views.
    static const char kEmpty = 0;
    const int rc
        = sqlite3_bind_blob64(stmt_, index, bytes.empty() ? &kEmpty : bytes.data(), bytes.size(), SQLITE_STATIC);
    if (rc != SQLITE_OK)
        connection_->fail(rc, "binding a blob");
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index)
{
    const int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK)
        connection_->fail(rc, "binding a parameter");
    return *this;
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    const char* sql = sqlite3_sql(stmt_);
    connection_->fail(rc, "running " + std::string(sql ? sql : "").substr(0, 60));
}

void SqliteStatement::run()
{
    while (step()) {
    }
}

void SqliteStatement::reset()
{
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::integer(int column) const
{
    return sqlite3_column_int64(stmt_, column);
}

std::string SqliteStatement::text(int column) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}

std::string_view SqliteStatement::textView(int column) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string_view();
}

std::optional<std::string> SqliteStatement::optionalText(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return text(column);
}

std::optional<std::int64_t> SqliteStatement::optionalInteger(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return integer(column);
}

std::string_view SqliteStatement::blob(int column) const
{
    const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
    const int n = sqlite3_column_bytes(stmt_, column);
    return p ? std::string_view(p, static_cast<std::size_t>(n)) : std::string_view();
}

}  // namespace ps::library
