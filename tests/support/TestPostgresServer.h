#pragma once

// Test support: a real PostgreSQL server of the test's own (Debian's postgresql), made by initdb
// in a short temporary folder under /tmp and reached through a Unix socket in that folder only
// (no TCP), with trust authentication; stopped, and the folder removed, with the object. As root
// (CI), initdb and postgres run as the unprivileged `postgres` account, else `nobody` (postgres
// refuses root); otherwise as the current user. The server dies with the test process, even one
// killed outright (PR_SET_PDEATHSIG): make the object on a thread that outlives it (the signal
// follows the thread that started the server, e.g. gtest's main thread in SetUpTestSuite).
// Nothing outside the folder is touched.

#include <string>
#include <sys/types.h>
#include <vector>

namespace ps::test {

class TestPostgresServer {
public:
    /// A result's rows, every value as text ("" for NULL).
    using Rows = std::vector<std::vector<std::string>>;

    /// What a statement did on a connection of the caller's choice.
    struct SqlOutcome {
        bool ok = false;
        std::string sqlState;  ///< e.g. "42501" (insufficient privilege); "" when ok or never connected
        std::string error;     ///< the server's or libpq's message
        Rows rows;             ///< the last statement's rows
    };

    enum class Access {
        Owner,     ///< owns the database: CREATE TABLE, INSERT, ... (it becomes the database's owner)
        ReadOnly,  ///< may connect and SELECT every table of the database, now and later; nothing else
        Writer,    ///< a team member: may read, insert, update and delete rows, now and later; own nothing
    };

    /// initdb and start; problem() says why not.
    TestPostgresServer();
    /// Stops the server and removes the folder.
    ~TestPostgresServer();
    TestPostgresServer(const TestPostgresServer&) = delete;
    TestPostgresServer& operator=(const TestPostgresServer&) = delete;

    /// "" when the server was made and started; else why not (with the server log's tail).
    const std::string& problem() const { return m_problem; }
    /// Whether the postmaster this object started is running (not stopped or killed).
    bool running() const { return m_pid > 0; }

    /// The temporary folder: it holds the socket (.s.PGSQL.<port>), data/ and the logs.
    const std::string& socketDir() const { return m_dir; }
    std::string dataDir() const { return m_dir + "/data"; }
    /// The port; over a Unix socket it only names the socket file.
    int port() const { return m_port; }
    /// The bootstrap superuser: the name of the OS account the server runs as.
    const std::string& superuser() const { return m_superuser; }

    /// A libpq URI, what a user would type: postgresql://ROLE@/DB?host=%2Ftmp%2Fps-pg-x&port=P
    /// (names and the socket folder percent-encoded).
    std::string connectionString(const std::string& database, const std::string& role) const;
    /// The same as libpq key=value pairs: host=/tmp/ps-pg-x port=P dbname=DB user=ROLE
    std::string keywordConnectionString(const std::string& database, const std::string& role) const;

    /// CREATE DATABASE, owned by `owner` when given (else by the superuser).
    void createDatabase(const std::string& name, const std::string& owner = {});
    /// A login role (no password: trust) with `access` to `database`. For ReadOnly and Writer, make
    /// the owner first: the tables the owner and the superuser create later are theirs too.
    void createRole(const std::string& name, const std::string& database, Access access);
    /// Runs `sql` (one or more statements) on `database` as the superuser; throws
    /// std::runtime_error with the message and the SQLSTATE when it fails.
    Rows exec(const std::string& sql, const std::string& database = "postgres") const;
    /// Runs `sql` on a new connection made from `connectionString` (a URI or key=value pairs);
    /// never throws.
    static SqlOutcome execAs(const std::string& connectionString, const std::string& sql);

    /// Starts the stopped (or killed) server again: same folder, same port, same data.
    bool start();
    /// Fast shutdown (clients are disconnected), waits until every process of it is gone.
    /// Idempotent.
    void stop();
    /// stop() then start().
    bool restart();
    /// An abrupt end: SIGKILL to the postmaster and every process of it, as a crash would;
    /// start() recovers from the WAL.
    void kill();

    /// The processes of this server still running: those whose working folder is in the
    /// temporary folder (postgres children rename themselves and leave the process group).
    std::vector<pid_t> processes() const;
    /// The same for any folder: a server's socketDir() after the object is gone.
    static std::vector<pid_t> processesIn(const std::string& folder);
    /// Waits up to `seconds` until processes() is empty.
    bool waitUntilNoProcess(double seconds) const;
    /// The server's log (stderr of every start, appended).
    std::string log() const;

private:
    bool initialise();
    bool launch(int port);
    pid_t spawn(const std::vector<std::string>& argv, const std::string& logFile) const;
    std::string logTail() const;

    std::string m_dir;
    std::string m_bin;  ///< the folder with initdb and postgres
    std::string m_superuser;
    bool m_dropPrivileges = false;
    uid_t m_uid = 0;
    gid_t m_gid = 0;
    int m_port = 0;
    pid_t m_pid = -1;
    std::string m_problem;
};

}  // namespace ps::test
