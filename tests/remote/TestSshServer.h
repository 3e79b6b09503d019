#pragma once

// Test support: a real OpenSSH server of the test's own (Debian's openssh-server), on 127.0.0.1
// and a free port, with host and user keys made in a temporary folder, its own sshd_config and
// an ssh_config whose aliases reach it; stopped with the object. The "remote" host is this
// machine, reached through it. Nothing outside the folder is touched: as root, sshd runs in a
// mount namespace of its own whose private /run holds the privilege-separation folder.

#include "StudioProcess.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace ps::test {

class TestSshServer {
public:
    TestSshServer();
    ~TestSshServer();
    TestSshServer(const TestSshServer&) = delete;
    TestSshServer& operator=(const TestSshServer&) = delete;

    /// "" when the server is up; else why not.
    const std::string& problem() const { return m_problem; }
    int port() const { return m_port; }
    /// The alias that logs in with the authorised key.
    static constexpr const char* kHost = "studio-test";
    /// The alias that offers a key the server does not know.
    static constexpr const char* kBadKeyHost = "studio-test-badkey";
    /// The alias of a port nothing listens on.
    static constexpr const char* kClosedHost = "studio-test-closed";
    /// PS_SSH_COMMAND=ssh -F <its ssh_config>: the environment a studio needs to use the aliases.
    std::string sshCommand() const;
    std::vector<std::string> environment() const { return {"PS_SSH_COMMAND=" + sshCommand()}; }
    /// The host side's TMPDIR (relays make their private folders there).
    std::string remoteTmp() const { return m_dir.file("remote-tmp"); }
    /// The relays' private folders still in remoteTmp().
    std::vector<std::string> relayFolders() const;
    /// Processes started through this server (their environment carries its mark).
    std::vector<pid_t> sessionProcesses() const;
    /// The relays (`precompile-studio remote serve`) running through this server.
    std::vector<pid_t> relays() const;
    /// Waits up to `seconds` until no process started through this server is left.
    bool waitUntilNoSessionProcess(double seconds) const;
    const TempDir& dir() const { return m_dir; }
    /// sshd's own log.
    std::string log() const;

private:
    bool start();
    TempDir m_dir;
    std::string m_mark;
    int m_port = 0;
    pid_t m_pid = -1;
    std::string m_problem;
};

/// The parent of process `pid` (0 when it is gone).
pid_t parentOf(pid_t pid);

}  // namespace ps::test
