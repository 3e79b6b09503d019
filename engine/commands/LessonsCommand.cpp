#include "commands/LessonsCommand.h"

#include "model/Report.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunClient.h"
#include "protocol/WorkerLocator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#ifndef PS_RESOURCES_DIR
#define PS_RESOURCES_DIR ""
#endif

namespace ps::commands {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kEchoLimit = 256 * 1024;
const char* const kWhich[] = {"broken", "fixed"};

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

bool sameFile(const std::string& a, const fs::path& b)
{
    std::error_code ec;
    if (fs::equivalent(a, b, ec))
        return true;
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

const json& member(const json& j, const char* key)
{
    return LessonsCommand::field(j, key);
}

json lineOf(const json& location, const fs::path& script)
{
    const json& line = member(location, "line");
    if (!line.is_number_integer())
        return nullptr;
    const std::string file = location.value("file", "");
    if (file.empty() || sameFile(file, script))
        return line;
    return fs::path(file).filename().string() + ":" + std::to_string(line.get<long long>());
}

json stableViolation(const json& v, const fs::path& script)
{
    if (!v.is_object())
        return nullptr;
    return {{"invariant", member(v, "invariant")}, {"rule", member(v, "rule")},
            {"line", lineOf(member(v, "location"), script)}};
}

json stableRuntime(const json& rt, const fs::path& script)
{
    if (!rt.is_object())
        return nullptr;
    json out = {{"status", member(rt, "status")}, {"matches_eager", member(rt, "matches_eager")}};
    const json& v = member(rt, "violation");
    if (v.is_object()) {
        const json sv = stableViolation(v, script);
        for (const auto& [k, val] : sv.items())
            out[k] = val;
    }
    return out;
}

json stableVerify(const json& v, const fs::path& script)
{
    if (!v.is_object())
        return nullptr;
    json out = json::object();
    for (const char* key : {"status", "matches_eager", "grads_match", "buffers_match", "inputs_match"})
        out[key] = member(v, key);
    out["runtime"] = stableRuntime(member(v, "runtime"), script);
    return out;
}

std::string brief(const json& j)
{
    std::string s = j.dump();
    return s.size() <= 160 ? s : s.substr(0, 157) + "...";
}

void diffWarnings(const json& expected, const json& actual, const std::string& path, std::vector<std::string>& out)
{
    if (!expected.is_array() || !actual.is_array()) {
        if (expected != actual)
            out.push_back(path + ": expected " + brief(expected) + ", got " + brief(actual));
        return;
    }
    std::map<std::string, int> count;
    for (const auto& w : expected)
        ++count[w.dump()];
    for (const auto& w : actual)
        --count[w.dump()];
    for (const auto& [item, n] : count) {
        if (n > 0)
            out.push_back(path + ": missing " + item);
        else if (n < 0)
            out.push_back(path + ": unexpected " + item);
    }
}

void diff(const json& expected, const json& actual, const std::string& path, std::vector<std::string>& out)
{
    if (expected.is_object()) {
        if (!actual.is_object()) {
            out.push_back(path + ": expected " + brief(expected) + ", got " + brief(actual));
            return;
        }
        // "status" first: it is what a reader looks at first (the rest in key order)
        std::vector<std::string> keys;
        for (const auto& [key, value] : expected.items())
            if (key == "status")
                keys.insert(keys.begin(), key);
            else
                keys.push_back(key);
        for (const auto& key : keys) {
            const std::string p = path.empty() ? key : path + "." + key;
            const json& a = member(actual, key.c_str());
            if (key == "warnings")
                diffWarnings(expected[key], a, p, out);
            else
                diff(expected[key], a, p, out);
        }
        return;
    }
    if (expected.is_array()) {
        if (!actual.is_array()) {
            out.push_back(path + ": expected " + brief(expected) + ", got " + brief(actual));
            return;
        }
        if (expected.size() != actual.size())
            out.push_back(path + ": expected " + std::to_string(expected.size()) + " entries, got "
                          + std::to_string(actual.size()));
        for (std::size_t i = 0; i < std::min(expected.size(), actual.size()); ++i)
            diff(expected[i], actual[i], path + "[" + std::to_string(i) + "]", out);
        return;
    }
    if (expected != actual)
        out.push_back(path + ": expected " + brief(expected) + ", got " + brief(actual));
}

// ------------------------------------------------------------------ the readable table
std::string violationCell(const json& v)
{
    if (!v.is_object())
        return "-";
    std::string s;
    if (member(v, "invariant").is_number_integer())
        s = "inv " + std::to_string(member(v, "invariant").get<int>()) + " ";
    s += member(v, "rule").is_string() ? member(v, "rule").get<std::string>() : std::string("(no rule)");
    if (member(v, "line").is_number_integer())
        s += ", line " + std::to_string(member(v, "line").get<int>());
    else if (member(v, "line").is_string())
        s += ", " + member(v, "line").get<std::string>();
    return s;
}

std::string eagerWord(const json& m)
{
    if (m.is_boolean())
        return m.get<bool>() ? ", matches eager" : ", differs from eager";
    return "";
}

std::string verifyCell(const json& v)
{
    if (!v.is_object())
        return "-";
    std::string s = member(v, "status").is_string() ? member(v, "status").get<std::string>() : "?";
    s += eagerWord(member(v, "matches_eager"));
    if (member(v, "grads_match").is_boolean() && !member(v, "grads_match").get<bool>())
        s += ", grads differ";
    if (member(v, "buffers_match").is_boolean() && !member(v, "buffers_match").get<bool>())
        s += ", buffers differ";
    if (member(v, "inputs_match").is_boolean() && !member(v, "inputs_match").get<bool>())
        s += ", mutated inputs differ";
    return s;
}

std::string runtimeCell(const json& rt)
{
    if (!rt.is_object())
        return "-";
    std::string s = member(rt, "status").is_string() ? member(rt, "status").get<std::string>() : "?";
    if (rt.contains("rule"))
        s += ": " + violationCell(rt);
    else
        s += eagerWord(member(rt, "matches_eager"));
    return s;
}

std::vector<std::string> wrap(const std::string& text, std::size_t width)
{
    std::vector<std::string> lines;
    std::string rest = text;
    while (rest.size() > width) {
        std::size_t cut = rest.rfind(' ', width);
        if (cut == std::string::npos || cut == 0)
            cut = width;
        lines.push_back(rest.substr(0, cut));
        rest = rest.substr(cut == width ? cut : cut + 1);
    }
    lines.push_back(rest);
    return lines;
}

struct Row {
    std::string label;
    std::vector<std::string> cells[2];
};

std::vector<Row> tableRows(const json actual[2])
{
    std::vector<Row> rows;
    auto add = [&](const std::string& label, const std::vector<std::string>& a, const std::vector<std::string>& b) {
        rows.push_back({label, {a, b}});
    };
    add("status", {actual[0].value("status", "?")}, {actual[1].value("status", "?")});
    if (actual[0]["violation"].is_object() || actual[1]["violation"].is_object())
        add("script", {violationCell(actual[0]["violation"])}, {violationCell(actual[1]["violation"])});
    const std::size_t n = std::max(actual[0]["captures"].size(), actual[1]["captures"].size());
    for (std::size_t i = 0; i < n; ++i) {
        json c[2];
        for (int k = 0; k < 2; ++k)
            c[k] = i < actual[k]["captures"].size() ? actual[k]["captures"][i] : json(nullptr);
        auto cell = [&](int k, auto&& f) -> std::vector<std::string> {
            return c[k].is_object() ? std::vector<std::string>{f(c[k])} : std::vector<std::string>{""};
        };
        add(n > 1 ? "capture " + std::to_string(i + 1) : "capture",
            cell(0, [](const json& j) { return j.value("status", "?"); }),
            cell(1, [](const json& j) { return j.value("status", "?"); }));
        add("  violation", cell(0, [](const json& j) { return violationCell(j["violation"]); }),
            cell(1, [](const json& j) { return violationCell(j["violation"]); }));
        add("  verify", cell(0, [](const json& j) { return verifyCell(j["verify"]); }),
            cell(1, [](const json& j) { return verifyCell(j["verify"]); }));
        const bool anyRuntime = (c[0].is_object() && c[0]["verify"].is_object() && c[0]["verify"]["runtime"].is_object())
                                || (c[1].is_object() && c[1]["verify"].is_object() && c[1]["verify"]["runtime"].is_object());
        if (anyRuntime)
            add("  runtime", cell(0, [](const json& j) { return j["verify"].is_object() ? runtimeCell(j["verify"]["runtime"]) : std::string("-"); }),
                cell(1, [](const json& j) { return j["verify"].is_object() ? runtimeCell(j["verify"]["runtime"]) : std::string("-"); }));
        std::vector<std::string> w[2];
        for (int k = 0; k < 2; ++k) {
            if (!c[k].is_object())
                continue;
            for (const auto& item : c[k]["warnings"])
                w[k].push_back(violationCell(item));
            if (w[k].empty())
                w[k].push_back("none");
        }
        add("  warnings", w[0], w[1]);
    }
    return rows;
}

void printTable(std::ostream& out, const std::vector<Row>& rows, const std::string heads[2])
{
    constexpr std::size_t kLabel = 13, kCol = 40;
    auto pad = [](const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); };
    out << pad("", kLabel) << pad(heads[0], kCol + 2) << heads[1] << "\n";
    for (const auto& row : rows) {
        std::vector<std::string> lines[2];
        for (int k = 0; k < 2; ++k)
            for (const auto& cell : row.cells[k])
                for (auto& l : wrap(cell, kCol))
                    lines[k].push_back(l);
        const std::size_t h = std::max(lines[0].size(), lines[1].size());
        for (std::size_t i = 0; i < h; ++i) {
            const std::string left = i < lines[0].size() ? lines[0][i] : "";
            const std::string right = i < lines[1].size() ? lines[1][i] : "";
            std::string line = pad(i == 0 ? row.label : "", kLabel) + pad(left, kCol + 2) + right;
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            out << line << "\n";
        }
    }
}

/// What a report found, in the order a learner reads it: the script's own violation, each
/// capture's violation, its runtime call's violation, then its warnings.
std::vector<LessonFinding> findReport(const json& report, const fs::path& script)
{
    std::vector<LessonFinding> out;
    auto add = [&](const char* kind, const json& v) {
        if (!v.is_object() || !v.contains("message"))
            return;
        std::string msg = v["message"].is_string() ? v["message"].get<std::string>() : "";
        msg = msg.substr(0, msg.find('\n'));
        if (msg.size() > 300)
            msg = msg.substr(0, 297) + "...";
        const std::string fix = v.contains("fix") && v["fix"].is_string() ? v["fix"].get<std::string>() : "";
        out.push_back({std::string(kind) + " (" + violationCell(stableViolation(v, script)) + ")", msg, fix});
    };
    add("violation", member(report, "violation"));
    for (const auto& c : member(report, "captures")) {
        add("violation", member(c, "violation"));
        add("runtime violation", member(member(member(c, "verify"), "runtime"), "violation"));
        for (const auto& w : member(c, "warnings"))
            add("warning", w);
    }
    return out;
}

std::optional<json> readJson(const fs::path& path, std::string& error)
{
    std::ifstream f(path);
    if (!f) {
        error = "cannot read " + path.string();
        return std::nullopt;
    }
    try {
        return json::parse(f);
    } catch (const json::parse_error& e) {
        error = path.string() + " is not valid JSON: " + e.what();
        return std::nullopt;
    }
}

} // namespace

const json& LessonsCommand::field(const json& j, const char* key)
{
    static const json null;
    if (!j.is_object())
        return null;
    auto it = j.find(key);
    return it == j.end() ? null : *it;
}

std::string LessonsCommand::violationText(const json& stableViolation)
{
    return violationCell(stableViolation);
}

std::string LessonsCommand::verifyText(const json& stableVerify)
{
    return verifyCell(stableVerify);
}

std::string LessonsCommand::runtimeText(const json& stableRuntime)
{
    return runtimeCell(stableRuntime);
}

std::vector<LessonFinding> LessonsCommand::findings(const json& report, const std::string& script)
{
    return findReport(report, fs::absolute(script).lexically_normal());
}

std::string LessonsCommand::defaultLessonsDir()
{
    if (const char* env = std::getenv("PS_RESOURCES_DIR"); env && *env)
        return (fs::path(env) / "lessons").string();
    return (fs::path(PS_RESOURCES_DIR) / "lessons").string();
}

std::vector<Lesson> LessonsCommand::list(const std::string& lessonsDir)
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
    std::sort(lessons.begin(), lessons.end(), [](const Lesson& a, const Lesson& b) { return a.name < b.name; });
    return lessons;
}

std::optional<Lesson> LessonsCommand::find(const std::string& lessonsDir, const std::string& name)
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

json LessonsCommand::stableFields(const json& report, const std::string& script)
{
    const fs::path path(script);
    json out = {{"status", member(report, "status")},
                {"violation", stableViolation(member(report, "violation"), path)},
                {"captures", json::array()}};
    for (const auto& c : member(report, "captures")) {
        json w = json::array();
        for (const auto& item : member(c, "warnings"))
            w.push_back(stableViolation(item, path));
        out["captures"].push_back({{"status", member(c, "status")},
                                   {"violation", stableViolation(member(c, "violation"), path)},
                                   {"verify", stableVerify(member(c, "verify"), path)},
                                   {"warnings", w}});
    }
    return out;
}

std::vector<std::string> LessonsCommand::compare(const json& expected, const json& actual)
{
    std::vector<std::string> out;
    diff(expected, actual, "", out);
    return out;
}

int LessonsCommand::ls(const LessonsOptions& options, std::ostream& out, std::ostream& err)
{
    const std::string dir = options.lessonsDir.value_or(defaultLessonsDir());
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        err << "precompile-studio: no lessons folder at " << dir
            << " (set PS_RESOURCES_DIR to the folder that holds lessons/)\n";
        return 2;
    }
    const auto lessons = list(dir);
    if (options.json) {
        json j = {{"schema", 1}, {"dir", dir}, {"lessons", json::array()}};
        for (const auto& l : lessons)
            j["lessons"].push_back({{"name", l.name}, {"title", l.title}, {"dir", l.dir}, {"complete", l.complete},
                                    {"files", {{"lesson", l.lessonMd}, {"broken", l.broken}, {"fixed", l.fixed},
                                               {"expect", l.expect}}}});
        out << j.dump(2) << "\n";
        return 0;
    }
    std::size_t width = 4;
    for (const auto& l : lessons)
        width = std::max(width, l.name.size());
    for (const auto& l : lessons) {
        out << l.name << std::string(width - l.name.size() + 2, ' ') << (l.title.empty() ? "(no lesson.md)" : l.title);
        if (!l.complete)
            out << "  [incomplete]";
        out << "\n";
    }
    if (lessons.empty())
        out << "no lessons in " << dir << "\n";
    return 0;
}

int LessonsCommand::run(const std::string& name, const LessonsOptions& options, std::ostream& out, std::ostream& err)
{
    const std::string dir = options.lessonsDir.value_or(defaultLessonsDir());
    const auto lesson = find(dir, name);
    if (!lesson) {
        err << "precompile-studio: no lesson named '" << name << "' in " << dir
            << " (see `precompile-studio lessons ls`)\n";
        return 2;
    }
    std::string error;
    const auto expected = readJson(lesson->expect, error);
    if (!expected) {
        err << "precompile-studio: lesson " << name << ": " << error << "\n";
        return 2;
    }
    for (const char* which : kWhich)
        if (!(*expected).contains(which) || !(*expected)[which].is_object()) {
            err << "precompile-studio: lesson " << name << ": " << lesson->expect << " has no \"" << which
                << "\" object\n";
            return 2;
        }

    protocol::WorkerLaunch launch;
    try {
        launch = protocol::WorkerLocator::locate(options.pythonEnv);
    } catch (const protocol::ProtocolError& e) {
        err << "precompile-studio: " << e.what() << "\n";
        return 2;
    }

    // Two workers: the second imports torch while the first runs broken.py.
    protocol::RunClient first(launch), second(launch);
    protocol::RunClient* clients[2] = {&first, &second};
    try {
        second.prewarm();
    } catch (const std::exception&) {
        // its run() reports it
    }

    json reports[2], actual[2], mismatches[2];
    double seconds[2] = {0, 0};
    const std::string scripts[2] = {lesson->broken, lesson->fixed};
    for (int k = 0; k < 2; ++k) {
        protocol::RunOptions run;
        run.script = fs::absolute(scripts[k]).lexically_normal().string();
        run.verify = true;
        run.timeoutSeconds = options.timeoutSeconds;
        std::size_t echoed = 0;
        protocol::RunObserver observer;
        if (!options.json)
            observer.onOutput = [&](int, std::string_view data) {
                if (echoed >= kEchoLimit)
                    return;
                const auto take = std::min(data.size(), kEchoLimit - echoed);
                err.write(data.data(), static_cast<std::streamsize>(take));
                echoed += take;
            };
        const auto t0 = std::chrono::steady_clock::now();
        model::Report report = clients[k]->run(run, observer);
        clients[k]->shutdown();
        seconds[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        reports[k] = report.toJson();
        actual[k] = stableFields(reports[k], run.script);
        mismatches[k] = compare((*expected)[kWhich[k]], actual[k]);
    }
    const bool ok = mismatches[0].empty() && mismatches[1].empty();

    if (options.json) {
        json j = {{"schema", 1}, {"lesson", lesson->name}, {"title", lesson->title}, {"dir", lesson->dir},
                  {"ok", ok}, {"runs", json::object()}};
        for (int k = 0; k < 2; ++k)
            j["runs"][kWhich[k]] = {{"script", scripts[k]},
                                    {"ok", mismatches[k].empty()},
                                    {"mismatches", mismatches[k]},
                                    {"expected", (*expected)[kWhich[k]]},
                                    {"actual", actual[k]},
                                    {"seconds", seconds[k]},
                                    {"report", reports[k]}};
        out << j.dump(2) << "\n";
        out.flush();
        return ok ? 0 : 1;
    }

    out << "lesson " << lesson->name;
    if (!lesson->title.empty())
        out << ": " << lesson->title;
    out << "\n\n";
    char head[2][64];
    for (int k = 0; k < 2; ++k)
        std::snprintf(head[k], sizeof head[k], "%s.py (%.1f s)", kWhich[k], seconds[k]);
    const std::string heads[2] = {head[0], head[1]};
    auto rows = tableRows(actual);
    Row verdict{"expect.json", {}};
    for (int k = 0; k < 2; ++k)
        verdict.cells[k] = {mismatches[k].empty() ? "matches"
                                                  : std::to_string(mismatches[k].size()) + " difference"
                                                        + (mismatches[k].size() == 1 ? "" : "s")};
    rows.push_back(verdict);
    printTable(out, rows, heads);
    const auto found = findReport(reports[0], fs::absolute(scripts[0]).lexically_normal());
    if (!found.empty())
        out << "\nWhat the studio says about broken.py:\n";
    for (const auto& f : found) {
        out << "  " << f.what << ": " << f.message << "\n";
        if (!f.fix.empty())
            out << "    fix: " << f.fix << "\n";
    }
    for (int k = 0; k < 2; ++k) {
        if (mismatches[k].empty())
            continue;
        out << "\n" << kWhich[k] << ".py does not report what " << lesson->expect << " says:\n";
        for (const auto& m : mismatches[k])
            out << "  " << m.get<std::string>() << "\n";
        const std::string message = reports[k].value("message", "");
        if (!message.empty())
            out << "  (the run: " << reports[k].value("status", "?") << ": " << message.substr(0, 300) << ")\n";
    }
    out << "\n" << (ok ? "PASS" : "FAIL") << ": lesson " << lesson->name
        << (ok ? ": broken.py and fixed.py report what expect.json says\n" : "\n");
    out.flush();
    return ok ? 0 : 1;
}

} // namespace ps::commands
