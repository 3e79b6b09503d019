#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace ps::library {

class SqliteConnection;

/// A prepared statement. Bound text is copied; bound blobs are not (they may be hundreds of
/// MB) and must outlive step().
/// Parameters and columns count from 1 and 0 respectively, as in SQLite.
class SqliteStatement {
public:
    SqliteStatement(SqliteConnection& connection, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) = delete;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind(int index, const std::optional<std::string>& text);
    SqliteStatement& bind(int index, std::optional<std::int64_t> value);
    SqliteStatement& bindBlob(int index, std::string_view bytes);
    SqliteStatement& bindNull(int index);

    /// Advances; true while a row is available.
    bool step();
    /// Steps a statement that returns no rows.
    void run();
    void reset();

    bool isNull(int column) const;
    std::int64_t integer(int column) const;
    std::string text(int column) const;
    /// The column as text, valid until the next step/reset: no copy.
    std::string_view textView(int column) const;
    std::optional<std::string> optionalText(int column) const;
    std::optional<std::int64_t> optionalInteger(int column) const;
    /// The column's bytes, valid until the next step/reset.
    std::string_view blob(int column) const;

private:
    SqliteConnection* connection_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace ps::library
