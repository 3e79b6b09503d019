#include "model/ChromeTrace.h"

#include "model/CompileProfile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace ps::model {

namespace {

// The track of the phase breakdown; a real thread id is never 0.
constexpr std::int64_t kPhaseTrack = 0;

std::int64_t micros(double seconds)
{
    return std::llround(seconds * 1e6);
}

nlohmann::json metadata(const char* what, int pid, std::int64_t tid, const nlohmann::json& args)
{
    nlohmann::json m = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", args}};
    if (tid >= 0)
        m["tid"] = tid;
    return m;
}

struct Span {
    std::string name;
    std::string category;
    std::optional<CompilePhase> phase;
    std::int64_t start = 0;
    std::int64_t end = 0;
};

// One thread's spans as X events, each cut at its parent's end so that they nest.
void addThread(nlohmann::json& out, std::vector<Span> spans, int pid, std::int64_t tid)
{
    std::stable_sort(spans.begin(), spans.end(),
        [](const Span& a, const Span& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    std::vector<std::int64_t> open;  // ends of the enclosing spans
    for (auto& s : spans) {
        while (!open.empty() && open.back() <= s.start)
            open.pop_back();
        if (!open.empty())
            s.end = std::min(s.end, open.back());
        s.end = std::max(s.end, s.start);
        nlohmann::json e = {{"name", s.name}, {"cat", s.category.empty() ? "studio" : s.category}, {"ph", "X"},
            {"ts", s.start}, {"dur", s.end - s.start}, {"pid", pid}, {"tid", tid}};
        if (s.phase)
            e["args"] = {{"phase", std::string(toString(*s.phase))}};
        out.push_back(std::move(e));
        open.push_back(s.end);
    }
}

}  // namespace

bool ChromeTrace::available(const Report& report)
{
    return std::any_of(report.captures.begin(), report.captures.end(),
        [](const Capture& c) { return CompileProfile::fromJson(c.json).has_value(); });
}

nlohmann::json ChromeTrace::fromReport(const Report& report)
{
    nlohmann::json events = nlohmann::json::array();
    for (std::size_t i = 0; i < report.captures.size(); ++i) {
        const auto& capture = report.captures[i];
        const auto profile = CompileProfile::fromJson(capture.json);
        if (!profile)
            continue;
        const int pid = static_cast<int>(i) + 1;
        events.push_back(
            metadata("process_name", pid, -1, {{"name", "capture " + capture.name + " [" + capture.backend + "]"}}));
        events.push_back(metadata("process_sort_index", pid, -1, {{"sort_index", pid}}));

        // The breakdown, end to end, on a track of its own.
        events.push_back(metadata("thread_name", pid, kPhaseTrack, {{"name", "phases"}}));
        events.push_back(metadata("thread_sort_index", pid, kPhaseTrack, {{"sort_index", 0}}));
        std::int64_t at = 0;
        const double total = profile->total();
        for (const auto& phase : profile->phases) {
            const std::int64_t dur = micros(phase.seconds);
            events.push_back({{"name", std::string(label(phase.phase))}, {"cat", "phase"}, {"ph", "X"}, {"ts", at},
                {"dur", dur}, {"pid", pid}, {"tid", kPhaseTrack},
                {"args", {{"seconds", phase.seconds}, {"share", total > 0 ? phase.seconds / total : 0.0}}}});
            at += dur;
        }

        // The worker's threads: the calling thread first, under one precompile span.
        std::map<std::size_t, std::vector<Span>> byThread;
        for (const auto& e : profile->events)
            byThread[e.thread].push_back(
                {e.name, e.category, e.phase, micros(e.start), micros(e.start) + micros(e.duration)});
        for (std::size_t t = 0; t < profile->threads.size(); ++t) {
            const auto& thread = profile->threads[t];
            const std::int64_t tid = thread.id > 0 ? thread.id : static_cast<std::int64_t>(t) + 1;
            std::string name = thread.name.empty() ? "thread " + std::to_string(tid) : thread.name;
            events.push_back(metadata("thread_name", pid, tid, {{"name", name}}));
            events.push_back(metadata("thread_sort_index", pid, tid, {{"sort_index", static_cast<int>(t) + 1}}));
            auto spans = std::move(byThread[t]);
            if (thread.main)
                spans.push_back({"precompile " + capture.name, "studio", std::nullopt, 0, micros(total)});
            addThread(events, std::move(spans), pid, tid);
        }
    }
    nlohmann::json trace = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
    trace["otherData"] = {{"script", report.script}};
    if (report.runId)
        trace["otherData"]["run"] = *report.runId;
    return trace;
}

}  // namespace ps::model
