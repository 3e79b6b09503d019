#include "library/core/TrustStore.h"

#include "library/core/DefaultLibraryPath.h"
#include "library/core/LibraryError.h"
#include "model/JsonLimits.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace ps::library {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A trust file of a million runs is far past any real one; a bigger file is not read.
constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;

/// The file's runs, or nullopt (with why) when it is not this user's to believe or not the
/// format; an absent file is an empty list.
std::optional<json> readRuns(const std::string& path, std::string* why)
{
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0)
        return json::array();
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 022) != 0) {
        *why = "it is not a file of this user's alone (owner, or others may write it)";
        return std::nullopt;
    }
    if (static_cast<std::size_t>(st.st_size) > kMaxFileBytes) {
        *why = "it is over 64 MiB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto doc = model::JsonLimits::parse(text, kMaxFileBytes, why);
    if (!doc || !doc->is_object() || !doc->contains("runs") || !(*doc)["runs"].is_array()) {
        if (why->empty())
            *why = "it is not a list of trusted runs";
        return std::nullopt;
    }
    return (*doc)["runs"];
}

/// Whether the trust file holds `key`. The file is read once per version of it (its inode, size
/// and status-change time, which a write, a rename and a chmod all move): a listing asks for
/// every run it shows, and the file is read and parsed again only when it changed. A file not
/// to be believed holds none.
bool holdsKey(const std::string& path, const std::string& key)
{
    struct Seen {
        ino_t inode = 0;
        off_t size = -1;
        timespec changed{};
        std::set<std::string> keys;
    };
    static std::mutex mutex;
    static std::map<std::string, Seen> cache;
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0)
        return false;
    const std::lock_guard<std::mutex> lock(mutex);
    Seen& seen = cache[path];
    const bool same = seen.inode == st.st_ino && seen.size == st.st_size && seen.changed.tv_sec == st.st_ctim.tv_sec
        && seen.changed.tv_nsec == st.st_ctim.tv_nsec;
    if (!same) {
        seen = Seen{st.st_ino, st.st_size, st.st_ctim, {}};
        std::string why;
        if (const auto runs = readRuns(path, &why))
            for (const json& entry : *runs)
                if (entry.is_object() && entry.value("content", json()).is_string())
                    seen.keys.insert(entry["content"].get<std::string>());
    }
    return seen.keys.count(key) > 0;
}

std::string nowUtc()
{
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

}  // namespace

TrustStore::TrustStore(std::string path) : m_path(std::move(path))
{ }

std::string TrustStore::defaultPath()
{
    return (fs::path(defaultLibraryPath()).parent_path() / "trusted-runs.json").string();
}

std::string TrustStore::contentKey(const RunSummary& run)
{
    std::string key = run.uid;
    for (const CaptureRecord& c : run.captures)
        key += "|" + std::to_string(c.index) + ":" + c.pythonCodeSha256.value_or("-") + ":"
            + c.cacheSha256.value_or("-");
    return key;
}

bool TrustStore::trusts(const RunSummary& run) const
{
    if (run.uid.empty())
        return false;
    return holdsKey(m_path, contentKey(run));
}

void TrustStore::trust(const RunSummary& run) const
{
    if (run.uid.empty())
        throw LibraryError(LibraryError::Kind::Invalid, m_path,
            "run " + std::to_string(run.id)
                + " has no uid (stored by a studio before 0.1): it cannot be trusted by content");
    std::string why;
    auto runs = readRuns(m_path, &why);
    if (!runs)
        throw LibraryError(LibraryError::Kind::Io, m_path, "is not used: " + why);
    runs->push_back({{"uid", run.uid}, {"content", contentKey(run)}, {"name", run.name},
        {"stored_by", {{"user", run.storedBy.user}, {"role", run.storedBy.role}}}, {"trusted_at", nowUtc()}});
    std::error_code ec;
    const fs::path folder = fs::path(m_path).parent_path();
    fs::create_directories(folder, ec);
    const std::string temp = m_path + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        throw LibraryError(LibraryError::Kind::Io, m_path, std::string("cannot be written: ") + std::strerror(errno));
    const std::string text
        = json{{"schema", 1}, {"runs", *runs}}.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
    ::close(fd);
    if (!written || ::rename(temp.c_str(), m_path.c_str()) != 0) {
        const int saved = errno;
        ::unlink(temp.c_str());
        throw LibraryError(LibraryError::Kind::Io, m_path, std::string("cannot be written: ") + std::strerror(saved));
    }
}

}  // namespace ps::library
