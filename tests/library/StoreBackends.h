#pragma once

// The two stores under ArtifactLibrary, for typed suites that run the same behaviour over both
// (TYPED_TEST_SUITE(Fixture, test::StoreBackends, test::StoreBackendNames)): each backend object
// is a fresh, empty library location, and raw access to it as another program would have, for
// tests that look under the library or damage it.
//
//  SqliteBackend   a file in a temporary folder of its own, raw access through plain sqlite3;
//  PostgresBackend a fresh database with an owner role on one PostgreSQL server shared by the
//                  whole test binary (TestPostgresServer, started on first use), raw access as
//                  the server's superuser.
//
// A backend's location is not opened yet: the first ArtifactLibrary on it creates the library.

#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include "LibraryTestSupport.h"
#include "TestPostgresServer.h"
#include "library/postgres/PostgresSchema.h"
#include "library/sqlite/SqliteSchema.h"

namespace ps::library::test {

class SqliteBackend {
public:
    static constexpr const char* kName = "Sqlite";
    static constexpr int kSchemaVersion = SqliteSchema::kVersion;

    const std::string& location() const { return path_; }

    /// Runs SQL on the file through a plain sqlite3 connection (foreign keys off, as by default).
    void exec(const std::string& sql) const { rawExec(path_, sql); }
    /// The first column of the first row as text; "" when there is none.
    std::string query(const std::string& sql) const { return rawQueryText(path_, sql); }
    /// An SQL expression giving a bytes column as upper-case hex.
    static std::string hexOf(const std::string& column) { return "hex(" + column + ")"; }
    /// An SQL literal of the bytes written in hex.
    static std::string bytesLiteral(const std::string& hex) { return "x'" + hex + "'"; }
    /// Removes a blob that captures still refer to, as a stray program could.
    void deleteReferencedBlob(const std::string& sha) const
    {
        exec("PRAGMA foreign_keys = OFF; DELETE FROM blobs WHERE sha256 = '" + sha + "'");
    }
    /// Flips bit 5 of the stored byte at `offset` of a blob's data in place, as a disk error would.
    void flipByte(const std::string& sha, int offset) const
    {
        sqlite3* db = nullptr;
        sqlite3_stmt* st = nullptr;
        sqlite3_blob* blob = nullptr;
        unsigned char byte = 0;
        const bool ok = sqlite3_open(path_.c_str(), &db) == SQLITE_OK
            && sqlite3_prepare_v2(db, "SELECT rowid FROM blobs WHERE sha256 = ?", -1, &st, nullptr) == SQLITE_OK
            && sqlite3_bind_text(st, 1, sha.c_str(), -1, SQLITE_TRANSIENT) == SQLITE_OK
            && sqlite3_step(st) == SQLITE_ROW
            && sqlite3_blob_open(db, "main", "blobs", "data", sqlite3_column_int64(st, 0), 1, &blob) == SQLITE_OK
            && sqlite3_blob_read(blob, &byte, 1, offset) == SQLITE_OK && (byte ^= 0x20, true)
            && sqlite3_blob_write(blob, &byte, 1, offset) == SQLITE_OK;
        sqlite3_blob_close(blob);
        sqlite3_finalize(st);
        sqlite3_close(db);
        if (!ok)
            throw std::runtime_error("cannot flip byte " + std::to_string(offset) + " of blob " + sha);
    }
    /// The database engine's own check of its structures: "ok" when whole.
    std::string engineCheck() const { return query("PRAGMA integrity_check"); }
    /// Whether anything was created at the location.
    bool created() const { return std::filesystem::exists(path_); }

private:
    TempDir dir_;
    std::string path_ = dir_.file("library.sqlite3");
};

/// The test binary's PostgreSQL server: started on first use (on the calling thread, which the
/// server's PR_SET_PDEATHSIG follows: call it first from gtest's main thread), stopped at exit
/// by the process that started it only (a forked child that exits leaves it running).
inline ps::test::TestPostgresServer& sharedPostgresServer()
{
    struct Shared {
        pid_t owner = ::getpid();
        ps::test::TestPostgresServer* server = new ps::test::TestPostgresServer();
        ~Shared()
        {
            if (::getpid() == owner)
                delete server;
        }
    };
    static Shared shared;
    return *shared.server;
}

class PostgresBackend {
public:
    static constexpr const char* kName = "Postgres";
    static constexpr int kSchemaVersion = PostgresSchema::kVersion;

    PostgresBackend() : server_(sharedPostgresServer())
    {
        if (!server_.problem().empty())
            throw std::runtime_error("no PostgreSQL server for the test: " + server_.problem());
        static int next = 0;
        database_ = "lib_" + std::to_string(::getpid()) + "_" + std::to_string(++next);
        server_.createDatabase(database_);
        server_.createRole(database_ + "_owner", database_, ps::test::TestPostgresServer::Access::Owner);
        location_ = server_.connectionString(database_, database_ + "_owner");
    }
    ~PostgresBackend()
    {
        // Nothing of a finished test holds the server's disk or connections.
        try {
            server_.exec("DROP DATABASE IF EXISTS \"" + database_ + "\" WITH (FORCE)");
            server_.exec("DROP ROLE IF EXISTS \"" + database_ + "_owner\"");
        } catch (const std::exception&) {
        }
    }
    PostgresBackend(const PostgresBackend&) = delete;
    PostgresBackend& operator=(const PostgresBackend&) = delete;

    const std::string& location() const { return location_; }
    const std::string& database() const { return database_; }
    ps::test::TestPostgresServer& server() const { return server_; }

    /// Runs SQL on the database as the superuser.
    void exec(const std::string& sql) const { server_.exec(sql, database_); }
    std::string query(const std::string& sql) const
    {
        const auto rows = server_.exec(sql, database_);
        return rows.empty() || rows[0].empty() ? std::string() : rows[0][0];
    }
    static std::string hexOf(const std::string& column) { return "upper(encode(" + column + ", 'hex'))"; }
    static std::string bytesLiteral(const std::string& hex) { return "'\\x" + hex + "'::bytea"; }
    /// Foreign keys are triggers in PostgreSQL: a superuser's replica session skips them.
    void deleteReferencedBlob(const std::string& sha) const
    {
        exec("SET session_replication_role = replica; DELETE FROM blobs WHERE sha256 = '" + sha + "'");
    }
    void flipByte(const std::string& sha, int offset) const
    {
        const std::string at = std::to_string(offset);
        exec("UPDATE blobs SET data = set_byte(data, " + at + ", get_byte(data, " + at + ") # 32) WHERE sha256 = '"
            + sha + "'");
    }
    /// What PostgreSQL checks of its own: every B-tree index of the library (amcheck).
    std::string engineCheck() const
    {
        exec("CREATE EXTENSION IF NOT EXISTS amcheck");
        exec("SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
             "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relnamespace = 'public'::regnamespace");
        return "ok";  // a damaged index throws
    }
    bool created() const
    {
        return query("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'public'") != "0";
    }

private:
    ps::test::TestPostgresServer& server_;
    std::string database_;
    std::string location_;
};

using StoreBackends = ::testing::Types<SqliteBackend, PostgresBackend>;

/// Names the typed tests Suite/Sqlite.Test and Suite/Postgres.Test.
struct StoreBackendNames {
    template <class Backend> static std::string GetName(int) { return Backend::kName; }
};

template <class Backend> constexpr bool isSqlite = std::is_same_v<Backend, SqliteBackend>;

}  // namespace ps::library::test
