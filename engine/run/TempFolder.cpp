#include "run/TempFolder.h"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <stdlib.h>
#include <unistd.h>

namespace ps::run {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kPrefix = "precompile-studio-run-";

fs::path tempRoot()
{
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    return ec ? fs::path("/tmp") : base;
}
}  // namespace

TempFolder::TempFolder()
{
    std::string tmpl = (tempRoot() / (std::string(kPrefix) + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (::mkdtemp(tmpl.data()))
        m_path = tmpl;
}

TempFolder::~TempFolder()
{
    std::error_code ec;
    if (!m_path.empty())
        fs::remove_all(m_path, ec);
}

int TempFolder::sweepStale()
{
    int removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(tempRoot(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, kPrefix.size(), kPrefix) != 0 || !it->is_directory(ec))
            continue;
        const std::string rest = name.substr(kPrefix.size());
        const auto dash = rest.find('-');
        bool stale = false;
        if (dash == std::string::npos) {
            // The older form names no owner: only a day-old one is surely abandoned.
            const auto age = fs::file_time_type::clock::now() - fs::last_write_time(it->path(), ec);
            stale = !ec && age > std::chrono::hours(24);
        } else {
            pid_t pid = 0;
            const auto [last, parsed] = std::from_chars(rest.data(), rest.data() + dash, pid);
            stale = parsed == std::errc() && last == rest.data() + dash && pid > 0 && ::kill(pid, 0) != 0
                && errno == ESRCH;
        }
        std::error_code removeError;
        if (stale && fs::remove_all(it->path(), removeError) > 0 && !removeError)
            ++removed;
    }
    return removed;
}

}  // namespace ps::run
