#include "ProcessWatch.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

namespace ps::test {

namespace fs = std::filesystem;

bool ProcessWatch::alive(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text))
        return false;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

bool ProcessWatch::gone(pid_t pid, std::chrono::seconds within)
{
    return waitFor([pid] { return !alive(pid); }, within);
}

std::vector<pid_t> ProcessWatch::childrenOf(pid_t parent)
{
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        if (!stat || !std::getline(stat, text))
            continue;
        const auto close = text.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream fields(text.substr(close + 2));
        std::string state;
        pid_t ppid = 0;
        fields >> state >> ppid;
        if (ppid == parent && state != "Z")
            out.push_back(std::stoi(name));
    }
    return out;
}

bool ProcessWatch::waitFor(const std::function<bool()>& ready, std::chrono::seconds within)
{
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < deadline) {
        if (ready())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return ready();
}

bool ProcessWatch::waitForText(const std::string& file, const std::string& text, std::chrono::seconds within)
{
    return waitFor(
        [&] {
            std::ifstream in(file, std::ios::binary);
            const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            return content.find(text) != std::string::npos;
        },
        within);
}

}  // namespace ps::test
