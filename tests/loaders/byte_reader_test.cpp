#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "loaders/byte_reader.h"

using esv::ByteReader;

TEST(ByteReader, ReadsLittleEndianValues) {
    const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x80, 0x3F, 0xFF, 0xFE};
    ByteReader r(bytes, sizeof bytes, 0x100);
    EXPECT_EQ(r.u32(), 0x04030201u);
    EXPECT_EQ(r.offset(), 0x104u);
    EXPECT_FLOAT_EQ(r.f32(), 1.0f);
    EXPECT_EQ(r.i16(), static_cast<int16_t>(0xFEFF));
    EXPECT_TRUE(r.atEnd());
    EXPECT_TRUE(r.ok());
}

TEST(ByteReader, FailedReadReturnsZeroAndSticks) {
    const uint8_t bytes[] = {1, 2, 3};
    ByteReader r(bytes, sizeof bytes);
    EXPECT_EQ(r.u32(), 0u);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.position(), 0u);
    // Once failed, even reads that would fit fail, so a caller can test ok() once per header.
    EXPECT_EQ(r.u8(), 0u);
    EXPECT_FALSE(r.ok());
}

TEST(ByteReader, ArrayChecksCannotOverflow) {
    std::vector<uint8_t> bytes(64);
    ByteReader r(bytes.data(), bytes.size());
    EXPECT_TRUE(r.canReadArray(16, 4));
    EXPECT_FALSE(r.canReadArray(17, 4));
    // count * size would wrap around in 64 bits; the check divides instead of multiplying.
    EXPECT_FALSE(r.canReadArray(std::numeric_limits<uint64_t>::max() / 2 + 1, 2));
    EXPECT_FALSE(r.canReadArray(1, 0));
    EXPECT_FALSE(r.skip(std::numeric_limits<size_t>::max()));
    EXPECT_FALSE(r.ok());
}

TEST(ByteReader, SubReaderKeepsAbsoluteOffsets) {
    std::vector<uint8_t> bytes = {0, 0, 0, 0, 7, 0, 0, 0, 9};
    ByteReader r(bytes.data(), bytes.size(), 0x10);
    r.skip(4);
    ByteReader sub = r.sub(4);
    EXPECT_EQ(sub.offset(), 0x14u);
    EXPECT_EQ(sub.u32(), 7u);
    EXPECT_TRUE(sub.atEnd());
    EXPECT_EQ(r.u8(), 9u);
    ByteReader tooLong = r.sub(1);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(tooLong.size(), 0u);
}

TEST(ByteReader, StringsStopAtNul) {
    const uint8_t bytes[] = {'a', 'b', 0, 'c', 'd'};
    ByteReader r(bytes, sizeof bytes);
    EXPECT_EQ(r.string(5), "ab");
    EXPECT_TRUE(r.atEnd());
    ByteReader r2(bytes + 3, 2);
    EXPECT_EQ(r2.string(2), "cd");  // no NUL: the whole range
}
