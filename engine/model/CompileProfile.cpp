#include "model/CompileProfile.h"

#include "model/JsonFields.h"

#include <cmath>
#include <cstdio>

namespace ps::model {

namespace {

using F = JsonFields;

// Seconds as a person reads them: 12, 5.9, 0.4, 0.05, 0.0012.
std::string secondsText(double s)
{
    char buf[32];
    if (s >= 9.95)
        std::snprintf(buf, sizeof buf, "%.0f", s);
    else if (s >= 0.095)
        std::snprintf(buf, sizeof buf, "%.1f", s);
    else
        std::snprintf(buf, sizeof buf, "%.2g", s);
    return buf;
}

}  // namespace

double CompileProfile::total() const
{
    double sum = 0;
    for (const auto& p : phases)
        sum += p.seconds;
    return sum;
}

double CompileProfile::seconds(CompilePhase phase) const
{
    double sum = 0;
    for (const auto& p : phases)
        if (p.phase == phase)
            sum += p.seconds;
    return sum;
}

std::optional<double> CompileProfile::coverage() const
{
    const double all = total();
    if (all <= 0)
        return std::nullopt;
    return (all - seconds(CompilePhase::Other)) / all;
}

std::string CompileProfile::summary() const
{
    std::string out = "compile " + secondsText(total()) + " s:";
    const char* sep = " ";
    for (const auto& p : phases) {
        if (p.phase != CompilePhase::Other && p.seconds < 0.0005)
            continue;
        out += sep;
        out += label(p.phase);
        out += " " + secondsText(p.seconds);
        sep = " · ";
    }
    std::vector<std::string> notes;
    if (const auto c = coverage()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f %% named", std::floor(*c * 100 + 1e-9));
        notes.emplace_back(buf);
    }
    if (cacheMisses && *cacheMisses > 0)
        notes.emplace_back("FX graph cache miss");
    else if (cacheHits && *cacheHits > 0)
        notes.emplace_back("FX graph cache hit");
    if (!torchEvents)
        notes.emplace_back("torch's compile-time events not available: only the studio's own spans are named");
    if (!notes.empty()) {
        out += " (";
        for (std::size_t i = 0; i < notes.size(); ++i)
            out += (i ? ", " : "") + notes[i];
        out += ")";
    }
    return out;
}

std::optional<CompileProfile> CompileProfile::fromJson(const nlohmann::json& capture)
{
    const auto& list = F::member(capture, "compile_profile");
    if (!list.is_array())
        return std::nullopt;
    CompileProfile p;
    for (const auto& item : list) {
        const auto seconds = F::number(item, "seconds");
        if (!seconds || !std::isfinite(*seconds) || *seconds < 0)
            continue;
        const auto phase = compilePhaseFromString(F::text(item, "phase")).value_or(CompilePhase::Other);
        bool merged = false;
        for (auto& have : p.phases)
            if (have.phase == phase) {
                have.seconds += *seconds;
                merged = true;
            }
        if (!merged)
            p.phases.push_back({phase, *seconds});
    }
    const auto& trace = F::member(capture, "compile_trace");
    if (!trace.is_object())
        return p;
    p.torchEvents = F::flag(trace, "torch_events").value_or(true);
    p.note = F::text(trace, "note");
    if (const auto& cache = F::member(trace, "fxgraph_cache"); cache.is_object()) {
        p.cacheHits = F::integer(cache, "hit");
        p.cacheMisses = F::integer(cache, "miss");
    }
    if (const auto& threads = F::member(trace, "threads"); threads.is_array())
        for (const auto& t : threads)
            p.threads.push_back(
                {F::integer(t, "id").value_or(0), F::text(t, "name"), F::flag(t, "main").value_or(false)});
    if (const auto& events = F::member(trace, "events"); events.is_array())
        for (const auto& e : events) {
            const auto start = F::number(e, "start_s");
            const auto duration = F::number(e, "dur_s");
            const auto thread = F::integer(e, "thread");
            if (!start || !duration || !thread || *thread < 0 || static_cast<std::size_t>(*thread) >= p.threads.size()
                || !std::isfinite(*start) || !std::isfinite(*duration) || *duration < 0)
                continue;
            Event ev;
            ev.name = F::text(e, "name");
            ev.category = F::text(e, "cat");
            ev.phase = compilePhaseFromString(F::text(e, "phase"));
            ev.start = *start;
            ev.duration = *duration;
            ev.thread = static_cast<std::size_t>(*thread);
            p.events.push_back(std::move(ev));
        }
    return p;
}

}  // namespace ps::model
