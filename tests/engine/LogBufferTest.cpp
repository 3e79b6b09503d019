#include "protocol/LogBuffer.h"

#include <gtest/gtest.h>

using ps::protocol::LogBuffer;

TEST(LogBuffer, KeepsEverythingUnderTheLimits)
{
    LogBuffer log(16, 16);
    log.append("hello\n");
    log.append("world\n");
    EXPECT_EQ(log.text(), "hello\nworld\n");
    EXPECT_EQ(log.droppedBytes(), 0u);
    EXPECT_FALSE(log.truncated());
}

TEST(LogBuffer, KeepsHeadAndTailAndCountsTheRest)
{
    LogBuffer log(4, 4);
    for (int i = 0; i < 1000; ++i)
        log.append("0123456789");
    EXPECT_EQ(log.totalBytes(), 10000u);
    EXPECT_EQ(log.droppedBytes(), 10000u - 8u);
    EXPECT_EQ(log.text(), "0123\n[... 9992 bytes of output dropped ...]\n6789");
}

TEST(LogBuffer, MemoryStaysBoundedUnderFiftyMegabytes)
{
    LogBuffer log(1024, 1024);
    const std::string chunk(4096, 'y');
    for (int i = 0; i < 50 * 256; ++i)
        log.append(chunk);
    EXPECT_EQ(log.totalBytes(), 50u * 1024 * 1024);
    EXPECT_LE(log.text().size(), 1024u + 1024u + 64u);
}
