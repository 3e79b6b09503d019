#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct pg_result;

namespace ps::library {

/// One libpq result, owned: rows of text columns, or of binary ones where the query asked for
/// binary (bytea as its raw bytes, integers in network order). Thread contract: none needed.
class PostgresResult {
public:
    explicit PostgresResult(pg_result* result) noexcept : result_(result) { }
    ~PostgresResult();
    PostgresResult(PostgresResult&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
    PostgresResult& operator=(PostgresResult&& other) noexcept;
    PostgresResult(const PostgresResult&) = delete;
    PostgresResult& operator=(const PostgresResult&) = delete;

    int rows() const;
    bool isNull(int row, int column) const;
    /// The value's bytes (text, or bytea's raw bytes in a binary result); "" when null.
    std::string_view text(int row, int column) const;
    /// An integer column, in either format; 0 when null.
    std::int64_t integer(int row, int column) const;
    bool boolean(int row, int column) const;
    /// The number of rows an UPDATE or DELETE touched.
    std::int64_t affected() const;
    /// libpq's handle, for PostgresConnection's checks.
    pg_result* raw() const { return result_; }

private:
    pg_result* result_;
};

}  // namespace ps::library
