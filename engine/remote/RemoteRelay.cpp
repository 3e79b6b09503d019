#include "remote/RemoteRelay.h"

#include "model/JsonLimits.h"
#include "protocol/FrameDecoder.h"
#include "protocol/FrameEncoder.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/StartError.h"
#include "protocol/WorkerLocator.h"
#include "protocol/WorkerProcess.h"
#include "remote/RemoteLayout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace ps::remote {

namespace fs = std::filesystem;
using protocol::WorkerProcess;

namespace {

constexpr const char* kFolderPrefix = "precompile-studio-remote-";

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return "?";
    return name;
}

/// Folders of relays that were killed (their pid file names a process that is gone).
void sweepStale(const fs::path& tmp)
{
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(tmp, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(kFolderPrefix, 0) != 0 || !entry.is_directory(ec))
            continue;
        std::ifstream pidFile(entry.path() / "pid");
        long pid = 0;
        if (!(pidFile >> pid) || pid <= 0)
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            fs::remove_all(entry.path(), ec);
    }
}

class Output {
public:
    explicit Output(int fd) : m_fd(fd) { }
    bool ok() const { return m_ok; }
    void payload(std::string_view payload)
    {
        if (!m_ok)
            return;
        const std::string frame = protocol::FrameEncoder::encodePayload(payload);
        std::size_t done = 0;
        while (done < frame.size()) {
            const ssize_t n = ::write(m_fd, frame.data() + done, frame.size() - done);
            if (n > 0) {
                done += static_cast<std::size_t>(n);
            } else if (n < 0 && errno == EINTR) {
                continue;
            } else {
                m_ok = false;  // the front end is gone
                return;
            }
        }
    }
    void message(const nlohmann::json& j) { payload(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)); }

private:
    int m_fd;
    bool m_ok = true;
};

/// The worker's artifact files, each as a `file` header and its chunks.
void sendFiles(const std::string& outDir, Output& out)
{
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(outDir, ec))
        if (RemoteLayout::isArtifactName(entry.path().filename().string()) && entry.is_regular_file(ec)
            && !entry.is_symlink(ec))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::string buffer(RemoteLayout::kChunkBytes, '\0');
    for (const auto& path : files) {
        std::ifstream in(path, std::ios::binary);
        const auto size = fs::file_size(path, ec);
        if (!in || ec)
            continue;
        out.message({{"type", "file"}, {"name", path.filename().string()}, {"size", size}});
        std::uintmax_t sent = 0;
        while (sent < size && out.ok()) {
            in.read(buffer.data(), static_cast<std::streamsize>(std::min<std::uintmax_t>(buffer.size(), size - sent)));
            const auto got = static_cast<std::size_t>(in.gcount());
            if (got == 0)
                break;  // the file shrank: the front end sees a short file and says so
            out.message({{"type", "chunk"}});
            out.payload(std::string_view(buffer.data(), got));
            sent += got;
        }
        if (sent < size)
            out.message({{"type", "chunk_end"}, {"short", true}});
    }
}

}  // namespace

int RemoteRelay::serve(int in, int out)
{
    std::signal(SIGPIPE, SIG_IGN);
    Output channel(out);
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path(ec);
    sweepStale(tmp);
    std::string pattern = (tmp / (std::string(kFolderPrefix) + "XXXXXX")).string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    const std::string host = hostName();
    if (!::mkdtemp(buf.data())) {
        channel.message({{"type", "remote"}, {"protocol", protocol::kProtocolVersion},
            {"studio", protocol::kStudioVersion}, {"hostname", host}, {"folder", ""}});
        channel.message({{"type", "fatal"},
            {"message",
                "on " + host + ": no private folder could be made in " + tmp.string() + ": " + std::strerror(errno)}});
        return 3;
    }
    const std::string folder = buf.data();
    struct RemoveFolder {
        std::string path;
        ~RemoveFolder()
        {
            std::error_code e;
            fs::remove_all(path, e);
        }
    } removeFolder{folder};
    fs::create_directory(folder + "/script", ec);
    fs::create_directory(folder + "/pair", ec);
    fs::create_directory(RemoteLayout::outDir(folder), ec);
    std::ofstream(folder + "/pid") << ::getpid() << "\n";

    channel.message({{"type", "remote"}, {"protocol", protocol::kProtocolVersion}, {"studio", protocol::kStudioVersion},
        {"hostname", host}, {"folder", folder}, {"pid", static_cast<int>(::getpid())}});
    if (m_options.clientProtocol != protocol::kProtocolVersion)
        return 3;  // the front end reads the versions in the hello and says what to do

    protocol::WorkerLaunch launch;
    try {
        launch = protocol::WorkerLocator::locate(
            m_options.pythonEnv.empty() ? std::nullopt : std::optional<std::string>(m_options.pythonEnv));
    } catch (const protocol::StartError& e) {
        const bool environment = e.cause() == model::StartFailure::Environment;
        channel.message({{"type", "fatal"}, {"message", "on " + host + ": " + e.what()},
            {"cause", environment ? "environment" : "executable"}});
        return 3;
    } catch (const protocol::ProtocolError& e) {
        channel.message({{"type", "fatal"}, {"message", "on " + host + ": " + e.what()}, {"cause", "environment"}});
        return 3;
    }
    const std::string workDir = m_options.remoteDir.empty() ? folder : m_options.remoteDir;
    if (!fs::is_directory(workDir, ec) || ::chdir(workDir.c_str()) != 0) {
        channel.message({{"type", "fatal"}, {"cause", "environment"},
            {"message", "on " + host + ": there is no folder " + workDir + " (--remote-dir)"}});
        return 3;
    }
    if (!m_options.remoteDir.empty()) {
        // The user's project: its packages import as they do for `python script.py` run there.
        const char* old = std::getenv("PYTHONPATH");
        const std::string path = m_options.remoteDir + (old && *old ? std::string(":") + old : std::string());
        ::setenv("PYTHONPATH", path.c_str(), 1);
    }

    WorkerProcess worker(launch);
    worker.setWakeFd(in);
    try {
        worker.start();
    } catch (const protocol::ProtocolError& e) {
        channel.message(
            {{"type", "fatal"}, {"message", "on " + host + ": the worker could not be started: " + e.what()}});
        return 3;
    }

    protocol::FrameDecoder requests;
    std::optional<std::string> scriptName;  // a `script` header came: its text is the next frame
    std::optional<std::string> pairFile;    // a `pair` header came: that file's bytes are the next frame
    char chunk[64 * 1024];
    bool inputOpen = true;
    while (inputOpen && channel.ok()) {
        std::optional<WorkerProcess::Event> ev;
        try {
            ev = worker.next(std::chrono::steady_clock::now() + std::chrono::hours(1));
        } catch (const protocol::ProtocolError& e) {
            // The worker broke its protocol: the front end is told as it would be locally.
            channel.message(
                {{"type", "fatal"}, {"message", std::string("the worker broke the protocol: ") + e.what()}});
            break;
        }
        if (!ev)
            continue;
        switch (ev->kind) {
        case WorkerProcess::Event::Kind::Wake: {
            const ssize_t n = ::read(in, chunk, sizeof chunk);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                inputOpen = false;  // cancelled, or the connection is gone
                break;
            }
            if (n < 0)
                break;
            try {
                requests.feed(chunk, static_cast<std::size_t>(n));
                while (auto payload = requests.next()) {
                    if (scriptName) {
                        std::ofstream(RemoteLayout::scriptPath(folder, *scriptName), std::ios::binary) << *payload;
                        scriptName.reset();
                        continue;
                    }
                    if (pairFile) {
                        std::ofstream(*pairFile, std::ios::binary) << *payload;
                        pairFile.reset();
                        continue;
                    }
                    std::string why;
                    auto message = model::JsonLimits::parse(*payload, protocol::kMaxFrameBytes, &why);
                    if (!message || !message->is_object())
                        throw protocol::ProtocolError("the front end sent a message that " + why);
                    const std::string type = message->value("type", "");
                    if (type == "script") {
                        scriptName = RemoteLayout::scriptName(message->value("name", ""));
                    } else if (type == "pair") {
                        // `library check`'s pair: only its two files, only into the relay's folder
                        const std::string part = message->value("part", "");
                        if (part != "python_code" && part != "cache")
                            throw protocol::ProtocolError(
                                "the front end sent a pair part '" + part.substr(0, 40) + "'");
                        pairFile = RemoteLayout::pairPath(folder, part);
                    } else if (type == "run") {
                        const std::string name = RemoteLayout::scriptName(message->value("script", ""));
                        (*message)["script"] = RemoteLayout::scriptPath(folder, name);
                        (*message)["out_dir"] = RemoteLayout::outDir(folder);
                        if (auto check = message->find("check"); check != message->end() && check->is_object()) {
                            (*check)["python_code"] = RemoteLayout::pairPath(folder, "python_code");
                            (*check)["cache"] = RemoteLayout::pairPath(folder, "cache");
                        }
                        worker.send(*message);
                    } else if (type == "quit") {
                        worker.send(*message);
                    } else {
                        throw protocol::ProtocolError("the front end sent '" + type + "'");
                    }
                }
            } catch (const protocol::ProtocolError& e) {
                channel.message({{"type", "fatal"}, {"message", "on " + host + ": " + e.what()}});
                inputOpen = false;
            }
            break;
        }
        case WorkerProcess::Event::Kind::Message:
            if (ev->message.value("type", "") == "result")
                sendFiles(RemoteLayout::outDir(folder), channel);
            channel.message(ev->message);
            break;
        case WorkerProcess::Event::Kind::Output:
            channel.message({{"type", "output"}, {"stream", ev->stream}});
            channel.payload(ev->data);
            break;
        case WorkerProcess::Event::Kind::Exited:
            channel.message({{"type", "exited"}, {"exited", ev->status.exited}, {"code", ev->status.code},
                {"signaled", ev->status.signaled}, {"signal", ev->status.signal},
                {"peak_kib", ev->status.peakMemoryKiB}});
            inputOpen = false;
            break;
        default:
            break;
        }
    }
    worker.kill();
    return 0;
}

}  // namespace ps::remote
