// [remote] benchmark: a run on another host over ssh against a local run, on this machine, through
// a real OpenSSH server the bench starts itself on loopback (tests/remote/TestSshServer).
//
// 1. Wall ratio. The same resnet18 inference script (inductor, eval mode) through the CLI,
//    `precompile-studio run SCRIPT --json --no-store` locally and with `--host studio-test
//    --remote-studio <source dir>`, alternating (the order flips every round), after one untimed
//    run of each. Both sides share one Inductor cache: the host side's TMPDIR (the sshd sets it
//    for every session) is the local side's too, so both are warm alike. Target: remote/local of
//    the medians <= 1.10.
// 2. Artifact transfer. A copy of the real front end whose worker is a stand-in
//    (standin_worker.py) that writes a 200 MiB cache on the host; the product's relay sends it
//    back through ssh in chunk frames. Driven in-process (run::RunPipeline::forHost), timed from
//    the RunObserver's onTransfer events: bytes between the first and the last event of the cache
//    over the time between them (events come every 16 MiB, so the first 16 MiB, ssh's start and
//    the worker's writing are outside the window). Cross-check: the whole run of a 200 MiB cache
//    minus the same run of a 1 MiB one. Target: >= 100 MB/s (MB = 10^6 bytes).
// 3. Where a transfer's time goes, so that a miss can be placed: plain ssh through the same server
//    (`ssh studio-test 'head -c 500M /dev/zero'` read by this process) with ssh's default cipher
//    and with aes128-gcm; the product's transfer with aes128-gcm (PS_SSH_COMMAND ... -c) and with
//    no ssh at all (a pass-through "ssh" that runs the relay here, on pipes); the front end's parts
//    alone in this process (FrameDecoder, the file's writes, RunPipeline's read back and sha256);
//    and the 200 MiB run split at its first and last onTransfer events.
//
//   bench_remote [--rounds N] [--transfers N] [--no-ratio] [--no-transfer] [--serve]
//
// --serve keeps the sshd and a stand-in studio up, prints how to reach them and waits for stdin
// to close: for timing and profiling by hand (a stand-in run's script says `cache_mib = N`).

#include "StudioProcess.h"
#include "TestSshServer.h"
#include "library/core/Sha256.h"
#include "protocol/FrameDecoder.h"
#include "protocol/FrameEncoder.h"
#include "remote/RemoteTarget.h"
#include "run/RunPipeline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using ps::test::TestSshServer;

namespace {

const std::string kStudio = PS_BENCH_STUDIO;
const std::string kPython = PS_BENCH_PYTHON;
const std::string kSourceDir = PS_BENCH_SOURCE_DIR;
constexpr const char* kFastCipher = "aes128-gcm@openssh.com";

double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// ---- 1. wall ratio -------------------------------------------------------------------------

struct Timed {
    double seconds = 0;
    bool ok = false;
    std::string why;
};

Timed timeRun(
    const std::string& script, const std::vector<std::string>& global, const std::vector<std::string>& env, bool remote)
{
    std::vector<std::string> argv = {kStudio};
    argv.insert(argv.end(), global.begin(), global.end());
    argv.insert(argv.end(), {"run", script, "--json", "--no-store"});
    Timed t;
    const auto t0 = Clock::now();
    const auto r = ps::test::runProcess(argv, env);
    t.seconds = secondsSince(t0);
    try {
        const auto report = nlohmann::json::parse(r.out);
        const bool ranThere
            = report.value("worker", nlohmann::json::object()).value("host", nlohmann::json()).is_string();
        t.ok = r.exitCode == 0 && report.value("status", "") == "ok" && ranThere == remote;
        if (!t.ok)
            t.why = "exit " + std::to_string(r.exitCode) + ", " + report.value("status", "?") + ": "
                + report.value("message", "") + (ranThere == remote ? "" : " (ran on the wrong side)");
    } catch (const nlohmann::json::exception&) {
        t.why = "no JSON report (exit " + std::to_string(r.exitCode) + "): " + r.err.substr(0, 2000);
    }
    return t;
}

bool wallRatio(const TestSshServer& server, int rounds, std::vector<std::string>& bench)
{
    const std::string script = kSourceDir + "/tests/bench/remote/resnet18_inference.py";
    const std::vector<std::string> remoteArgs = {"--host", TestSshServer::kHost, "--remote-studio", kSourceDir};
    // The local side runs with the host side's TMPDIR: one Inductor cache for both.
    const std::vector<std::string> env = {"PS_SSH_COMMAND=" + server.sshCommand(), "TMPDIR=" + server.remoteTmp()};
    auto local = [&] { return timeRun(script, {}, env, false); };
    auto remote = [&] { return timeRun(script, remoteArgs, env, true); };

    std::printf("\nwall ratio: resnet18 inference (inductor), `run --json --no-store`, %d rounds\n", rounds);
    for (auto* side : {"local", "remote"}) {
        const auto w = std::string(side) == "local" ? local() : remote();
        std::printf("  warm-up %-6s %8.2f s %s\n", side, w.seconds, w.ok ? "" : w.why.c_str());
        if (!w.ok)
            return false;
    }
    std::vector<double> localS, remoteS;
    for (int i = 0; i < rounds; ++i) {
        Timed a, b;
        if (i % 2) {
            b = remote();
            a = local();
        } else {
            a = local();
            b = remote();
        }
        std::printf("  round %d: local %7.2f s  remote %7.2f s  %s%s\n", i + 1, a.seconds, b.seconds, a.why.c_str(),
            b.why.c_str());
        if (!a.ok || !b.ok)
            return false;
        localS.push_back(a.seconds);
        remoteS.push_back(b.seconds);
    }
    // What the connection itself costs: a login that runs `true` (ssh's start, key exchange,
    // authentication, a session).
    std::vector<double> loginS;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = Clock::now();
        const auto r = ps::test::runProcess({"/bin/sh", "-c", server.sshCommand() + " -T studio-test true"});
        loginS.push_back(r.exitCode == 0 ? secondsSince(t0) : -1);
    }
    const double l = median(localS), r = median(remoteS), login = median(loginS);
    const double ratio = r / l;
    std::printf("\n%-58s %10s\n", "resnet18 inference, inductor, warm shared cache", "median s");
    std::printf("%-58s %10.3f\n", "local   run --json --no-store", l);
    std::printf("%-58s %10.3f\n", "remote  run --host studio-test (loopback sshd)", r);
    std::printf("%-58s %10.3f\n", "  of which an ssh login alone (ssh studio-test true)", login);
    std::printf("%-58s %10.3f\n", "ratio remote / local", ratio);
    char line[256];
    std::snprintf(line, sizeof line, "BENCH remote.wall_ratio %.3f x <=1.10", ratio);
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.local_wall %.3f s -", l);
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.remote_wall %.3f s -", r);
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.ssh_login %.3f s -", login);
    bench.push_back(line);
    return true;
}

// ---- 2. artifact transfer -----------------------------------------------------------------

/// A studio folder for the host: a copy of the real front end and the stand-in worker.
std::string makeStandIn(const ps::test::TempDir& dir)
{
    const std::string studioDir = dir.file("stand-in");
    fs::create_directories(studioDir + "/bin");
    fs::copy_file(kStudio, studioDir + "/bin/precompile-studio");
    const std::string worker = studioDir + "/bin/precompile-studio-worker-" + PS_TEST_TORCH_SERIES;
    std::ofstream(worker) << "#!" << kPython << "\n" << readAll(kSourceDir + "/tests/support/standin_worker.py");
    fs::permissions(worker, fs::perms::owner_all);
    return studioDir;
}

struct Transfer {
    bool ok = false;
    std::string why;
    double wall = 0;       ///< the whole pipeline.run()
    double toFirst = 0;    ///< run start to the cache's first onTransfer event
    double window = 0;     ///< the cache's first to last onTransfer event
    double afterLast = 0;  ///< the last event to run() returning (read back, sha256 check)
    std::uint64_t windowBytes = 0;
    double mbps() const { return window > 0 ? windowBytes / window / 1e6 : 0; }
};

Transfer transferOnce(const std::string& studioDir, const ps::test::TempDir& dir, int mib)
{
    const std::string script = dir.file("big_" + std::to_string(mib) + ".py");
    std::ofstream(script) << "# read by the stand-in worker\ncache_mib = " << mib << "\n";
    auto pipeline = ps::run::RunPipeline::forHost({TestSshServer::kHost, studioDir, "", ""});
    ps::run::PipelineOptions options;
    options.run.script = script;
    Clock::time_point first, last;
    std::uint64_t firstDone = 0, lastDone = 0;
    bool seen = false;
    ps::protocol::RunObserver observer;
    observer.onTransfer = [&](const std::string& file, std::uint64_t done, std::uint64_t) {
        if (file.find(".cache") == std::string::npos)
            return;
        const auto now = Clock::now();
        if (!seen) {
            first = now;
            firstDone = done;
            seen = true;
        }
        last = now;
        lastDone = done;
    };
    Transfer t;
    const auto t0 = Clock::now();
    const auto result = pipeline.run(options, observer);
    const auto t1 = Clock::now();
    t.wall = std::chrono::duration<double>(t1 - t0).count();
    const auto& artifacts = result.artifacts;
    const bool arrived = artifacts.size() == 1 && artifacts[0].cache
        && artifacts[0].cache->size() == static_cast<std::size_t>(mib) << 20;
    t.ok = result.report.status == ps::model::RunStatus::Ok && arrived;
    if (!t.ok)
        t.why = result.report.message + (arrived ? "" : " (the cache did not arrive whole)");
    if (seen) {
        t.toFirst = std::chrono::duration<double>(first - t0).count();
        t.window = std::chrono::duration<double>(last - first).count();
        t.afterLast = std::chrono::duration<double>(t1 - last).count();
    }
    t.windowBytes = lastDone - firstDone;
    return t;
}

/// Bytes per second that `command` writes to its stdout, read here in 1 MiB reads.
double pipeMBps(const std::string& command, std::uint64_t expected)
{
    const auto t0 = Clock::now();
    FILE* p = ::popen(command.c_str(), "r");
    if (!p)
        return 0;
    std::vector<char> buf(1 << 20);
    std::uint64_t total = 0;
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;)
        total += n;
    const int rc = ::pclose(p);
    const double s = secondsSince(t0);
    return rc == 0 && total == expected ? total / s / 1e6 : 0;
}

std::string negotiatedCipher(const std::string& ssh)
{
    const auto r = ps::test::runProcess({"/bin/sh", "-c", ssh + " -v -T studio-test true"});
    const std::string key = "kex: server->client cipher: ";
    const auto at = r.err.find(key);
    if (at == std::string::npos)
        return "?";
    const auto end = r.err.find_first_of(" \n", at + key.size());
    return r.err.substr(at + key.size(), end - at - key.size());
}

/// The front end's parts of a transfer one by one, on `mib` MiB in this process, no ssh, no
/// relay: MB/s of FrameDecoder (4 MiB chunk frames fed in the 64 KiB reads WorkerProcess
/// makes), of writing the file as RemoteWorker does (fwrite per chunk), and of RunPipeline's
/// read back and sha256 check (readFile through an ostringstream, Sha256::hex).
struct Parts {
    double decode = 0, write = 0, readBack = 0, sha = 0;
};

Parts frontEndParts(const ps::test::TempDir& dir, int mib)
{
    const std::size_t chunk = 4u << 20;
    std::string data(chunk, '\0');
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<char>(i * 131);
    const std::string header = ps::protocol::FrameEncoder::encodeMessage({{"type", "chunk"}});
    const std::string frame = ps::protocol::FrameEncoder::encodePayload(data);
    const double bytes = static_cast<double>(mib) * (1 << 20);
    Parts p;
    {
        ps::protocol::FrameDecoder decoder;
        std::string stream = header + frame;
        std::size_t got = 0;
        const auto t0 = Clock::now();
        for (int c = 0; c < mib / 4; ++c)
            for (std::size_t at = 0; at < stream.size(); at += 64 * 1024) {
                decoder.feed(stream.data() + at, std::min<std::size_t>(64 * 1024, stream.size() - at));
                while (auto payload = decoder.next())
                    got += payload->size();
            }
        p.decode = got > 0 ? bytes / secondsSince(t0) / 1e6 : 0;
    }
    const std::string file = dir.file("parts.cache");
    {
        const auto t0 = Clock::now();
        FILE* f = std::fopen(file.c_str(), "wb");
        for (int c = 0; c < mib / 4; ++c)
            std::fwrite(data.data(), 1, data.size(), f);
        std::fclose(f);
        p.write = bytes / secondsSince(t0) / 1e6;
    }
    std::string back;
    {
        const auto t0 = Clock::now();
        std::ifstream in(file, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        back = ss.str();
        p.readBack = bytes / secondsSince(t0) / 1e6;
    }
    {
        const auto t0 = Clock::now();
        const auto hex = ps::library::Sha256::hex(back);
        p.sha = hex.size() == 64 ? bytes / secondsSince(t0) / 1e6 : 0;
    }
    fs::remove(file);
    return p;
}

std::string row(const std::string& what, double value, const char* format = "%10.1f")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    char line[256];
    std::snprintf(line, sizeof line, "%-70s %s", what.c_str(), buf);
    return line;
}

bool transfer(const TestSshServer& server, int reps, std::vector<std::string>& bench)
{
    ps::test::TempDir dir;
    const std::string studioDir = makeStandIn(dir);
    const std::string defaultSsh = server.sshCommand();
    const std::string fastSsh = defaultSsh + " -c " + kFastCipher;
    // No ssh at all: an "ssh" that runs the remote command line here (the relay on pipes).
    const std::string passThrough
        = dir.write("pass-through-ssh", "#!/bin/sh\nfor a; do last=$a; done\nexec /bin/sh -c \"$last\"\n");
    fs::permissions(passThrough, fs::perms::owner_all);
    constexpr int kBig = 200, kSmall = 1;

    struct Side {
        std::string label;
        std::string ssh;
        std::vector<Transfer> big;
        std::vector<double> small;
    };
    std::vector<Side> sides = {{"ssh default", defaultSsh, {}, {}},
        {std::string("ssh -c ") + kFastCipher, fastSsh, {}, {}}, {"no ssh (pass-through)", passThrough, {}, {}}};
    std::printf("\nartifact transfer: %d MiB cache from the stand-in worker, %d repetitions\n", kBig, reps);
    for (int i = 0; i < reps; ++i) {
        for (auto& side : sides) {
            ::setenv("PS_SSH_COMMAND", side.ssh.c_str(), 1);
            const auto small = transferOnce(studioDir, dir, kSmall);
            const auto big = transferOnce(studioDir, dir, kBig);
            std::printf("  %-34s rep %d: window %6.1f MB/s (%.3f s); run %.3f s = %.3f to first + %.3f window + "
                        "%.3f after; 1 MiB run %.3f s\n",
                side.label.c_str(), i + 1, big.mbps(), big.window, big.wall, big.toFirst, big.window, big.afterLast,
                small.wall);
            if (!small.ok || !big.ok) {
                std::printf("  failed: %s %s\n", small.why.c_str(), big.why.c_str());
                return false;
            }
            side.big.push_back(big);
            side.small.push_back(small.wall);
        }
    }
    ::setenv("PS_SSH_COMMAND", defaultSsh.c_str(), 1);

    // Plain ssh through the same server: ssh's own ceiling on this machine.
    constexpr std::uint64_t kPlain = 500ull << 20;
    const std::string head = " -T studio-test 'head -c " + std::to_string(kPlain) + " /dev/zero'";
    std::vector<double> plainDefault, plainFast;
    std::vector<Parts> parts;
    for (int i = 0; i < reps; ++i) {
        plainDefault.push_back(pipeMBps(defaultSsh + head, kPlain));
        plainFast.push_back(pipeMBps(fastSsh + head, kPlain));
        parts.push_back(frontEndParts(dir, kBig));
    }
    const std::string cipher = negotiatedCipher(defaultSsh);

    auto of = [](const std::vector<Transfer>& ts, double Transfer::*field) {
        std::vector<double> v;
        for (const auto& t : ts)
            v.push_back(t.*field);
        return median(v);
    };
    auto windowMBps = [&](const Side& s) {
        std::vector<double> v;
        for (const auto& t : s.big)
            v.push_back(t.mbps());
        return median(v);
    };
    auto endToEnd = [&](const Side& s) {
        const double delta = of(s.big, &Transfer::wall) - median(s.small);
        return delta > 0 ? ((kBig - kSmall) << 20) / delta / 1e6 : 0;
    };
    auto partOf = [&](double Parts::*field) {
        std::vector<double> v;
        for (const auto& p : parts)
            v.push_back(p.*field);
        return median(v);
    };
    std::printf("\n%-70s %10s\n", "artifact transfer, 200 MiB cache over loopback (MB = 10^6 bytes)", "MB/s");
    for (const auto& s : sides) {
        std::printf("%s\n", row("studio, " + s.label + ": onTransfer window", windowMBps(s)).c_str());
        std::printf("%s\n", row("studio, " + s.label + ": 200 MiB run minus 1 MiB run", endToEnd(s)).c_str());
    }
    std::printf("%s\n", row("plain ssh 'head -c 500M /dev/zero', default", median(plainDefault)).c_str());
    std::printf(
        "%s\n", row(std::string("plain ssh 'head -c 500M /dev/zero', -c ") + kFastCipher, median(plainFast)).c_str());
    std::printf("%s\n",
        row("front end alone: FrameDecoder, 4 MiB frames fed 64 KiB at a time", partOf(&Parts::decode)).c_str());
    std::printf("%s\n", row("front end alone: fwrite of the file, 4 MiB at a time", partOf(&Parts::write)).c_str());
    std::printf(
        "%s\n", row("front end alone: read back (ostringstream << rdbuf, str())", partOf(&Parts::readBack)).c_str());
    std::printf("%s\n", row("front end alone: Sha256::hex", partOf(&Parts::sha)).c_str());
    const auto& d = sides[0].big;
    std::printf("\n%-70s %10s\n", "the 200 MiB run, ssh default, where its time goes", "median s");
    std::printf("%s\n",
        row("run start to the first 16 MiB arrived (ssh, relay, stand-in writing)", of(d, &Transfer::toFirst), "%10.3f")
            .c_str());
    std::printf("%s\n", row("the window (from 16 MiB to 200 MiB)", of(d, &Transfer::window), "%10.3f").c_str());
    std::printf("%s\n",
        row("the last byte to run() returning (read back, sha256 check)", of(d, &Transfer::afterLast), "%10.3f")
            .c_str());
    std::printf("%s\n", row("1 MiB run, whole", median(sides[0].small), "%10.3f").c_str());
    std::printf("the default ssh cipher here is %s; the product runs with ssh's defaults.\n"
                "window: bytes between the first and the last onTransfer event of the cache (events every\n"
                "16 MiB) over the time between them, in process (RunPipeline::forHost); medians of %d.\n",
        cipher.c_str(), reps);
    char line[256];
    std::snprintf(line, sizeof line, "BENCH remote.transfer %.1f MB/s >=100", windowMBps(sides[0]));
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.transfer_end_to_end %.1f MB/s -", endToEnd(sides[0]));
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.transfer_aes128gcm %.1f MB/s -", windowMBps(sides[1]));
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.transfer_no_ssh %.1f MB/s -", windowMBps(sides[2]));
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.plain_ssh %.1f MB/s -", median(plainDefault));
    bench.push_back(line);
    std::snprintf(line, sizeof line, "BENCH remote.plain_ssh_aes128gcm %.1f MB/s -", median(plainFast));
    bench.push_back(line);
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rounds show as they end under `make bench`'s tee
    int rounds = 5, reps = 3;
    bool ratio = true, xfer = true, serve = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--rounds" && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--transfers" && i + 1 < argc)
            reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--no-ratio")
            ratio = false;
        else if (a == "--no-transfer")
            xfer = false;
        else if (a == "--serve")
            serve = true;
        else {
            std::fprintf(
                stderr, "usage: bench_remote [--rounds N] [--transfers N] [--no-ratio] [--no-transfer] [--serve]\n");
            return 2;
        }
    }
    TestSshServer server;
    if (!server.problem().empty()) {
        std::printf("bench_remote skipped: %s\n", server.problem().c_str());
        return 0;
    }
    ::setenv("PS_SSH_COMMAND", server.sshCommand().c_str(), 1);
    if (serve) {
        ps::test::TempDir dir;
        std::printf("export PS_SSH_COMMAND='%s'\n", server.sshCommand().c_str());
        std::printf("host %s, studio %s, stand-in studio %s\n", TestSshServer::kHost, kSourceDir.c_str(),
            makeStandIn(dir).c_str());
        std::printf("serving until stdin closes\n");
        std::fflush(stdout);
        while (std::getchar() != EOF) {
        }
        return 0;
    }
    std::vector<std::string> bench;
    bool ok = true;
    if (ratio)
        ok = wallRatio(server, rounds, bench) && ok;
    if (xfer)
        ok = transfer(server, reps, bench) && ok;
    std::printf("\n");
    for (const auto& line : bench)
        std::printf("%s\n", line.c_str());
    if (!server.waitUntilNoSessionProcess(10))
        std::printf("bench_remote: a process started through the sshd is still running\n");
    return ok ? 0 : 1;
}
