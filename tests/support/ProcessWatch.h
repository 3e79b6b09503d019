#pragma once

// Test support: what the tests that watch processes ask of /proc (Linux), polled until a
// deadline, never for a fixed time.

#include <chrono>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ps::test {

class ProcessWatch {
public:
    /// Running and not a zombie (a container's init may be slow to reap).
    static bool alive(pid_t pid);
    /// Polls until `pid` is no longer alive; false if it still is after `within`.
    static bool gone(pid_t pid, std::chrono::seconds within);
    /// The live (non-zombie) children of `parent`.
    static std::vector<pid_t> childrenOf(pid_t parent);
    /// Polls `ready` every few milliseconds until it holds; false if it did not within `within`.
    static bool waitFor(const std::function<bool()>& ready, std::chrono::seconds within);
    /// Polls until the file holds `text`; false if it did not within `within`.
    static bool waitForText(const std::string& file, const std::string& text, std::chrono::seconds within);
};

}  // namespace ps::test
