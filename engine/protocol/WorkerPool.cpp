#include "protocol/WorkerPool.h"

#include "protocol/ProcessTree.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ps::protocol {

namespace {

namespace fs = std::filesystem;

// Variables no import reads (each is read when a run needs it, in the fork, which has the
// request's environment): a worker differing only in these is served by the same pool.
constexpr std::array kKeyFree
    = {ProcessTree::kVariable, "PWD", "OLDPWD", "SHLVL", "_", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME",
        "PRECOMPILE_STUDIO_CACHE_DIR", "PS_WORKER_WATCHDOG_GRACE_S", WorkerPool::kVariable, WorkerPool::kIdleVariable};
constexpr const char* kKeyFreePrefixes[] = {"GTEST_", "CTEST_"};

// How long a pool may take to answer a request (it forks at once).
constexpr int kAnswerMs = 10'000;

std::string nameOf(const std::string& entry)
{
    return entry.substr(0, entry.find('='));
}

bool keyFree(const std::string& entry)
{
    const std::string name = nameOf(entry);
    for (const char* free : kKeyFree)
        if (name == free)
            return true;
    for (const char* prefix : kKeyFreePrefixes)
        if (name.rfind(prefix, 0) == 0)
            return true;
    return false;
}

class Fnv {
public:
    void add(std::string_view text)
    {
        for (const unsigned char c : text)
            m_hash = (m_hash ^ c) * 1099511628211ULL;
        m_hash = (m_hash ^ 0xff) * 1099511628211ULL;  // a separator no text holds
    }
    void add(long long n) { add(std::to_string(n)); }
    std::string hex() const
    {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m_hash));
        return text;
    }

private:
    std::uint64_t m_hash = 14695981039346656037ULL;
};

void addFile(Fnv& fnv, const fs::path& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        return;
    fnv.add(path.string());
    fnv.add(static_cast<long long>(st.st_ino));
    fnv.add(static_cast<long long>(st.st_size));
    fnv.add(static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000LL + st.st_mtim.tv_nsec);
}

// The folder, made if need be, owned by this user and closed to everyone else.
bool privateFolder(const std::string& folder)
{
    std::error_code ec;
    fs::create_directories(folder, ec);
    struct stat st { };
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
        return false;
    if ((st.st_mode & 077) != 0 && ::chmod(folder.c_str(), 0700) != 0)
        return false;
    return true;
}

bool waitReadable(int fd, int ms)
{
    pollfd p{fd, POLLIN, 0};
    int r;
    do {
        r = ::poll(&p, 1, ms);
    } while (r < 0 && errno == EINTR);
    return r > 0;
}

bool sendAll(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

std::optional<WorkerPool> WorkerPool::forLaunch(
    const std::vector<std::string>& argv, const std::vector<std::string>& environment, const std::string& packageDir)
{
    const char* folder = std::getenv(kVariable);
    if (!folder || !*folder || argv.empty() || !privateFolder(folder))
        return std::nullopt;
    Fnv key;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        key.add(argv[i]);
        // An environment as it is: its real folder (a relative path means another in another
        // folder) and its site-packages (an install or removal changes the folder's mtime).
        if (i > 0 && (argv[i - 1] == "--python-env" || argv[i - 1] == "--user-env")) {
            std::error_code ec;
            const fs::path env = fs::weakly_canonical(argv[i], ec);
            key.add(env.string());
            for (auto it = fs::directory_iterator(env / "lib", ec); !ec && it != fs::end(it); it.increment(ec))
                addFile(key, it->path() / "site-packages");
        }
    }
    std::vector<std::string> keyed;
    for (const auto& entry : environment)
        if (!keyFree(entry))
            keyed.push_back(entry);
    std::sort(keyed.begin(), keyed.end());
    for (const auto& entry : keyed)
        key.add(entry);
    // What the pool imported, as it is on disk now: a rebuilt worker or an edited module gets a
    // new pool (the old one idles out).
    addFile(key, argv.front());
    std::error_code ec;
    if (!packageDir.empty())
        for (auto it = fs::recursive_directory_iterator(packageDir, ec); !ec && it != fs::end(it); it.increment(ec))
            if (it->path().extension() == ".py")
                addFile(key, it->path());

    WorkerPool pool;
    pool.m_socket = (fs::path(folder) / (key.hex() + ".sock")).string();
    if (pool.m_socket.size() >= sizeof(sockaddr_un::sun_path))
        return std::nullopt;
    pool.m_argv = argv;
    pool.m_environment = environment;
    return pool;
}

std::optional<WorkerPool::Forked> WorkerPool::fork(int in, int out, int err, int channel, bool& sent) const
{
    sent = false;
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::nullopt;
    // connect (a full backlog) and every send wait kAnswerMs at most.
    const timeval bound{kAnswerMs / 1000, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, m_socket.c_str(), m_socket.size() + 1);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        startPool();
        return std::nullopt;
    }
    const auto refuse = [fd]() -> std::optional<Forked> {
        ::close(fd);
        return std::nullopt;
    };
    // Only a pool of this user: another could run a script as someone else.
    ucred peer{};
    socklen_t peerSize = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &peerSize) != 0 || peer.uid != ::getuid())
        return refuse();

    std::string body;
    if (char cwd[4096]; ::getcwd(cwd, sizeof cwd))
        body.append(cwd);
    else
        body.append("/");
    body.push_back('\0');
    for (const auto& entry : m_environment) {
        body.append(entry);
        body.push_back('\0');
    }
    std::string message(4, '\0');
    const auto size = static_cast<std::uint32_t>(body.size());
    for (int i = 0; i < 4; ++i)
        message[static_cast<std::size_t>(i)] = static_cast<char>((size >> (8 * i)) & 0xff);
    message += body;

    // The first byte carries the descriptors (SCM_RIGHTS); the rest follows as plain bytes.
    const int fds[4] = {in, out, err, channel};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof fds)] = {};
    iovec iov{message.data(), 1};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof fds);
    std::memcpy(CMSG_DATA(cmsg), fds, sizeof fds);
    ssize_t written;
    do {
        written = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    } while (written < 0 && errno == EINTR);
    if (written != 1)
        return refuse();
    sent = true;
    if (!sendAll(fd, message.data() + 1, message.size() - 1))
        return refuse();

    std::string line;
    while (line.find('\n') == std::string::npos) {
        if (!waitReadable(fd, kAnswerMs))
            return refuse();
        char buf[512];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return refuse();
        line.append(buf, static_cast<std::size_t>(n));
    }
    const auto end = line.find('\n');
    const auto answer = nlohmann::json::parse(line.substr(0, end), nullptr, false);
    // A pid of 1 or less would make a cancel's kill(-pid) a kill of everything.
    if (!answer.is_object() || !answer.contains("pid") || !answer["pid"].is_number_integer()
        || answer["pid"].get<long long>() <= 1 || answer["pid"].get<long long>() > 0x7fffffff)
        return refuse();
    return Forked{static_cast<pid_t>(answer["pid"].get<long long>()), fd, line.substr(end + 1)};
}

std::optional<ExitStatus> WorkerPool::ended(int connection, std::string& buffer, bool block)
{
    while (buffer.find('\n') == std::string::npos) {
        if (!waitReadable(connection, block ? kAnswerMs : 0)) {
            if (!block)
                return std::nullopt;
            ExitStatus silent;  // a pool stopped or frozen: the worker is as good as killed
            silent.signaled = true;
            silent.signal = SIGKILL;
            return silent;
        }
        char buf[512];
        const ssize_t n = ::recv(connection, buf, sizeof buf, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) {
            ExitStatus gone;
            gone.signaled = true;
            gone.signal = SIGKILL;
            return gone;
        }
        buffer.append(buf, static_cast<std::size_t>(n));
    }
    const auto answer = nlohmann::json::parse(buffer.substr(0, buffer.find('\n')), nullptr, false);
    ExitStatus status;
    if (answer.is_object() && answer.contains("signal") && answer["signal"].is_number_integer()) {
        status.signaled = true;
        status.signal = answer["signal"].get<int>();
    } else {
        status.exited = true;
        status.code = answer.is_object() && answer.contains("exit") && answer["exit"].is_number_integer()
            ? answer["exit"].get<int>()
            : 255;
    }
    if (answer.is_object() && answer.contains("maxrss") && answer["maxrss"].is_number_integer())
        status.peakMemoryKiB = answer["maxrss"].get<long>();
    return status;
}

void WorkerPool::startPool() const
{
    // A key seen once may never come again (a test's own folders in the environment): only a
    // second start of one is worth the pool's own import of torch.
    const std::string stem = m_socket.substr(0, m_socket.size() - 5);
    if (const std::string seen = stem + ".seen"; ::access(seen.c_str(), F_OK) != 0) {
        const int mark = ::open(seen.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (mark >= 0)
            ::close(mark);
        return;
    }
    // A pool of this key holds its lock while it lives (pool.py): none is started beside it.
    const std::string lockPath = m_socket + ".lock";
    const int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0)
        return;
    const bool free = ::flock(lock, LOCK_EX | LOCK_NB) == 0;
    ::close(lock);
    if (!free)
        return;

    const char* idle = std::getenv(kIdleVariable);
    std::vector<std::string> args = m_argv;
    args.insert(args.end(), {"--pool", m_socket, "--pool-idle", idle && *idle ? idle : "60"});
    std::vector<std::string> environment;
    for (const auto& entry : m_environment)
        if (nameOf(entry) != ProcessTree::kVariable)  // a pool outlives the front end that starts it
            environment.push_back(entry);
    std::vector<char*> argv, envp;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : environment)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const std::string logPath = stem + ".log";

    // Detached twice over (a session of its own, reparented to init), holding none of this
    // process's descriptors: nothing waits on it, and it keeps no pipe of anyone's open.
    const pid_t first = ::fork();
    if (first < 0)
        return;
    if (first == 0) {
        ::setsid();
        if (::fork() != 0)
            ::_exit(0);
        const int null = ::open("/dev/null", O_RDONLY);
        const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(null, 0);
        ::dup2(log >= 0 ? log : null, 1);
        ::dup2(log >= 0 ? log : null, 2);
        ::signal(SIGPIPE, SIG_DFL);
        if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
            for (int fd = 3; fd < 4096; ++fd)
                ::close(fd);
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(first, &status, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace ps::protocol
