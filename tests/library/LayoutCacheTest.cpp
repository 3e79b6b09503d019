// The graph view's layout cache in the library: kept across opens, compressed, trimmed least
// recently used first, and never a failure for its caller; in either store.

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "LibraryTestSupport.h"
#include "StoreBackends.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryLayoutCache.h"

namespace ps::library {
namespace {

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

template <class Backend> class LayoutCacheIn : public ::testing::Test { };
TYPED_TEST_SUITE(LayoutCacheIn, test::StoreBackends, test::StoreBackendNames);

TYPED_TEST(LayoutCacheIn, KeepsALayoutAcrossOpens)
{
    TypeParam store;
    const std::string& path = store.location();
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
    EXPECT_EQ(store.query("SELECT codec FROM graph_layouts"), "zstd");
    EXPECT_LT(library.layoutUsage().second, static_cast<std::int64_t>(repetitive.size()) / 4);
}

TYPED_TEST(LayoutCacheIn, ReplacesTheLayoutOfAKey)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    library.storeLayout("k", "first");
    library.storeLayout("k", "second");
    EXPECT_EQ(library.layout("k"), "second");
    EXPECT_EQ(library.layoutUsage().first, 1);
}

TYPED_TEST(LayoutCacheIn, TrimsTheLeastRecentlyUsedPastTheBudget)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
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

TYPED_TEST(LayoutCacheIn, ADamagedRowIsDroppedNotThrown)
{
    TypeParam store;
    const std::string& path = store.location();
    {
        ArtifactLibrary library(path);
        library.storeLayout("k", std::string(10000, 'x'));
    }
    {
        ArtifactLibrary library(path);
        library.storeLayout("huge", std::string(10000, 'y'));
    }
    store.exec("UPDATE graph_layouts SET data = " + TypeParam::bytesLiteral("00112233") + " WHERE key = 'k'");
    // A size no layout can have: refused as damage, not allocated.
    store.exec("UPDATE graph_layouts SET size = 9000000000000000000 WHERE key = 'huge'");
    ArtifactLibrary library(path);
    EXPECT_FALSE(library.layout("k").has_value());
    EXPECT_FALSE(library.layout("huge").has_value());
    EXPECT_EQ(library.layoutUsage().first, 0);
    EXPECT_TRUE(library.verify().ok());
}

TYPED_TEST(LayoutCacheIn, TheAdapterSharesOneLibraryBetweenThreads)
{
    TypeParam store;
    const std::string& path = store.location();
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

TYPED_TEST(LayoutCacheIn, TheAdapterCachesNothingWithoutALibrary)
{
    TypeParam store;  // no library there yet: a missing file, an empty database
    LibraryLayoutCache cache(store.location());
    cache.store("k", "bytes");
    EXPECT_FALSE(cache.load("k").has_value());
    EXPECT_FALSE(store.created());  // never created by a cache
}

}  // namespace
}  // namespace ps::library
