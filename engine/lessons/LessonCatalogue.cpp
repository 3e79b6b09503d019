#include "lessons/LessonCatalogue.h"

#include "install/InstallLayout.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>

namespace ps::lessons {

namespace fs = std::filesystem;

namespace {

std::string firstHeading(const fs::path& md)
{
    std::ifstream f(md);
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind('#', 0) == 0) {
            const auto start = line.find_first_not_of("# \t");
            return start == std::string::npos ? std::string() : line.substr(start);
        }
    }
    return {};
}

bool validName(const std::string& name)
{
    if (name.empty() || name[0] == '.')
        return false;
    return name.find('/') == std::string::npos && name.find('\\') == std::string::npos;
}

}  // namespace

std::string LessonCatalogue::defaultLessonsDir()
{
    return (fs::path(install::InstallLayout::resourcesDir()) / "lessons").string();
}

namespace {

/// The contract's invariants in their order (inv1-..., inv2-..., inv10-... after inv9-), then
/// the other lessons by name.
std::tuple<int, long, std::string> orderKey(const std::string& name)
{
    if (name.rfind("inv", 0) == 0) {
        std::size_t digits = 3;
        while (digits < name.size() && digits < 12 && std::isdigit(static_cast<unsigned char>(name[digits])))
            ++digits;
        if (digits > 3 && digits < name.size() && name[digits] == '-')
            return {0, std::stol(name.substr(3, digits - 3)), name};
    }
    return {1, 0, name};
}

}  // namespace

std::vector<Lesson> LessonCatalogue::list(const std::string& lessonsDir)
{
    std::vector<Lesson> lessons;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(lessonsDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory(ec) || !validName(name))
            continue;
        if (auto lesson = find(lessonsDir, name))
            lessons.push_back(*lesson);
    }
    std::sort(lessons.begin(), lessons.end(),
        [](const Lesson& a, const Lesson& b) { return orderKey(a.name) < orderKey(b.name); });
    return lessons;
}

std::optional<Lesson> LessonCatalogue::find(const std::string& lessonsDir, const std::string& name)
{
    if (!validName(name))
        return std::nullopt;
    const fs::path dir = fs::path(lessonsDir) / name;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return std::nullopt;
    Lesson l;
    l.name = name;
    l.dir = dir.string();
    l.lessonMd = (dir / "lesson.md").string();
    l.broken = (dir / "broken.py").string();
    l.fixed = (dir / "fixed.py").string();
    l.expect = (dir / "expect.json").string();
    l.complete = true;
    for (const auto* p : {&l.lessonMd, &l.broken, &l.fixed, &l.expect})
        l.complete = l.complete && fs::is_regular_file(*p, ec);
    l.title = firstHeading(l.lessonMd);
    return l;
}

}  // namespace ps::lessons
