#include "library/core/ArtifactFiles.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "library/core/LibraryError.h"
#include "library/core/Sha256.h"
#include "model/JsonFields.h"
#include "model/JsonLimits.h"

namespace ps::library {

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw LibraryError(LibraryError::Kind::Io, path.string(), "cannot be read");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        throw LibraryError(LibraryError::Kind::Io, path.string(), "read failed");
    return bytes;
}

/// At most `limit` + 1 bytes of a file that must be regular: its size is checked before it is
/// read, and a file that grows meanwhile still costs no more than the limit.
std::string readBoundedFile(const fs::path& path, std::size_t limit)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status))
        throw LibraryError(LibraryError::Kind::Io, path.string(), "cannot be read: no such file");
    if (!fs::is_regular_file(status))
        throw LibraryError(LibraryError::Kind::Io, path.string(), "is not a regular file");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec)
        throw LibraryError(LibraryError::Kind::Io, path.string(), "cannot be read: " + ec.message());
    if (size > limit)
        throw LibraryError(LibraryError::Kind::Invalid, path.string(),
            "is " + std::to_string(size) + " bytes (" + std::to_string(size >> 20) + " MiB), over the limit of "
                + std::to_string(limit >> 20) + " MiB for a report; refused");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw LibraryError(LibraryError::Kind::Io, path.string(), "cannot be read");
    std::string bytes(static_cast<std::size_t>(size) + 1, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (in.bad())
        throw LibraryError(LibraryError::Kind::Io, path.string(), "read failed");
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

/// Writes beside the target, then renames: a reader never sees half a file.
void writeFile(const fs::path& path, std::string_view bytes)
{
    const fs::path temp = path.string() + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ignored;
            fs::remove(temp, ignored);
            throw LibraryError(LibraryError::Kind::Io, path.string(), "cannot be written");
        }
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw LibraryError(LibraryError::Kind::Io, path.string(), "cannot be written: " + ec.message());
    }
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

}  // namespace

std::string ArtifactFiles::fileStem(std::string_view captureName)
{
    std::string stem;
    for (char c : captureName) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
            || c == '-' || c == '.' || c == '#' || c == '+';
        stem += safe ? c : '_';
    }
    while (!stem.empty() && stem.front() == '.')
        stem.erase(stem.begin());
    return stem.empty() ? std::string("artifact") : stem;
}

std::vector<std::string> ArtifactFiles::write(const std::string& dir, const nlohmann::json& report,
    const std::vector<CaptureArtifact>& artifacts, const std::string& runName)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw LibraryError(LibraryError::Kind::Io, dir, "cannot create the folder: " + ec.message());
    // A path or name that is not UTF-8 (file names need not be) becomes U+FFFD, not an exception.
    const std::string reportText = report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::vector<std::string> written;
    std::set<std::string> used;
    for (std::size_t i = 0; i < artifacts.size(); ++i) {
        const bool byRun = artifacts.size() == 1 && !runName.empty();
        std::string stem = fileStem(byRun ? runName : artifacts[i].name);
        if (!used.insert(stem).second) {
            stem += "-" + std::to_string(artifacts[i].index);
            used.insert(stem);
        }
        const fs::path base = fs::path(dir) / stem;
        for (const auto& [extension, bytes] : {std::pair<const char*, std::string_view>{".py", artifacts[i].pythonCode},
                 {".cache", artifacts[i].cache}, {".json", reportText}}) {
            const fs::path file = base.string() + extension;
            writeFile(file, bytes);
            written.push_back(file.string());
        }
    }
    return written;
}

std::optional<std::string> ArtifactFiles::codeHashOf(std::string_view cache)
{
    static constexpr std::string_view kKey = "code_hash";
    const auto byte = [&cache](std::size_t i) { return static_cast<unsigned char>(cache[i]); };
    // Pickle: the key string, a memo opcode, then the value as BINUNICODE ('X', 4-byte length 64)
    // or SHORT_BINUNICODE (0x8c, 1-byte length 64), directly followed by the 64 hex digits.
    for (std::size_t at = cache.find(kKey); at != std::string_view::npos; at = cache.find(kKey, at + 1)) {
        const std::size_t from = at + kKey.size();
        const std::size_t to = std::min(cache.size(), from + 16);
        for (std::size_t p = from + 2; p < to && p + 64 <= cache.size(); ++p) {
            const bool shortForm = byte(p - 2) == 0x8c && byte(p - 1) == 0x40;
            const bool longForm = p >= from + 5 && byte(p - 5) == 'X' && byte(p - 4) == 0x40 && byte(p - 3) == 0
                && byte(p - 2) == 0 && byte(p - 1) == 0;
            if (!shortForm && !longForm)
                continue;
            std::size_t n = 0;
            while (n < 64 && isHex(cache[p + n]))
                ++n;
            if (n == 64 && (p + 64 == cache.size() || !isHex(cache[p + 64])))
                return std::string(cache.substr(p, 64));
        }
    }
    return std::nullopt;
}

ArtifactFiles::Pair ArtifactFiles::read(const std::string& pythonCodePath)
{
    const fs::path py(pythonCodePath);
    if (py.extension() != ".py")
        throw LibraryError(LibraryError::Kind::Invalid, pythonCodePath,
            "import expects NAME.py, with NAME.cache and NAME.json beside it");
    const fs::path cachePath = fs::path(py).replace_extension(".cache");
    const fs::path jsonPath = fs::path(py).replace_extension(".json");

    Pair pair;
    pair.name = py.stem().string();
    pair.pythonCode = readFile(py);
    pair.cache = readFile(cachePath);
    std::string why;
    auto report = model::JsonLimits::parse(readBoundedFile(jsonPath, kMaxReportBytes), kMaxReportBytes, &why);
    if (!report)
        throw LibraryError(LibraryError::Kind::Invalid, jsonPath.string(), why + "; refused");
    if (!report->is_object())
        throw LibraryError(LibraryError::Kind::Invalid, jsonPath.string(), "is not a JSON report object");
    pair.report = std::move(*report);

    const std::string codeSha = Sha256::hex(pair.pythonCode);
    const std::string cacheSha = Sha256::hex(pair.cache);
    const auto codeHash = codeHashOf(pair.cache);
    if (!codeHash)
        throw LibraryError(LibraryError::Kind::Mismatch, cachePath.string(),
            "holds no code_hash: not a torch.compiler.precompile cache; refused");
    if (*codeHash != codeSha)
        throw LibraryError(LibraryError::Kind::Mismatch, cachePath.string(),
            "its code_hash " + *codeHash + " does not match sha256(" + py.filename().string() + ") " + codeSha
                + ": the cache belongs to another python_code; refused");

    const auto captures = pair.report.find("captures");
    if (captures == pair.report.end() || !captures->is_array())
        throw LibraryError(LibraryError::Kind::Invalid, jsonPath.string(), "has no captures list");
    std::string described;
    for (std::size_t i = 0; i < captures->size(); ++i) {
        const auto& artifact
            = (*captures)[i].is_object() ? (*captures)[i].value("artifact", nlohmann::json()) : nlohmann::json();
        const std::string recorded = model::JsonFields::text(artifact, "python_code_sha256");
        if (recorded.empty())
            continue;
        described += (described.empty() ? "" : ", ") + recorded;
        if (recorded != codeSha)
            continue;
        const std::string recordedCache = model::JsonFields::text(artifact, "cache_sha256");
        if (!recordedCache.empty() && recordedCache != cacheSha)
            throw LibraryError(LibraryError::Kind::Mismatch, cachePath.string(),
                "its sha256 " + cacheSha + " is not the cache_sha256 " + recordedCache + " that "
                    + jsonPath.filename().string() + " records; refused");
        pair.captureIndex = i;
        return pair;
    }
    throw LibraryError(LibraryError::Kind::Mismatch, jsonPath.string(),
        "describes no capture with python_code_sha256 " + codeSha + " = sha256(" + py.filename().string()
            + ") (it records " + (described.empty() ? std::string("none") : described) + "); refused");
}

}  // namespace ps::library
