#pragma once

#include <cstdint>
#include <string_view>

#include "library/postgres/PostgresResult.h"

namespace ps::library {

/// One row of a PostgresResult as RunColumns and CheckColumns read it, by column number.
struct PostgresRow {
    const PostgresResult& r;
    int row;
    std::string_view text(int column) const { return r.text(row, column); }
    std::int64_t integer(int column) const { return r.integer(row, column); }
    bool boolean(int column) const { return r.boolean(row, column); }
    bool isNull(int column) const { return r.isNull(row, column); }
};

}  // namespace ps::library
