// libFuzzer target: the channel between front end and worker, as both ends read it.
// Input: one byte (the chunk size the stream is fed in, 0 = all at once), then the byte stream.
// Each frame goes through model::JsonLimits::parse (capped like WorkerProcess and WorkerServer)
// and then WorkerMessage::parse (the front end's edge) and RunRequest::parse (the worker's edge).
// ProtocolError is the one expected failure; any other exception or a crash is a finding.
#include "FuzzFrames.h"
#include "model/JsonLimits.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunRequest.h"
#include "protocol/WorkerMessage.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

// How the product writes reports (RunCommand, ArtifactLibrary, ArtifactFiles).
std::string dumpReport(const nlohmann::json& j)
{
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

// RunClient's brokenProtocol(): the error's text becomes the report's message.
void reportProtocolError(const ps::protocol::ProtocolError& e)
{
    (void)dumpReport(ps::model::Report::failed(
        "s.py", ps::model::RunStatus::ProtocolError, std::string("the run was stopped in stage 'script': ") + e.what())
                         .toJson());
}

void parseFrame(const std::string& payload)
{
    std::string why;
    const auto message = ps::model::JsonLimits::parse(payload, ps::protocol::kMaxFrameBytes, &why);
    if (!message)
        return;  // WorkerProcess: ProtocolError("the worker sent a message that " + why)
    try {
        const auto parsed = ps::protocol::WorkerMessage::parse(*message);
        (void)parsed.type();
        if (const auto* result = parsed.get<ps::protocol::ResultMessage>()) {
            (void)dumpReport(result->report.toJson());
            (void)result->report.verdict();
            (void)result->report.exitCode();
        }
    } catch (const ps::protocol::ProtocolError& e) {
        reportProtocolError(e);
    }
    try {
        (void)ps::protocol::RunRequest::parse(*message).toJson().dump();
    } catch (const ps::protocol::ProtocolError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        ps::fuzz::feedFrames(data, size, [](const std::string& payload) { parseFrame(payload); });
    } catch (const ps::protocol::ProtocolError& e) {
        reportProtocolError(e);
        // A length over kMaxFrameBytes: the channel is broken, the run ends.
    }
    return 0;
}
