// The graph view's layout cache in the library: kept across opens, compressed, trimmed least
// recently used first, and never a failure for its caller.

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "LibraryTestSupport.h"
#include "library/ArtifactLibrary.h"
#include "library/LibraryLayoutCache.h"

namespace ps::library {
namespace {

using test::TempDir;

std::string layoutBytes(int seed, std::size_t size)
{
    std::string s;
    s.reserve(size);
    unsigned x = 2463534242u + static_cast<unsigned>(seed);
    while (s.size() < size) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        s += static_cast<char>(x & 0xff);
    }
    return s;
}

TEST(LayoutCache, KeepsALayoutAcrossOpens)
{
    TempDir dir;
    const std::string path = dir.file("library.sqlite3");
    std::string repetitive;
    for (int i = 0; i < 5000; ++i)
        repetitive += "node " + std::to_string(i % 10) + " 0 0 160 34\n";
    {
        ArtifactLibrary library(path);
        library.storeLayout("layout1:abc:state", repetitive);
    }
    ArtifactLibrary library(path);
    EXPECT_EQ(library.layout("layout1:abc:state"), repetitive);
    EXPECT_FALSE(library.layout("layout1:abc:other").has_value());
    EXPECT_EQ(test::rawQueryText(path, "SELECT codec FROM graph_layouts"), "zstd");
    EXPECT_LT(library.layoutUsage().second, static_cast<std::int64_t>(repetitive.size()) / 4);
}

TEST(LayoutCache, ReplacesTheLayoutOfAKey)
{
    TempDir dir;
    ArtifactLibrary library(dir.file("library.sqlite3"));
    library.storeLayout("k", "first");
    library.storeLayout("k", "second");
    EXPECT_EQ(library.layout("k"), "second");
    EXPECT_EQ(library.layoutUsage().first, 1);
}

TEST(LayoutCache, TrimsTheLeastRecentlyUsedPastTheBudget)
{
    TempDir dir;
    ArtifactLibrary library(dir.file("library.sqlite3"));
    const std::size_t each = static_cast<std::size_t>(ArtifactLibrary::kLayoutBudget / 4);  // noise: stored raw
    library.storeLayout("a", layoutBytes(1, each));
    library.storeLayout("b", layoutBytes(2, each));
    library.storeLayout("c", layoutBytes(3, each));
    ASSERT_TRUE(library.layout("a").has_value());  // a is now the most recently used
    library.storeLayout("d", layoutBytes(4, each));
    library.storeLayout("e", layoutBytes(5, each));  // over budget: b goes, the oldest unused
    EXPECT_FALSE(library.layout("b").has_value());
    EXPECT_EQ(library.layout("a"), layoutBytes(1, each));
    EXPECT_TRUE(library.layout("e").has_value());
    EXPECT_LE(library.layoutUsage().second, ArtifactLibrary::kLayoutBudget);
}

TEST(LayoutCache, ADamagedRowIsDroppedNotThrown)
{
    TempDir dir;
    const std::string path = dir.file("library.sqlite3");
    {
        ArtifactLibrary library(path);
        library.storeLayout("k", std::string(10000, 'x'));
    }
    {
        ArtifactLibrary library(path);
        library.storeLayout("huge", std::string(10000, 'y'));
    }
    test::rawExec(path, "UPDATE graph_layouts SET data = x'00112233' WHERE key = 'k'");
    // A size no layout can have: refused as damage, not allocated.
    test::rawExec(path, "UPDATE graph_layouts SET size = 9000000000000000000 WHERE key = 'huge'");
    ArtifactLibrary library(path);
    EXPECT_FALSE(library.layout("k").has_value());
    EXPECT_FALSE(library.layout("huge").has_value());
    EXPECT_EQ(library.layoutUsage().first, 0);
    EXPECT_TRUE(library.verify().ok());
}

TEST(LayoutCache, TheAdapterSharesOneLibraryBetweenThreads)
{
    TempDir dir;
    const std::string path = dir.file("library.sqlite3");
    {
        ArtifactLibrary create(path);
    }
    LibraryLayoutCache cache(path);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&cache, t] {
            for (int i = 0; i < 10; ++i)
                cache.store("k" + std::to_string(t) + "-" + std::to_string(i), layoutBytes(t * 100 + i, 2000));
        });
    for (auto& th : threads)
        th.join();
    for (int t = 0; t < 4; ++t)
        for (int i = 0; i < 10; ++i)
            EXPECT_EQ(cache.load("k" + std::to_string(t) + "-" + std::to_string(i)), layoutBytes(t * 100 + i, 2000));
}

TEST(LayoutCache, TheAdapterCachesNothingWithoutALibrary)
{
    TempDir dir;
    LibraryLayoutCache cache(dir.file("missing.sqlite3"));
    cache.store("k", "bytes");
    EXPECT_FALSE(cache.load("k").has_value());
    EXPECT_FALSE(std::filesystem::exists(dir.file("missing.sqlite3")));  // never created by a cache
}

}  // namespace
}  // namespace ps::library
