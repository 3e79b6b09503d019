#include "TestSshServer.h"

#include "FreePort.h"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <random>
#include <sstream>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ps::test {

namespace fs = std::filesystem;

namespace {

bool accepts(int port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(s);
    return ok;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

pid_t parentOf(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream rest(text.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    return ppid;
}

TestSshServer::TestSshServer()
{
    std::random_device rd;
    m_mark = "ps-remote-test-" + std::to_string(rd()) + std::to_string(::getpid());
    if (!start() && m_problem.empty())
        m_problem = "sshd did not start";
}

TestSshServer::~TestSshServer()
{
    if (m_pid > 0) {
        ::kill(-m_pid, SIGTERM);
        ::kill(m_pid, SIGTERM);
        int st = 0;
        ::waitpid(m_pid, &st, 0);
    }
    // Whatever a test left running through the server goes with it.
    for (pid_t p : sessionProcesses())
        ::kill(p, SIGKILL);
}

std::string TestSshServer::sshCommand() const
{
    return "ssh -F " + m_dir.file("ssh_config");
}

bool TestSshServer::start()
{
    if (!fs::exists("/usr/sbin/sshd")) {
        m_problem = "/usr/sbin/sshd is missing: install openssh-server (packaging/debian-packages.txt)";
        return false;
    }
    fs::create_directory(remoteTmp());
    for (const char* key : {"host_key", "user_key", "other_key"}) {
        auto r = runProcess({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", m_dir.file(key)});
        if (r.exitCode != 0) {
            m_problem = "ssh-keygen failed: " + r.err;
            return false;
        }
    }
    fs::copy_file(m_dir.file("user_key.pub"), m_dir.file("authorized_keys"));
    const std::string user = ::getuid() == 0 ? "root" : std::string(std::getenv("USER") ? std::getenv("USER") : "");
    for (int attempt = 0; attempt < 5 && m_pid < 0; ++attempt) {
        m_port = freeLoopbackPort();
        std::ofstream(m_dir.file("sshd_config"))
            << "ListenAddress 127.0.0.1:" << m_port << "\n"
            << "HostKey " << m_dir.file("host_key") << "\n"
            << "AuthorizedKeysFile " << m_dir.file("authorized_keys") << "\n"
            << "PidFile " << m_dir.file("sshd.pid") << "\n"
            << "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
            << "KbdInteractiveAuthentication no\n"
            << "PermitRootLogin prohibit-password\n"
            << "MaxStartups 50\nMaxSessions 50\n"
            << "SetEnv PS_REMOTE_TEST_MARK=" << m_mark << " TMPDIR=" << remoteTmp() << "\n";
        const std::string sshd = "exec /usr/sbin/sshd -D -e -f " + m_dir.file("sshd_config");
        std::vector<std::string> argv;
        if (::getuid() == 0)
            argv = {"/usr/bin/unshare", "-m", "/bin/sh", "-c",
                "mount -t tmpfs tmpfs /run && mkdir -m 755 /run/sshd && " + sshd};
        else
            argv = {"/bin/sh", "-c", sshd};
        const std::string logFile = m_dir.file("sshd.log");
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::setpgid(0, 0);
            // The server dies with the test, even one killed outright (a timeout, kill -9).
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (::getppid() == 1)
                ::_exit(1);
            const int fd = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            std::vector<char*> args;
            for (auto& a : argv)
                args.push_back(a.data());
            args.push_back(nullptr);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        bool up = false;
        while (std::chrono::steady_clock::now() < deadline) {
            if (accepts(m_port)) {
                up = true;
                break;
            }
            int st = 0;
            if (::waitpid(pid, &st, WNOHANG) == pid)
                break;  // it ended: the port was taken, or it cannot run here
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (up) {
            m_pid = pid;
        } else {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, nullptr, WNOHANG);
            m_problem = "sshd did not start: " + log();
        }
    }
    if (m_pid < 0)
        return false;
    m_problem.clear();
    // The host key is known in advance: no prompt, no trust on first use.
    std::ofstream(m_dir.file("known_hosts")) << "[127.0.0.1]:" << m_port << " " << readAll(m_dir.file("host_key.pub"));
    std::ofstream config(m_dir.file("ssh_config"));
    auto alias = [&](const char* name, const char* key, int port) {
        config << "Host " << name << "\n"
               << "  HostName 127.0.0.1\n  Port " << port << "\n  User " << user << "\n"
               << "  IdentityFile " << m_dir.file(key) << "\n  IdentitiesOnly yes\n"
               << "  UserKnownHostsFile " << m_dir.file("known_hosts") << "\n  StrictHostKeyChecking yes\n"
               << "  GlobalKnownHostsFile /dev/null\n  IdentityAgent none\n";
    };
    alias(kHost, "user_key", m_port);
    alias(kBadKeyHost, "other_key", m_port);
    alias(kClosedHost, "user_key", freeLoopbackPort());
    return true;
}

std::string TestSshServer::log() const
{
    return readAll(m_dir.file("sshd.log"));
}

std::vector<std::string> TestSshServer::relayFolders() const
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(remoteTmp(), ec))
        if (e.path().filename().string().rfind("precompile-studio-remote-", 0) == 0)
            out.push_back(e.path().string());
    return out;
}

std::vector<pid_t> TestSshServer::sessionProcesses() const
{
    std::vector<pid_t> out;
    const std::string needle = "PS_REMOTE_TEST_MARK=" + m_mark;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string env = readAll(e.path().string() + "/environ");
        if (env.find(needle) != std::string::npos)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

std::vector<pid_t> TestSshServer::relays() const
{
    std::vector<pid_t> out;
    for (pid_t p : sessionProcesses()) {
        const std::string cmdline = readAll("/proc/" + std::to_string(p) + "/cmdline");
        if (cmdline.find(std::string("remote\0serve", 12)) != std::string::npos)
            out.push_back(p);
    }
    return out;
}

bool TestSshServer::waitUntilNoSessionProcess(double seconds) const
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        // A zombie is gone for this purpose: it runs nothing.
        bool any = false;
        for (pid_t p : sessionProcesses()) {
            std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
            std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
            const auto close = text.rfind(')');
            if (close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z')
                any = true;
        }
        if (!any)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace ps::test
