// AWD LZMA bodies that both of the reader's layouts could start to read (awd::inflateLzma): the
// .lzma header the Away3D tools write (properties, dictionary size, 64-bit size) and the spec's
// table 4 (uint32 size, properties, dictionary size). The reader tries the .lzma reading first and
// the spec's second. One body below is right only in the spec's layout, so a reader that never
// falls back to the second layout refuses it; the other is right only in the .lzma layout while
// its spec reading gets past the header and decodes bytes before it fails.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <lzma.h>

#include "awd/awd_writer.h"
#include "loaders/awd/awd_format.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"

namespace esv {
namespace {

using awdtest::AwdWriter;
using awdtest::Bytes;

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// The LZMA SDK's range encoder (LzmaEnc.c): 11-bit probabilities adapted by 1/32, a 64-bit low
// whose carry reaches back over a run of 0xFF bytes, five bytes flushed at the end.
class RangeEncoder {
public:
    void bit(uint16_t& prob, int value) {
        const uint32_t bound = (m_range >> 11) * prob;
        if (value == 0) {
            m_range = bound;
            prob = uint16_t(prob + ((2048 - prob) >> 5));
        } else {
            m_low += bound;
            m_range -= bound;
            prob = uint16_t(prob - (prob >> 5));
        }
        while (m_range < (1u << 24)) {
            m_range <<= 8;
            shiftLow();
        }
    }
    std::vector<uint8_t> finish() {
        for (int i = 0; i < 5; ++i) shiftLow();
        return m_out;
    }

private:
    void shiftLow() {
        if (uint32_t(m_low) < 0xFF000000u || (m_low >> 32) != 0) {
            const uint8_t carry = uint8_t(m_low >> 32);
            uint8_t pending = m_cache;
            do {
                m_out.push_back(uint8_t(pending + carry));
                pending = 0xFF;
            } while (--m_cacheSize != 0);
            m_cache = uint8_t(m_low >> 24);
        }
        ++m_cacheSize;
        m_low = (m_low & 0x00FFFFFFu) << 8;
    }

    uint64_t m_low = 0;
    uint32_t m_range = 0xFFFFFFFFu;
    uint8_t m_cache = 0;
    uint64_t m_cacheSize = 1;
    std::vector<uint8_t> m_out;
};

// Raw LZMA1 data (properties 0x5D: lc 3, lp 0, pb 2) that codes every byte of `data` as a literal
// and ends without an end marker, so a decoder stops at the size its header declares. liblzma's
// encoder cannot be held to literals: it codes a run of zeros as one literal and a repeat, and the
// repeat's match bit puts a non-zero byte among the stream's first four. Literals alone keep the
// range coder's low at zero over a payload's leading zero bytes, which is what makes the body of
// the test below readable in both layouts.
std::vector<uint8_t> lzmaLiteralsOnly(const std::vector<uint8_t>& data) {
    constexpr int kLc = 3, kPbMask = 3;
    // With only literals the coder's state stays 0, so one match bit per position state.
    std::vector<uint16_t> isMatch(kPbMask + 1, 1024);
    std::vector<uint16_t> literal(size_t(0x300) << kLc, 1024);
    RangeEncoder rc;
    uint8_t previous = 0;
    for (size_t pos = 0; pos < data.size(); ++pos) {
        rc.bit(isMatch[pos & kPbMask], 0);
        uint16_t* probs = literal.data() + 0x300 * (previous >> (8 - kLc));
        // The byte's bits from the top, each with the probability of the bits before it.
        uint32_t symbol = data[pos] | 0x100u;
        do {
            rc.bit(probs[symbol >> 8], (symbol >> 7) & 1);
            symbol <<= 1;
        } while (symbol < 0x10000u);
        previous = data[pos];
    }
    return rc.finish();
}

// Decodes the .lzma-layout bytes `alone` (13-byte header, then raw LZMA1) with liblzma itself: what
// a reading of a body gives, independently of the reader. `out` receives the bytes that came out
// (at most `capacity`) before it stopped; true when the stream ended cleanly. As the reader does,
// liblzma is given a dictionary no larger than the output needs (1 MiB here), so a header asking
// for gigabytes still decodes.
bool decodeAlone(std::vector<uint8_t> alone, size_t capacity, std::vector<uint8_t>& out) {
    out.clear();
    if (alone.size() < 13) return false;
    if (le32(alone.data() + 1) > (1u << 20))
        for (int i = 0; i < 4; ++i) alone[1 + size_t(i)] = uint8_t((1u << 20) >> (8 * i));
    lzma_stream strm = LZMA_STREAM_INIT;
    if (lzma_alone_decoder(&strm, uint64_t(1) << 30) != LZMA_OK) return false;
    out.assign(capacity, 0);
    strm.next_in = alone.data();
    strm.avail_in = alone.size();
    strm.next_out = out.data();
    strm.avail_out = out.size();
    const lzma_ret rc = lzma_code(&strm, LZMA_FINISH);
    out.resize(out.size() - strm.avail_out);
    lzma_end(&strm);
    return rc == LZMA_STREAM_END;
}

// The .lzma-layout bytes the spec's reading of `body` amounts to: its properties and dictionary at
// bytes 4 and 5, its uint32 size first, its data from byte 9.
std::vector<uint8_t> specReadingAsAlone(const std::vector<uint8_t>& body) {
    std::vector<uint8_t> alone(body.begin() + 4, body.begin() + 9);
    for (int i = 0; i < 8; ++i) alone.push_back(i < 4 ? body[size_t(i)] : 0);
    alone.insert(alone.end(), body.begin() + 9, body.end());
    return alone;
}

// One triangle, (0,0,0) (1,0,0) (1,1,0).
AwdWriter::SubGeometry triangle(const AwdWriter& w) {
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 1, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    return sub;
}

// A spec-layout block body whose first bytes are a plausible .lzma header as well: a 93-byte
// payload (the size's low byte, 0x5D, reads as the .lzma properties), then the properties 0x5D
// (with the size's zero bytes, a .lzma dictionary of 0x5D000000, a whole number of MiB), the
// 4096-byte dictionary and four zero bytes of coded data (with it, a .lzma size of 4096). The
// .lzma reading is tried first and starts to decode; it fails, and the spec's reading must follow.
TEST(AwdFixtures, LzmaSpecBodyTheLzmaLayoutStartsToReadFallsBackToTheSpec) {
    AwdWriter w;
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {triangle(w)}));
    // A mesh instance block under no parent: its payload starts with the parent id 0 and the
    // matrix's 1.0f (00 00 80 3F), six zero bytes. The name fills it to 93 bytes.
    const glm::mat4 placed = glm::translate(glm::mat4(1.0f), glm::vec3(5, 0, 0));
    const size_t bare = w.meshInstance(0, placed, "", geo, {}).size();
    ASSERT_LT(bare, 93u);
    const std::string name = "spec" + std::string(93 - bare - 4, '_');
    const Bytes payload = w.meshInstance(0, placed, name, geo, {});
    ASSERT_EQ(payload.size(), 93u);
    Bytes body;
    body.u32(uint32_t(payload.size())).u8(0x5D).u32(4096);
    const std::vector<uint8_t> coded = lzmaLiteralsOnly(payload.data);
    body.raw(coded.data(), coded.size());

    // Both readings are candidates: what inflateLzma checks of each header holds.
    const std::vector<uint8_t>& b = body.data;
    ASSERT_GE(b.size(), 13u);
    EXPECT_EQ(b[0], 0x5D) << "the .lzma properties byte";
    EXPECT_EQ(le32(b.data() + 1), 0x5D000000u) << "the .lzma dictionary, 1488 MiB";
    EXPECT_EQ(le32(b.data() + 9), 0u) << "the .lzma size's high half: the coded data's first four bytes";
    EXPECT_EQ(le32(b.data() + 5), 4096u) << "the .lzma size's low half, the spec's dictionary";
    // The .lzma reading, decoded by liblzma: it accepts the header and fails in the data.
    std::vector<uint8_t> out;
    EXPECT_FALSE(decodeAlone(b, 8192, out)) << "the .lzma reading decodes " << out.size() << " bytes";
    EXPECT_GT(out.size(), 0u) << "the .lzma reading decodes bytes before it fails";
    std::printf("the .lzma reading of the spec body decodes %zu bytes before it fails\n", out.size());
    // The spec reading, by liblzma and by the reader.
    ASSERT_TRUE(decodeAlone(specReadingAsAlone(b), 8192, out));
    EXPECT_EQ(out, payload.data);
    std::string error;
    ASSERT_TRUE(awd::inflateLzma(b.data(), b.size(), 1 << 20, out, error)) << error;
    EXPECT_EQ(out, payload.data);

    // The same body as a block's own compressed payload (flags 0x18: compressed, LZMA).
    w.rawBody(Bytes().u32(w.nextId()).u8(0).u8(23).u8(0x18).u32(uint32_t(b.size())).raw(b.data(), b.size()));
    const std::vector<uint8_t> file = w.finish();
    LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(file), "test.awd", {});
    ASSERT_TRUE(r.ok()) << (r.problems.empty() ? std::string() : r.problems[0].format());
    ASSERT_EQ(r.scene->nodes.size(), 1u);
    const Node& node = r.scene->nodes[0];
    EXPECT_EQ(node.name, name);
    EXPECT_EQ(node.kind, NodeKind::Mesh);
    EXPECT_EQ(node.object, 0);
    EXPECT_EQ(node.local.toMatrix()[3], glm::vec4(5, 0, 0, 1));
    Pose pose;
    evaluatePose(*r.scene, -1, 0.0f, pose);
    const Bounds box = sceneBounds(*r.scene, pose);
    EXPECT_EQ(box.min, glm::vec3(5, 0, 0));
    EXPECT_EQ(box.max, glm::vec3(6, 1, 0));
}

// A .lzma-layout body (16 MiB dictionary, 4096-byte payload) whose spec reading gets past the
// header: the properties 0x5D and the dictionary's three zero bytes read as a spec size of 93,
// the dictionary's top byte as properties 0x01, the 4096 as a dictionary; its data is the size's
// four zero bytes and the coded data. That reading decodes bytes and then fails; the .lzma reading
// is the right one and the file loads with the right content.
TEST(AwdFixtures, LzmaBodyTheSpecLayoutStartsToReadLoadsAsLzma) {
    AwdWriter w;
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {triangle(w)}));
    // The mesh instance's name fills the body to 4096 bytes (11 bytes of block header before it).
    const glm::mat4 placed = glm::translate(glm::mat4(1.0f), glm::vec3(0, 3, 0));
    const size_t bare = w.body().size() + 11 + w.meshInstance(0, placed, "", geo, {}).size();
    ASSERT_LT(bare, 4096u);
    const std::string name = "lzma" + std::string(4096 - bare - 4, '-');
    w.block(23, w.meshInstance(0, placed, name, geo, {}));
    ASSERT_EQ(w.body().size(), 4096u);
    const std::vector<uint8_t> z = awdtest::lzmaCompress(w.body(), awdtest::LzmaLayout::Alone, 1u << 24);

    ASSERT_GE(z.size(), 13u);
    const uint8_t header[13] = {0x5D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    ASSERT_EQ(std::memcmp(z.data(), header, 13), 0) << "properties, 16 MiB, 4096";
    // The spec reading, decoded by liblzma: a size of 93 within any limit, valid properties, and
    // data it starts to decode.
    std::vector<uint8_t> out;
    EXPECT_FALSE(decodeAlone(specReadingAsAlone(z), 8192, out));
    EXPECT_GT(out.size(), 0u) << "the spec reading decodes bytes before it fails";
    std::printf("the spec reading of the .lzma body decodes %zu of its 93 bytes before it fails\n",
                out.size());
    std::string error;
    ASSERT_TRUE(awd::inflateLzma(z.data(), z.size(), 1 << 20, out, error)) << error;
    EXPECT_EQ(out, w.body());

    Bytes file;
    file.text("AWD").u8(2).u8(1).u16(0).u8(2).u32(uint32_t(z.size())).raw(z.data(), z.size());
    LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(file.data), "test.awd", {});
    ASSERT_TRUE(r.ok()) << (r.problems.empty() ? std::string() : r.problems[0].format());
    ASSERT_EQ(r.scene->nodes.size(), 1u);
    EXPECT_EQ(r.scene->nodes[0].name, name);
    EXPECT_EQ(r.scene->nodes[0].local.toMatrix()[3], glm::vec4(0, 3, 0, 1));
    ASSERT_EQ(r.scene->meshes.size(), 1u);
    EXPECT_EQ(triangleCount(r.scene->meshes[0]), 1u);
}

}  // namespace
}  // namespace esv
