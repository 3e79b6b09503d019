// libFuzzer target: what a host's studio sends back over ssh (a compromised host is a hostile
// worker). Input: one byte (the chunk size the stream is fed in, 0 = all at once), then the byte
// stream, framed as on the wire (FrameDecoder) and read by RemoteFrameReader into a private
// folder, each worker message then checked by WorkerMessage::parse as RunClient does.
// ProtocolError and nlohmann::json's exceptions (RemoteWorker turns them into "sent a malformed
// message") are the expected failures. Whatever the frames, nothing is written outside the run's
// own folder, and nothing but an artifact's name inside it.
#include "FuzzCheck.h"
#include "FuzzFrames.h"
#include "protocol/ProtocolError.h"
#include "protocol/WorkerMessage.h"
#include "remote/RemoteFrameReader.h"
#include "remote/RemoteLayout.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path& root()
{
    // Never destroyed, so that the exit handler below can still use it.
    static const fs::path* dir = [] {
        std::string name = (fs::temp_directory_path() / "ps-fuzz-remote-XXXXXX").string();
        if (!::mkdtemp(name.data()))
            std::abort();
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(*dir, ec);
        });
        return new fs::path(name);
    }();
    return *dir;
}

void onEvent(const ps::remote::RemoteFrameReader::Event& ev)
{
    using Kind = ps::remote::RemoteFrameReader::Event::Kind;
    if (ev.kind != Kind::Message)
        return;
    try {
        (void)ps::protocol::WorkerMessage::parse(ev.message).type();
    } catch (const ps::protocol::ProtocolError&) {
    }
}

/// Only the run's folder under the root, and only artifacts in it; then empties it.
void checkFolder()
{
    const fs::path out = root() / "out";
    for (const auto& entry : fs::directory_iterator(root()))
        if (entry.path() != out)
            ps::fuzz::broken("nothing is written outside the run's folder", entry.path().string());
    for (const auto& entry : fs::directory_iterator(out)) {
        if (!entry.is_regular_file() || !ps::remote::RemoteLayout::isArtifactName(entry.path().filename().string()))
            ps::fuzz::broken("only artifacts arrive in the run's folder", entry.path().string());
        fs::remove(entry.path());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fs::create_directories(root() / "out");
    {
        ps::remote::RemoteFrameReader reader("gpu-box");
        const std::string out = (root() / "out").string();
        reader.setPaths("/home/me/s.py", out, "/tmp/ps-remote-1/s.py", "/tmp/ps-remote-1/out");
        try {
            ps::fuzz::feedFrames(data, size, [&](std::string payload) {
                if (auto ev = reader.onFrame(std::move(payload))) {
                    onEvent(*ev);
                    if (ev->kind == ps::remote::RemoteFrameReader::Event::Kind::Exited)
                        throw ps::protocol::ProtocolError("ended");  // RemoteWorker reads no further
                }
            });
        } catch (const ps::protocol::ProtocolError&) {
        } catch (const nlohmann::json::exception&) {
        }
    }
    checkFolder();
    return 0;
}
