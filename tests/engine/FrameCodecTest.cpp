#include "protocol/FrameDecoder.h"
#include "protocol/FrameEncoder.h"
#include "protocol/ProtocolError.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ps::protocol;

TEST(FrameCodec, RoundTripsMessagesSplitAtEveryByte)
{
    const std::string a = FrameEncoder::encodeMessage({{"type", "stage"}, {"stage", "script"}});
    const std::string b = FrameEncoder::encodePayload("");
    const std::string c = FrameEncoder::encodeMessage({{"type", "log"}, {"data", std::string(100000, 'x')}});
    const std::string stream = a + b + c;
    for (std::size_t split : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{7}, stream.size()}) {
        FrameDecoder d;
        std::vector<std::string> got;
        for (std::size_t i = 0; i < stream.size(); i += split) {
            d.feed(stream.data() + i, std::min(split, stream.size() - i));
            while (auto p = d.next())
                got.push_back(*p);
        }
        ASSERT_EQ(got.size(), 3u) << "split " << split;
        EXPECT_EQ(nlohmann::json::parse(got[0])["stage"], "script");
        EXPECT_EQ(got[1], "");
        EXPECT_EQ(nlohmann::json::parse(got[2])["data"].get<std::string>().size(), 100000u);
        EXPECT_EQ(d.buffered(), 0u);
    }
}

TEST(FrameCodec, LengthIsLittleEndian)
{
    const std::string f = FrameEncoder::encodePayload(std::string(258, 'a'));
    ASSERT_EQ(f.size(), 262u);
    EXPECT_EQ(static_cast<unsigned char>(f[0]), 2);
    EXPECT_EQ(static_cast<unsigned char>(f[1]), 1);
    EXPECT_EQ(static_cast<unsigned char>(f[2]), 0);
}

TEST(FrameCodec, RejectsAnAbsurdLength)
{
    FrameDecoder d;
    const char junk[] = {'\xff', '\xff', '\xff', '\x7f', 'x'};
    d.feed(junk, sizeof junk);
    EXPECT_THROW(d.next(), ProtocolError);
}
