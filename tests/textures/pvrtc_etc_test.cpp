// PVRTC1 software decoder: known-answer words derived from the PVRTC chapter of the Khronos Data
// Format Specification (DFD), word order, sizes below 2x2 words, bounds for odd sizes (PVRTC and ETC),
// and the sample textures (legacy PVR v2 against the PNG of the same art, PVR v3 mip chains).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <stb_image.h>
#include <stb_image_write.h>

#include "common/test_paths.h"
#include "loaders/textures/decode.h"

namespace esv {
namespace {

using Pixels = std::vector<uint8_t>;

Pixels decodePvrtc(const std::vector<uint8_t>& words, uint32_t width, uint32_t height, bool twoBpp) {
    Pixels out(size_t(width) * height * 4);
    decodePvrtc1(words.data(), width, height, twoBpp, out.data());
    return out;
}

std::array<int, 4> pixelAt(const Pixels& rgba, uint32_t width, uint32_t x, uint32_t y) {
    const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
}

// Word halves as the DFD lays them out (colour half: bit 0 = modulation flag M, bits 15..1 colour A,
// bits 31..16 colour B; the word is little-endian with the modulation half first).
uint32_t opaqueA(uint32_t r5, uint32_t g5, uint32_t b4) {
    return 0x8000u | r5 << 10 | g5 << 5 | b4 << 1;
}
uint32_t opaqueB(uint32_t r5, uint32_t g5, uint32_t b5) {
    return (0x8000u | r5 << 10 | g5 << 5 | b5) << 16;
}
uint32_t translucentA(uint32_t a3, uint32_t r4, uint32_t g4, uint32_t b3) {
    return a3 << 12 | r4 << 8 | g4 << 4 | b3 << 1;
}
uint32_t translucentB(uint32_t a3, uint32_t r4, uint32_t g4, uint32_t b4) {
    return (a3 << 12 | r4 << 8 | g4 << 4 | b4) << 16;
}

void putWord(std::vector<uint8_t>& words, size_t index, uint32_t modulation, uint32_t colour) {
    for (int i = 0; i < 4; ++i) {
        words[index * 8 + i] = uint8_t(modulation >> (8 * i));
        words[index * 8 + 4 + i] = uint8_t(colour >> (8 * i));
    }
}

// A surface whose words are all the same.
std::vector<uint8_t> uniformWords(uint32_t width, uint32_t height, bool twoBpp, uint32_t modulation,
                                  uint32_t colour) {
    const PixelFormat format = twoBpp ? PixelFormat::Pvrtc1_2bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgba;
    std::vector<uint8_t> words(surfaceSize(format, width, height));
    for (size_t i = 0; i < words.size() / 8; ++i) putWord(words, i, modulation, colour);
    return words;
}

std::vector<uint8_t> randomBytes(size_t size, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> bytes(size);
    for (uint8_t& b : bytes) b = uint8_t(rng());
    return bytes;
}

using Rgba = std::array<int, 4>;

TEST(Pvrtc, ConstantColourWhenAEqualsBEverywhere) {
    // A opaque 5/5/4 = (20, 10, 6), B opaque 5/5/5 = (20, 10, 12): the 4-bit blue 0110 widens to 01100 = 12,
    // so A = B. 5-bit to 8-bit (the DFD's floor(C/4) + floor(C/128) at C = 32 c): 20 -> 165, 10 -> 82, 12
    // -> 99.
    const Rgba expected = {165, 82, 99, 255};
    const uint32_t colour = opaqueA(20, 10, 6) | opaqueB(20, 10, 12);  // M = 0
    for (bool twoBpp : {false, true}) {
        for (auto [w, h] : {std::pair{16u, 16u}, {32u, 8u}, {8u, 32u}, {64u, 64u}, {4u, 4u}, {1u, 1u}}) {
            // Any modulation: each word gets different random bits.
            const PixelFormat format = twoBpp ? PixelFormat::Pvrtc1_2bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgba;
            std::vector<uint8_t> words(surfaceSize(format, w, h));
            std::mt19937 rng(w * 131 + h);
            for (size_t i = 0; i < words.size() / 8; ++i) putWord(words, i, uint32_t(rng()), colour);
            const Pixels out = decodePvrtc(words, w, h, twoBpp);
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x)
                    ASSERT_EQ(pixelAt(out, w, x, y), expected)
                        << w << "x" << h << " 2bpp " << twoBpp << " at " << x << "," << y;
        }
    }
}

TEST(Pvrtc, FourBppModulationWeights) {
    // A = (31, 0, 0) -> (255, 0, 0); B = (0, 31, 31) -> (0, 255, 255). Every row of every word holds the
    // modulation values 0, 1, 2, 3 in columns 0..3 (0xE4 = 11 10 01 00). Weights: M = 0 -> 0, 3, 5, 8;
    // M = 1 -> 0, 4, 4 with alpha 0 (punch-through), 8. Result = floor((A (8 - w) + B w) / 8).
    const uint32_t colours = opaqueA(31, 0, 0) | opaqueB(0, 31, 31);
    const Pixels standard = decodePvrtc(uniformWords(16, 16, false, 0xE4E4E4E4u, colours), 16, 16, false);
    const Pixels punch = decodePvrtc(uniformWords(16, 16, false, 0xE4E4E4E4u, colours | 1u), 16, 16, false);
    const Rgba standardColumn[4] = {
        {255, 0, 0, 255}, {159, 95, 95, 255}, {95, 159, 159, 255}, {0, 255, 255, 255}};
    const Rgba punchColumn[4] = {
        {255, 0, 0, 255}, {127, 127, 127, 255}, {127, 127, 127, 0}, {0, 255, 255, 255}};
    for (uint32_t y = 0; y < 16; ++y) {
        for (uint32_t x = 0; x < 16; ++x) {
            ASSERT_EQ(pixelAt(standard, 16, x, y), standardColumn[x % 4]) << x << "," << y;
            ASSERT_EQ(pixelAt(punch, 16, x, y), punchColumn[x % 4]) << x << "," << y;
        }
    }
}

TEST(Pvrtc, OpaqueAndTranslucentColourExpansion) {
    // Modulation all 0 shows colour A everywhere, all 3 (0xFFFFFFFF) colour B.
    struct Case {
        uint32_t colour;
        Rgba a, b;
    };
    const Case cases[] = {
        // Translucent A: alpha 101 -> 1010 = 10 -> 170 (x 17); R 1001 -> 10011 = 19 -> 156; G 0011 -> 00110 =
        // 6 -> 49;
        // B 101 -> 10110 = 22 -> 181. Translucent B: alpha 011 -> 0110 = 6 -> 102; R 1111 -> 31 -> 255; G 0
        // -> 0;
        // B 1000 -> 10001 = 17 -> 140.
        {translucentA(5, 9, 3, 5) | translucentB(3, 15, 0, 8), {156, 49, 181, 170}, {255, 0, 140, 102}},
        // Opaque A (19, 6, blue 1011 -> 10111 = 23 -> 189), opaque B (31, 0, 17): alpha 255.
        {opaqueA(19, 6, 11) | opaqueB(31, 0, 17), {156, 49, 189, 255}, {255, 0, 140, 255}},
    };
    for (bool twoBpp : {false, true}) {
        for (const Case& c : cases) {
            // 2bpp with M = 0 is 1 bit per pixel: 0 -> A, 1 -> B, the same as 4bpp's 0 and 3 here.
            const Pixels a = decodePvrtc(uniformWords(16, 16, twoBpp, 0u, c.colour), 16, 16, twoBpp);
            const Pixels b = decodePvrtc(uniformWords(16, 16, twoBpp, 0xFFFFFFFFu, c.colour), 16, 16, twoBpp);
            for (uint32_t y = 0; y < 16; ++y) {
                for (uint32_t x = 0; x < 16; ++x) {
                    ASSERT_EQ(pixelAt(a, 16, x, y), c.a) << x << "," << y;
                    ASSERT_EQ(pixelAt(b, 16, x, y), c.b) << x << "," << y;
                }
            }
        }
    }
}

TEST(Pvrtc, BilinearUpscaleWrapsAtTheEdges) {
    // 8x8 at 4bpp = 2x2 words. Word (0, 0) has A = white (31, 31, blue 1111 -> 31), the others black; all
    // modulation 0, so the image is colour A upscaled. Word (0, 0)'s sample sits at pixel (2, 2); the weight
    // of a sample d pixels away is (4 - d) / 4 per axis, wrapping: pixel 7 is 3 from the sample at 2 going
    // right over the edge (7 -> 8 = 0 -> 2), pixel 6 is 4 away both ways. Red = floor(C / 4) + floor(C / 128)
    // with C = 31 * 2 * wx * wy, wx and wy the per-axis weights out of 4.
    std::vector<uint8_t> words(32, 0);
    putWord(words, 0, 0, opaqueA(31, 31, 15) | opaqueB(0, 0, 0));
    for (size_t i = 1; i < 4; ++i) putWord(words, i, 0, opaqueA(0, 0, 0) | opaqueB(0, 0, 0));
    const Pixels out = decodePvrtc(words, 8, 8, false);
    const int weight[8] = {2, 3, 4, 3, 2, 1, 0, 1};  // out of 4, per axis
    const int row2[8] = {127, 191, 255, 191, 127, 63, 0, 63};
    for (uint32_t y = 0; y < 8; ++y) {
        for (uint32_t x = 0; x < 8; ++x) {
            const int c = 31 * 2 * weight[x] * weight[y];
            const int expected = c / 4 + c / 128;
            const Rgba p = pixelAt(out, 8, x, y);
            EXPECT_EQ(p[0], expected) << x << "," << y;
            EXPECT_EQ(p[1], expected) << x << "," << y;
            EXPECT_EQ(p[2], expected) << x << "," << y;
            EXPECT_EQ(p[3], 255);
            if (y == 2) {
                EXPECT_EQ(p[0], row2[x]) << x;
            }
            if (x == 2) {
                EXPECT_EQ(p[0], row2[y]) << y;
            }
        }
    }
    EXPECT_EQ(pixelAt(out, 8, 0, 0)[0], 63);  // 1/4 of white: wx = wy = 2
    EXPECT_EQ(pixelAt(out, 8, 7, 7)[0], 15);  // 1/16 of white: C = 62 -> 15
}

// Decodes a texture whose word i has A = (i & 31, i >> 5, 0) and modulation 0, and returns, per word position
// (X, Y) in row-major order, the memory index read back from the pixel on that word's sample, where colour A
// comes through unblended.
std::vector<int> wordIndexAtEachPosition(uint32_t width, uint32_t height) {
    const size_t count = size_t(width / 4) * (height / 4);
    std::vector<uint8_t> words(count * 8);
    for (size_t i = 0; i < count; ++i) putWord(words, i, 0, opaqueA(uint32_t(i & 31), uint32_t(i >> 5), 0));
    const Pixels out = decodePvrtc(words, width, height, false);
    std::vector<int> index;
    for (uint32_t y = 0; y < height / 4; ++y) {
        for (uint32_t x = 0; x < width / 4; ++x) {
            const Rgba p = pixelAt(out, width, x * 4 + 2, y * 4 + 2);
            index.push_back((p[0] >> 3) | (p[1] >> 3) << 5);  // 5 -> 8 bit replication keeps the top 5 bits
        }
    }
    return index;
}

TEST(Pvrtc, WordsAreInReflectedMortonOrder) {
    // DFD example: a 64x16 image (16x4 words), word X = 13, Y = 2 is at offset 54 (X and Y interleaved with Y
    // in the low bit for the 2 bits the smaller dimension needs, X's remaining bits above).
    const std::vector<int> wide = wordIndexAtEachPosition(64, 16);
    EXPECT_EQ(wide[2 * 16 + 13], 54);
    EXPECT_EQ(wide[0], 0);
    EXPECT_EQ(wide[1], 2);   // X = 1: X0 in bit 1
    EXPECT_EQ(wide[16], 1);  // Y = 1: Y0 in bit 0
    EXPECT_EQ(wide[4], 16);  // X = 4: X2 is above the interleaved bits
    EXPECT_EQ(wide[3 * 16 + 15], 63);
    std::vector<int> sorted = wide;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 64; ++i) ASSERT_EQ(sorted[i], i) << "every word is read exactly once";
    // Rectangular textures by hand: 16x8 (4x2 words, one interleaved bit, X's upper bit linear above) and
    // 8x16 (2x4 words, Y's upper bit above).
    EXPECT_EQ(wordIndexAtEachPosition(16, 8), (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
    EXPECT_EQ(wordIndexAtEachPosition(8, 16), (std::vector<int>{0, 2, 1, 3, 4, 6, 5, 7}));
    // Square: plain Morton with Y in the low bit.
    EXPECT_EQ(wordIndexAtEachPosition(16, 16),
              (std::vector<int>{0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15}));
}

TEST(Pvrtc, TwoBppDirectModulation) {
    // M = 0: one bit per pixel, bit y * 8 + x; 0xF0 per row sets x = 4..7 to B (white), x = 0..3 to A
    // (black).
    const uint32_t colours = opaqueA(0, 0, 0) | opaqueB(31, 31, 31);
    const Pixels out = decodePvrtc(uniformWords(32, 16, true, 0xF0F0F0F0u, colours), 32, 16, true);
    for (uint32_t y = 0; y < 16; ++y)
        for (uint32_t x = 0; x < 32; ++x)
            ASSERT_EQ(pixelAt(out, 32, x, y), (x % 8 >= 4 ? Rgba{255, 255, 255, 255} : Rgba{0, 0, 0, 255}))
                << x << "," << y;
}

// 2bpp with M = 1: 2-bit samples for the pixels with (x ^ y) even, raster order; rows 0 and 2 hold 11 (weight
// 8), rows 1 and 3 hold 01 (weight 4, the punch-through table's). A = black, B = white: weight w gives
// floor(255 w / 8): 8 -> 255, 6 -> 191, 4 -> 127.
Pixels decodeInterpolated(uint32_t modulation) {
    const uint32_t colours = opaqueA(0, 0, 0) | opaqueB(31, 31, 31) | 1u;
    return decodePvrtc(uniformWords(32, 16, true, modulation, colours), 32, 16, true);
}

TEST(Pvrtc, TwoBppInterpolatedModulationModes) {
    // Bit 0 = 0: the others average their four neighbours (rounded): (4 + 4 + 8 + 8 + 2) / 4 = 6 on every
    // row. Sample (0, 0)'s low bit is the flag; its value is its high bit (bit 1) duplicated: 1 -> 11.
    const Pixels hv = decodeInterpolated(0x55FF55FEu);
    // Bit 0 = 1, bit 20 (flag F) = 0: horizontal neighbours only: rows 0 and 2 -> 8, rows 1 and 3 -> 4.
    // Sample (4, 2) then takes its high bit (21) twice.
    const Pixels h = decodeInterpolated(0x55EF55FFu);
    // Bit 0 = 1, bit 20 = 1: vertical neighbours only: rows 0 and 2 -> 4, rows 1 and 3 -> 8.
    const Pixels v = decodeInterpolated(0x55FF55FFu);
    for (uint32_t y = 0; y < 16; ++y) {
        for (uint32_t x = 0; x < 32; ++x) {
            const bool stored = ((x ^ y) & 1) == 0;
            const bool evenRow = y % 2 == 0;
            const int storedValue = evenRow ? 255 : 127;
            const int hvValue = stored ? storedValue : 191;
            const int hValue = stored ? storedValue : (evenRow ? 255 : 127);
            const int vValue = stored ? storedValue : (evenRow ? 127 : 255);
            ASSERT_EQ(pixelAt(hv, 32, x, y), (Rgba{hvValue, hvValue, hvValue, 255}))
                << "HV " << x << "," << y;
            ASSERT_EQ(pixelAt(h, 32, x, y), (Rgba{hValue, hValue, hValue, 255})) << "H " << x << "," << y;
            ASSERT_EQ(pixelAt(v, 32, x, y), (Rgba{vValue, vValue, vValue, 255})) << "V " << x << "," << y;
        }
    }
}

TEST(Pvrtc, TwoBppPunchThrough) {
    // As the HV case, but sample (2, 0) (bits 3..2) holds 10: weight 4 with alpha 0. Its neighbour (1, 0)
    // averages (0,0) = 8, (2,0) = 4, (1,-1) = row 3 of the word above = 4, (1,1) = 4: (8 + 4 + 4 + 4 + 2) / 4
    // = 5 -> 159, and stays opaque (punch-through only applies to a pixel's own stored value).
    const Pixels out = decodeInterpolated(0x55FF55FAu);
    EXPECT_EQ(pixelAt(out, 32, 2, 0), (Rgba{127, 127, 127, 0}));
    EXPECT_EQ(pixelAt(out, 32, 10, 4), (Rgba{127, 127, 127, 0}));  // the same sample in another word
    EXPECT_EQ(pixelAt(out, 32, 1, 0), (Rgba{159, 159, 159, 255}));
    EXPECT_EQ(pixelAt(out, 32, 0, 0), (Rgba{255, 255, 255, 255}));
}

TEST(Pvrtc, LevelsBelowTwoWordsAreTheTopLeftOfTheWords) {
    // A surface is at least 2x2 words; a smaller level reads as the top-left corner of those words decoded at
    // full size (DFD), including the wrap-around of the upscale.
    for (bool twoBpp : {false, true}) {
        const uint32_t fullW = twoBpp ? 16 : 8, fullH = 8;
        for (uint32_t seed = 0; seed < 4; ++seed) {
            const std::vector<uint8_t> words = randomBytes(32, seed);
            const Pixels full = decodePvrtc(words, fullW, fullH, twoBpp);
            for (auto [w, h] :
                 {std::pair{1u, 1u}, {2u, 2u}, {4u, 4u}, {3u, 5u}, {fullW / 2, fullH / 2}, {7u, 1u}}) {
                const Pixels small = decodePvrtc(words, w, h, twoBpp);
                for (uint32_t y = 0; y < h; ++y)
                    for (uint32_t x = 0; x < w; ++x)
                        ASSERT_EQ(pixelAt(small, w, x, y), pixelAt(full, fullW, x, y))
                            << w << "x" << h << " 2bpp " << twoBpp << " at " << x << "," << y;
            }
        }
    }
}

// --- bounds: exact-size buffers (ASan) and guard bytes (any build) ----------------------------------------

const std::pair<uint32_t, uint32_t> kOddSizes[] = {{1, 1}, {3, 5}, {13, 7}, {5, 13},   {17, 3},
                                                   {7, 1}, {1, 9}, {33, 9}, {100, 60}, {2, 2}};

// Decodes `format` from exactly surfaceSize bytes into exactly width * height * 4 bytes followed by guard
// bytes, checks the guards, and returns the pixels.
Pixels decodeGuarded(PixelFormat format, const std::vector<uint8_t>& data, uint32_t w, uint32_t h) {
    const size_t size = size_t(w) * h * 4;
    std::vector<uint8_t> out(size + 64, 0xA5);
    // Heap copy of exactly the surface: ASan reports any read past it.
    std::vector<uint8_t> exact(data.begin(), data.end());
    if (format == PixelFormat::Pvrtc1_2bpp_Rgba || format == PixelFormat::Pvrtc1_4bpp_Rgba)
        decodePvrtc1(exact.data(), w, h, format == PixelFormat::Pvrtc1_2bpp_Rgba, out.data());
    else
        decodeEtc(format, exact.data(), w, h, out.data());
    for (size_t i = size; i < out.size(); ++i)
        EXPECT_EQ(out[i], 0xA5) << "wrote past the image at byte " << i;
    out.resize(size);
    return out;
}

TEST(DecodeBounds, OddSizesWriteOnlyTheImageAndMatchTheirBlockRoundedSize) {
    const PixelFormat formats[] = {PixelFormat::Pvrtc1_2bpp_Rgba, PixelFormat::Pvrtc1_4bpp_Rgba,
                                   PixelFormat::Etc1_Rgb,         PixelFormat::Etc2_Rgb,
                                   PixelFormat::Etc2_Rgb_A1,      PixelFormat::Etc2_Rgba,
                                   PixelFormat::Eac_R11,          PixelFormat::Eac_R11_Signed,
                                   PixelFormat::Eac_Rg11,         PixelFormat::Eac_Rg11_Signed};
    for (PixelFormat format : formats) {
        uint32_t bw = 1, bh = 1;
        blockFootprint(format, 4, 4, bw, bh);
        for (auto [w, h] : kOddSizes) {
            const size_t size = surfaceSize(format, w, h);
            ASSERT_GT(size, 0u);
            const std::vector<uint8_t> data = randomBytes(size, w * 1000 + h);
            const Pixels out = decodeGuarded(format, data, w, h);
            // The same bytes at the size rounded up to whole blocks (same block count, so the same surface):
            // the odd-sized image is its top-left corner.
            const uint32_t fullW = (w + bw - 1) / bw * bw, fullH = (h + bh - 1) / bh * bh;
            ASSERT_EQ(surfaceSize(format, fullW, fullH), size);
            const Pixels full = decodeGuarded(format, data, fullW, fullH);
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x)
                    ASSERT_EQ(pixelAt(out, w, x, y), pixelAt(full, fullW, x, y))
                        << pixelFormatName(format) << " " << w << "x" << h << " at " << x << "," << y;
        }
    }
}

TEST(DecodeBounds, NonPowerOfTwoPvrtcWordCountsStayInside) {
    // PVRTC1 sizes are powers of two; other word counts (3x3, 5x2, 3x7) must still read only their own words.
    for (bool twoBpp : {false, true}) {
        const PixelFormat format = twoBpp ? PixelFormat::Pvrtc1_2bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgba;
        for (auto [w, h] : {std::pair{12u, 12u}, {20u, 8u}, {24u, 28u}, {9u, 9u}, {40u, 12u}}) {
            const std::vector<uint8_t> data = randomBytes(surfaceSize(format, w, h), w + h);
            decodeGuarded(format, data, w, h);
        }
    }
}

// --- sample files ------------------------------------------------------------------------------------------

std::vector<uint8_t> readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

struct PvrtcFile {
    bool twoBpp = false;
    bool flippedVertically = false;  // legacy flag: the first row stored is the bottom one
    uint32_t width = 0, height = 0;
    std::vector<std::vector<uint8_t>> levels;
};

// The few header fields the tests need, read here so that the tests do not depend on the container reader.
// Legacy PVR v2: 52-byte header {size, height, width, extra mip count, flags (pixel type in the low byte,
// 0x10000 = vertically flipped), data size, bpp, masks x4, 'PVR!', surfaces}. PVR v3: 52-byte header
// {version 'PVR\3', flags, pixel format (u64; 0..3 = PVRTC 2bpp RGB/RGBA, 4bpp RGB/RGBA), colour space,
// channel type, height, width, depth, surfaces, faces, mips, metadata size} then the metadata.
bool readPvrtcFile(const std::filesystem::path& path, PvrtcFile& file, std::string& error) {
    const std::vector<uint8_t> bytes = readBytes(path);
    if (bytes.size() < 52) return error = "short file", false;
    size_t offset = 0;
    uint32_t levels = 0;
    if (le32(&bytes[0]) == 0x03525650u) {
        const uint32_t format = le32(&bytes[8]);
        if (le32(&bytes[12]) != 0 || format > 3) return error = "not PVRTC1", false;
        file.twoBpp = format < 2;
        file.height = le32(&bytes[24]);
        file.width = le32(&bytes[28]);
        levels = le32(&bytes[44]);
        offset = 52 + size_t(le32(&bytes[48]));
    } else if (le32(&bytes[0]) == 52 && std::memcmp(&bytes[44], "PVR!", 4) == 0) {
        const uint32_t flags = le32(&bytes[16]);
        const uint32_t type = flags & 0xFF;
        if (type != 0x18 && type != 0x19 && type != 0x0C && type != 0x0D) return error = "not PVRTC", false;
        file.twoBpp = type == 0x18 || type == 0x0C;
        file.flippedVertically = (flags & 0x10000u) != 0;
        file.height = le32(&bytes[4]);
        file.width = le32(&bytes[8]);
        levels = le32(&bytes[12]) + 1;
        offset = 52;
    } else {
        return error = "not a PVR file", false;
    }
    const PixelFormat format = file.twoBpp ? PixelFormat::Pvrtc1_2bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgba;
    for (uint32_t level = 0; level < levels; ++level) {
        const uint32_t w = std::max(file.width >> level, 1u), h = std::max(file.height >> level, 1u);
        const size_t size = surfaceSize(format, w, h);
        if (offset > bytes.size() || bytes.size() - offset < size)
            return error = "level " + std::to_string(level) + " truncated", false;
        file.levels.emplace_back(bytes.begin() + long(offset), bytes.begin() + long(offset + size));
        offset += size;
    }
    return true;
}

void flipRows(Pixels& rgba, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height / 2; ++y)
        std::swap_ranges(rgba.begin() + long(size_t(y) * width * 4),
                         rgba.begin() + long(size_t(y + 1) * width * 4),
                         rgba.begin() + long(size_t(height - 1 - y) * width * 4));
}

// PSNR over R, G and B.
double psnrRgb(const Pixels& a, const Pixels& b) {
    double sum = 0;
    size_t count = 0;
    for (size_t i = 0; i < a.size(); i += 4) {
        for (int c = 0; c < 3; ++c) {
            const double d = double(a[i + c]) - double(b[i + c]);
            sum += d * d;
            ++count;
        }
    }
    const double mse = sum / double(count);
    return mse == 0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

Pixels loadPng(const std::filesystem::path& path, int& w, int& h) {
    int channels = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &w, &h, &channels, 4);
    if (!data) return {};
    Pixels pixels(data, data + size_t(w) * h * 4);
    stbi_image_free(data);
    return pixels;
}

void savePng(const std::string& name, const Pixels& rgba, uint32_t w, uint32_t h) {
    const std::string path = (test::outputDir() / name).string();
    EXPECT_NE(stbi_write_png(path.c_str(), int(w), int(h), 4, rgba.data(), int(w * 4)), 0) << path;
}

TEST(PvrtcSamples, LegacyPvrMatchesThePngOfTheSameArt) {
    ESVIEW_REQUIRE_MODELS("pod/cocos3d");
    struct Sample {
        const char* name;
        double minPsnr;
    };
    // PVRTC 4bpp of photographic art against its source, measured with the header's vertical flip applied:
    // 29.52 dB for tex_arm (rust streaks, sharp high-contrast detail that the 4x4 low-resolution images blur)
    // and 37.47 dB for tex_base (soft brushed metal); thresholds half a decibel below. Read without the flip
    // the same data scores 10.8 and 20.2 dB, and a wrong word order or bit layout scrambles whole blocks.
    const Sample samples[] = {{"tex_arm", 29.0}, {"tex_base", 37.0}};
    for (const Sample& s : samples) {
        const auto dir = test::modelsDir() / "pod/cocos3d";
        PvrtcFile file;
        std::string error;
        ASSERT_TRUE(readPvrtcFile(dir / (std::string(s.name) + ".pvr"), file, error))
            << s.name << ": " << error;
        EXPECT_FALSE(file.twoBpp);
        EXPECT_EQ(file.width, 256u);
        EXPECT_EQ(file.height, 256u);
        EXPECT_EQ(file.levels.size(), 9u);
        EXPECT_TRUE(file.flippedVertically) << s.name;
        Pixels decoded = decodePvrtc(file.levels[0], file.width, file.height, false);
        Pixels asStored = decoded;
        if (file.flippedVertically) flipRows(decoded, file.width, file.height);
        savePng(std::string("pvrtc_") + s.name + ".png", decoded, file.width, file.height);

        int w = 0, h = 0;
        const Pixels png = loadPng(dir / (std::string(s.name) + ".png"), w, h);
        ASSERT_EQ(w, 256);
        ASSERT_EQ(h, 256);
        const double psnr = psnrRgb(decoded, png);
        const double psnrUnflipped = psnrRgb(asStored, png);
        std::printf("%s: PSNR %.2f dB against the PNG (%.2f dB without the vertical flip)\n", s.name, psnr,
                    psnrUnflipped);
        EXPECT_GT(psnr, s.minPsnr) << s.name;
        for (size_t i = 3; i < decoded.size(); i += 4) ASSERT_EQ(decoded[i], 255) << "opaque art";
    }
}

TEST(PvrtcSamples, EveryMipLevelOfTheSdkTexturesDecodes) {
    ESVIEW_REQUIRE_MODELS("pod/nsdk");
    for (const char* name : {"Marble.pvr", "MarbleNormalMap.pvr", "gnome_texture.pvr"}) {
        PvrtcFile file;
        std::string error;
        ASSERT_TRUE(readPvrtcFile(test::modelsDir() / "pod/nsdk" / name, file, error))
            << name << ": " << error;
        EXPECT_FALSE(file.twoBpp);
        EXPECT_EQ(file.width, 1024u);
        EXPECT_EQ(file.height, 1024u);
        ASSERT_EQ(file.levels.size(), 11u) << name;
        std::array<double, 4> mean0{};
        for (size_t level = 0; level < file.levels.size(); ++level) {
            const uint32_t w = std::max(file.width >> level, 1u), h = std::max(file.height >> level, 1u);
            const Pixels rgba = decodePvrtc(file.levels[level], w, h, false);
            std::array<double, 4> mean{};
            for (size_t i = 0; i < rgba.size(); ++i) mean[i % 4] += rgba[i];
            for (double& m : mean) m /= double(w) * h;
            if (level == 0) {
                mean0 = mean;
                savePng(std::string("pvrtc_") + name + ".png", rgba, w, h);
            }
            // Mips of one image share its mean colour. Measured worst channel differences from level 0: 2.6
            // for levels 1-6 (Marble level 6), 4.8 for levels 7-9 (8x8 to 2x2, one or two words of colour:
            // Marble's 4x4 blue). The 1x1 levels hold what the tool that made them chose: Marble's and the
            // normal map's match, but every word of gnome_texture's 1x1 level stores A = (10, 9, 10) and B =
            // (10, 11, 10) in 5 bits, a dark grey of about 81 against a mean of 130, so that level is only
            // checked for opacity.
            if (level == 10) {
                EXPECT_EQ(mean[3], 255.0) << name;
                continue;
            }
            const double tolerance = level <= 6 ? 3.5 : 6.0;
            for (int c = 0; c < 4; ++c)
                EXPECT_NEAR(mean[c], mean0[c], tolerance) << name << " level " << level << " channel " << c;
        }
    }
}

// decodeSurface: the RGB PVRTC formats come out opaque even when the words encode translucent
// colours (GL ignores their alpha), the RGBA formats keep it.
TEST(PvrtcSurface, RgbFormatsDecodeOpaque) {
    Image image;
    image.width = image.height = 8;
    image.container = "test";
    // 2x2 words of zeros: translucent colours A and B with alpha 0.
    image.surfaces.push_back(makeOwnedBytes(std::vector<uint8_t>(32, 0)));
    std::vector<uint8_t> rgba;
    std::string error;
    for (PixelFormat f : {PixelFormat::Pvrtc1_4bpp_Rgb, PixelFormat::Pvrtc1_4bpp_Rgba}) {
        image.format = f;
        ASSERT_TRUE(decodeSurface(image, 0, 0, rgba, error)) << error;
        ASSERT_EQ(rgba.size(), 8u * 8u * 4u);
        for (size_t i = 3; i < rgba.size(); i += 4)
            ASSERT_EQ(rgba[i], f == PixelFormat::Pvrtc1_4bpp_Rgb ? 255 : 0) << pixelFormatName(f) << " pixel " << i / 4;
    }
}

// decodeImage puts the rows of a bottom-up compressed image top-down (two BC1 blocks stacked:
// red stored first, blue second; bottom-up, blue is the top of the picture).
TEST(DecodeImage, BottomUpImagesAreFlippedWhenDecoded) {
    Image image;
    image.format = PixelFormat::Bc1_Rgb;
    image.width = 4;
    image.height = 8;
    image.container = "test";
    image.bottomUp = true;
    image.surfaces.push_back(makeOwnedBytes({0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0,  // red
                                             0x1F, 0x00, 0x1F, 0x00, 0, 0, 0, 0}));  // blue
    Image decoded;
    std::string error;
    ASSERT_TRUE(decodeImage(image, decoded, error)) << error;
    EXPECT_FALSE(decoded.bottomUp);
    const uint8_t* top = decoded.surface(0).data;
    const uint8_t* bottom = top + 7 * 4 * 4;
    EXPECT_EQ(top[2], 255);  // blue on top
    EXPECT_EQ(top[0], 0);
    EXPECT_EQ(bottom[0], 255);  // red at the bottom
    EXPECT_NE(decoded.notes.back().find("rows flipped"), std::string::npos);
}

}  // namespace
}  // namespace esv
