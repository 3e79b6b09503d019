#pragma once

#include "model/StartFailure.h"
#include "protocol/RunClient.h"
#include "remote/RemoteTarget.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace ps::remote {

/// Reaches a host as a run would (ssh, the studio there, its worker with torch imported) and
/// runs nothing: `precompile-studio remote check HOST` and Add Host's Check Host. Blocks for as
/// long as that takes (ssh's ConnectTimeout, then the worker's start), so the window calls run()
/// off its thread. Thread contract: one thread calls run(); cancel() may come from any thread at
/// any time (it kills ssh).
class HostCheck {
public:
    struct Result {
        bool ok = false;
        /// The report's `worker` object a run there would record (model::WorkerInfo reads it).
        nlohmann::json worker;
        /// Why not, typed: unreachable, authentication, no_studio, version, timeout, died, ...;
        /// nullopt for a destination refused before ssh saw it, or a cancelled check.
        std::optional<model::StartFailure> failure;
        /// Why not, in one line naming the host ("gpu-box refused the login (...)").
        std::string problem;
        bool cancelled = false;
    };

    explicit HostCheck(RemoteTarget target);

    Result run(std::chrono::milliseconds timeout);
    void cancel();

private:
    RemoteTarget m_target;
    protocol::RunClient m_client;
    std::atomic<bool> m_cancelled{false};
};

}  // namespace ps::remote
