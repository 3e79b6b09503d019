#include "share/JunitReport.h"

#include "model/DriftStart.h"
#include "model/JsonFields.h"
#include "model/Specialisation.h"
#include "share/MarkupText.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace ps::share {

namespace {

// A traceback or a long message past this is cut (a CI page shows the start).
constexpr std::size_t kMaxText = 64 * 1024;

struct Case {
    enum class Kind { Pass, Failure, Error };
    std::string name;
    double seconds = 0;
    Kind kind = Kind::Pass;
    std::string type;     ///< the failure's or error's type attribute: violation, mismatch, error, timeout...
    std::string message;  ///< one line
    std::string text;     ///< the element's text: source line, fix, details
    std::string out;      ///< <system-out>: notes on a case (numerics drift, warnings)
};

std::string esc(std::string_view s)
{
    return MarkupText::escape(s);
}

std::string firstLine(std::string_view s)
{
    return std::string(s.substr(0, s.find('\n')));
}

std::string clip(std::string s)
{
    if (s.size() > kMaxText) {
        s.resize(kMaxText);
        s += "\n[cut at " + std::to_string(kMaxText / 1024) + " KiB]";
    }
    return s;
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
    return buf;
}

std::string number(double x)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", x);
    return buf;
}

// A capture's own time: precompile and what verification called (the timings the summary prints
// after `script`, which is the script's import, shared by its captures).
double captureSeconds(const model::Capture& c)
{
    double total = 0;
    for (const char* key : {"precompile", "load", "load_no_cache", "call", "call_eager"})
        if (auto it = c.timings.find(key); it != c.timings.end())
            total += it->second;
    return total;
}

// Everything a finding says, one fact a line:
//     /work/v.py:21  return self.lin(x) + offset
//     fn reads the global `offset` (defined at line 12): a tensor that is not an input would be ...
//     invariant 1, rule constant-tensor, at capture
//     fix: Pass the global `offset` (line 12) to fn as an argument ...
std::string findingText(
    const model::Violation& v, std::string_view stage, const JunitReport::SourceLines& lines, bool withTraceback)
{
    std::ostringstream out;
    if (v.location && v.location->line > 0) {
        out << v.location->file << ":" << v.location->line;
        std::optional<std::string> code;
        for (const auto& step : v.chain)
            if (step.role == "user" && step.file == v.location->file && step.line == v.location->line
                && !step.code.empty())
                code = step.code;
        if (!code && lines)
            code = lines(v.location->file, v.location->line);
        if (code && !code->empty())
            out << "  " << *code;
        out << "\n";
    }
    const std::string& words = v.summary.empty() ? v.message : v.summary;
    if (!words.empty())
        out << words << "\n";
    std::vector<std::string> facts;
    if (v.invariant)
        facts.push_back("invariant " + std::to_string(*v.invariant));
    if (!v.rule.empty())
        facts.push_back("rule " + v.rule);
    if (!v.kind.empty())
        facts.push_back(v.kind);
    if (!stage.empty())
        facts.push_back("at " + std::string(stage));
    for (std::size_t i = 0; i < facts.size(); ++i)
        out << (i ? ", " : "") << facts[i] << (i + 1 == facts.size() ? "\n" : "");
    for (const auto& step : v.chain)
        if (const auto link = step.describe(); !link.empty())
            out << "via: " << link << "\n";
    if (!v.guard.empty())
        out << "shape guard: " << v.guard << "\n";
    if (!v.fix.empty())
        out << "fix: " << v.fix << "\n";
    if (!v.summary.empty() && !v.message.empty() && v.message != v.summary)
        out << "torch: " << v.message << "\n";
    if (withTraceback && !v.traceback.empty())
        out << "\n" << v.traceback;
    return clip(out.str());
}

// The float64 judge's figures: "against float64: artifact 1.2e-02, eager 5.9e-06 (2e+03x)".
std::string accuracyFigures(const model::Verification::Accuracy& a, const nlohmann::json& graph)
{
    std::string s;
    if (a.artifactError && a.eagerError)
        s = "against float64: artifact " + number(*a.artifactError) + ", eager " + number(*a.eagerError);
    if (a.ratio)
        s += (s.empty() ? "" : ", ") + number(*a.ratio) + "x";
    if (!a.driftStarts.empty())
        s += (s.empty() ? "" : "; ") + std::string("starts at ")
            + model::DriftStart::phrase(model::DriftStart::of(a, graph));
    return s;
}

// What differs from eager: each compared value outside tolerance, up to ten.
std::string mismatchDetails(const model::Verification& v, const nlohmann::json& graph)
{
    std::ostringstream out;
    int shown = 0, more = 0;
    for (const auto& c : v.compared) {
        if (c.ok)
            continue;
        if (shown == 10) {
            ++more;
            continue;
        }
        ++shown;
        out << "differs: " << c.name;
        if (c.maxAbsDiff)
            out << ", max abs diff " << number(*c.maxAbsDiff);
        if (c.mismatched)
            out << ", " << *c.mismatched << " elements outside tolerance";
        if (!c.note.empty())
            out << " (" << c.note << ")";
        out << "\n";
    }
    if (more)
        out << "and " << more << " more values differ\n";
    if (v.accuracy && v.accuracy->verdict != model::Judgement::None)
        out << "accuracy: " << model::toString(v.accuracy->verdict) << " (" << accuracyFigures(*v.accuracy, graph)
            << ")\n";
    return out.str();
}

std::string warningsText(const std::vector<model::Violation>& warnings)
{
    std::string out;
    for (const auto& w : warnings) {
        out += "warning";
        if (w.invariant)
            out += " (invariant " + std::to_string(*w.invariant) + ")";
        if (!w.rule.empty())
            out += " " + w.rule;
        out += ": ";
        if (w.location && w.location->line > 0)
            out += w.location->file + ":" + std::to_string(w.location->line) + ": ";
        out += firstLine(w.summary.empty() ? w.message : w.summary) + "\n";
        if (!w.fix.empty())
            out += "  fix: " + w.fix + "\n";
    }
    return out;
}

Case captureCase(const model::Capture& c, const JunitReport::SourceLines& lines)
{
    Case tc;
    tc.name = c.name.empty() ? std::string("(unnamed capture)") : c.name;
    tc.seconds = captureSeconds(c);
    // The first cause: the precompile call's own outcome, else where verification found it.
    const model::Violation* cause = c.violation ? &*c.violation : c.outcome ? &*c.outcome : nullptr;
    const std::string stage = c.violation ? std::string("capture")
        : c.outcomeStage                  ? std::string(model::toString(*c.outcomeStage))
                                          : std::string();
    switch (c.status) {
    case model::CaptureStatus::Ok:
        break;
    case model::CaptureStatus::Violation:
        tc.kind = Case::Kind::Failure;
        tc.type = "violation";
        tc.message = cause ? cause->oneLine() : "a contract violation";
        tc.text = cause ? findingText(*cause, stage, lines, false) : std::string();
        break;
    case model::CaptureStatus::Mismatch:
        tc.kind = Case::Kind::Failure;
        tc.type = "mismatch";
        tc.message = "mismatch against eager: "
            + (cause ? cause->oneLine() : std::string("the artifact's results differ from eager fn's"));
        tc.text = (cause ? findingText(*cause, stage, lines, false) : std::string())
            + (c.verify ? mismatchDetails(*c.verify, model::JsonFields::member(c.json, "graph")) : std::string());
        break;
    case model::CaptureStatus::Error: {
        tc.kind = Case::Kind::Error;
        tc.type = "error";
        const model::Violation* error = cause;
        if (!error && c.verify && c.verify->error)
            error = &*c.verify->error;
        tc.message = error ? error->oneLine() : "the capture failed";
        tc.text = error ? findingText(*error, stage, lines, true) : std::string();
        break;
    }
    }
    // Where a runtime shape rejection comes from, as `run` prints it.
    if (c.specialisation && tc.kind != Case::Kind::Pass)
        tc.text += "shape guard: " + c.specialisation->describe() + "\n";
    if (c.drifted()) {
        std::string note = "numerics drift: the artifact differs from eager far beyond eager's own rounding, "
                           "yet breaks no contract (a passing case)";
        if (c.verify && c.verify->accuracy)
            if (const auto figures = accuracyFigures(*c.verify->accuracy, model::JsonFields::member(c.json, "graph"));
                !figures.empty())
                note += "; " + figures;
        tc.out += note + "\n";
    }
    tc.out += warningsText(c.warnings);
    return tc;
}

// The test case of the run itself, where its exit code says what no capture's case does.
std::optional<Case> runCase(const model::Report& report, const std::vector<Case>& cases, const std::string& script,
    const JunitReport::SourceLines& lines)
{
    const int code = report.exitCode();
    bool carried = false;
    for (const auto& c : cases)
        carried = carried || c.kind != Case::Kind::Pass;
    const bool stopped = !model::ranToTheEnd(report.status);
    if (!report.captures.empty() && !stopped && (code == 0 || carried))
        return std::nullopt;
    Case tc;
    tc.name = MarkupText::fileName(script);
    tc.type = std::string(model::toString(report.status));
    tc.kind = code == 0 ? Case::Kind::Pass : code == 1 ? Case::Kind::Failure : Case::Kind::Error;
    std::string text;
    if (code == 3) {
        tc.type = "not_stored";
        tc.message = "the run was ok but not stored: " + firstLine(report.storeError.value_or(""));
    } else {
        tc.message
            = report.message.empty() ? std::string(model::toString(report.verdict())) : firstLine(report.message);
        if (report.captures.empty() && code != 0)
            tc.message = "no capture: " + tc.message;
    }
    // The script's own error or contract outcome (the report's "error" and "violation").
    for (const char* key : {"error", "violation"})
        if (const auto& j = model::JsonFields::member(report.extra(), key); j.is_object())
            text += findingText(model::Violation::fromJson(j), "", lines, true);
    if (report.startFailure)
        text += "the worker could not start: " + std::string(model::toString(*report.startFailure)) + "\n";
    if (!report.message.empty() && report.message.find('\n') != std::string::npos)
        text += report.message + "\n";
    if (tc.kind == Case::Kind::Pass)
        tc.out = report.message.empty() ? std::string() : report.message + "\n";
    else
        tc.text = clip(text);
    return tc;
}

void writeCase(std::ostream& out, const Case& c, const std::string& classname)
{
    out << "    <testcase name=\"" << esc(c.name) << "\" classname=\"" << esc(classname) << "\" time=\""
        << seconds(c.seconds) << "\"";
    if (c.kind == Case::Kind::Pass && c.out.empty()) {
        out << "/>\n";
        return;
    }
    out << ">\n";
    if (c.kind != Case::Kind::Pass) {
        const char* element = c.kind == Case::Kind::Failure ? "failure" : "error";
        out << "      <" << element << " type=\"" << esc(c.type) << "\" message=\"" << esc(c.message) << "\">"
            << esc(c.text) << "</" << element << ">\n";
    }
    if (!c.out.empty())
        out << "      <system-out>" << esc(c.out) << "</system-out>\n";
    out << "    </testcase>\n";
}

}  // namespace

JunitReport::JunitReport(SourceLines sourceLines)
    : m_sourceLines(sourceLines ? std::move(sourceLines) : SourceLines(&JunitReport::readSourceLine))
{ }

std::optional<std::string> JunitReport::readSourceLine(const std::string& file, int line)
{
    if (line <= 0)
        return std::nullopt;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    std::string text;
    std::size_t read = 0;
    for (int n = 1; std::getline(in, text); ++n) {
        read += text.size() + 1;
        if (read > (64u << 20))
            return std::nullopt;
        if (n == line) {
            const auto begin = text.find_first_not_of(" \t");
            const auto end = text.find_last_not_of(" \t\r");
            return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
        }
    }
    return std::nullopt;
}

void JunitReport::add(const std::string& script, const model::Report& report)
{
    std::vector<Case> cases;
    for (const auto& capture : report.captures)
        cases.push_back(captureCase(capture, m_sourceLines));
    if (auto run = runCase(report, cases, script, m_sourceLines))
        cases.push_back(std::move(*run));

    int failures = 0, errors = 0;
    double total = 0;
    for (const auto& c : cases) {
        failures += c.kind == Case::Kind::Failure;
        errors += c.kind == Case::Kind::Error;
        total += c.seconds;
    }
    std::ostringstream out;
    out << "  <testsuite name=\"" << esc(script) << "\" tests=\"" << cases.size() << "\" failures=\"" << failures
        << "\" errors=\"" << errors << "\" skipped=\"0\" time=\"" << seconds(total) << "\" file=\""
        << esc(report.script.empty() ? script : report.script) << "\">\n";
    out << "    <properties>\n";
    auto property = [&](const char* name, const std::string& value) {
        out << "      <property name=\"" << name << "\" value=\"" << esc(value) << "\"/>\n";
    };
    property("status", std::string(model::toString(report.status)));
    property("verdict", std::string(model::toString(report.verdict())));
    property("exit_code", std::to_string(report.exitCode()));
    if (report.runId)
        property("run_id", std::to_string(*report.runId));
    out << "    </properties>\n";
    for (const auto& c : cases)
        writeCase(out, c, script);
    out << "  </testsuite>\n";

    m_suites += out.str();
    m_tests += static_cast<int>(cases.size());
    m_failures += failures;
    m_errors += errors;
    m_seconds += total;
}

std::string JunitReport::xml() const
{
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<testsuites name=\"precompile-studio run\" tests=\"" << m_tests << "\" failures=\"" << m_failures
        << "\" errors=\"" << m_errors << "\" time=\"" << seconds(m_seconds) << "\">\n"
        << m_suites << "</testsuites>\n";
    return out.str();
}

std::string JunitReport::write(const std::string& path) const
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file)
        return "cannot write " + path;
    file << xml();
    file.close();
    return file ? std::string() : "cannot write " + path;
}

}  // namespace ps::share
