// The worker pool (protocol::WorkerPool, precompile_studio/pool.py): a pooled worker is a fork of
// a warm pool that behaves as a worker the front end started would (its environment, folder,
// process group, end and peak memory), dies with its front end, and one pool serves only the
// workers that would have been the same process.
#include "ProcessWatch.h"
#include "StudioRun.h"

#include "protocol/WorkerPool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ps::test;
namespace fs = std::filesystem;
using ps::protocol::WorkerPool;

namespace {

// Pooling on, in a folder of the test's own, for the object's life; the pool it started is
// killed at the end.
class PoolFolder {
public:
    PoolFolder()
    {
        m_folder = m_dir.file("pool");
        if (const char* old = std::getenv(WorkerPool::kVariable))
            m_old = old;
        ::setenv(WorkerPool::kVariable, m_folder.c_str(), 1);
        ::setenv(WorkerPool::kIdleVariable, "120", 1);
    }
    ~PoolFolder()
    {
        if (const pid_t pid = poolPid(); pid > 0)
            ::kill(pid, SIGKILL);
        if (m_old.empty())
            ::unsetenv(WorkerPool::kVariable);
        else
            ::setenv(WorkerPool::kVariable, m_old.c_str(), 1);
        ::unsetenv(WorkerPool::kIdleVariable);
    }
    PoolFolder(const PoolFolder&) = delete;
    PoolFolder& operator=(const PoolFolder&) = delete;

    const TempDir& dir() const { return m_dir; }
    /// The live pool's socket, once one listens.
    std::string socket() const
    {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(m_folder, ec))
            if (entry.path().extension() == ".sock" && entry.is_socket())
                return entry.path().string();
        return {};
    }
    /// The pid the live pool wrote into its lock file, or -1.
    pid_t poolPid() const
    {
        const std::string path = socket();
        pid_t pid = -1;
        if (!path.empty())
            std::ifstream(path + ".lock") >> pid;
        return pid;
    }
    /// Runs `script` until a pool of this suite's key listens (a key's second start makes one).
    void warm(const std::string& script) const
    {
        for (int i = 0; i < 2 && socket().empty(); ++i) {
            const auto r = runStudio(script);
            ASSERT_EQ(r.process.exitCode, 0) << r.process.err.substr(0, 2000);
        }
        ASSERT_TRUE(ProcessWatch::waitFor([&] { return !socket().empty(); }, std::chrono::seconds(180)))
            << "no pool listened in " << m_folder;
    }

private:
    TempDir m_dir;
    std::string m_folder;
    std::string m_old;
};

// A script that writes what its process sees to $XDG_DATA_HOME/seen.json.
std::string observer(const TempDir& dir)
{
    return dir.write("observer.py", R"(import json, os, tempfile, torch
with open(os.path.join(os.environ["XDG_DATA_HOME"], "seen.json"), "w") as f:
    json.dump({"pid": os.getpid(), "ppid": os.getppid(), "pgid": os.getpgid(0), "cwd": os.getcwd(),
               "data": os.environ["XDG_DATA_HOME"], "tmp": tempfile.gettempdir()}, f)

def fn(x):
    return x * 2

example_inputs = (torch.ones(3),)
backend = "eager"
)");
}

nlohmann::json readJson(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}

}  // namespace

TEST(WorkerPool, APooledWorkerIsAForkOfTheWarmPoolThatBehavesAsAStartedOneWould)
{
    const WithoutWorkerPool none;  // whatever the suite's own pool is
    PoolFolder pool;
    const std::string script = observer(pool.dir());
    fs::create_directories(pool.dir().file("first"));
    ::setenv("XDG_DATA_HOME", pool.dir().file("first").c_str(), 1);
    pool.warm(script);
    const pid_t poolPid = pool.poolPid();
    ASSERT_GT(poolPid, 0);

    // XDG_DATA_HOME is not part of the key: the same pool serves a run with another value, and
    // the fork sees the new one, as a started worker would.
    fs::create_directories(pool.dir().file("second"));
    ::setenv("XDG_DATA_HOME", pool.dir().file("second").c_str(), 1);
    const auto r = runStudio(script);
    ::unsetenv("XDG_DATA_HOME");
    EXPECT_EQ(r.process.exitCode, 0) << r.process.err.substr(0, 2000);
    EXPECT_EQ(r.report["status"], "ok") << r.report.dump(2).substr(0, 2000);
    const auto seen = readJson(pool.dir().file("second/seen.json"));
    ASSERT_TRUE(seen.is_object()) << "the pooled run wrote nothing";
    EXPECT_EQ(seen["ppid"], poolPid) << "the worker was not forked by the pool";
    EXPECT_EQ(seen["pgid"], seen["pid"]) << "a pooled worker has a process group of its own";
    EXPECT_EQ(seen["data"], pool.dir().file("second"));
    EXPECT_EQ(seen["cwd"], fs::current_path().string());

    // What is not a request is refused, and the pool serves the next run.
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", pool.socket().c_str());
    ASSERT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    const std::string junk = "GET / HTTP/1.0\r\n\r\n";
    ASSERT_EQ(::send(fd, junk.data(), junk.size(), MSG_NOSIGNAL), static_cast<ssize_t>(junk.size()));
    std::string answer;
    char buf[512];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
        answer.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    EXPECT_NE(answer.find("\"refused\""), std::string::npos) << answer;

    // A pooled worker killed by a signal nobody in the studio sent (as the out-of-memory killer
    // would) is said as such, with the kernel's peak for it, which the pool read when it reaped it.
    const auto killed = runStudio(pool.dir().write("killed.py",
        "import os, signal\nheld = bytearray(300 * 1024 * 1024)\nfor i in range(0, len(held), 4096):\n"
        "    held[i] = 1\nos.kill(os.getpid(), signal.SIGKILL)\n"));
    EXPECT_EQ(killed.report["status"], "worker_died") << killed.report.dump(2).substr(0, 2000);
    const std::string message = killed.report.value("message", "");
    const auto at = message.find("peak memory was ");
    ASSERT_NE(at, std::string::npos) << message;
    EXPECT_GE(std::stol(message.substr(at + std::string("peak memory was ").size())), 300) << message;
    EXPECT_EQ(pool.poolPid(), poolPid) << "the pool ended after serving";
}

TEST(WorkerPool, APooledWorkerDiesWithAFrontEndKilledWithKill9)
{
    const WithoutWorkerPool none;
    PoolFolder pool;
    ::setenv("XDG_DATA_HOME", pool.dir().path().c_str(), 1);
    pool.warm(observer(pool.dir()));
    const std::string pidFile = pool.dir().file("loop.pid");
    const std::string script = pool.dir().write("loop.py",
        R"(import os, time, torch
with open(")"
            + pidFile + R"(", "w") as f:
    f.write(str(os.getpid()))
while True:
    time.sleep(0.1)

def fn(x):
    return x
example_inputs = (torch.ones(1),)
)");
    std::vector<std::string> args = {PS_TEST_STUDIO, "run", script, "--no-store", "--timeout", "600"};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t front = 0;
    ASSERT_EQ(::posix_spawn(&front, argv[0], nullptr, nullptr, argv.data(), environ), 0);
    pid_t worker = 0;
    ASSERT_TRUE(ProcessWatch::waitFor(
        [&] { return (std::ifstream(pidFile) >> worker) && worker > 0; }, std::chrono::seconds(120)))
        << "the script never started";
    EXPECT_TRUE(ProcessWatch::childrenOf(front).empty()) << "the worker was started, not forked by the pool";
    ::kill(front, SIGKILL);
    ::waitpid(front, nullptr, 0);
    ::unsetenv("XDG_DATA_HOME");
    EXPECT_TRUE(ProcessWatch::gone(worker, std::chrono::seconds(10)))
        << "pooled worker " << worker << " outlived its front end";
}

TEST(WorkerPool, OnlyWorkersThatWouldBeTheSameProcessShareAPool)
{
    TempDir dir;
    const std::string folder = dir.file("pool");
    const WithoutWorkerPool none;
    const std::string worker = dir.write("worker", "not a worker");
    const std::string package = dir.file("package");
    fs::create_directories(package);
    std::ofstream(package + "/module.py") << "x = 1\n";
    const std::vector<std::string> argv = {worker, "--python-env", "/env"};
    const std::vector<std::string> base = {"PATH=/usr/bin", "XDG_DATA_HOME=/a", "PS_WORKER_TOKEN=1:2:3"};
    const auto key = [&](const std::vector<std::string>& env, const std::vector<std::string>& args) {
        const auto pool = WorkerPool::forLaunch(args, env, package);
        return pool ? pool->socketPath() : std::string("off");
    };

    EXPECT_EQ(key(base, argv), "off") << "no folder named: pooling is off";
    ::setenv(WorkerPool::kVariable, folder.c_str(), 1);
    const std::string first = key(base, argv);
    ASSERT_NE(first, "off");
    EXPECT_EQ(fs::status(folder).permissions() & fs::perms::all, fs::perms::owner_all);
    EXPECT_EQ(key({"PATH=/usr/bin", "XDG_DATA_HOME=/b", "PS_WORKER_TOKEN=4:5:6"}, argv), first)
        << "variables read only when a run needs them share the pool";
    EXPECT_NE(key({"PATH=/usr/bin", "XDG_DATA_HOME=/a", "TORCHINDUCTOR_FREEZING=1"}, argv), first)
        << "a variable an import may read needs a pool of its own";
    EXPECT_NE(key(base, {worker, "--python-env", "/other"}), first);
    std::ofstream(package + "/module.py") << "x = 2  # edited\n";
    EXPECT_NE(key(base, argv), first) << "an edited module of the package needs a new pool";

    // A folder of another user's is never used: its pool could run a script as them.
    const std::string theirs = dir.file("theirs");
    fs::create_directories(theirs);
    if (::chown(theirs.c_str(), 65534, 65534) == 0 && ::getuid() == 0) {
        ::setenv(WorkerPool::kVariable, theirs.c_str(), 1);
        EXPECT_EQ(key(base, argv), "off");
    }
    ::unsetenv(WorkerPool::kVariable);
}
