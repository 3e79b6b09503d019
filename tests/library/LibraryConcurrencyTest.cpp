// Several processes on one library file, and a writer killed at random points.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <thread>

#include "LibraryTestSupport.h"
#include "library/ArtifactLibrary.h"
#include "library/LibraryError.h"
#include "library/Sha256.h"

namespace ps::library {
namespace {

using test::TempDir;

/// The run a writer stores for `seed`: two captures whose bytes follow from the seed, so a
/// reader can check every byte. The seed travels in the report.
NewRun seededRun(std::uint64_t seed, std::size_t codeBytes, std::size_t cacheBytes)
{
    NewRun run;
    run.report = {{"schema", 1}, {"script", "/s/writer.py"}, {"status", "ok"}, {"message", ""}, {"seed", seed},
        {"captures", nlohmann::json::array({test::captureReport("first"), test::captureReport("second")})}};
    run.captures = {NewCapture{test::pythonCodeText(codeBytes, seed), test::semiRandomBytes(cacheBytes, seed)},
        NewCapture{test::pythonCodeText(codeBytes / 2, seed + 1), std::string("shared cache")}};
    run.scriptText = "def fn(x):\n    return x  # seed " + std::to_string(seed) + "\n";
    return run;
}

/// Checks that a run is whole: both captures there, every byte what its seed says.
void expectWhole(const ArtifactLibrary& library, const RunSummary& summary)
{
    SCOPED_TRACE("run " + std::to_string(summary.id));
    ASSERT_EQ(summary.captures.size(), 2u);
    const RunRecord record = library.show(summary.id);
    EXPECT_TRUE(record.damaged.empty());
    const std::uint64_t seed = record.report.at("seed").get<std::uint64_t>();
    const NewRun expected = seededRun(seed, record.summary.captures[0].pythonCodeBytes.value_or(0),
        record.summary.captures[0].cacheBytes.value_or(0));
    for (int i = 0; i < 2; ++i) {
        const CaptureArtifact artifact = library.artifact(summary.id, i);
        EXPECT_TRUE(artifact.pythonCode == *expected.captures[i].pythonCode) << "capture " << i;
        EXPECT_TRUE(artifact.cache == *expected.captures[i].cache) << "capture " << i;
    }
    EXPECT_EQ(record.report["captures"].size(), 2u);
}

int waitFor(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

TEST(LibraryConcurrency, TwoProcessesInsert200RunsEachAtOnce)
{
    TempDir dir;
    const std::string path = dir.file("shared.sqlite3");  // not created yet: both race to create it
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    std::vector<pid_t> writers;
    for (int w = 0; w < 2; ++w) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(gate[1]);
            char go;
            if (::read(gate[0], &go, 1) != 0)
                ::_exit(3);  // released when the parent closes it
            int code = 0;
            try {
                ArtifactLibrary library(path);
                for (int i = 0; i < 200; ++i)
                    library.insert(seededRun(w * 1000 + i, 2000 + 37 * i, 3000));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "writer %d: %s\n", w, e.what());
                code = 1;
            }
            ::_exit(code);
        }
        writers.push_back(pid);
    }
    ::close(gate[0]);
    ::close(gate[1]);  // both start now
    for (pid_t pid : writers) {
        const int status = waitFor(pid);
        ASSERT_TRUE(WIFEXITED(status));
        EXPECT_EQ(WEXITSTATUS(status), 0) << "a writer failed (its error is on stderr)";
    }

    ArtifactLibrary library(path);
    const auto runs = library.list();
    EXPECT_EQ(runs.size(), 400u);
    std::set<std::uint64_t> seeds;
    for (const RunSummary& s : runs)
        seeds.insert(library.show(s.id, false).report.at("seed").get<std::uint64_t>());
    EXPECT_EQ(seeds.size(), 400u);
    EXPECT_EQ(seeds.count(0), 1u);
    EXPECT_EQ(seeds.count(1199), 1u);
    for (std::size_t i = 0; i < runs.size(); i += 37)
        expectWhole(library, runs[i]);
    EXPECT_TRUE(library.verify().ok());
}

TEST(LibraryConcurrency, ReaderSeesWholeRunsWhileAWriterWrites)
{
    TempDir dir;
    const std::string path = dir.file("lib.sqlite3");
    {
        ArtifactLibrary create(path);
    }
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        int code = 0;
        try {
            ArtifactLibrary library(path);
            for (int i = 0; i < 60; ++i)
                library.insert(seededRun(i, 50'000, 200'000));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "writer: %s\n", e.what());
            code = 1;
        }
        ::_exit(code);
    }
    ArtifactLibrary reader(path);
    int status = 0;
    bool writerDone = false;
    int looks = 0;
    while (!writerDone) {
        writerDone = ::waitpid(pid, &status, WNOHANG) == pid;
        const auto runs = reader.list();
        for (const RunSummary& s : runs)
            EXPECT_EQ(s.captures.size(), 2u) << "run " << s.id << " seen half written";
        if (!runs.empty())
            expectWhole(reader, runs.front());
        ++looks;
    }
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(reader.list().size(), 60u);
    EXPECT_GT(looks, 1);
}

TEST(LibraryConcurrency, SurvivesAWriterKilledAtRandomPoints100Times)
{
    TempDir dir;
    const std::string path = dir.file("crash.sqlite3");
    std::mt19937_64 random(20261202);
    std::set<std::int64_t> committed;  // ids the writers reported after COMMIT returned
    std::uint64_t nextSeed = 1;
    const auto start = std::chrono::steady_clock::now();

    for (int round = 0; round < 100; ++round) {
        int ids[2];
        ASSERT_EQ(::pipe(ids), 0);
        const std::uint64_t seedBase = nextSeed;
        nextSeed += 1000;
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(ids[0]);
            try {
                ArtifactLibrary library(path);  // the first kills land in creation and migration
                for (std::uint64_t i = 0;; ++i) {
                    // Sizes vary so that kills land in hashing, compressing, writing and checkpoints.
                    const std::size_t code = 1000 + (seedBase * 7919 + i * 104729) % 150'000;
                    const std::int64_t id = library.insert(seededRun(seedBase + i, code, code / 2 + 10));
                    if (::write(ids[1], &id, sizeof id) != sizeof id)
                        ::_exit(2);
                }
            } catch (const std::exception& e) {
                std::fprintf(stderr, "writer: %s\n", e.what());
                ::_exit(1);
            }
        }
        ::close(ids[1]);
        std::this_thread::sleep_for(std::chrono::microseconds(random() % 60'000));
        ::kill(pid, SIGKILL);
        const int status = waitFor(pid);
        EXPECT_TRUE(WIFSIGNALED(status)) << "round " << round << ": the writer stopped by itself";
        std::int64_t id = 0;
        while (::read(ids[0], &id, sizeof id) == sizeof id)
            committed.insert(id);
        ::close(ids[0]);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    RecordProperty("kill_rounds_seconds", std::to_string(seconds));
    RecordProperty("committed_runs", std::to_string(committed.size()));

    EXPECT_EQ(test::rawQueryText(path, "PRAGMA integrity_check"), "ok");
    ArtifactLibrary library(path);
    const VerifyReport verify = library.verify();
    EXPECT_TRUE(verify.ok()) << (verify.integrityErrors.empty() ? "damaged blobs" : verify.integrityErrors[0]);
    const auto runs = library.list();
    std::set<std::int64_t> present;
    for (const RunSummary& s : runs)
        present.insert(s.id);
    for (std::int64_t id : committed)
        EXPECT_EQ(present.count(id), 1u) << "committed run " << id << " is gone";
    EXPECT_GE(present.size(), committed.size());
    EXPECT_GT(committed.size(), 50u) << "the kills came too early to test much";
    for (const RunSummary& s : runs)
        expectWhole(library, s);
    // Still a working library.
    const std::int64_t after = library.insert(seededRun(nextSeed, 100, 100));
    EXPECT_EQ(library.show(after).summary.captures.size(), 2u);
}

}  // namespace
}  // namespace ps::library
