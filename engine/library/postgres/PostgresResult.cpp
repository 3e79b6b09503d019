#include "library/postgres/PostgresResult.h"

#include <cstdlib>
#include <cstring>

#include <libpq-fe.h>

namespace ps::library {

PostgresResult::~PostgresResult()
{
    if (result_)
        PQclear(result_);
}

PostgresResult& PostgresResult::operator=(PostgresResult&& other) noexcept
{
    if (this != &other) {
        if (result_)
            PQclear(result_);
        result_ = other.result_;
        other.result_ = nullptr;
    }
    return *this;
}

int PostgresResult::rows() const
{
    return PQntuples(result_);
}

bool PostgresResult::isNull(int row, int column) const
{
    return PQgetisnull(result_, row, column) != 0;
}

std::string_view PostgresResult::text(int row, int column) const
{
    if (isNull(row, column))
        return {};
    return {PQgetvalue(result_, row, column), static_cast<std::size_t>(PQgetlength(result_, row, column))};
}

std::int64_t PostgresResult::integer(int row, int column) const
{
    if (isNull(row, column))
        return 0;
    const char* value = PQgetvalue(result_, row, column);
    if (PQfformat(result_, column) == 0)
        return std::strtoll(value, nullptr, 10);
    // Binary: int8, int4 or int2 in network byte order.
    const int length = PQgetlength(result_, row, column);
    std::uint64_t bits = 0;
    for (int i = 0; i < length; ++i)
        bits = (bits << 8) | static_cast<unsigned char>(value[i]);
    if (length == 4)
        return static_cast<std::int32_t>(bits);
    if (length == 2)
        return static_cast<std::int16_t>(bits);
    return static_cast<std::int64_t>(bits);
}

bool PostgresResult::boolean(int row, int column) const
{
    if (isNull(row, column))
        return false;
    const char* value = PQgetvalue(result_, row, column);
    return PQfformat(result_, column) == 0 ? value[0] == 't' : value[0] != 0;
}

std::int64_t PostgresResult::affected() const
{
    const char* count = PQcmdTuples(result_);
    return count && *count ? std::strtoll(count, nullptr, 10) : 0;
}

}  // namespace ps::library
