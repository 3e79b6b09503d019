// Several processes on one library, and writers killed at random points: over both stores (one
// SQLite file; one PostgreSQL database, each process with its own connection).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "LibraryTestSupport.h"
#include "StoreBackends.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/Sha256.h"

namespace ps::library {
namespace {

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

/// Run `i` of writer `w` of a team storing at once: its first capture its own, its second one of
/// ten that every writer stores (the same blobs written by several processes at the same time).
/// Writer and index travel in the report, so a reader knows every byte to expect.
NewRun teamRun(int w, int i)
{
    const int shared = i % 10;
    NewRun run;
    run.report = {{"schema", 1}, {"script", "/s/team_" + std::to_string(w) + ".py"}, {"status", "ok"}, {"message", ""},
        {"writer", w}, {"index", i},
        {"captures", nlohmann::json::array({test::captureReport("own"), test::captureReport("shared")})}};
    const std::uint64_t own = 10'000 + static_cast<std::uint64_t>(w) * 100 + static_cast<std::uint64_t>(i);
    run.captures = {NewCapture{test::pythonCodeText(3000 + 17 * static_cast<std::size_t>(i), own),
                        test::semiRandomBytes(6000, own)},
        NewCapture{test::pythonCodeText(4000, 500 + static_cast<std::uint64_t>(shared)),
            test::semiRandomBytes(20'000, 500 + static_cast<std::uint64_t>(shared))}};
    run.name = "team_" + std::to_string(w) + "_" + std::to_string(i);
    run.scriptText = "def fn(x):\n    return x  # writer " + std::to_string(w) + "\n";
    return run;
}

/// Forks `writers` children that wait on one gate, then each run `body(w)` (an exit status);
/// returns their exit statuses once all have ended.
std::vector<int> atOnce(int writers, const std::function<int(int)>& body)
{
    int gate[2];
    if (::pipe(gate) != 0)
        return {};
    std::fflush(stdout);
    std::fflush(stderr);
    std::vector<pid_t> pids;
    for (int w = 0; w < writers; ++w) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(gate[1]);
            char go;
            if (::read(gate[0], &go, 1) != 0)
                ::_exit(3);  // released when the parent closes it
            int code = 0;
            try {
                code = body(w);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "writer %d: %s\n", w, e.what());
                code = 1;
            }
            ::_exit(code);
        }
        pids.push_back(pid);
    }
    ::close(gate[0]);
    ::close(gate[1]);  // all start now
    std::vector<int> statuses;
    for (pid_t pid : pids)
        statuses.push_back(pid > 0 ? waitFor(pid) : -1);
    return statuses;
}

template <class Backend> class LibraryConcurrencyOn : public ::testing::Test { };
TYPED_TEST_SUITE(LibraryConcurrencyOn, test::StoreBackends, test::StoreBackendNames);

TYPED_TEST(LibraryConcurrencyOn, TwoProcessesInsert200RunsEachAtOnce)
{
    TypeParam store;
    const std::string& path = store.location();  // not created yet: both race to create it
    const auto statuses = atOnce(2, [&](int w) {
        ArtifactLibrary library(path);
        for (int i = 0; i < 200; ++i)
            library.insert(seededRun(w * 1000 + i, 2000 + 37 * i, 3000));
        return 0;
    });
    ASSERT_EQ(statuses.size(), 2u);
    for (const int status : statuses) {
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

TYPED_TEST(LibraryConcurrencyOn, ReaderSeesWholeRunsWhileAWriterWrites)
{
    TypeParam store;
    const std::string& path = store.location();
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

TYPED_TEST(LibraryConcurrencyOn, SurvivesAWriterKilledAtRandomPoints100Times)
{
    TypeParam store;
    const std::string& path = store.location();
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
        // A third of the kills land anywhere from the writer's start (creation, migration, the
        // first insert); the others after its first commit, so that the kills reach later inserts
        // however slow the machine is (waiting for the commit, not for a fixed time).
        if (round % 3 != 0) {
            std::int64_t first = 0;
            if (::read(ids[0], &first, sizeof first) == sizeof first)
                committed.insert(first);
        }
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
    this->RecordProperty("kill_rounds_seconds", std::to_string(seconds));
    this->RecordProperty("committed_runs", std::to_string(committed.size()));

    EXPECT_EQ(store.engineCheck(), "ok");
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

TYPED_TEST(LibraryConcurrencyOn, EightProcessesStore50RunsEachAtOnceNoneLostOrDoubled)
{
    TypeParam store;
    const std::string& location = store.location();  // not created yet: all eight race to create it
    const std::vector<int> statuses = atOnce(8, [&](int w) {
        ArtifactLibrary library(location);
        for (int i = 0; i < 50; ++i)
            library.insert(teamRun(w, i));
        return 0;
    });
    ASSERT_EQ(statuses.size(), 8u);
    for (int status : statuses)
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed (its error is on stderr)";

    ArtifactLibrary library(location);
    const auto runs = library.list();
    EXPECT_EQ(runs.size(), 400u);
    std::set<std::string> uids;
    std::set<std::pair<int, int>> stored;
    for (const RunSummary& s : runs) {
        SCOPED_TRACE("run " + std::to_string(s.id) + " " + s.name);
        EXPECT_TRUE(uids.insert(s.uid).second) << "uid " << s.uid << " twice";
        const RunRecord record = library.show(s.id);  // every blob checked
        EXPECT_TRUE(record.damaged.empty());
        const int w = record.report.at("writer").get<int>(), i = record.report.at("index").get<int>();
        EXPECT_TRUE(stored.emplace(w, i).second) << "writer " << w << " run " << i << " twice";
        EXPECT_EQ(s.name, "team_" + std::to_string(w) + "_" + std::to_string(i));
        const NewRun expected = teamRun(w, i);
        ASSERT_EQ(record.summary.captures.size(), 2u);
        for (int c = 0; c < 2; ++c) {
            const CaptureArtifact artifact = library.artifact(s.id, c);
            EXPECT_TRUE(artifact.pythonCode == *expected.captures[c].pythonCode) << "capture " << c;
            EXPECT_TRUE(artifact.cache == *expected.captures[c].cache) << "capture " << c;
        }
    }
    EXPECT_EQ(uids.size(), 400u);
    EXPECT_EQ(stored.size(), 400u);
    // 400 runs' own code and cache, and the ten shared pairs: each stored once.
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "820");
    const VerifyReport verify = library.verify();
    EXPECT_TRUE(verify.ok()) << (verify.integrityErrors.empty() ? "damaged blobs" : verify.integrityErrors[0]);
    EXPECT_EQ(verify.blobsChecked, 820);
}

TYPED_TEST(LibraryConcurrencyOn, AWriterKilledMidStoreOfBigRunsLeavesOnlyWholeRuns)
{
    TypeParam store;
    const std::string& location = store.location();
    {
        ArtifactLibrary create(location);
    }
    std::mt19937_64 random(20261203);
    std::set<std::int64_t> committed;
    int killedMidStore = 0;
    std::uint64_t nextSeed = 1;
    for (int round = 0; round < 6; ++round) {
        // The writer says 'b' before each insert and 'c' + the id after it returned.
        int events[2];
        ASSERT_EQ(::pipe(events), 0);
        const std::uint64_t seedBase = nextSeed;
        nextSeed += 1000;
        std::fflush(stdout);
        std::fflush(stderr);
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(events[0]);
            try {
                ArtifactLibrary library(location);
                for (std::uint64_t i = 0;; ++i) {
                    // 1-3 MB of python_code and 2-6 MB of cache: a store takes a while.
                    const std::size_t code = (1u << 20) + (seedBase * 7919 + i * 104729) % (2u << 20);
                    const NewRun run = seededRun(seedBase + i, code, 2 * code);
                    const char begin = 'b';
                    if (::write(events[1], &begin, 1) != 1)
                        ::_exit(2);
                    const std::int64_t id = library.insert(run);
                    char done[1 + sizeof id] = {'c'};
                    std::memcpy(done + 1, &id, sizeof id);
                    if (::write(events[1], done, sizeof done) != static_cast<ssize_t>(sizeof done))
                        ::_exit(2);
                }
            } catch (const std::exception& e) {
                std::fprintf(stderr, "writer: %s\n", e.what());
                ::_exit(1);
            }
        }
        ::close(events[1]);
        // Reads one event: 'b', or 'c' with the id committed; false at the end.
        bool inInsert = false;
        const auto next = [&] {
            char kind = 0;
            if (::read(events[0], &kind, 1) != 1)
                return false;
            std::int64_t id = 0;
            if (kind == 'c' && ::read(events[0], &id, sizeof id) != sizeof id)
                return false;
            inInsert = kind == 'b';
            if (kind == 'c')
                committed.insert(id);
            return true;
        };
        // Kill while its first, second or third insert is under way, a random while into it.
        for (int begun = 0, at = 1 + static_cast<int>(random() % 3); begun < at && next();)
            begun += inInsert ? 1 : 0;
        std::this_thread::sleep_for(std::chrono::microseconds(random() % 10'000));
        ::kill(pid, SIGKILL);
        const int status = waitFor(pid);
        EXPECT_TRUE(WIFSIGNALED(status)) << "round " << round << ": the writer stopped by itself";
        while (next()) {
        }
        ::close(events[0]);
        killedMidStore += inInsert ? 1 : 0;
    }
    this->RecordProperty("killed_mid_store", std::to_string(killedMidStore));
    EXPECT_GE(killedMidStore, 3) << "the kills landed between stores, not in them";

    EXPECT_EQ(store.engineCheck(), "ok");
    ArtifactLibrary library(location);
    const VerifyReport verify = library.verify();
    EXPECT_TRUE(verify.ok()) << (verify.integrityErrors.empty() ? "damaged blobs" : verify.integrityErrors[0]);
    const auto runs = library.list();
    std::set<std::int64_t> present;
    for (const RunSummary& s : runs) {
        present.insert(s.id);
        expectWhole(library, s);  // shown with every blob checked, both artifacts byte-exact
    }
    for (std::int64_t id : committed)
        EXPECT_EQ(present.count(id), 1u) << "committed run " << id << " is gone";
    EXPECT_GE(present.size(), committed.size());  // a run may commit just before its writer could say so
    // Still a working library.
    const std::int64_t after = library.insert(seededRun(nextSeed, 300'000, 600'000));
    const auto newest = library.list(ListQuery{.limit = 1});
    ASSERT_EQ(newest.size(), 1u);
    EXPECT_EQ(newest[0].id, after);
    expectWhole(library, newest[0]);
    EXPECT_TRUE(library.verify().ok());
}

}  // namespace
}  // namespace ps::library
