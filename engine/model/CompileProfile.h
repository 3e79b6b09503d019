#pragma once

#include "model/CompilePhase.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// Where one precompile call's time went: a capture's `compile_profile` (seconds per phase,
/// adding up to timings_s.precompile) and `compile_trace` (torch's and the studio's timed events
/// behind it), read once. Written by precompile_studio/capture/compile_profile.py.
struct CompileProfile {
    struct Phase {
        CompilePhase phase = CompilePhase::Other;
        double seconds = 0;
    };
    struct Thread {
        std::int64_t id = 0;  ///< the OS thread id in the worker
        std::string name;
        bool main = false;  ///< the thread that called precompile: only its time makes the phases
    };
    struct Event {
        std::string name;
        std::string category;               ///< "torch" (dynamo_timed) or "studio"
        std::optional<CompilePhase> phase;  ///< the phase it names; nullopt: its parent's
        double start = 0;                   ///< seconds from the start of the call
        double duration = 0;
        std::size_t thread = 0;  ///< index into threads
    };

    /// In the report's order, each phase once (an unknown word counts as Other).
    std::vector<Phase> phases;
    std::vector<Thread> threads;
    std::vector<Event> events;
    /// false: this torch had no hook for its compile-time events, only the studio's spans are named.
    bool torchEvents = true;
    std::string note;
    /// inductor's FX graph cache during the call; nullopt when the worker did not say.
    std::optional<std::int64_t> cacheHits;
    std::optional<std::int64_t> cacheMisses;

    /// The seconds of all phases: the measured precompile time.
    double total() const;
    double seconds(CompilePhase phase) const;
    /// The share of the total that a phase other than Other names; nullopt for a total of 0.
    std::optional<double> coverage() const;
    /// One line: "compile 5.9 s: tracing 0.4 · aot_autograd 0.6 · ... · other 0.05 (99 % named, FX graph
    /// cache miss)"; phases under half a millisecond are left out (other never is).
    std::string summary() const;

    /// The capture's compile_profile and compile_trace; nullopt when it has no compile_profile
    /// (reports of older studios, or a profile that could not be made). Never throws.
    static std::optional<CompileProfile> fromJson(const nlohmann::json& capture);
};

}  // namespace ps::model
