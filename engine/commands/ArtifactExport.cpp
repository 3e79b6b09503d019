#include "commands/ArtifactExport.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace ps::commands {

namespace fs = std::filesystem;

std::string ArtifactExport::fileStem(const std::string& name)
{
    std::string out;
    for (char ch : name)
        out += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.') ? ch : '_';
    if (out.empty() || out[0] == '.')
        out = "capture" + out;
    return out;
}

std::vector<std::string> ArtifactExport::write(const model::Report& report, const std::string& fromDir,
                                               const std::string& toDir)
{
    std::vector<std::string> written;
    std::error_code ec;
    fs::create_directories(toDir, ec);
    if (ec)
        throw std::runtime_error("cannot create " + toDir + ": " + ec.message());
    std::set<std::string> used;
    const std::string reportText = report.toJson().dump(2) + "\n";
    for (std::size_t i = 0; i < report.captures.size(); ++i) {
        const auto& c = report.captures[i];
        if (!c.artifact)
            continue;
        std::string stem = fileStem(c.name);
        for (int n = 2; used.count(stem); ++n)
            stem = fileStem(c.name) + "-" + std::to_string(n);
        used.insert(stem);
        for (const char* ext : {".py", ".cache"}) {
            const fs::path src = fs::path(fromDir) / ("capture-" + std::to_string(i) + ext);
            const fs::path dst = fs::path(toDir) / (stem + ext);
            fs::copy_file(src, dst, fs::copy_options::overwrite_existing, ec);
            if (ec)
                throw std::runtime_error("cannot write " + dst.string() + ": " + ec.message());
            written.push_back(dst.string());
        }
        const fs::path json = fs::path(toDir) / (stem + ".json");
        std::ofstream f(json, std::ios::binary);
        f << reportText;
        if (!f)
            throw std::runtime_error("cannot write " + json.string());
        written.push_back(json.string());
    }
    return written;
}

} // namespace ps::commands
