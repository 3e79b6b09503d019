#include "TestPostgresServer.h"

#include "FreePort.h"

#include <libpq-fe.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <memory>
#include <netinet/in.h>
#include <pwd.h>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ps::test {

namespace fs = std::filesystem;

namespace {

constexpr auto kStartTimeout = std::chrono::seconds(30);
constexpr auto kStopTimeout = std::chrono::seconds(30);

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The newest PostgreSQL server installed (Debian: /usr/lib/postgresql/<major>/bin), unless
// PS_TEST_PG_BINDIR names one.
std::string serverBinDir()
{
    if (const char* env = std::getenv("PS_TEST_PG_BINDIR"); env && *env)
        return env;
    std::string best;
    int bestMajor = -1;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
        const std::string bin = e.path().string() + "/bin";
        if (!fs::exists(bin + "/initdb") || !fs::exists(bin + "/postgres"))
            continue;
        const int major = std::atoi(e.path().filename().c_str());
        if (major > bestMajor) {
            bestMajor = major;
            best = bin;
        }
    }
    return best;
}

std::string percentEncode(const std::string& s)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// A value of a key=value connection string, quoted as libpq reads it.
std::string keywordValue(const std::string& s)
{
    std::string out = "'";
    for (char c : s) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

std::string quoteIdent(const std::string& name)
{
    std::string out = "\"";
    for (char c : name)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string quoteLiteral(const std::string& value)
{
    std::string out = "'";
    for (char c : value)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

bool isRunning(pid_t pid)
{
    // A zombie is gone for this purpose: it runs nothing (and may never be reaped here).
    const std::string stat = readAll("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

struct Connection {
    explicit Connection(const std::string& conninfo) : conn(PQconnectdb(conninfo.c_str()))
    {
        // Notices (e.g. "role ... is already a member") are the test's business, not stderr's.
        if (conn)
            PQsetNoticeProcessor(
                conn, [](void*, const char*) {}, nullptr);
    }
    ~Connection() { PQfinish(conn); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    bool ok() const { return conn && PQstatus(conn) == CONNECTION_OK; }
    PGconn* conn;
};

// How a child ended, in words; the exit codes are spawn()'s own.
std::string statusText(int status)
{
    if (WIFSIGNALED(status))
        return "signal " + std::to_string(WTERMSIG(status));
    switch (WEXITSTATUS(status)) {
    case 127:
        return "it cannot be run";
    case 126:
        return "the switch to an unprivileged account failed";
    case 125:
        return "its folder or log cannot be opened";
    default:
        return "exit " + std::to_string(WEXITSTATUS(status));
    }
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

}  // namespace

TestPostgresServer::TestPostgresServer()
{
    if (!initialise() && m_problem.empty())
        m_problem = "PostgreSQL did not start";
}

TestPostgresServer::~TestPostgresServer()
{
    stop();
    // Anything left (an initdb cut short, a process that outlived a stop) goes with the folder.
    for (pid_t p : processes())
        ::kill(p, SIGKILL);
    waitUntilNoProcess(10);
    if (!m_dir.empty()) {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
}

bool TestPostgresServer::initialise()
{
    m_bin = serverBinDir();
    if (m_bin.empty()) {
        m_problem = "no PostgreSQL server in /usr/lib/postgresql/*/bin: install postgresql "
                    "(packaging/debian-packages.txt), or set PS_TEST_PG_BINDIR";
        return false;
    }
    // Under /tmp, not TMPDIR: a Unix socket's path holds at most 107 bytes, and this one is
    // /tmp/ps-pg-XXXXXX/.s.PGSQL.NNNNN.
    std::string tmpl = "/tmp/ps-pg-XXXXXX";
    if (!::mkdtemp(tmpl.data())) {
        m_problem = std::string("mkdtemp /tmp/ps-pg-XXXXXX failed: ") + std::strerror(errno);
        return false;
    }
    m_dir = tmpl;

    // postgres refuses to run as root: as root, run it as an unprivileged account that exists.
    if (::geteuid() == 0) {
        const passwd* pw = nullptr;
        for (const char* name : {"postgres", "nobody"}) {
            pw = ::getpwnam(name);
            if (pw && pw->pw_uid != 0)
                break;
            pw = nullptr;
        }
        if (!pw) {
            m_problem = "running as root, and neither a `postgres` nor a `nobody` account to run PostgreSQL as";
            return false;
        }
        m_dropPrivileges = true;
        m_uid = pw->pw_uid;
        m_gid = pw->pw_gid;
        m_superuser = pw->pw_name;
        if (::chown(m_dir.c_str(), m_uid, m_gid) != 0) {
            m_problem = "chown " + m_dir + " to " + m_superuser + ": " + std::strerror(errno);
            return false;
        }
    } else {
        const passwd* pw = ::getpwuid(::geteuid());
        m_superuser = pw ? pw->pw_name : std::to_string(::geteuid());
    }

    const pid_t initdb
        = spawn({m_bin + "/initdb", "--pgdata=" + dataDir(), "--username=" + m_superuser, "--auth-local=trust",
                    "--auth-host=reject", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"},
            m_dir + "/initdb.log");
    int status = 0;
    if (initdb < 0 || ::waitpid(initdb, &status, 0) != initdb || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        m_problem = m_bin + "/initdb failed (" + statusText(status) + "): " + readAll(m_dir + "/initdb.log");
        return false;
    }
    // Fast, not durable: a test's data need not survive a power cut (fsync off), but a commit does
    // survive postgres killed outright (synchronous_commit stays on: the WAL is written, not
    // synced, before COMMIT returns). 50 connections: 8+ writers, readers and the test's own.
    std::ofstream(dataDir() + "/postgresql.conf", std::ios::app)
        << "\n# TestPostgresServer: a test's own server, fast and not durable\n"
        << "listen_addresses = ''\n"
        << "unix_socket_directories = '" << m_dir << "'\n"
        << "max_connections = 50\n"
        << "shared_buffers = 16MB\n"
        << "fsync = off\n"
        << "full_page_writes = off\n"
        << "wal_level = minimal\n"
        << "max_wal_senders = 0\n"
        << "huge_pages = off\n"
        << "log_line_prefix = '%m [%p] %q%u@%d '\n";
    for (int attempt = 0; attempt < 5; ++attempt) {
        // A port no one listens on over TCP; over the Unix socket in our own folder it cannot
        // collide anyway, but postgres also derives its System V shared memory key from it.
        if (launch(freeLoopbackPort())) {
            m_problem.clear();
            return true;
        }
        if (m_problem.find("did not accept connections within") != std::string::npos)
            break;  // a server that hangs will not do better on another port
    }
    return false;
}

pid_t TestPostgresServer::spawn(const std::vector<std::string>& argv, const std::string& logFile) const
{
    // Everything the child needs is made before fork: after it, only async-signal-safe calls.
    std::vector<std::string> env = {"PATH=" + m_bin + ":/usr/bin:/bin", "LC_ALL=C", "TZ=UTC", "HOME=" + m_dir};
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> envp;
    for (const auto& e : env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    ::setpgid(0, 0);
    if (m_dropPrivileges) {
        if (::setgroups(1, &m_gid) != 0 || ::setgid(m_gid) != 0 || ::setuid(m_uid) != 0)
            ::_exit(126);
    }
    // The server dies with the test, even one killed outright (a timeout, kill -9): SIGQUIT is
    // postgres' immediate shutdown. Set after setuid, which clears it.
    ::prctl(PR_SET_PDEATHSIG, SIGQUIT);
    if (::getppid() != parent)
        ::_exit(1);
    if (::chdir(m_dir.c_str()) != 0)
        ::_exit(125);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0)
        ::_exit(125);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    // No descriptor of the test (a pipe it waits on, a libpq socket) stays open in the server.
    ::close_range(3, ~0U, 0);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
}

bool TestPostgresServer::launch(int port)
{
    m_port = port;
    const pid_t pid = spawn({m_bin + "/postgres", "-D", dataDir(), "-p", std::to_string(port)}, m_dir + "/server.log");
    if (pid < 0) {
        m_problem = std::string("fork failed: ") + std::strerror(errno);
        return false;
    }
    const std::string ping = keywordConnectionString("postgres", m_superuser);
    const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (PQping(ping.c_str()) == PQPING_OK) {
            m_pid = pid;
            return true;
        }
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            m_problem = "postgres ended before it accepted connections (" + statusText(status) + ") on port "
                + std::to_string(port) + "; server log:\n" + logTail();
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    for (pid_t p : processes())
        ::kill(p, SIGKILL);
    waitUntilNoProcess(10);
    m_problem = "postgres did not accept connections within " + std::to_string(kStartTimeout.count())
        + " s; server log:\n" + logTail();
    return false;
}

bool TestPostgresServer::start()
{
    if (m_pid > 0)
        return true;
    if (m_port == 0)
        return false;  // never made: problem() says why
    if (!launch(m_port))
        return false;
    m_problem.clear();
    return true;
}

void TestPostgresServer::stop()
{
    if (m_pid <= 0)
        return;
    ::kill(m_pid, SIGINT);  // fast shutdown: the postmaster ends once its children have
    const auto deadline = std::chrono::steady_clock::now() + kStopTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
            m_pid = -1;
            waitUntilNoProcess(10);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill();
}

bool TestPostgresServer::restart()
{
    stop();
    return start();
}

void TestPostgresServer::kill()
{
    if (m_pid <= 0)
        return;
    // The postmaster is held first, so that it forks nothing more while its children are listed.
    // While it dies they are re-parented to this process (a subreaper for the moment), so that
    // they are reaped here, not left as zombies of an init that may not reap them.
    int wasSubreaper = 0;
    ::prctl(PR_GET_CHILD_SUBREAPER, &wasSubreaper);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ::kill(m_pid, SIGSTOP);
    std::vector<pid_t> seen = processes();
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
    m_pid = -1;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (auto left = processes(); !left.empty() && std::chrono::steady_clock::now() < deadline; left = processes()) {
        for (pid_t p : left) {
            ::kill(p, SIGKILL);
            if (std::find(seen.begin(), seen.end(), p) == seen.end())
                seen.push_back(p);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (pid_t p : seen) {
        ::kill(p, SIGKILL);
        ::waitpid(p, nullptr, 0);  // ours now: it is gone when this returns; else ECHILD at once
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, wasSubreaper);
}

std::vector<pid_t> TestPostgresServer::processes() const
{
    return processesIn(m_dir);
}

std::vector<pid_t> TestPostgresServer::processesIn(const std::string& folder)
{
    std::vector<pid_t> out;
    if (folder.empty())
        return out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        // Every postgres process works in the data folder (the postmaster chdirs there, its
        // children inherit it); "<folder> (deleted)" once the folder is gone. A zombie has none.
        std::error_code linkError;
        const std::string cwd = fs::read_symlink(e.path() / "cwd", linkError).string();
        if (!linkError && (cwd == folder || cwd.rfind(folder + "/", 0) == 0 || cwd.rfind(folder + " ", 0) == 0)) {
            const pid_t pid = static_cast<pid_t>(std::stol(name));
            if (pid != ::getpid() && isRunning(pid))
                out.push_back(pid);
        }
    }
    return out;
}

bool TestPostgresServer::waitUntilNoProcess(double seconds) const
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!processes().empty()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

std::string TestPostgresServer::log() const
{
    return readAll(m_dir + "/server.log");
}

std::string TestPostgresServer::logTail() const
{
    const std::string text = log();
    constexpr std::size_t kTail = 4000;
    return text.size() > kTail ? "..." + text.substr(text.size() - kTail) : text;
}

std::string TestPostgresServer::connectionString(const std::string& database, const std::string& role) const
{
    return "postgresql://" + percentEncode(role) + "@/" + percentEncode(database) + "?host=" + percentEncode(m_dir)
        + "&port=" + std::to_string(m_port);
}

std::string TestPostgresServer::keywordConnectionString(const std::string& database, const std::string& role) const
{
    return "host=" + keywordValue(m_dir) + " port=" + std::to_string(m_port) + " dbname=" + keywordValue(database)
        + " user=" + keywordValue(role);
}

TestPostgresServer::SqlOutcome TestPostgresServer::execAs(const std::string& connectionString, const std::string& sql)
{
    SqlOutcome outcome;
    Connection c(connectionString);
    if (!c.ok()) {
        outcome.error = c.conn ? trimmed(PQerrorMessage(c.conn)) : "out of memory";
        return outcome;
    }
    // PQexec runs every statement and returns the last one's result, or the first error's.
    std::unique_ptr<PGresult, void (*)(PGresult*)> r(PQexec(c.conn, sql.c_str()), PQclear);
    const ExecStatusType status = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        const char* state = r ? PQresultErrorField(r.get(), PG_DIAG_SQLSTATE) : nullptr;
        outcome.sqlState = state ? state : "";
        outcome.error = trimmed(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(c.conn));
        return outcome;
    }
    outcome.ok = true;
    for (int row = 0; row < PQntuples(r.get()); ++row) {
        std::vector<std::string> values;
        for (int col = 0; col < PQnfields(r.get()); ++col)
            values.emplace_back(PQgetvalue(r.get(), row, col));
        outcome.rows.push_back(std::move(values));
    }
    return outcome;
}

TestPostgresServer::Rows TestPostgresServer::exec(const std::string& sql, const std::string& database) const
{
    SqlOutcome outcome = execAs(keywordConnectionString(database, m_superuser), sql);
    if (!outcome.ok)
        throw std::runtime_error("SQL on " + database + " failed: " + outcome.error
            + (outcome.sqlState.empty() ? "" : " (SQLSTATE " + outcome.sqlState + ")") + "\n  " + sql);
    return std::move(outcome.rows);
}

void TestPostgresServer::createDatabase(const std::string& name, const std::string& owner)
{
    exec("CREATE DATABASE " + quoteIdent(name) + (owner.empty() ? "" : " OWNER " + quoteIdent(owner)));
}

void TestPostgresServer::createRole(const std::string& name, const std::string& database, Access access)
{
    const std::string role = quoteIdent(name);
    exec("CREATE ROLE " + role + " LOGIN");
    if (access == Access::Owner) {
        // Since PostgreSQL 15 the public schema belongs to pg_database_owner: the database's
        // owner may create tables there, and no one else.
        exec("ALTER DATABASE " + quoteIdent(database) + " OWNER TO " + role);
        return;
    }
    const Rows owner
        = exec("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = " + quoteLiteral(database));
    if (owner.empty())
        throw std::runtime_error("createRole: no database " + database);
    std::string creators = quoteIdent(m_superuser);
    if (owner[0][0] != m_superuser)
        creators += ", " + quoteIdent(owner[0][0]);
    exec("GRANT CONNECT ON DATABASE " + quoteIdent(database) + " TO " + role);
    const std::string tables = access == Access::Writer ? "SELECT, INSERT, UPDATE, DELETE" : "SELECT";
    const std::string sequences = access == Access::Writer ? "USAGE, SELECT, UPDATE" : "SELECT";
    // Within the database: every schema and table there now, and those its owner or the
    // superuser make later.
    exec("DO $$ DECLARE s text; BEGIN FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' "
         "AND nspname <> 'information_schema' LOOP "
         "EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', s, "
            + quoteLiteral(name) + "); EXECUTE format('GRANT " + tables + " ON ALL TABLES IN SCHEMA %I TO %I', s, "
            + quoteLiteral(name) + "); EXECUTE format('GRANT " + sequences
            + " ON ALL SEQUENCES IN SCHEMA %I TO %I', s, " + quoteLiteral(name) + "); END LOOP; END $$;"
            + "ALTER DEFAULT PRIVILEGES FOR ROLE " + creators + " GRANT USAGE ON SCHEMAS TO " + role + ";"
            + "ALTER DEFAULT PRIVILEGES FOR ROLE " + creators + " GRANT " + tables + " ON TABLES TO " + role + ";"
            + "ALTER DEFAULT PRIVILEGES FOR ROLE " + creators + " GRANT " + sequences + " ON SEQUENCES TO " + role
            + ";",
        database);
}

}  // namespace ps::test
