#include "protocol/WorkerProcess.h"

#include "model/JsonLimits.h"
#include "protocol/FrameEncoder.h"
#include "protocol/ProcessTree.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/SignalNames.h"
#include "protocol/WorkerPool.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ps::protocol {

namespace {

using Clock = std::chrono::steady_clock;

// How long the pipes may stay open after the worker is gone (a grandchild still holding
// them) before they are closed anyway.
constexpr auto kPipeGrace = std::chrono::milliseconds(500);

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

void setNonBlocking(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// dup2 onto `target`, leaving it inheritable even when it is already that descriptor.
void moveTo(int fd, int target)
{
    if (fd == target)
        ::fcntl(fd, F_SETFD, 0);
    else
        ::dup2(fd, target);
}

std::string errnoText(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

// The channel's socket pair and the stdout and stderr pipes, all close-on-exec.
void makeDescriptors(int sv[2], int out[2], int err[2])
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw ProtocolError(errnoText("socketpair"));
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        throw ProtocolError(errnoText("pipe"));
}

}  // namespace

WorkerProcess::WorkerProcess(WorkerLaunch launch)
    : m_libraryPath(launch.libraryPath), m_packageDir(launch.pythonPackageDir)
{
    m_argv = {launch.executable, "--python-env", launch.pythonEnv, "--python-path", launch.pythonPackageDir};
    if (!launch.userEnv.empty()) {
        m_argv.insert(m_argv.end(), {"--user-env", launch.userEnv});
        for (const auto& dir : launch.userSiteDirs)
            m_argv.insert(m_argv.end(), {"--user-site", dir});
    }
}

WorkerProcess::WorkerProcess(std::vector<std::string> argv, Channel channel) : m_argv(std::move(argv)), m_mode(channel)
{ }

nlohmann::json WorkerProcess::where() const
{
    return {{"host", nullptr}};
}

WorkerProcess::~WorkerProcess()
{
    kill();
}

void WorkerProcess::start()
{
    int sv[2], out[2], err[2];
    makeDescriptors(sv, out, err);

    std::vector<std::string> args = m_argv;
    if (args.empty())
        throw ProtocolError("no program to start");
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // Every descendant inherits the token (ProcessTree), however it leaves the process group.
    m_token = ProcessTree::newToken();
    std::vector<std::string> environment;
    const auto named = [](const char* entry, const char* name) {
        return std::strncmp(entry, name, std::strlen(name)) == 0 && entry[std::strlen(name)] == '=';
    };
    for (char** e = environ; *e; ++e)
        if (!named(*e, ProcessTree::kVariable) && (m_libraryPath.empty() || !named(*e, "LD_LIBRARY_PATH")))
            environment.emplace_back(*e);
    environment.push_back(std::string(ProcessTree::kVariable) + "=" + m_token);
    if (!m_libraryPath.empty()) {
        const char* inherited = std::getenv("LD_LIBRARY_PATH");
        environment.push_back("LD_LIBRARY_PATH=" + m_libraryPath
            + (inherited && *inherited ? ":" + std::string(inherited) : std::string()));
    }
    if (m_mode == Channel::Fd3) {
        bool sent = false;
        if (startPooled(environment, sv[1], out[1], err[1], sent)) {
            adopt(sv, out, err);
            return;
        }
        if (sent) {
            // A pool that took the descriptors and did not answer may still fork onto them:
            // the worker started here gets descriptors of its own.
            for (int fd : {sv[0], sv[1], out[0], out[1], err[0], err[1]})
                ::close(fd);
            makeDescriptors(sv, out, err);
        }
    }
    std::vector<char*> envp;
    for (auto& e : environment)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t parent = ::getpid();

    const pid_t pid = ::fork();
    if (pid < 0)
        throw ProtocolError(errnoText("fork"));
    if (pid == 0) {
        ::setpgid(0, 0);
        // The worker dies with the thread that started it (a front end killed with kill -9
        // included); the race with a parent that died before this line is closed by getppid.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(1);
        if (m_mode == Channel::Stdio) {
            // The channel is the program's stdin and stdout (ssh carries it to the host).
            ::dup2(sv[1], 0);
            ::dup2(sv[1], 1);
            moveTo(err[1], 2);
        } else {
            const int devnull = ::open("/dev/null", O_RDONLY);
            moveTo(devnull, 0);
            moveTo(out[1], 1);
            moveTo(err[1], 2);
            moveTo(sv[1], kWorkerChannelFd);
        }
        ::signal(SIGPIPE, SIG_DFL);
        ::execve(argv[0], argv.data(), envp.data());
        const std::string msg = "precompile-studio: cannot execute " + args[0] + ": " + std::strerror(errno) + "\n";
        (void)!::write(2, msg.data(), msg.size());
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    m_pid = pid;
    adopt(sv, out, err);
}

void WorkerProcess::adopt(int sv[2], int out[2], int err[2])
{
    // The worker's ends are its own now (or the pool's, which passed them on).
    for (int fd : {sv[1], out[1], err[1]})
        if (fd >= 0)
            ::close(fd);
    m_reaped = false;
    m_channel = sv[0];
    m_out = out[0];
    m_err = err[0];
    if (m_mode == Channel::Stdio)
        closeFd(m_out);  // its stdout is the channel
    for (int fd : {m_channel, m_out, m_err})
        if (fd >= 0)
            setNonBlocking(fd);
    m_channelClosedAt.reset();
    m_decoder = FrameDecoder();
}

bool WorkerProcess::startPooled(const std::vector<std::string>& environment, int channel, int out, int err, bool& sent)
{
    const auto pool = WorkerPool::forLaunch(m_argv, environment, m_packageDir);
    if (!pool)
        return false;
    const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const auto forked = pool->fork(devnull, out, err, channel, sent);
    if (devnull >= 0)
        ::close(devnull);
    if (!forked)
        return false;  // no pool for this key yet: one is starting, this worker starts itself
    m_pid = forked->pid;
    m_pool = forked->connection;
    m_poolAnswer = forked->rest;
    return true;
}

bool WorkerProcess::send(const nlohmann::json& message)
{
    return sendPayload(message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

bool WorkerProcess::sendPayload(std::string_view payload)
{
    if (m_channel < 0)
        return false;
    const std::string frame = FrameEncoder::encodePayload(payload);
    std::size_t done = 0;
    while (done < frame.size()) {
        const ssize_t n = ::send(m_channel, frame.data() + done, frame.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            pollfd p{m_channel, POLLOUT, 0};
            ::poll(&p, 1, 1000);
        } else {
            return false;
        }
    }
    return true;
}

std::optional<WorkerProcess::Event> WorkerProcess::reap(bool block)
{
    if (m_pid <= 0 || m_reaped)
        return std::nullopt;
    if (m_pool >= 0) {
        auto status = WorkerPool::ended(m_pool, m_poolAnswer, block);
        if (!status)
            return std::nullopt;
        m_reaped = true;
        closeFd(m_pool);
        ProcessTree::killTagged(m_token);  // the pool killed the worker's process group
        return Event{Event::Kind::Exited, {}, 0, {}, *status};
    }
    int st = 0;
    pid_t r;
    rusage usage{};
    do {
        r = ::wait4(m_pid, &st, block ? 0 : WNOHANG, &usage);
    } while (r < 0 && errno == EINTR);
    if (r != m_pid)
        return std::nullopt;
    m_reaped = true;
    Event ev{Event::Kind::Exited, {}, 0, {}, {}};
    if (WIFEXITED(st)) {
        ev.status.exited = true;
        ev.status.code = WEXITSTATUS(st);
    } else if (WIFSIGNALED(st)) {
        ev.status.signaled = true;
        ev.status.signal = WTERMSIG(st);
    }
    // The kernel's own figure for the reaped child (Linux: KiB), whatever killed it.
    ev.status.peakMemoryKiB = usage.ru_maxrss;
    // Whatever the worker started dies with it: its process group, and what left the group.
    ::kill(-m_pid, SIGKILL);
    ProcessTree::killTagged(m_token);
    return ev;
}

std::optional<WorkerProcess::Event> WorkerProcess::next(Clock::time_point deadline)
{
    char buf[64 * 1024];
    for (;;) {
        if (auto payload = m_decoder.next()) {
            if (m_mode == Channel::Stdio)
                return Event{Event::Kind::Frame, {}, 0, std::move(*payload), {}};
            std::string why;
            auto message = model::JsonLimits::parse(*payload, kMaxFrameBytes, &why);
            if (!message)
                throw ProtocolError("the worker sent a message that " + why);
            return Event{Event::Kind::Message, std::move(*message), 0, {}, {}};
        }
        if (m_pid <= 0 || m_reaped)
            return std::nullopt;
        if (m_channel < 0 && m_out < 0 && m_err < 0)
            return reap(true);
        if (m_channel < 0 && m_channelClosedAt && Clock::now() - *m_channelClosedAt > kPipeGrace) {
            // The channel is gone and the pipes linger: the worker is dead or dying.
            if (auto ev = reap(false)) {
                closeFd(m_out);
                closeFd(m_err);
                return ev;
            }
        }

        pollfd fds[4];
        int n = 0;
        for (int fd : {m_channel, m_out, m_err, m_wakeFd})
            if (fd >= 0)
                fds[n++] = pollfd{fd, POLLIN, 0};
        auto now = Clock::now();
        if (now >= deadline)
            return std::nullopt;
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
        if (m_channel < 0)
            wait = std::min<long long>(wait, 100);
        const int ready = ::poll(fds, n, static_cast<int>(std::min<long long>(wait, 60'000)));
        if (ready < 0 && errno != EINTR)
            throw ProtocolError(errnoText("poll"));
        if (ready <= 0)
            continue;
        for (int i = 0; i < n; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const int fd = fds[i].fd;
            if (fd == m_wakeFd)
                return Event{Event::Kind::Wake, {}, 0, {}, {}};
            const ssize_t got = ::read(fd, buf, sizeof buf);
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (fd == m_channel) {
                if (got <= 0) {
                    closeFd(m_channel);
                    m_channelClosedAt = Clock::now();
                } else {
                    m_decoder.feed(buf, static_cast<std::size_t>(got));
                }
                continue;  // messages are returned at the top of the loop
            }
            const int stream = fd == m_out ? 1 : 2;
            if (got <= 0) {
                closeFd(stream == 1 ? m_out : m_err);
                continue;
            }
            return Event{Event::Kind::Output, {}, stream, std::string(buf, static_cast<std::size_t>(got)), {}};
        }
    }
}

void WorkerProcess::kill()
{
    // A pooled worker is reaped by its pool as soon as it ends: once the pool has said so, its
    // pid may be another process's, and no signal goes to it.
    if (m_pool >= 0)
        reap(false);
    if (m_pid > 0 && !m_reaped) {
        ::kill(-m_pid, SIGKILL);
        ::kill(m_pid, SIGKILL);
        reap(true);
    }
    closeAll();
}

void WorkerProcess::closeAll()
{
    closeFd(m_pool);
    closeFd(m_channel);
    closeFd(m_out);
    closeFd(m_err);
}

}  // namespace ps::protocol
