#pragma once

#include <cstdint>
#include <string_view>

#include "library/sqlite/SqliteStatement.h"

namespace ps::library {

/// A statement's current row as RunColumns and CheckColumns read it: text straight from
/// SQLite's buffers, by column number.
struct SqliteRow {
    const SqliteStatement& st;
    std::string_view text(int column) const { return st.textView(column); }
    std::int64_t integer(int column) const { return st.integer(column); }
    bool boolean(int column) const { return st.integer(column) != 0; }
    bool isNull(int column) const { return st.isNull(column); }
};

}  // namespace ps::library
