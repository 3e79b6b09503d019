#include "protocol/ProcessTree.h"

#include <atomic>
#include <cctype>
#include <charconv>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

namespace ps::protocol {

namespace {

// Calls `visit(pid, token)` for every process whose environment carries a worker token.
void forEachTagged(const std::function<void(pid_t, const std::string&)>& visit)
{
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return;
    const std::string prefix = std::string(ProcessTree::kVariable) + "=";
    const pid_t self = ::getpid();
    while (const dirent* entry = ::readdir(proc)) {
        pid_t pid = 0;
        const char* name = entry->d_name;
        const auto [end, ec] = std::from_chars(name, name + std::char_traits<char>::length(name), pid);
        if (ec != std::errc() || *end != '\0' || pid <= 0 || pid == self)
            continue;
        std::ifstream env("/proc/" + std::string(name) + "/environ", std::ios::binary);
        if (!env)
            continue;
        std::string variable;
        while (std::getline(env, variable, '\0'))
            if (variable.compare(0, prefix.size(), prefix) == 0) {
                visit(pid, variable.substr(prefix.size()));
                break;
            }
    }
    ::closedir(proc);
}

}  // namespace

std::optional<unsigned long long> ProcessTree::startTime(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text))
        return std::nullopt;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; fields follow the last ')'.
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream fields(text.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22; ++i)
        if (!(fields >> field))
            return std::nullopt;
    unsigned long long ticks = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), ticks);
    if (ec != std::errc())
        return std::nullopt;
    return ticks;
}

std::string ProcessTree::newToken()
{
    static std::atomic<unsigned> counter{0};
    const pid_t self = ::getpid();
    return std::to_string(self) + ":" + std::to_string(startTime(self).value_or(0)) + ":"
        + std::to_string(counter.fetch_add(1));
}

int ProcessTree::killTagged(const std::string& token)
{
    int killed = 0;
    for (int pass = 0; pass < 2; ++pass)
        forEachTagged([&](pid_t pid, const std::string& found) {
            if (found == token && ::kill(pid, SIGKILL) == 0)
                ++killed;
        });
    return killed;
}

int ProcessTree::sweepOrphans()
{
    int killed = 0;
    forEachTagged([&](pid_t pid, const std::string& token) {
        // token: FRONTPID:STARTTIME:N
        const auto first = token.find(':');
        const auto second = token.find(':', first == std::string::npos ? first : first + 1);
        if (first == std::string::npos || second == std::string::npos)
            return;
        pid_t front = 0;
        unsigned long long started = 0;
        std::from_chars(token.data(), token.data() + first, front);
        std::from_chars(token.data() + first + 1, token.data() + second, started);
        if (front <= 0)
            return;
        const auto now = startTime(front);
        if (now && *now == started)
            return;  // its front end still runs
        if (::kill(pid, SIGKILL) == 0)
            ++killed;
    });
    return killed;
}

}  // namespace ps::protocol
