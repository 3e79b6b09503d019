#include "lessons/LessonExpectation.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace ps::lessons {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const json& member(const json& j, const char* key)
{
    return LessonExpectation::field(j, key);
}

bool sameFile(const std::string& a, const fs::path& b)
{
    std::error_code ec;
    if (fs::equivalent(a, b, ec))
        return true;
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

json lineOf(const json& location, const fs::path& script)
{
    const json& line = member(location, "line");
    if (!line.is_number_integer())
        return nullptr;
    const std::string file = LessonExpectation::text(member(location, "file"), "");
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

std::string eagerWord(const json& m)
{
    if (m.is_boolean())
        return m.get<bool>() ? ", matches eager" : ", differs from eager";
    return "";
}

}  // namespace

const json& LessonExpectation::field(const json& j, const char* key)
{
    static const json null;
    if (!j.is_object())
        return null;
    auto it = j.find(key);
    return it == j.end() ? null : *it;
}

std::string LessonExpectation::text(const json& j, const char* fallback)
{
    return j.is_string() ? j.get<std::string>() : std::string(fallback);
}

json LessonExpectation::stableFields(const json& report, const std::string& script)
{
    const fs::path path(script);
    json out = {{"status", member(report, "status")}, {"violation", stableViolation(member(report, "violation"), path)},
        {"captures", json::array()}};
    for (const auto& c : member(report, "captures")) {
        json w = json::array();
        for (const auto& item : member(c, "warnings"))
            w.push_back(stableViolation(item, path));
        out["captures"].push_back(
            {{"status", member(c, "status")}, {"violation", stableViolation(member(c, "violation"), path)},
                {"verify", stableVerify(member(c, "verify"), path)}, {"warnings", w}});
    }
    return out;
}

std::vector<std::string> LessonExpectation::compare(const json& expected, const json& actual)
{
    std::vector<std::string> out;
    diff(expected, actual, "", out);
    return out;
}

std::optional<LessonSide> LessonExpectation::missingSide(const json& expect)
{
    for (LessonSide side : kLessonSides)
        if (!expected(expect, side).is_object())
            return side;
    return std::nullopt;
}

const json& LessonExpectation::expected(const json& expect, LessonSide side)
{
    return field(expect, std::string(toString(side)).c_str());
}

std::string LessonExpectation::violationText(const json& v)
{
    if (!v.is_object())
        return "-";
    std::string s;
    if (member(v, "invariant").is_number_integer())
        s = "inv " + std::to_string(member(v, "invariant").get<int>()) + " ";
    s += text(member(v, "rule"), "(no rule)");
    if (member(v, "line").is_number_integer())
        s += ", line " + std::to_string(member(v, "line").get<int>());
    else if (member(v, "line").is_string())
        s += ", " + member(v, "line").get<std::string>();
    return s;
}

std::string LessonExpectation::verifyText(const json& v)
{
    if (!v.is_object())
        return "-";
    std::string s = text(member(v, "status"), "?");
    s += eagerWord(member(v, "matches_eager"));
    if (member(v, "grads_match").is_boolean() && !member(v, "grads_match").get<bool>())
        s += ", grads differ";
    if (member(v, "buffers_match").is_boolean() && !member(v, "buffers_match").get<bool>())
        s += ", buffers differ";
    if (member(v, "inputs_match").is_boolean() && !member(v, "inputs_match").get<bool>())
        s += ", mutated inputs differ";
    return s;
}

std::string LessonExpectation::runtimeText(const json& rt)
{
    if (!rt.is_object())
        return "-";
    std::string s = text(member(rt, "status"), "?");
    if (rt.contains("rule"))
        s += ": " + violationText(rt);
    else
        s += eagerWord(member(rt, "matches_eager"));
    return s;
}

/// What a report found, in the order a learner reads it: the script's own violation, each
/// capture's violation, its runtime call's violation, then its warnings.
std::vector<LessonFinding> LessonExpectation::findings(const json& report, const std::string& scriptPath)
{
    const fs::path script = fs::absolute(scriptPath).lexically_normal();
    std::vector<LessonFinding> out;
    auto add = [&](const char* kind, const json& v) {
        if (!v.is_object() || !v.contains("message"))
            return;
        // our one line in the learner's names where there is one (a shape rejection names the
        // branch behind it), else torch's first line
        std::string msg = text(member(v, "summary"), "");
        if (msg.empty())
            msg = text(v["message"], "");
        msg = msg.substr(0, msg.find('\n'));
        if (msg.size() > 300)
            msg = msg.substr(0, 297) + "...";
        out.push_back({std::string(kind) + " (" + violationText(stableViolation(v, script)) + ")", msg,
            text(member(v, "fix"), "")});
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

}  // namespace ps::lessons
