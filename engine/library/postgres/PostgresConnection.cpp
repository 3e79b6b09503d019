#include "library/postgres/PostgresConnection.h"

#include <cstring>
#include <utility>

#include <libpq-fe.h>

#include "library/core/LibraryError.h"

namespace ps::library {

using Kind = LibraryError::Kind;

namespace {

/// The server's message on one line, without libpq's "ERROR:  " prefix and trailing newline.
std::string oneLine(const char* message)
{
    std::string text = message ? message : "";
    for (const char* prefix : {"ERROR:  ", "FATAL:  "})
        if (text.rfind(prefix, 0) == 0)
            text.erase(0, std::strlen(prefix));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    if (const auto nl = text.find('\n'); nl != std::string::npos)
        text = text.substr(0, nl);
    return text;
}

Kind kindOf(std::string_view state, bool connectionBad)
{
    if (connectionBad || state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03")
        return Kind::Unreachable;
    if (state == "42501")
        return Kind::ReadOnly;
    if (state == "53100")
        return Kind::DiskFull;
    if (state == "40001" || state == "40P01" || state == "55P03")
        return Kind::Busy;
    if (state == "XX001" || state == "XX002")
        return Kind::Corrupt;
    return Kind::Server;
}

}  // namespace

PostgresConnection::Param PostgresConnection::Param::blob(std::string_view raw)
{
    Param p;
    p.bytes = raw;
    p.binary = true;
    return p;
}

PostgresConnection::Param PostgresConnection::Param::none()
{
    Param p;
    p.null = true;
    return p;
}

PostgresConnection::PostgresConnection(const std::string& conninfo, std::string location)
    : location_(std::move(location))
{
    // Our defaults first; the user's string (expanded from dbname) overrides them.
    const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
    const char* values[] = {"10", "precompile-studio", conninfo.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (!conn_)
        throw LibraryError(Kind::Unreachable, location_, "cannot connect: out of memory");
    if (PQstatus(conn_) != CONNECTION_OK) {
        const std::string why = oneLine(PQerrorMessage(conn_));
        PQfinish(conn_);
        conn_ = nullptr;
        // A refused password or an unknown role or database is the user's to fix, not an outage.
        const bool refused = why.find("authentication failed") != std::string::npos
            || why.find("does not exist") != std::string::npos || why.find("no password supplied") != std::string::npos
            || why.find("permission denied") != std::string::npos;
        throw LibraryError(refused ? Kind::CannotOpen : Kind::Unreachable, location_,
            "cannot connect to the team library's server: " + why);
    }
    // Quiet: notices (e.g. "relation already exists, skipping") are not the user's business.
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
    role_ = std::string(exec("SELECT current_user").text(0, 0));
}

PostgresConnection::~PostgresConnection()
{
    if (conn_)
        PQfinish(conn_);
}

void PostgresConnection::fail(const std::string& what, const char* sqlState, const std::string& serverMessage)
{
    const bool bad = PQstatus(conn_) == CONNECTION_BAD;
    const std::string state = sqlState ? sqlState : "";
    const Kind kind = kindOf(state, bad);
    std::string message = what + ": " + serverMessage;
    if (kind == Kind::ReadOnly)
        message = "role " + role_ + " may only read this library (" + serverMessage + ")";
    else if (kind == Kind::Unreachable)
        message = "lost the connection to the team library's server: " + serverMessage;
    else if (!state.empty())
        message += " (SQLSTATE " + state + ")";
    throw LibraryError(kind, location_, message);
}

bool PostgresConnection::mayReconnectFor(const std::string& sql) const
{
    // Only outside a transaction, and only for what has no effect if it ran before the
    // connection broke: a read, or the BEGIN that starts one.
    return !inTransaction_ && (sql.rfind("BEGIN", 0) == 0 || sql.rfind("SELECT", 0) == 0);
}

bool PostgresConnection::reconnected()
{
    if (PQstatus(conn_) != CONNECTION_BAD)
        return false;
    PQreset(conn_);
    return PQstatus(conn_) == CONNECTION_OK;
}

PostgresResult PostgresConnection::exec(const std::string& sql, const std::vector<Param>& params, bool binaryResult)
{
    std::vector<const char*> values(params.size());
    std::vector<int> lengths(params.size()), formats(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
        const Param& p = params[i];
        if (p.null) {
            values[i] = nullptr;
        } else if (p.binary) {
            values[i] = p.bytes.data() ? p.bytes.data() : "";
            lengths[i] = static_cast<int>(p.bytes.size());
            formats[i] = 1;
        } else {
            values[i] = p.text.c_str();
        }
    }
    const auto send = [&] {
        return PostgresResult(PQexecParams(conn_, sql.c_str(), static_cast<int>(params.size()), nullptr, values.data(),
            lengths.data(), formats.data(), binaryResult ? 1 : 0));
    };
    if (PQstatus(conn_) == CONNECTION_BAD && mayReconnectFor(sql))
        reconnected();
    PostgresResult result = send();
    // The server restarted since the last statement (the socket is found closed only now).
    if (!succeeded(result) && mayReconnectFor(sql) && reconnected())
        result = send();
    check(result);
    return result;
}

bool PostgresConnection::succeeded(const PostgresResult& result)
{
    const ExecStatusType status = result.raw() ? PQresultStatus(result.raw()) : PGRES_FATAL_ERROR;
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

void PostgresConnection::check(const PostgresResult& result)
{
    if (succeeded(result))
        return;
    const char* state = result.raw() ? PQresultErrorField(result.raw(), PG_DIAG_SQLSTATE) : nullptr;
    const char* primary = result.raw() ? PQresultErrorField(result.raw(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    fail("the server refused a statement", state, oneLine(primary ? primary : PQerrorMessage(conn_)));
}

void PostgresConnection::run(const std::string& sql)
{
    if (PQstatus(conn_) == CONNECTION_BAD && mayReconnectFor(sql))
        reconnected();
    PostgresResult result(PQexec(conn_, sql.c_str()));
    if (!succeeded(result) && mayReconnectFor(sql) && reconnected())
        result = PostgresResult(PQexec(conn_, sql.c_str()));
    if (!succeeded(result) && PQstatus(conn_) == CONNECTION_BAD)
        inTransaction_ = false;  // the server rolled it back with the connection
    check(result);
    if (sql.rfind("BEGIN", 0) == 0)
        inTransaction_ = true;
    else if (sql == "COMMIT" || sql == "ROLLBACK")
        inTransaction_ = false;
}

std::int64_t PostgresConnection::queryInt(const std::string& sql, const std::vector<Param>& params)
{
    const PostgresResult result = exec(sql, params);
    return result.rows() > 0 ? result.integer(0, 0) : 0;
}

}  // namespace ps::library
