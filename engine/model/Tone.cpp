#include "model/Tone.h"

namespace ps::model {

std::string_view toString(Tone tone)
{
    switch (tone) {
    case Tone::Good:
        return "good";
    case Tone::Warn:
        return "warn";
    case Tone::Serious:
        return "serious";
    case Tone::Bad:
        return "bad";
    case Tone::Muted:
        return "muted";
    }
    return "bad";
}

Tone toneOf(RunStatus status)
{
    return toneOf(verdictOf(status));  // the finer verdicts only ever come from an ok run
}

Tone toneOf(RunVerdict verdict)
{
    switch (verdict) {
    case RunVerdict::Ok:
        return Tone::Good;
    case RunVerdict::NumericsDrift:
    case RunVerdict::NotStored:
    case RunVerdict::Mismatch:
        return Tone::Warn;
    case RunVerdict::Violation:
        return Tone::Serious;
    case RunVerdict::Cancelled:
        return Tone::Muted;
    case RunVerdict::Error:
    case RunVerdict::Timeout:
    case RunVerdict::WorkerDied:
    case RunVerdict::ProtocolError:
    case RunVerdict::ConnectionLost:
        return Tone::Bad;
    }
    return Tone::Bad;
}

Tone toneOf(CaptureStatus status)
{
    switch (status) {
    case CaptureStatus::Ok:
        return Tone::Good;
    case CaptureStatus::Mismatch:
        return Tone::Warn;
    case CaptureStatus::Violation:
        return Tone::Serious;
    case CaptureStatus::Error:
        return Tone::Bad;
    }
    return Tone::Bad;
}

Tone toneOf(Judgement judgement)
{
    switch (judgement) {
    case Judgement::Matches:
        return Tone::Good;
    case Judgement::Drift:
        return Tone::Warn;
    case Judgement::Wrong:
        return Tone::Bad;
    case Judgement::None:
        return Tone::Muted;
    }
    return Tone::Bad;
}

Tone toneOf(Verification::Status status)
{
    using S = Verification::Status;
    switch (status) {
    case S::Ok:
        return Tone::Good;
    case S::Mismatch:
    case S::Drift:
    case S::Skipped:
        return Tone::Warn;
    case S::Violation:
        return Tone::Serious;
    case S::Error:
        return Tone::Bad;
    }
    return Tone::Bad;
}

Tone toneOf(Verification::Trial::Status status)
{
    using S = Verification::Trial::Status;
    switch (status) {
    case S::Ok:
        return Tone::Good;
    case S::Drift:
    case S::Skipped:
        return Tone::Warn;
    case S::Diverged:
    case S::Accepted:  // the artifact returned where eager refused: a silent hazard, measured
        return Tone::Bad;
    }
    return Tone::Bad;
}

std::vector<std::pair<std::string_view, Tone>> toneTable()
{
    std::vector<std::pair<std::string_view, Tone>> out;
    const auto add = [&out](std::string_view word, Tone tone) {
        for (const auto& [w, t] : out)
            if (w == word)
                return;  // the same word from another outcome: the test holds that it has the same tone
        out.emplace_back(word, tone);
    };
    for (auto v : {RunVerdict::Ok, RunVerdict::NumericsDrift, RunVerdict::NotStored, RunVerdict::Mismatch,
             RunVerdict::Violation, RunVerdict::Error, RunVerdict::Timeout, RunVerdict::WorkerDied,
             RunVerdict::Cancelled, RunVerdict::ProtocolError, RunVerdict::ConnectionLost})
        add(toString(v), toneOf(v));
    for (auto s : {CaptureStatus::Ok, CaptureStatus::Mismatch, CaptureStatus::Violation, CaptureStatus::Error})
        add(toString(s), toneOf(s));
    for (auto j : {Judgement::Matches, Judgement::Drift, Judgement::Wrong, Judgement::None})
        add(toString(j), toneOf(j));
    using V = Verification::Status;
    for (auto s : {V::Ok, V::Mismatch, V::Violation, V::Error, V::Skipped, V::Drift})
        add(toString(s), toneOf(s));
    using T = Verification::Trial::Status;
    for (auto s : {T::Ok, T::Drift, T::Diverged, T::Accepted, T::Skipped})
        add(toString(s), toneOf(s));
    return out;
}

}  // namespace ps::model
