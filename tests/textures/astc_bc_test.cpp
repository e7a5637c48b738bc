// BC1/BC2/BC3 (DXT1/3/5) software decoder: known-answer blocks worked out by hand from the
// EXT_texture_compression_s3tc description, edge blocks of odd-sized surfaces, a round trip through
// a small encoder written here, and the DXT files among the samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "common/image_compare.h"
#include "common/test_paths.h"
#include "loaders/textures/decode.h"
#include "scene/image.h"

namespace {

using esv::PixelFormat;
using Rgba = std::array<int, 4>;

std::vector<uint8_t> decode(PixelFormat format, const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h) {
    EXPECT_EQ(blocks.size(), esv::surfaceSize(format, w, h));
    std::vector<uint8_t> rgba(size_t(w) * h * 4, 0xCD);
    esv::decodeBc(format, blocks.data(), w, h, rgba.data());
    return rgba;
}

Rgba texel(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t x, uint32_t y) {
    const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
}

void put16(std::vector<uint8_t>& b, uint32_t v) {
    b.push_back(uint8_t(v));
    b.push_back(uint8_t(v >> 8));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}

// A BC1 colour block: endpoints as RGB565, then texel i's 2-bit index at bits 2i..2i+1.
std::vector<uint8_t> colourBlock(uint32_t c0, uint32_t c1, const std::array<int, 16>& indices) {
    std::vector<uint8_t> b;
    put16(b, c0);
    put16(b, c1);
    uint32_t bits = 0;
    for (int i = 0; i < 16; ++i) bits |= uint32_t(indices[i]) << (2 * i);
    put32(b, bits);
    return b;
}

constexpr std::array<int, 16> kIndexCycle = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};

uint32_t rgb565(uint32_t r5, uint32_t g6, uint32_t b5) {
    return r5 << 11 | g6 << 5 | b5;
}

// --- Known answers -------------------------------------------------------------------------------

// c0 = (31, 63, 0) -> (255, 255, 0); c1 = (17, 1, 31) -> (17<<3|17>>2, 1<<2|1>>4, 255) = (140, 4, 255).
// c0 > c1 selects 4 colours, truncating: c2 = (2*c0 + c1) / 3 = (216, 171, 85) (650/3 = 216.7;
// rounding would give 217), c3 = (c0 + 2*c1) / 3 = (178, 87, 170) (263/3 = 87.7; rounding: 88).
TEST(Bc1, FourColourModeKnownAnswer) {
    const uint32_t c0 = rgb565(31, 63, 0), c1 = rgb565(17, 1, 31);
    ASSERT_GT(c0, c1);
    for (PixelFormat format : {PixelFormat::Bc1_Rgb, PixelFormat::Bc1_Rgba}) {
        const auto rgba = decode(format, colourBlock(c0, c1, kIndexCycle), 4, 4);
        for (uint32_t y = 0; y < 4; ++y) {
            EXPECT_EQ(texel(rgba, 4, 0, y), (Rgba{255, 255, 0, 255}));
            EXPECT_EQ(texel(rgba, 4, 1, y), (Rgba{140, 4, 255, 255}));
            EXPECT_EQ(texel(rgba, 4, 2, y), (Rgba{216, 171, 85, 255}));
            EXPECT_EQ(texel(rgba, 4, 3, y), (Rgba{178, 87, 170, 255}));
        }
    }
}

// c0 = (0, 0, 31) < c1 = (31, 0, 0): 3 colours plus black. c2 = (c0 + c1) / 2 = (127, 0, 127).
// Index 3 is transparent black with 1-bit alpha, opaque black for the RGB format (as GL's
// COMPRESSED_RGB_S3TC_DXT1_EXT returns alpha 1).
TEST(Bc1, ThreeColourModeAndTransparentTexel) {
    const uint32_t c0 = rgb565(0, 0, 31), c1 = rgb565(31, 0, 0);
    ASSERT_LE(c0, c1);
    const auto block = colourBlock(c0, c1, kIndexCycle);
    const auto withAlpha = decode(PixelFormat::Bc1_Rgba, block, 4, 4);
    const auto opaque = decode(PixelFormat::Bc1_Rgb, block, 4, 4);
    for (uint32_t y = 0; y < 4; ++y) {
        EXPECT_EQ(texel(withAlpha, 4, 0, y), (Rgba{0, 0, 255, 255}));
        EXPECT_EQ(texel(withAlpha, 4, 1, y), (Rgba{255, 0, 0, 255}));
        EXPECT_EQ(texel(withAlpha, 4, 2, y), (Rgba{127, 0, 127, 255}));
        EXPECT_EQ(texel(withAlpha, 4, 3, y), (Rgba{0, 0, 0, 0}));
        EXPECT_EQ(texel(opaque, 4, 2, y), (Rgba{127, 0, 127, 255}));
        EXPECT_EQ(texel(opaque, 4, 3, y), (Rgba{0, 0, 0, 255}));
    }
    // Equal endpoints are the c0 <= c1 case too.
    const uint32_t grey = rgb565(10, 20, 10);  // (82, 81, 82)
    const auto equal = decode(PixelFormat::Bc1_Rgba, colourBlock(grey, grey, kIndexCycle), 4, 4);
    EXPECT_EQ(texel(equal, 4, 2, 0), (Rgba{82, 81, 82, 255}));
    EXPECT_EQ(texel(equal, 4, 3, 0), (Rgba{0, 0, 0, 0}));
}

// The index bits run row by row from the least significant bit: texel (x, y) uses bits 2(4y+x).
TEST(Bc1, IndexBitOrder) {
    std::array<int, 16> indices{};
    indices[6] = 1;  // (2, 1)
    const auto rgba = decode(PixelFormat::Bc1_Rgb, colourBlock(0xFFFF, 0x0000, indices), 4, 4);
    for (uint32_t y = 0; y < 4; ++y) {
        for (uint32_t x = 0; x < 4; ++x) {
            const int v = (x == 2 && y == 1) ? 0 : 255;
            EXPECT_EQ(texel(rgba, 4, x, y), (Rgba{v, v, v, 255})) << x << "," << y;
        }
    }
}

// BC2: alpha nibble i at bits 4i..4i+3 of the first 8 bytes, expanded by 17. The colour block uses
// the 4-colour table even though c0 <= c1 here: index 3 is (c0 + 2*c1) / 3, not black.
TEST(Bc2, ExplicitAlphaAndAlwaysFourColours) {
    std::vector<uint8_t> block;
    for (int i = 0; i < 8; ++i) block.push_back(uint8_t((2 * i) | (2 * i + 1) << 4));  // nibbles 0..15
    const auto colour = colourBlock(rgb565(0, 0, 31), rgb565(31, 0, 0), kIndexCycle);
    block.insert(block.end(), colour.begin(), colour.end());
    const auto rgba = decode(PixelFormat::Bc2, block, 4, 4);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(rgba[i * 4 + 3], i * 17) << i;
    EXPECT_EQ(texel(rgba, 4, 0, 0), (Rgba{0, 0, 255, 0}));
    EXPECT_EQ(texel(rgba, 4, 1, 0), (Rgba{255, 0, 0, 17}));
    EXPECT_EQ(texel(rgba, 4, 2, 0), (Rgba{85, 0, 170, 34}));  // (2*c0 + c1) / 3
    EXPECT_EQ(texel(rgba, 4, 3, 0), (Rgba{170, 0, 85, 51}));  // (c0 + 2*c1) / 3
}

std::vector<uint8_t> alphaBlock(uint32_t a0, uint32_t a1, const std::array<int, 16>& indices) {
    std::vector<uint8_t> b = {uint8_t(a0), uint8_t(a1)};
    uint64_t bits = 0;
    for (int i = 0; i < 16; ++i) bits |= uint64_t(indices[i]) << (3 * i);
    for (int i = 0; i < 6; ++i) b.push_back(uint8_t(bits >> (8 * i)));
    return b;
}

constexpr std::array<int, 16> kAlphaCycle = {0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0};

// BC3 with a0 > a1: 8 alphas, a_i = ((7-k)*a0 + k*a1) / 7 for index k+1 (k = 1..6), truncated:
// a0 = 255, a1 = 0 -> 218.57, 182.14, 145.71, 109.29, 72.86, 36.43 -> 218, 182, 145, 109, 72, 36.
TEST(Bc3, EightAlphaMode) {
    auto block = alphaBlock(255, 0, kAlphaCycle);
    const auto colour = colourBlock(rgb565(0, 63, 0), rgb565(0, 0, 0), std::array<int, 16>{});
    block.insert(block.end(), colour.begin(), colour.end());
    const auto rgba = decode(PixelFormat::Bc3, block, 4, 4);
    const int expected[8] = {255, 0, 218, 182, 145, 109, 72, 36};
    for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(rgba[i * 4 + 3], expected[kAlphaCycle[i]]) << i;
        EXPECT_EQ(rgba[i * 4 + 1], 255);
    }
}

// BC3 with a0 <= a1: 6 alphas plus 0 and 255. a0 = 10, a1 = 250:
// (4*10 + 250) / 5 = 58, (3*10 + 500) / 5 = 106, (2*10 + 750) / 5 = 154, (10 + 1000) / 5 = 202.
// a0 = 7, a1 = 9 shows truncation: (4*7 + 9) / 5 = 7.4 -> 7, (3*7 + 18) / 5 = 7.8 -> 7, 8.2 -> 8, 8.6 -> 8.
// The colour block uses 4 colours even with c0 <= c1 (here equal endpoints).
TEST(Bc3, SixAlphaMode) {
    const auto colour = colourBlock(rgb565(31, 0, 0), rgb565(31, 0, 0), kIndexCycle);
    {
        auto block = alphaBlock(10, 250, kAlphaCycle);
        block.insert(block.end(), colour.begin(), colour.end());
        const auto rgba = decode(PixelFormat::Bc3, block, 4, 4);
        const int expected[8] = {10, 250, 58, 106, 154, 202, 0, 255};
        for (int i = 0; i < 16; ++i) EXPECT_EQ(rgba[i * 4 + 3], expected[kAlphaCycle[i]]) << i;
        for (int i = 0; i < 16; ++i)
            EXPECT_EQ(texel(rgba, 4, i % 4, i / 4), (Rgba{255, 0, 0, rgba[i * 4 + 3]}));
    }
    {
        auto block = alphaBlock(7, 9, kAlphaCycle);
        block.insert(block.end(), colour.begin(), colour.end());
        const auto rgba = decode(PixelFormat::Bc3, block, 4, 4);
        const int expected[8] = {7, 9, 7, 7, 8, 8, 0, 255};
        for (int i = 0; i < 16; ++i) EXPECT_EQ(rgba[i * 4 + 3], expected[kAlphaCycle[i]]) << i;
    }
    {
        // Equal endpoints are the 6-alpha case.
        auto block = alphaBlock(100, 100, kAlphaCycle);
        block.insert(block.end(), colour.begin(), colour.end());
        const auto rgba = decode(PixelFormat::Bc3, block, 4, 4);
        EXPECT_EQ(rgba[6 * 4 + 3], 0);
        EXPECT_EQ(rgba[7 * 4 + 3], 255);
        EXPECT_EQ(rgba[2 * 4 + 3], 100);
    }
}

// Blocks are stored row by row; each covers 4x4 texels.
TEST(Bc1, BlockOrder) {
    std::vector<uint8_t> blocks;
    const uint32_t colours[4] = {rgb565(31, 0, 0), rgb565(0, 63, 0), rgb565(0, 0, 31), rgb565(31, 63, 31)};
    for (uint32_t c : colours) {
        const auto b = colourBlock(c, 0, std::array<int, 16>{});
        blocks.insert(blocks.end(), b.begin(), b.end());
    }
    const auto rgba = decode(PixelFormat::Bc1_Rgb, blocks, 8, 8);
    EXPECT_EQ(texel(rgba, 8, 3, 3), (Rgba{255, 0, 0, 255}));
    EXPECT_EQ(texel(rgba, 8, 4, 0), (Rgba{0, 255, 0, 255}));
    EXPECT_EQ(texel(rgba, 8, 0, 4), (Rgba{0, 0, 255, 255}));
    EXPECT_EQ(texel(rgba, 8, 7, 7), (Rgba{255, 255, 255, 255}));
}

// --- Odd sizes: edge blocks write only the texels inside, and nothing past the bytes is read ------

uint32_t nextRandom(uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
}

TEST(BcDecode, OddSizesMatchCropOfWholeBlocks) {
    const std::pair<uint32_t, uint32_t> sizes[] = {{1, 1}, {3, 5}, {13, 7}, {17, 1}, {1, 9}, {4, 4}, {5, 5}};
    uint32_t state = 12345;
    for (PixelFormat format :
         {PixelFormat::Bc1_Rgb, PixelFormat::Bc1_Rgba, PixelFormat::Bc2, PixelFormat::Bc3}) {
        for (auto [w, h] : sizes) {
            // Exactly sized heap buffers, so ASan catches a read past the blocks or a write past the image.
            std::vector<uint8_t> blocks(esv::surfaceSize(format, w, h));
            for (uint8_t& b : blocks) b = uint8_t(nextRandom(state));
            const uint32_t paddedW = (w + 3) / 4 * 4, paddedH = (h + 3) / 4 * 4;
            const auto full = decode(format, blocks, paddedW, paddedH);
            const auto cropped = decode(format, blocks, w, h);
            for (uint32_t y = 0; y < h; ++y) {
                for (uint32_t x = 0; x < w; ++x)
                    ASSERT_EQ(texel(cropped, w, x, y), texel(full, paddedW, x, y))
                        << w << "x" << h << " " << x << "," << y;
            }
        }
    }
}

// --- Round trip through an encoder written here ----------------------------------------------------

// Independent of the decoder: its own 565 expansion and palette (the format description's).
Rgba expand565(uint32_t c) {
    const int r = int(c >> 11) & 31, g = int(c >> 5) & 63, b = int(c) & 31;
    return {r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2, 255};
}

int distance2(const Rgba& a, const Rgba& b, int channels) {
    int d = 0;
    for (int c = 0; c < channels; ++c) d += (a[c] - b[c]) * (a[c] - b[c]);
    return d;
}

// Encodes one 4x4 tile as a 4-colour BC1 block: endpoints are the corners of the tile's colour
// bounding box (each of the 4 diagonals tried, each corner quantized down and up to 565), texels
// take the nearest palette entry; the block with the smallest squared error wins.
std::vector<uint8_t> encodeColourTile(const Rgba* tile) {
    Rgba lo{255, 255, 255, 0}, hi{0, 0, 0, 0};
    for (int i = 0; i < 16; ++i) {
        for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], tile[i][c]), hi[c] = std::max(hi[c], tile[i][c]);
    }
    auto quantize = [](int v, int bits, bool up) {
        const int levels = (1 << bits) - 1;
        const int q = up ? (v * levels + 254) / 255 : v * levels / 255;
        return std::clamp(q, 0, levels);
    };
    std::vector<uint8_t> best;
    long bestError = std::numeric_limits<long>::max();
    for (int diagonal = 0; diagonal < 4; ++diagonal) {
        for (int rounding = 0; rounding < 4; ++rounding) {
            Rgba a = lo, b = hi;
            if (diagonal & 1) std::swap(a[1], b[1]);
            if (diagonal & 2) std::swap(a[2], b[2]);
            const uint32_t c0 =
                uint32_t(quantize(a[0], 5, rounding & 1) << 11 | quantize(a[1], 6, rounding & 1) << 5 |
                         quantize(a[2], 5, rounding & 1));
            const uint32_t c1 =
                uint32_t(quantize(b[0], 5, rounding & 2) << 11 | quantize(b[1], 6, rounding & 2) << 5 |
                         quantize(b[2], 5, rounding & 2));
            // 4-colour mode needs c0 > c1; equal endpoints encode a flat tile with all indices 0.
            const uint32_t e0 = std::max(c0, c1), e1 = std::min(c0, c1);
            const Rgba p0 = expand565(e0), p1 = expand565(e1);
            Rgba palette[4] = {p0, p1, p0, p1};
            for (int c = 0; c < 3; ++c) {
                palette[2][c] = (2 * p0[c] + p1[c]) / 3;
                palette[3][c] = (p0[c] + 2 * p1[c]) / 3;
            }
            const int usable = e0 == e1 ? 1 : 4;
            std::array<int, 16> indices{};
            long error = 0;
            for (int i = 0; i < 16; ++i) {
                int bestIndex = 0;
                for (int k = 1; k < usable; ++k) {
                    if (distance2(tile[i], palette[k], 3) < distance2(tile[i], palette[bestIndex], 3))
                        bestIndex = k;
                }
                indices[i] = bestIndex;
                error += distance2(tile[i], palette[bestIndex], 3);
            }
            if (error < bestError) bestError = error, best = colourBlock(e0, e1, indices);
        }
    }
    return best;
}

// BC3 alpha: 8-alpha mode between the tile's min and max alpha, nearest entry per texel.
std::vector<uint8_t> encodeAlphaTile(const Rgba* tile) {
    int lo = 255, hi = 0;
    for (int i = 0; i < 16; ++i) lo = std::min(lo, tile[i][3]), hi = std::max(hi, tile[i][3]);
    if (lo == hi) return alphaBlock(uint32_t(hi), uint32_t(lo), std::array<int, 16>{});
    int palette[8] = {hi, lo};
    for (int k = 1; k < 7; ++k) palette[k + 1] = ((7 - k) * hi + k * lo) / 7;
    std::array<int, 16> indices{};
    for (int i = 0; i < 16; ++i) {
        for (int k = 1; k < 8; ++k) {
            if (std::abs(tile[i][3] - palette[k]) < std::abs(tile[i][3] - palette[indices[i]]))
                indices[i] = k;
        }
    }
    return alphaBlock(uint32_t(hi), uint32_t(lo), indices);
}

double psnr(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int channels) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < a.size(); i += 4) {
        for (int c = 0; c < channels; ++c, ++n)
            sum += double(int(a[i + c]) - int(b[i + c])) * (int(a[i + c]) - int(b[i + c]));
    }
    if (sum == 0) return 99.0;
    return 10.0 * std::log10(255.0 * 255.0 / (sum / double(n)));
}

// A smooth synthetic image: red along x, green along y, blue along the diagonal, alpha a radial ramp.
std::vector<uint8_t> gradientImage(uint32_t w, uint32_t h) {
    std::vector<uint8_t> rgba(size_t(w) * h * 4);
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            uint8_t* p = &rgba[(size_t(y) * w + x) * 4];
            p[0] = uint8_t(x * 255 / (w - 1));
            p[1] = uint8_t(y * 255 / (h - 1));
            p[2] = uint8_t((x + y) * 255 / (w + h - 2));
            const double dx = double(x) - w / 2.0, dy = double(y) - h / 2.0;
            p[3] = uint8_t(std::clamp(255.0 - std::sqrt(dx * dx + dy * dy) * 4.0, 0.0, 255.0));
        }
    }
    return rgba;
}

// The encoder fits a straight line through each tile's colours. On this gradient a tile spans
// about 12 levels per channel in two independent directions, so a 4-entry palette on one line
// leaves errors of a few levels (plus 565 quantization, up to 4 levels in red and blue): an RMS
// error near 3 levels, about 38 dB. A decoder with swapped channels, misordered indices or a wrong
// palette lands far below 30 dB, the threshold. Alpha is 8 levels over a range of at most 48 per
// tile: errors of at most 3-4 levels, so above 40 dB.
TEST(BcDecode, RoundTripGradientPsnr) {
    const uint32_t w = 64, h = 64;
    const auto original = gradientImage(w, h);
    std::vector<uint8_t> bc1, bc3;
    for (uint32_t by = 0; by < h / 4; ++by) {
        for (uint32_t bx = 0; bx < w / 4; ++bx) {
            Rgba tile[16];
            for (uint32_t i = 0; i < 16; ++i) {
                const uint8_t* p = &original[((by * 4 + i / 4) * w + bx * 4 + i % 4) * 4];
                tile[i] = {p[0], p[1], p[2], p[3]};
            }
            const auto colour = encodeColourTile(tile);
            const auto alpha = encodeAlphaTile(tile);
            bc1.insert(bc1.end(), colour.begin(), colour.end());
            bc3.insert(bc3.end(), alpha.begin(), alpha.end());
            bc3.insert(bc3.end(), colour.begin(), colour.end());
        }
    }
    const auto decoded1 = decode(PixelFormat::Bc1_Rgb, bc1, w, h);
    const auto decoded3 = decode(PixelFormat::Bc3, bc3, w, h);
    const double colourPsnr = psnr(original, decoded1, 3);
    EXPECT_GT(colourPsnr, 30.0);
    EXPECT_EQ(psnr(original, decoded3, 3), colourPsnr);  // the same colour blocks
    std::vector<uint8_t> alphaOnly = original, decodedAlpha = decoded3;
    for (size_t i = 0; i < alphaOnly.size(); i += 4)
        alphaOnly[i] = alphaOnly[i + 3], decodedAlpha[i] = decodedAlpha[i + 3];
    EXPECT_GT(psnr(alphaOnly, decodedAlpha, 1), 40.0);
    for (size_t i = 3; i < decoded1.size(); i += 4) ASSERT_EQ(decoded1[i], 255);
    RecordProperty("bc1_psnr", std::to_string(colourPsnr));
}

// --- The DXT files among the samples ---------------------------------------------------------------

struct DdsFile {
    std::vector<uint8_t> bytes;
    std::string fourCC;
    uint32_t width = 0, height = 0, levels = 1;
};

// Just enough of DDS for these files: 'DDS ', a 124-byte header (height at 12, width at 16, mip
// count at 28, pixel format fourCC at 84 from the start of the file), then the levels in order.
bool readDds(const std::string& path, DdsFile& dds) {
    std::ifstream in(path, std::ios::binary);
    dds.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (dds.bytes.size() < 128 || std::memcmp(dds.bytes.data(), "DDS ", 4) != 0) return false;
    auto u32 = [&](size_t o) {
        return uint32_t(dds.bytes[o]) | uint32_t(dds.bytes[o + 1]) << 8 | uint32_t(dds.bytes[o + 2]) << 16 |
               uint32_t(dds.bytes[o + 3]) << 24;
    };
    dds.height = u32(12);
    dds.width = u32(16);
    dds.levels = std::max(1u, u32(28));
    dds.fourCC.assign(reinterpret_cast<const char*>(&dds.bytes[84]), 4);
    return true;
}

struct LevelStats {
    double mean[4] = {};
    size_t transparent = 0, translucent = 0, opaque = 0;
};

LevelStats stats(const std::vector<uint8_t>& rgba) {
    LevelStats s;
    const size_t n = rgba.size() / 4;
    for (size_t i = 0; i < n; ++i) {
        for (int c = 0; c < 4; ++c) s.mean[c] += rgba[i * 4 + c];
        const uint8_t a = rgba[i * 4 + 3];
        (a == 0 ? s.transparent : a == 255 ? s.opaque : s.translucent)++;
    }
    for (double& m : s.mean) m /= double(n);
    return s;
}

// Decodes every level of a DXT1/DXT5 file; writes level 0 as PNG (and keeps it in `level0`);
// returns per-level stats.
std::vector<LevelStats> decodeDdsLevels(const std::string& name, PixelFormat format, const DdsFile& dds,
                                        std::vector<uint8_t>* level0 = nullptr) {
    std::vector<LevelStats> result;
    size_t offset = 128;
    for (uint32_t level = 0; level < dds.levels; ++level) {
        const uint32_t w = std::max(1u, dds.width >> level), h = std::max(1u, dds.height >> level);
        const size_t size = esv::surfaceSize(format, w, h);
        if (dds.bytes.size() - offset < size) {
            ADD_FAILURE() << name << " level " << level << " truncated";
            break;
        }
        std::vector<uint8_t> blocks(dds.bytes.begin() + long(offset),
                                    dds.bytes.begin() + long(offset + size));
        offset += size;
        const auto rgba = decode(format, blocks, w, h);
        result.push_back(stats(rgba));
        if (level == 0) {
            if (level0) *level0 = rgba;
            esv::test::Image png{int(w), int(h), rgba};
            EXPECT_TRUE(esv::test::savePng((esv::test::outputDir() / (name + ".png")).string(), png));
        }
    }
    EXPECT_EQ(offset, dds.bytes.size()) << name << ": levels do not end at the end of the file";
    return result;
}

// Box-filtered mip levels keep the mean colour; compression moves it by a level or two. The last
// levels (a block or less) are allowed more.
void expectMeansFollowLevel0(const std::string& name, const std::vector<LevelStats>& levels) {
    for (size_t level = 1; level < levels.size(); ++level) {
        const double tolerance = level + 5 < levels.size() ? 3.0 : 12.0;
        for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(levels[level].mean[c], levels[0].mean[c], tolerance)
                << name << " level " << level << " channel " << c;
    }
}

TEST(BcSamples, ChimeraUvIsOpaqueDxt1) {
    ESVIEW_REQUIRE_MODELS("pof");
    DdsFile dds;
    ASSERT_TRUE(readDds((esv::test::modelsDir() / "pof" / "ChimeraUV.dds").string(), dds));
    EXPECT_EQ(dds.fourCC, "DXT1");
    EXPECT_EQ(dds.width, 1024u);
    EXPECT_EQ(dds.height, 1024u);
    EXPECT_EQ(dds.levels, 1u);
    // Decoded with 1-bit alpha: a colour map has no punch-through texels.
    std::vector<uint8_t> rgba;
    const auto levels = decodeDdsLevels("ChimeraUV", PixelFormat::Bc1_Rgba, dds, &rgba);
    ASSERT_EQ(levels.size(), 1u);
    EXPECT_EQ(levels[0].transparent, 0u);
    EXPECT_EQ(levels[0].translucent, 0u);
    // A UV layout of dark hull panels with red glow strips on a light grey background (as the
    // written PNG shows): the background is neutral light grey, and strongly red texels exist.
    for (auto [x, y] : {std::pair{1000u, 400u}, std::pair{620u, 110u}, std::pair{20u, 1000u}}) {
        const Rgba background = texel(rgba, 1024, x, y);
        EXPECT_GT(background[0], 180);
        EXPECT_LE(std::abs(background[0] - background[1]) + std::abs(background[1] - background[2]), 8);
    }
    size_t red = 0, dark = 0;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        red += rgba[i] > 180 && rgba[i + 1] < 40 && rgba[i + 2] < 40;
        dark += rgba[i] < 80 && rgba[i + 1] < 80 && rgba[i + 2] < 80;
    }
    EXPECT_GT(red, 10000u);
    EXPECT_GT(dark, 1024u * 1024u / 4);
    EXPECT_GT(levels[0].mean[0], levels[0].mean[1] + 5.0);  // the red strips tilt the mean
}

// A DXT5 file whose alpha blocks are all opaque; flat-coloured panels (grey, olive, orange).
TEST(BcSamples, DestroyerFrameworkDxt5Mips) {
    ESVIEW_REQUIRE_MODELS("pof");
    DdsFile dds;
    ASSERT_TRUE(readDds((esv::test::modelsDir() / "pof" / "destroyer_framework_01.dds").string(), dds));
    EXPECT_EQ(dds.fourCC, "DXT5");
    EXPECT_EQ(dds.width, 1024u);
    EXPECT_EQ(dds.levels, 11u);
    std::vector<uint8_t> rgba;
    const auto levels = decodeDdsLevels("destroyer_framework_01", PixelFormat::Bc3, dds, &rgba);
    ASSERT_EQ(levels.size(), 11u);
    for (const LevelStats& level : levels) EXPECT_EQ(level.transparent + level.translucent, 0u);
    expectMeansFollowLevel0("destroyer_framework_01", levels);
    const Rgba topLeft = texel(rgba, 1024, 100, 100), orange = texel(rgba, 1024, 500, 850);
    EXPECT_LT(topLeft[0], 100);  // dark grey
    EXPECT_LE(std::abs(topLeft[0] - topLeft[2]), 12);
    EXPECT_GT(orange[0], 180);  // orange
    EXPECT_GT(orange[1], 100);
    EXPECT_LT(orange[1], 160);
    EXPECT_LT(orange[2], 90);
}

// An "invisible" texture: every alpha block is a0 = 0, a1 = 5 (the 6-alpha mode) with index 0, over
// black colour blocks: transparent black at every level.
TEST(BcSamples, InvisibleBtaIsTransparentDxt5) {
    ESVIEW_REQUIRE_MODELS("pof");
    DdsFile dds;
    ASSERT_TRUE(readDds((esv::test::modelsDir() / "pof" / "invisiblebta.dds").string(), dds));
    EXPECT_EQ(dds.fourCC, "DXT5");
    EXPECT_EQ(dds.width, 128u);
    EXPECT_EQ(dds.levels, 8u);
    EXPECT_EQ(dds.bytes[128], 0);
    EXPECT_EQ(dds.bytes[129], 5);
    const auto levels = decodeDdsLevels("invisiblebta", PixelFormat::Bc3, dds);
    ASSERT_EQ(levels.size(), 8u);
    for (size_t level = 0; level < levels.size(); ++level) {
        const uint32_t side = 128u >> level;
        EXPECT_EQ(levels[level].transparent, size_t(side) * side) << level;
        for (int c = 0; c < 4; ++c) EXPECT_EQ(levels[level].mean[c], 0.0);
    }
}

}  // namespace
