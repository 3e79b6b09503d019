// model::CacheInfo: the cache section's facts, as the window, the page and `compare` show them.
#include "model/CacheInfo.h"
#include "model/Capture.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ps::model;
using nlohmann::json;

namespace {

const CacheInfo::Fact* factOf(const std::vector<CacheInfo::Fact>& facts, const std::string& label)
{
    auto it = std::find_if(facts.begin(), facts.end(), [&](const auto& f) { return f.label == label; });
    return it == facts.end() ? nullptr : &*it;
}

json envelope()
{
    return {{"format", "torch.compiler.precompile"}, {"version", 1}, {"backend", "inductor"}, {"code_hash", "ab12"},
        {"code_hash_ok", true}, {"format_ok", true}, {"bytes", 5000}, {"artifact_bytes", 4096},
        {"keys", {"format", "backend", "artifacts"}},
        {"entries",
            {{{"kind", "inductor"}, {"key", "fx1"}, {"bytes", 3000}}, {{"kind", "aot"}, {"key", "a"}, {"bytes", 96}}}},
        {"error", nullptr}};
}

}  // namespace

TEST(CacheInfo, ReadsTheEnvelopeAndItsEntries)
{
    auto c = CacheInfo::fromJson(envelope());
    ASSERT_TRUE(c);
    EXPECT_EQ(c->backend, "inductor");
    EXPECT_EQ(c->version, 1);
    EXPECT_EQ(c->codeHashOk, true);
    ASSERT_EQ(c->entries.size(), 2u);
    EXPECT_EQ(c->entryBytes(), 3096);
    EXPECT_FALSE(c->error);
    EXPECT_FALSE(CacheInfo::fromJson(json()));
    EXPECT_FALSE(CacheInfo::fromJson(json::array()));
    // the capture reads it once for every front
    auto capture = Capture::fromJson({{"name", "f"}, {"status", "ok"}, {"cache", envelope()}});
    ASSERT_TRUE(capture.cache);
    EXPECT_EQ(capture.cache->entries[0].key, "fx1");
}

TEST(CacheInfo, FactsSayWhatTheChecksFound)
{
    auto good = CacheInfo::fromJson(envelope())->facts();
    ASSERT_TRUE(factOf(good, "format"));
    EXPECT_EQ(factOf(good, "format")->text, "torch.compiler.precompile v1");
    EXPECT_FALSE(factOf(good, "format")->tone);
    ASSERT_TRUE(factOf(good, "code_hash check"));
    EXPECT_EQ(factOf(good, "code_hash check")->tone, Tone::Good);
    EXPECT_EQ(factOf(good, "entries")->text, "2 entries, 3.0 KiB (3096 bytes)");
    EXPECT_EQ(factOf(good, "bundle size")->text, "4.0 KiB (4096 bytes)");
    EXPECT_FALSE(factOf(good, "error"));

    json bad = envelope();
    bad["code_hash_ok"] = false;
    bad["format_ok"] = false;
    bad["artifact_bytes"] = nullptr;
    bad["error"] = "the bundle is truncated";
    bad["entries"] = json::array();
    auto facts = CacheInfo::fromJson(bad)->facts();
    EXPECT_EQ(factOf(facts, "code_hash check")->tone, Tone::Bad);
    EXPECT_NE(factOf(facts, "code_hash check")->text.find("DIFFERS"), std::string::npos);
    EXPECT_EQ(factOf(facts, "format")->tone, Tone::Warn);
    EXPECT_NE(factOf(facts, "format")->text.find("not the format this torch writes"), std::string::npos);
    ASSERT_TRUE(factOf(facts, "bundle"));
    EXPECT_NE(factOf(facts, "bundle")->text.find("stores no kernels"), std::string::npos);
    EXPECT_EQ(factOf(facts, "entries")->text, "0 entries");
    ASSERT_TRUE(factOf(facts, "error"));
    EXPECT_NE(factOf(facts, "error")->text.find("the bundle is truncated"), std::string::npos);
    EXPECT_EQ(factOf(facts, "error")->tone, Tone::Warn);

    // not checked: no check row, rather than a guess
    json unchecked = envelope();
    unchecked["code_hash_ok"] = nullptr;
    EXPECT_FALSE(factOf(CacheInfo::fromJson(unchecked)->facts(), "code_hash check"));
}

TEST(CacheInfo, AnAbsentInspectionSaysWhy)
{
    EXPECT_NE(CacheInfo::absentText(CaptureStatus::Ok).find("older worker"), std::string::npos);
    EXPECT_NE(CacheInfo::absentText(CaptureStatus::Violation).find("ended in a violation"), std::string::npos);
}

TEST(CacheInfo, FieldsNameTheReportKeysACompareShows)
{
    json other = envelope();
    other["backend"] = "eager";
    const auto a = CacheInfo::fromJson(envelope())->fields();
    const auto b = CacheInfo::fromJson(other)->fields();
    ASSERT_EQ(a.size(), b.size());
    std::vector<std::string> differ;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            differ.push_back(a[i].first);
    EXPECT_EQ(differ, std::vector<std::string>{"backend"});
    EXPECT_EQ(CacheInfo::entryKey({"inductor", "fx1", 3}), "inductor fx1");
}
