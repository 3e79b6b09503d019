#include "install/TorchSeries.h"

#include <filesystem>
#include <fstream>
#include <regex>

namespace ps::install {

namespace fs = std::filesystem;

namespace {

struct Release {
    std::string series;
    std::string pinned;
};

const std::vector<Release>& releases()
{
    static const std::vector<Release> all = {{"2.15", "2.15.0"}, {"2.14", "2.14.1"}};
    return all;
}

}  // namespace

const std::vector<std::string>& TorchSeries::supported()
{
    static const std::vector<std::string> series = [] {
        std::vector<std::string> out;
        for (const auto& r : releases())
            out.push_back(r.series);
        return out;
    }();
    return series;
}

const std::string& TorchSeries::defaultSeries()
{
    return supported().front();
}

std::optional<std::string> TorchSeries::of(const std::string& version)
{
    for (const auto& r : releases()) {
        if (version.size() > r.series.size() && version.compare(0, r.series.size(), r.series) == 0
            && version[r.series.size()] == '.')
            return r.series;
        if (version == r.series)
            return r.series;
    }
    return std::nullopt;
}

std::string TorchSeries::pinned(const std::string& series)
{
    for (const auto& r : releases())
        if (r.series == series)
            return r.pinned;
    return series;
}

std::string TorchSeries::supportedWords()
{
    // Oldest first reads naturally: "torch 2.14 and 2.15 (torch==2.14.1 or torch==2.15.0)".
    std::string series, pins;
    const auto& all = releases();
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        const bool last = std::next(it) == all.rend();
        const bool first = it == all.rbegin();
        series += (first ? "" : (last ? " and " : ", ")) + it->series;
        pins += (first ? "" : (last ? " or " : ", ")) + ("torch==" + it->pinned);
    }
    return "torch " + series + " (" + pins + ")";
}

std::optional<std::string> TorchSeries::installedVersion(const std::string& siteDir)
{
    std::error_code ec;
    const fs::path torch = fs::path(siteDir) / "torch";
    if (!fs::is_directory(torch, ec))
        return std::nullopt;
    std::ifstream in(torch / "version.py");
    if (!in)
        return std::string();
    // version.py is generated: `__version__ = '2.15.0+cu132'` (annotated in newer builds:
    // `__version__: str = '...'`).
    static const std::regex line(R"(^__version__\s*(?::\s*\w+\s*)?=\s*['"]([^'"]+)['"])");
    std::string text;
    while (std::getline(in, text)) {
        std::smatch m;
        if (std::regex_search(text, m, line))
            return m[1].str();
    }
    return std::string();
}

}  // namespace ps::install
