#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "library/postgres/PostgresResult.h"

struct pg_conn;

namespace ps::library {

/// One libpq connection to a team library's database, owned; every failure is a LibraryError
/// naming the library (its redacted location) and the server's own words, of a kind the studio
/// acts on: Unreachable (down, refused, dropped), ReadOnly (the role lacks the privilege), Busy
/// (a serialization failure or deadlock: try again), DiskFull, Corrupt, Server. A connection the
/// server dropped (a restart) is made again at the next read or BEGIN, never in a transaction.
/// Thread contract: one thread at a time (libpq's).
class PostgresConnection {
public:
    /// A statement parameter: text (copied), an integer, raw bytes sent as binary (bytea), or null.
    struct Param {
        std::string text;
        std::string_view bytes;
        bool binary = false;
        bool null = false;
        Param(std::string_view value) : text(value) { }              // NOLINT: implicit on purpose
        Param(const std::string& value) : text(value) { }            // NOLINT
        Param(const char* value) : text(value) { }                   // NOLINT
        Param(std::int64_t value) : text(std::to_string(value)) { }  // NOLINT
        Param(int value) : text(std::to_string(value)) { }           // NOLINT
        static Param blob(std::string_view raw);
        static Param none();

    private:
        Param() = default;
    };

    /// Connects (at most 10 s) with `conninfo` (a URI, key=value pairs or service=NAME);
    /// `location` is what messages name.
    PostgresConnection(const std::string& conninfo, std::string location);
    ~PostgresConnection();
    PostgresConnection(const PostgresConnection&) = delete;
    PostgresConnection& operator=(const PostgresConnection&) = delete;

    const std::string& location() const { return location_; }

    /// Runs one statement; `binaryResult` asks for every column in binary (bytea raw).
    PostgresResult exec(const std::string& sql, const std::vector<Param>& params = {}, bool binaryResult = false);
    /// Runs statements that take no parameters (several separated by ';' allowed).
    void run(const std::string& sql);
    std::int64_t queryInt(const std::string& sql, const std::vector<Param>& params = {});

    /// The role the server knows this session as.
    const std::string& role() const { return role_; }

private:
    static bool succeeded(const PostgresResult& result);
    /// Throws for a result that is not a success.
    void check(const PostgresResult& result);
    /// Whether `sql` may be sent again on a new connection if the old one broke.
    bool mayReconnectFor(const std::string& sql) const;
    /// Reconnects a broken connection (PQreset); whether it works now.
    bool reconnected();
    [[noreturn]] void fail(const std::string& what, const char* sqlState, const std::string& serverMessage);

    pg_conn* conn_ = nullptr;
    std::string location_;
    std::string role_;
    bool inTransaction_ = false;  ///< between a BEGIN and its COMMIT or ROLLBACK
};

}  // namespace ps::library
