#pragma once

// Tests that need what only a process of its own may do: drop root (root ignores permission
// bits, so a read-only folder is only read-only to another user) or mount a small tmpfs in a
// private mount namespace (a full disk that touches nothing else). The body runs in a forked
// child; its expectations print there and decide the child's exit status.

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

namespace ps::library::test {

/// How a child ended. Skipped: the body said the machine cannot do what the test needs.
enum class ChildOutcome { Passed, Failed, Skipped };

/// Runs `body` in a forked child and waits for it. `body` returns an empty string when it ran,
/// or why it could not (the child then exits 77).
inline ChildOutcome inChild(const std::function<std::string()>& body, std::string* skipReason)
{
    std::fflush(stdout);
    std::fflush(stderr);
    int reason[2];
    if (::pipe(reason) != 0)
        return ChildOutcome::Failed;
    const pid_t pid = ::fork();
    if (pid < 0)
        return ChildOutcome::Failed;
    if (pid == 0) {
        ::close(reason[0]);
        std::string why;
        try {
            why = body();
        } catch (const std::exception& e) {
            ADD_FAILURE() << "threw: " << e.what();
        }
        std::fflush(stdout);
        std::fflush(stderr);
        if (!why.empty()) {
            [[maybe_unused]] const auto n = ::write(reason[1], why.data(), why.size());
            ::_exit(77);
        }
        ::_exit(::testing::Test::HasFailure() ? 1 : 0);
    }
    ::close(reason[1]);
    std::string why;
    char buffer[256];
    for (ssize_t n; (n = ::read(reason[0], buffer, sizeof buffer)) > 0;)
        why.append(buffer, static_cast<std::size_t>(n));
    ::close(reason[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        if (skipReason)
            *skipReason = why;
        return ChildOutcome::Skipped;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ChildOutcome::Passed : ChildOutcome::Failed;
}

/// Runs `body` in a child; skips the test where the child says it cannot run here.
#define PS_IN_CHILD(body)                                                                                              \
    do {                                                                                                               \
        std::string psSkipReason;                                                                                      \
        const auto psOutcome = ::ps::library::test::inChild(body, &psSkipReason);                                      \
        if (psOutcome == ::ps::library::test::ChildOutcome::Skipped)                                                   \
            GTEST_SKIP() << psSkipReason;                                                                              \
        EXPECT_EQ(psOutcome, ::ps::library::test::ChildOutcome::Passed) << "the child's failures are above";           \
    } while (false)

/// In a child: from root, become the unprivileged user 65534 so that permission bits apply.
/// Returns why not, or an empty string.
inline std::string dropRoot()
{
    if (::geteuid() != 0)
        return {};
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
        return "cannot drop root to user 65534";
    return {};
}

inline bool writeProcFile(const char* path, const std::string& text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

/// In a child: a mount namespace of its own (through a user namespace when not root), so that
/// it may mount a tmpfs without touching the machine. Returns why not, or an empty string.
inline std::string privateMounts()
{
    if (::geteuid() == 0) {
        if (::unshare(CLONE_NEWNS) != 0)
            return "cannot make a mount namespace (no CAP_SYS_ADMIN)";
    } else {
        const uid_t uid = ::getuid();
        const gid_t gid = ::getgid();
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            return "cannot make a user and mount namespace (unprivileged user namespaces are off)";
        if (!writeProcFile("/proc/self/setgroups", "deny")
            || !writeProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1")
            || !writeProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1"))
            return "cannot map the user into its namespace";
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return "cannot make the mounts private";
    return {};
}

}  // namespace ps::library::test
