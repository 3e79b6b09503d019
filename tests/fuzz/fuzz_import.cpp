// libFuzzer target: importing an exported artifact (library::ArtifactFiles::read).
// Input: NAME.py, NAME.cache and NAME.json, separated by the line "\n--8<--\n" (a missing part
// is an empty file). They are written to a private temporary folder as a.py / a.cache / a.json
// and read back; a pair that is accepted goes on through Report::fromJson as `library import`
// and `open NAME.py` do. LibraryError is the one expected failure.
#include "library/core/ArtifactFiles.h"
#include "library/core/LibraryError.h"
#include "model/Report.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <unistd.h>

namespace {

constexpr std::string_view kSeparator = "\n--8<--\n";

const std::string& folder()
{
    // Never destroyed, so that the exit handler below can still use it.
    static const std::string* dir = [] {
        auto* d = new std::string((std::filesystem::temp_directory_path() / "ps-fuzz-import-XXXXXX").string());
        if (!::mkdtemp(d->data()))
            std::abort();
        return d;
    }();
    static const bool removeAtExit = [] {
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(*dir, ec);
        });
        return true;
    }();
    (void)removeAtExit;
    return *dir;
}

void writeFile(const std::string& path, std::string_view bytes)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        std::abort();
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size())
        std::abort();
    std::fclose(f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    std::string_view parts[3];
    for (int i = 0; i < 3; ++i) {
        const auto at = i < 2 ? rest.find(kSeparator) : std::string_view::npos;
        parts[i] = rest.substr(0, at);
        rest = at == std::string_view::npos ? std::string_view() : rest.substr(at + kSeparator.size());
    }
    const std::string base = folder() + "/a";
    writeFile(base + ".py", parts[0]);
    writeFile(base + ".cache", parts[1]);
    writeFile(base + ".json", parts[2]);
    try {
        const auto pair = ps::library::ArtifactFiles::read(base + ".py");
        const auto report = ps::model::Report::fromJson(pair.report);
        (void)report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
        (void)ps::library::ArtifactFiles::fileStem(pair.name);
    } catch (const ps::library::LibraryError&) {
    }
    // The hash scan on its own, over the whole input (a cache of any shape).
    (void)ps::library::ArtifactFiles::codeHashOf(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
