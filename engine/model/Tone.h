#pragma once

#include "model/CaptureStatus.h"
#include "model/Judgement.h"
#include "model/RunStatus.h"
#include "model/RunVerdict.h"
#include "model/Verification.h"

#include <string_view>
#include <utility>
#include <vector>

namespace ps::model {

/// How an outcome reads at a glance: the one rule the window's colours (ui/common/StatusStyle),
/// the HTML page's badges and `run`'s words follow, decided here from the typed outcome, never
/// from its word.
enum class Tone {
    Good,     ///< ok, matches
    Warn,     ///< a mismatch, numerics drift, not stored, skipped
    Serious,  ///< a contract violation
    Bad,      ///< an error, a wrong result, a worker that died or timed out
    Muted,    ///< cancelled, no verdict
};

/// "good", "warn", "serious", "bad", "muted" (the page's CSS classes are ps-tone-WORD).
std::string_view toString(Tone tone);

Tone toneOf(RunStatus status);
Tone toneOf(RunVerdict verdict);
Tone toneOf(CaptureStatus status);
Tone toneOf(Judgement judgement);
Tone toneOf(Verification::Status status);
Tone toneOf(Verification::Trial::Status status);

/// Every word these outcomes are written with in a report, with its tone: what the page reads
/// (PageData's "tones") instead of deciding by words of its own. One word never has two tones.
std::vector<std::pair<std::string_view, Tone>> toneTable();

}  // namespace ps::model
