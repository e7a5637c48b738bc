// ASTC decoder from first principles: blocks assembled bit by bit here, with the expected pixels
// worked out from the Khronos Data Format Specification's ASTC chapter (the arithmetic is given
// in the comments). Independent of any encoder; astc_astcenc_test.cpp compares with astcenc.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "loaders/textures/decode.h"
#include "scene/image.h"

namespace {

using Rgba = std::array<int, 4>;
const Rgba kMagenta = {255, 0, 255, 255};

// A 128-bit block under construction; bit 0 is the low bit of byte 0.
struct Block {
    std::array<uint8_t, 16> bytes{};

    Block& put(uint32_t start, uint32_t count, uint64_t value) {
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t b = start + i;
            if ((value >> i) & 1)
                bytes[b / 8] |= uint8_t(1u << (b % 8));
            else
                bytes[b / 8] &= uint8_t(~(1u << (b % 8)));
        }
        return *this;
    }
    // The weight stream runs downwards from bit 127: its bit n is block bit 127 - n.
    Block& putWeightBits(uint32_t start, uint32_t count, uint64_t value) {
        for (uint32_t i = 0; i < count; ++i) put(127 - (start + i), 1, (value >> i) & 1);
        return *this;
    }
};

struct Decoded {
    uint32_t width = 0;
    std::vector<uint8_t> rgba;
    Rgba at(uint32_t x, uint32_t y) const {
        const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
        return {p[0], p[1], p[2], p[3]};
    }
};

// Decodes `blocks` (exactly the surface's bytes, so ASan sees any read past them).
Decoded decode(const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h, uint32_t bw, uint32_t bh,
               bool srgb) {
    EXPECT_EQ(blocks.size(), esv::surfaceSize(esv::PixelFormat::Astc, w, h, bw, bh));
    Decoded d;
    d.width = w;
    d.rgba.assign(size_t(w) * h * 4, 0xCD);
    esv::decodeAstc(blocks.data(), w, h, bw, bh, srgb, d.rgba.data());
    return d;
}

Decoded decodeBlock(const Block& block, uint32_t bw, uint32_t bh, bool srgb = false) {
    return decode(std::vector<uint8_t>(block.bytes.begin(), block.bytes.end()), bw, bh, bw, bh, srgb);
}

bool allTexels(const Decoded& d, const Rgba& colour) {
    for (size_t i = 0; i < d.rgba.size(); i += 4) {
        if (Rgba{d.rgba[i], d.rgba[i + 1], d.rgba[i + 2], d.rgba[i + 3]} != colour) return false;
    }
    return true;
}

size_t countTexels(const Decoded& d, const Rgba& colour) {
    size_t n = 0;
    for (size_t i = 0; i < d.rgba.size(); i += 4)
        n += Rgba{d.rgba[i], d.rgba[i + 1], d.rgba[i + 2], d.rgba[i + 3]} == colour;
    return n;
}

// "Void-Extent Blocks": bits [8:0] = 1 1111 1100, bit 9 the HDR flag, bits 10-11 reserved 1s, four
// 13-bit extent coordinates (all 1s: no extent), then R, G, B, A as UNORM16 from bit 64.
Block voidExtent(uint16_t r, uint16_t g, uint16_t b, uint16_t a) {
    Block block;
    block.put(0, 9, 0x1FC).put(9, 1, 0).put(10, 2, 3).put(12, 52, (uint64_t(1) << 52) - 1);
    block.put(64, 16, r).put(80, 16, g).put(96, 16, b).put(112, 16, a);
    return block;
}

// --- Void-extent blocks ------------------------------------------------------------------------------

// G = 0x9D1D = 40221 shows the linear conversion: FP16 keeps 11 significant bits (rounding toward
// zero), 40221 -> 1256 << 5 = 40192, and 40192 / 65536 * 255 = 156.4 -> 156 (plain rounding of
// 40221 / 257 = 156.502 would give 157). A = 0x40FF = 16639 -> 1039 << 4 = 16624 -> 64.7 -> 65.
// sRGB passes the top 8 bits on: 0x9D = 157, 0x40 = 64.
TEST(AstcVoidExtent, ConstantColourLinearAndSrgb) {
    const Block block = voidExtent(0xFFFF, 0x9D1D, 0x0000, 0x40FF);
    EXPECT_TRUE(allTexels(decodeBlock(block, 4, 4, false), (Rgba{255, 156, 0, 65})));
    EXPECT_TRUE(allTexels(decodeBlock(block, 4, 4, true), (Rgba{255, 157, 0, 64})));
    // A legal extent (min < max on both axes) decodes the same.
    Block withExtent = block;
    withExtent.put(12, 13, 10).put(25, 13, 20).put(38, 13, 30).put(51, 13, 40);
    EXPECT_TRUE(allTexels(decodeBlock(withExtent, 6, 6, false), (Rgba{255, 156, 0, 65})));
}

TEST(AstcVoidExtent, HdrOrIllegalGivesErrorColour) {
    Block hdr = voidExtent(0x3C00, 0x3C00, 0x3C00, 0x3C00);
    hdr.put(9, 1, 1);
    EXPECT_TRUE(allTexels(decodeBlock(hdr, 4, 4), kMagenta));
    Block reserved = voidExtent(0, 0, 0, 0xFFFF);
    reserved.put(10, 2, 1);
    EXPECT_TRUE(allTexels(decodeBlock(reserved, 4, 4), kMagenta));
    Block emptyS = voidExtent(0, 0, 0, 0xFFFF);
    emptyS.put(12, 13, 20).put(25, 13, 20).put(38, 13, 1).put(51, 13, 2);  // min S == max S
    EXPECT_TRUE(allTexels(decodeBlock(emptyS, 4, 4), kMagenta));
    Block reversedT = voidExtent(0, 0, 0, 0xFFFF);
    reversedT.put(12, 13, 1).put(25, 13, 2).put(38, 13, 9).put(51, 13, 3);  // min T > max T
    EXPECT_TRUE(allTexels(decodeBlock(reversedT, 4, 4), kMagenta));
}

struct Footprint {
    uint32_t w, h;
};
constexpr Footprint kFootprints[] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                     {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};

// Every 2D footprint: an image of 2 x 2 blocks plus a partial column and row, each block a
// different constant colour, fills exactly its texels.
TEST(AstcVoidExtent, EveryFootprintFillsItsTexels) {
    for (const Footprint& f : kFootprints) {
        const uint32_t w = 2 * f.w + 1, h = 2 * f.h + 3;
        const uint32_t blocksX = 3, blocksY = 3;
        std::vector<uint8_t> blocks;
        for (uint32_t i = 0; i < blocksX * blocksY; ++i) {
            const uint16_t v = uint16_t(257 * (20 * i + 10));  // UNORM16 of the 8-bit value 20i + 10
            const Block b = voidExtent(v, uint16_t(65535 - v), 0x8080, 0xFFFF);
            blocks.insert(blocks.end(), b.bytes.begin(), b.bytes.end());
        }
        const Decoded d = decode(blocks, w, h, f.w, f.h, false);
        for (uint32_t y = 0; y < h; ++y) {
            for (uint32_t x = 0; x < w; ++x) {
                const int i = int((y / f.h) * blocksX + x / f.w);
                ASSERT_EQ(d.at(x, y), (Rgba{20 * i + 10, 255 - (20 * i + 10), 128, 255}))
                    << f.w << "x" << f.h << " at " << x << "," << y;
            }
        }
    }
}

// --- Hand-assembled blocks --------------------------------------------------------------------------

// Block mode 0x042: bits [3:2] = 00 so the grid is (B+4) x (A+2) with B = bits [8:7] = 0 and
// A = bits [6:5] = 2: 4x4. R = {bits 1, 0, 4} = 100b with H = 0: weights 0..3, 2 bits each,
// 32 bits. Single partition (bits [12:11] = 0), CEM in bits [16:13], endpoints from bit 17.
// With 128 - 17 - 32 = 79 bits left, 6 endpoint values fit at 8 bits each (48 bits): range 0..255,
// whose unquantization is the identity.
// Weights 0..3 unquantize by bit replication to 6 bits: 0, 21, 42, 63, then values above 32 gain
// one: 0, 21, 43, 64. Texel i has weight index i % 4.
Block rgbDirectBlock(const int v[6]) {
    Block block;
    block.put(0, 11, 0x042).put(11, 2, 0).put(13, 4, 8);
    for (int i = 0; i < 6; ++i) block.put(17 + 8 * i, 8, uint64_t(v[i]));
    for (uint32_t i = 0; i < 16; ++i) block.putWeightBits(2 * i, 2, i % 4);
    return block;
}

// CEM 8 (LDR RGB direct), v = (0, 255, 100, 50, 200, 10): s0 = v0+v2+v4 = 300 <= s1 = v1+v3+v5 = 315,
// so e0 = (0, 100, 200), e1 = (255, 50, 10). Interpolation on 16-bit endpoints (c * 257):
// red at w = 21: (0 * 43 + 65535 * 21 + 32) >> 6 = 21504 -> FP16 keeps 11 bits: 21504 -> 84.0 -> 84.
// green at w = 43: (25700 * 21 + 12850 * 43 + 32) >> 6 = 17066 -> 17056 -> 66.4 -> 66.
// blue at w = 21: (51400 * 43 + 2570 * 21 + 32) >> 6 = 35377 -> 35360 -> 137.6 -> 138.
TEST(AstcHandBlocks, RgbDirect) {
    const int v[6] = {0, 255, 100, 50, 200, 10};
    const Rgba expected[4] = {{0, 100, 200, 255}, {84, 84, 138, 255}, {171, 66, 72, 255}, {255, 50, 10, 255}};
    for (bool srgb : {false, true}) {
        const Decoded d = decodeBlock(rgbDirectBlock(v), 4, 4, srgb);
        for (uint32_t i = 0; i < 16; ++i)
            EXPECT_EQ(d.at(i % 4, i / 4), expected[i % 4]) << i << " srgb " << srgb;
    }
}

// The same with v = (255, 0, 50, 100, 10, 200): s1 = 300 < s0 = 315, so the endpoints swap and
// blue contraction applies: e0 = ((v1+v5)/2, (v3+v5)/2, v5) = (100, 150, 200),
// e1 = ((v0+v4)/2, (v2+v4)/2, v4) = (132, 30, 10).
// red at w = 21: (25700 * 43 + 33924 * 21 + 32) >> 6 = 28398 -> 28384 -> 110.4 -> 110.
TEST(AstcHandBlocks, RgbDirectBlueContraction) {
    const int v[6] = {255, 0, 50, 100, 10, 200};
    const Rgba expected[4] = {
        {100, 150, 200, 255}, {110, 111, 138, 255}, {121, 69, 72, 255}, {132, 30, 10, 255}};
    const Decoded d = decodeBlock(rgbDirectBlock(v), 4, 4);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(d.at(i % 4, i / 4), expected[i % 4]) << i;
}

// Trit-encoded weights with infill. 6x6 footprint, block mode 0x1AF: bits [3:2] = 11 and bit 8 = 1
// give a (B+2) x (A+2) grid with B = bit 7 = 1, A = bits [6:5] = 1: 3x3. R = {bits 1, 0, 4} = 110b,
// H = 0: weights 0..5, a trit and 1 bit each; 9 weights take 9 + ceil(8 * 9 / 5) = 24 bits.
// CEM 0 (luminance direct) with v0 = 20, v1 = 220 (8-bit range: 128 - 17 - 24 = 87 bits left).
//
// Weight grid (row-major) as values t * 2 + m: 0, 5, 1 / 2, 3, 4 / 1, 0, 3. Unquantization for
// 0..5 (A = m replicated to 7 bits, B = 0, C = 50; T = t * 50 ^ A, (A & 0x20) | T >> 2, +1 above 32):
// 0 -> 0, 1 -> 64, 2 -> 12, 3 -> 52, 4 -> 25, 5 -> 39. Grid: 0 39 64 / 12 52 25 / 64 0 52.
//
// Trits of values 0..4: 0, 2, 0, 1, 1; as C = T[4:0] with C[1:0] = t0 (0 -> 00), C[3:2] = t1,
// C[4] = t2, T[6:5] = t3, T[7] = t4: T = 1 01 0 10 00b = 168. Values 5..8: trits 2, 0, 0, 1 (and
// a missing fifth 0): C[1:0] = 10 for t0 = 2, T = 0 01 0 00 10b = 34. Bits of a 5-value group:
// m0 T1T0 m1 T3T2 m2 T4 m3 T6T5 m4 T7; the second group stops after 11 bits (at 24).
//
// Infill: Ds = (1024 + 3) / 5 = 205; gs = (205 * s * 2 + 32) >> 6 = 0, 6, 13, 19, 26, 32 for
// s = 0..5, i.e. (j, f) = (0,0) (0,6) (0,13) (1,3) (1,10) (2,0). E.g. texel (1, 1): fs = ft = 6,
// w11 = (36 + 8) >> 4 = 2, w01 = w10 = 4, w00 = 6: (0*6 + 39*4 + 12*4 + 52*2 + 8) >> 4 = 19.
// Weights of all texels:
//   0 15 32 44 55 64 / 5 19 37 45 47 49 / 10 25 42 48 39 32 /
//   22 30 41 42 35 30 / 45 34 25 24 32 42 / 64 40 12 10 33 52
// Luminance: ((5140 * (64 - w) + 56540 * w + 32) >> 6), then FP16 and 8 bits (linear), or the top
// 8 bits of ((20 << 8 | 0x80) and (220 << 8 | 0x80) interpolated) for sRGB. E.g. w = 44:
// linear (5140 * 20 + 56540 * 44 + 32) >> 6 = 40478 -> 40448 -> 157.4 -> 157; sRGB 40508 >> 8 = 158.
Block tritInfillBlock() {
    Block block;
    block.put(0, 11, 0x1AF).put(11, 2, 0).put(13, 4, 0).put(17, 8, 20).put(25, 8, 220);
    const uint32_t m[9] = {0, 1, 1, 0, 1, 0, 1, 0, 1};
    const uint32_t T[2] = {168, 34};
    uint32_t pos = 0;
    auto put = [&](uint32_t bits, uint32_t value) {
        if (pos < 24) block.putWeightBits(pos, std::min(bits, 24 - pos), value);
        pos += bits;
    };
    for (int g = 0; g < 2; ++g) {
        const uint32_t t = T[g];
        auto mi = [&](int k) { return 5 * g + k < 9 ? m[5 * g + k] : 0; };
        put(1, mi(0));
        put(2, t & 3);
        put(1, mi(1));
        put(2, (t >> 2) & 3);
        put(1, mi(2));
        put(1, (t >> 4) & 1);
        put(1, mi(3));
        put(2, (t >> 5) & 3);
        put(1, mi(4));
        put(1, (t >> 7) & 1);
    }
    return block;
}

TEST(AstcHandBlocks, TritWeightsWithInfill) {
    const int linear[6][6] = {{20, 67, 120, 157, 192, 220}, {36, 79, 136, 161, 167, 173},
                              {51, 98, 151, 170, 142, 120}, {89, 114, 148, 151, 129, 114},
                              {161, 126, 98, 95, 120, 151}, {220, 145, 57, 51, 123, 182}};
    const int srgb[6][6] = {{20, 67, 120, 158, 192, 220}, {36, 79, 136, 161, 167, 173},
                            {51, 98, 151, 170, 142, 120}, {89, 114, 148, 151, 129, 114},
                            {161, 126, 98, 95, 120, 151}, {220, 145, 58, 51, 123, 183}};
    const Decoded dl = decodeBlock(tritInfillBlock(), 6, 6, false);
    const Decoded ds = decodeBlock(tritInfillBlock(), 6, 6, true);
    for (uint32_t y = 0; y < 6; ++y) {
        for (uint32_t x = 0; x < 6; ++x) {
            const int l = linear[y][x], s = srgb[y][x];
            EXPECT_EQ(dl.at(x, y), (Rgba{l, l, l, 255})) << x << "," << y;
            EXPECT_EQ(ds.at(x, y), (Rgba{s, s, s, 255})) << x << "," << y;
        }
    }
}

// Quint-encoded weights, luminance + alpha. 4x4 footprint, mode 0x052: the 4x4 grid as in 0x042,
// R = {bits 1, 0, 4} = 101b, H = 0: weights 0..4, a quint each (no bits); 16 weights take
// ceil(7 * 16 / 3) = 38 bits. Quint groups of 3 use 7 bits Q, in order (n = 0). Weights i % 5:
// (0,1,2): Q[2:1] != 11 so q2 = Q[6:5], C = Q[4:0], q1 = C[4:3], q0 = C[2:0]: Q = 2<<5 | 1<<3 | 0 = 72.
// (3,4,0): q1 = 4 needs C[2:0] = 101 with q0 = C[4:3]: Q = 0<<5 | 3<<3 | 5 = 29.
// (1,2,3): Q = 3<<5 | 2<<3 | 1 = 113.   (4,0,1): Q = 1<<5 | 0<<3 | 4 = 36.
// (2,3,4): q2 = 4 needs Q[2:1] = 11 and Q[6:5] != 00, then C = {Q[4:3], ~Q[6:5], Q[0]}:
// q1 = 3 -> Q[4:3] = 11, q0 = 2 = 010b -> Q[6:5] = 10, Q[0] = 0: Q = 1011110b = 94.
// (0): Q = 0 (3 bits of the last group, the rest missing and read as 0).
// Unquantization 0..4: 0, 16, 32, 47, 63 -> 0, 16, 32, 48, 64.
// CEM 4 (luminance + alpha direct), v = (10, 250, 200, 40): e0 = (10, 10, 10, 200),
// e1 = (250, 250, 250, 40). Luminance at w = 16: (2570 * 48 + 64250 * 16 + 32) >> 6 = 17990
// -> 17984 -> 69.98 -> 70; alpha at w = 16: (51400 * 48 + 10280 * 16 + 32) >> 6 = 41120 -> 160.
TEST(AstcHandBlocks, QuintWeightsLuminanceAlpha) {
    Block block;
    block.put(0, 11, 0x052).put(11, 2, 0).put(13, 4, 4);
    const int v[4] = {10, 250, 200, 40};
    for (int i = 0; i < 4; ++i) block.put(17 + 8 * i, 8, uint64_t(v[i]));
    const uint32_t Q[6] = {72, 29, 113, 36, 94, 0};
    for (uint32_t g = 0; g < 5; ++g) block.putWeightBits(7 * g, 7, Q[g]);
    block.putWeightBits(35, 3, Q[5]);
    const Rgba expected[5] = {
        {10, 10, 10, 200}, {70, 70, 70, 160}, {130, 130, 130, 120}, {190, 190, 190, 80}, {250, 250, 250, 40}};
    const Decoded d = decodeBlock(block, 4, 4);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(d.at(i % 4, i / 4), expected[i % 5]) << i;
}

// Partitions: mode 0x042 with all weights 0, so each texel shows e0 of its partition. Bits [12:11]
// hold partitions - 1, [22:13] the seed, [24:23] = 00 one CEM for all in [28:25] (0, luminance
// direct), endpoints from bit 29: partition p has L = 40 + 60p. The expected maps follow the
// chapter's select_partition (hash52 of seed + 1024 * (partitions - 1), squared nibbles shifted,
// coordinates doubled when the block has fewer than 31 texels), evaluated by hand.
Block partitionBlock(uint32_t partitions, uint32_t seed) {
    Block block;
    block.put(0, 11, 0x042).put(11, 2, partitions - 1).put(13, 10, seed).put(23, 2, 0).put(25, 4, 0);
    for (uint32_t p = 0; p < partitions; ++p) block.put(29 + 16 * p, 8, 40 + 60 * p).put(37 + 16 * p, 8, 255);
    return block;
}

void expectPartitionMap(uint32_t partitions, uint32_t seed, uint32_t size,
                        const std::vector<std::string>& map) {
    const Decoded d = decodeBlock(partitionBlock(partitions, seed), size, size);
    for (uint32_t y = 0; y < size; ++y) {
        for (uint32_t x = 0; x < size; ++x) {
            const int l = 40 + 60 * (map[y][x] - '0');
            EXPECT_EQ(d.at(x, y), (Rgba{l, l, l, 255}))
                << partitions << " partitions, seed " << seed << " at " << x << "," << y;
        }
    }
}

TEST(AstcHandBlocks, PartitionPatterns) {
    expectPartitionMap(2, 0x155, 4, {"1000", "1000", "0001", "0001"});
    expectPartitionMap(
        3, 0x2A7, 8,
        {"11220000", "11200000", "11200000", "11200000", "12000000", "12000001", "12000001", "20000001"});
    expectPartitionMap(4, 0x103, 6, {"122223", "222320", "322220", "222220", "222120", "222220"});
}

// Two partitions with different endpoint modes (CEM selector 01: classes 0 or 1). The 6 CEM bits
// are C0 C1 M0 at bits 25, 26, [28:27] and M1 in the 2 bits directly below the weights (94..95 with
// 32 weight bits). C0 = C1 = 0, M0 = 0 (CEM 0), M1 = 2 (CEM 2, HDR luminance): in the LDR profile
// only the texels of partition 1 take the error colour. Seed 0x155 as above.
TEST(AstcHandBlocks, HdrPartitionTexelsOnlyAreErrors) {
    Block block = partitionBlock(2, 0x155);
    block.put(23, 2, 1).put(25, 1, 0).put(26, 1, 0).put(27, 2, 0).put(94, 2, 2);
    const Decoded d = decodeBlock(block, 4, 4);
    const std::vector<std::string> map = {"1000", "1000", "0001", "0001"};
    for (uint32_t y = 0; y < 4; ++y) {
        for (uint32_t x = 0; x < 4; ++x)
            EXPECT_EQ(d.at(x, y), map[y][x] == '1' ? kMagenta : (Rgba{40, 40, 40, 255}));
    }
}

// --- Error blocks -----------------------------------------------------------------------------------

struct ErrorCase {
    const char* what;
    Block block;
    Footprint footprint;
};

Block withMode(uint32_t mode, uint32_t partitionsMinusOne = 0, uint32_t cem = 0) {
    Block block;
    block.put(0, 11, mode).put(11, 2, partitionsMinusOne);
    if (partitionsMinusOne == 0)
        block.put(13, 4, cem);
    else
        block.put(23, 2, 0).put(25, 4, cem);
    for (uint32_t i = 0; i < 8; ++i) block.put(29 + 8 * i, 8, 100 + i);  // some endpoint bytes
    return block;
}

TEST(AstcErrors, ReservedAndIllegalEncodingsGiveErrorColour) {
    const ErrorCase cases[] = {
        {"all-zero block (mode bits [3:0] = 0, reserved)", Block{}, {4, 4}},
        {"mode 0x010 (bits [3:0] = 0)", withMode(0x010), {4, 4}},
        {"mode 0x1C8 (bits [8:6] = 111, not void extent: reserved)", withMode(0x1C8), {8, 8}},
        {"12x2 grid in a 4x4 footprint", withMode(0x004), {4, 4}},
        {"8x5 dual-plane grid: 80 weights > 64", withMode(0x465), {8, 8}},
        {"5x5 grid of 0..31: 125 weight bits > 96", withMode(0x2F3), {5, 5}},
        {"4x2 grid of 0..1: 8 weight bits < 24", withMode(0x001), {4, 4}},
        {"dual plane with 4 partitions", withMode(0x402, 3), {4, 4}},
        {"HDR endpoint mode 2", withMode(0x042, 0, 2), {4, 4}},
        {"HDR endpoint mode 15", withMode(0x042, 0, 15), {4, 4}},
        {"4 partitions of CEM 12: 32 endpoint values > 18", withMode(0x042, 3, 12), {4, 4}},
        {"CEM 12 with 96 weight bits: 15 bits for 8 values", withMode(0x226, 0, 12), {8, 8}},
    };
    for (const ErrorCase& c : cases) {
        EXPECT_TRUE(allTexels(decodeBlock(c.block, c.footprint.w, c.footprint.h), kMagenta)) << c.what;
        EXPECT_TRUE(allTexels(decodeBlock(c.block, c.footprint.w, c.footprint.h, true), kMagenta)) << c.what;
    }
    // Controls: the neighbouring legal encodings decode to something else.
    const ErrorCase legal[] = {
        {"12x2 grid in a 12x12 footprint", withMode(0x004), {12, 12}},
        {"dual plane with 1 partition", withMode(0x402), {4, 4}},
        {"LDR endpoint mode 0", withMode(0x042), {4, 4}},
        {"CEM 0 with 96 weight bits", withMode(0x226), {8, 8}},
        {"4 partitions of CEM 0", withMode(0x042, 3, 0), {4, 4}},
    };
    for (const ErrorCase& c : legal) {
        EXPECT_EQ(countTexels(decodeBlock(c.block, c.footprint.w, c.footprint.h), kMagenta), 0u) << c.what;
    }
}

// A footprint outside 4..12 is not ASTC: the error colour, and the bytes are not read.
TEST(AstcErrors, UnsupportedFootprint) {
    std::vector<uint8_t> rgba(3 * 3 * 4, 0);
    esv::decodeAstc(nullptr, 3, 3, 3, 3, false, rgba.data());
    for (size_t i = 0; i < rgba.size(); i += 4)
        EXPECT_EQ((Rgba{rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]}), kMagenta);
}

// --- Odd sizes: partial edge blocks, exact buffers (run under ASan) ----------------------------------

uint32_t nextRandom(uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
}

TEST(AstcDecode, OddSizesMatchCropOfWholeBlocks) {
    const std::pair<uint32_t, uint32_t> sizes[] = {{1, 1}, {3, 5}, {13, 7}, {17, 1}, {1, 13}, {25, 26}};
    uint32_t state = 777;
    for (const Footprint& f : kFootprints) {
        for (auto [w, h] : sizes) {
            std::vector<uint8_t> blocks(esv::surfaceSize(esv::PixelFormat::Astc, w, h, f.w, f.h));
            // Legal blocks with varied content: the trit-infill block's mode fits every footprint
            // from 6x6 up; smaller footprints get the 4x4-grid RGB block. Random weights and endpoints.
            const Block base =
                (f.w >= 6 && f.h >= 6) ? tritInfillBlock() : rgbDirectBlock(std::array<int, 6>{}.data());
            for (size_t o = 0; o < blocks.size(); o += 16) {
                Block b = base;
                b.put(17, 32, nextRandom(state)).putWeightBits(0, 24, nextRandom(state));
                std::memcpy(&blocks[o], b.bytes.data(), 16);
            }
            const uint32_t paddedW = (w + f.w - 1) / f.w * f.w, paddedH = (h + f.h - 1) / f.h * f.h;
            const Decoded full = decode(blocks, paddedW, paddedH, f.w, f.h, false);
            const Decoded cropped = decode(blocks, w, h, f.w, f.h, false);
            EXPECT_EQ(countTexels(full, kMagenta), 0u);
            for (uint32_t y = 0; y < h; ++y) {
                for (uint32_t x = 0; x < w; ++x)
                    ASSERT_EQ(cropped.at(x, y), full.at(x, y)) << f.w << "x" << f.h << " " << w << "x" << h;
            }
        }
    }
}

}  // namespace
