#pragma once

#include "model/Stage.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ps::protocol {

/// Progress of a run as it happens. Called on the thread that called RunClient::run().
struct RunObserver {
    /// A stage began: one the worker announced (Script, Capture, Lower, Verify) or the front
    /// end's Store; capture is "" for the script and store stages.
    std::function<void(model::Stage stage, const std::string& capture)> onStage;
    /// Within the stage under way, what the worker is doing now ("inductor lowering: code_gen").
    std::function<void(const std::string& detail)> onStageDetail;
    std::function<void(int stream, std::string_view data)> onOutput;
    /// The worker restarted after one died; says what happened.
    std::function<void(const std::string& what)> onWorkerEvent;
    /// Artifact bytes arriving from a worker on another host: the file, bytes so far, of all.
    std::function<void(const std::string& file, std::uint64_t done, std::uint64_t total)> onTransfer;
};

}  // namespace ps::protocol
