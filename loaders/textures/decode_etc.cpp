// ETC1, ETC2 and EAC software decoder.
//
// Follows the ETC2 chapter of the Khronos Data Format Specification (the OpenGL ES 3.0 / OpenGL 4.4
// specification's "ETC Compressed Texture Image Formats" annex). Blocks are 4x4 pixels, 64-bit
// big-endian words; pixel (x, y) of a block is index j = 4x + y (the spec's pixels a..p run down the
// columns). ETC1 is decoded as ETC2, of which it is a subset.
#include <algorithm>
#include <cstring>

#include "loaders/textures/decode.h"

namespace esv {
namespace {

// Intensity modifiers (a, b) per table codeword: DFD table "ETC2 intensity modifier sets".
constexpr int kModifiers[8][2] = {{2, 8},   {5, 17},  {9, 29},   {13, 42},
                                  {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// T and H mode distances: DFD table "Distance table for ETC2 'T' and 'H' modes".
constexpr int kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};
// EAC modifier tables: DFD table "Intensity modifier sets for RGBA ETC2 alpha component".
constexpr int kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

inline uint64_t loadBigEndian64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    return v;
}

inline uint32_t field(uint64_t bits, int low, int count) {
    return uint32_t(bits >> low) & ((1u << count) - 1);
}

inline uint8_t clamp255(int v) {
    return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
}
inline int extend4(uint32_t v) {
    return int(v * 17);
}
inline int extend5(uint32_t v) {
    return int((v << 3) | (v >> 2));
}
inline int extend6(uint32_t v) {
    return int((v << 2) | (v >> 4));
}
inline int extend7(uint32_t v) {
    return int((v << 1) | (v >> 6));
}
// A 3-bit two's-complement delta.
inline int signed3(uint32_t v) {
    return v >= 4 ? int(v) - 8 : int(v);
}

// The 2-bit pixel index of pixel j: most significant bit in bits 31..16, least in bits 15..0.
inline uint32_t pixelIndex(uint64_t bits, int j) {
    return (field(bits, 16 + j, 1) << 1) | field(bits, j, 1);
}

inline void setPixel(uint8_t* out, int x, int y, int r, int g, int b, uint8_t a) {
    uint8_t* p = out + (y * 4 + x) * 4;
    p[0] = clamp255(r), p[1] = clamp255(g), p[2] = clamp255(b), p[3] = a;
}

// T and H modes: each pixel picks one of four paint colours; with punch-through alpha and the
// opaque bit clear, index 2 is transparent black.
void writePaintColours(uint64_t bits, const int paint[4][3], bool transparentIndex2, uint8_t* out) {
    for (int x = 0; x < 4; ++x) {
        for (int y = 0; y < 4; ++y) {
            const uint32_t index = pixelIndex(bits, x * 4 + y);
            if (transparentIndex2 && index == 2)
                setPixel(out, x, y, 0, 0, 0, 0);
            else
                setPixel(out, x, y, paint[index][0], paint[index][1], paint[index][2], 255);
        }
    }
}

// Decodes one ETC1/ETC2 colour block into 16 RGBA pixels (row-major within the block). With
// `punchThrough` (ETC2 RGB A1), bit 33 is the opaque flag instead of the differential bit: there is
// no individual mode, and a block whose opaque bit is clear has transparent pixels (DFD "RGB ETC2
// with punchthrough alpha").
void decodeColourBlock(uint64_t bits, bool punchThrough, uint8_t* out) {
    const bool flagBit = field(bits, 33, 1) != 0;
    const bool differential = punchThrough || flagBit;
    const bool transparentMode = punchThrough && !flagBit;
    int base[2][3];
    if (!differential) {
        // Individual mode: two 4-bit RGB base colours.
        for (int c = 0; c < 3; ++c) {
            base[0][c] = extend4(field(bits, 60 - 8 * c, 4));
            base[1][c] = extend4(field(bits, 56 - 8 * c, 4));
        }
    } else {
        const int r = int(field(bits, 59, 5)), g = int(field(bits, 51, 5)), b = int(field(bits, 43, 5));
        const int r2 = r + signed3(field(bits, 56, 3)), g2 = g + signed3(field(bits, 48, 3)),
                  b2 = b + signed3(field(bits, 40, 3));
        if (r2 < 0 || r2 > 31) {
            // T mode.
            const int c1[3] = {extend4((field(bits, 59, 2) << 2) | field(bits, 56, 2)),
                               extend4(field(bits, 52, 4)), extend4(field(bits, 48, 4))};
            const int c2[3] = {extend4(field(bits, 44, 4)), extend4(field(bits, 40, 4)),
                               extend4(field(bits, 36, 4))};
            const int d = kDistances[(field(bits, 34, 2) << 1) | field(bits, 32, 1)];
            const int paint[4][3] = {{c1[0], c1[1], c1[2]},
                                     {c2[0] + d, c2[1] + d, c2[2] + d},
                                     {c2[0], c2[1], c2[2]},
                                     {c2[0] - d, c2[1] - d, c2[2] - d}};
            writePaintColours(bits, paint, transparentMode, out);
            return;
        }
        if (g2 < 0 || g2 > 31) {
            // H mode: the distance index's low bit is the order of the two base colours.
            const int c1[3] = {extend4(field(bits, 59, 4)),
                               extend4((field(bits, 56, 3) << 1) | field(bits, 52, 1)),
                               extend4((field(bits, 51, 1) << 3) | field(bits, 47, 3))};
            const int c2[3] = {extend4(field(bits, 43, 4)), extend4(field(bits, 39, 4)),
                               extend4(field(bits, 35, 4))};
            const int v1 = (c1[0] << 16) | (c1[1] << 8) | c1[2], v2 = (c2[0] << 16) | (c2[1] << 8) | c2[2];
            const int d =
                kDistances[(field(bits, 34, 1) << 2) | (field(bits, 32, 1) << 1) | (v1 >= v2 ? 1 : 0)];
            const int paint[4][3] = {{c1[0] + d, c1[1] + d, c1[2] + d},
                                     {c1[0] - d, c1[1] - d, c1[2] - d},
                                     {c2[0] + d, c2[1] + d, c2[2] + d},
                                     {c2[0] - d, c2[1] - d, c2[2] - d}};
            writePaintColours(bits, paint, transparentMode, out);
            return;
        }
        if (b2 < 0 || b2 > 31) {
            // Planar mode (always opaque, also with punch-through alpha): origin, horizontal and
            // vertical colours in RGB 676, extrapolated over the block with round-half-up.
            const int o[3] = {
                extend6(field(bits, 57, 6)), extend7((field(bits, 56, 1) << 6) | field(bits, 49, 6)),
                extend6((field(bits, 48, 1) << 5) | (field(bits, 43, 2) << 3) | field(bits, 39, 3))};
            const int h[3] = {extend6((field(bits, 34, 5) << 1) | field(bits, 32, 1)),
                              extend7(field(bits, 25, 7)), extend6(field(bits, 19, 6))};
            const int v[3] = {extend6(field(bits, 13, 6)), extend7(field(bits, 6, 7)),
                              extend6(field(bits, 0, 6))};
            for (int y = 0; y < 4; ++y) {
                for (int x = 0; x < 4; ++x) {
                    int c[3];
                    for (int k = 0; k < 3; ++k)
                        c[k] = (x * (h[k] - o[k]) + y * (v[k] - o[k]) + 4 * o[k] + 2) >> 2;
                    setPixel(out, x, y, c[0], c[1], c[2], 255);
                }
            }
            return;
        }
        // Differential mode: a 5-bit base colour and a 3-bit signed delta to the second.
        const int first[3] = {r, g, b}, second[3] = {r2, g2, b2};
        for (int c = 0; c < 3; ++c)
            base[0][c] = extend5(uint32_t(first[c])), base[1][c] = extend5(uint32_t(second[c]));
    }
    // Individual and differential modes: two 2x4 sub-blocks side by side, or 4x2 on top of each other
    // when the flip bit is set, each with its own modifier table.
    const bool flip = field(bits, 32, 1) != 0;
    const uint32_t tables[2] = {field(bits, 37, 3), field(bits, 34, 3)};
    for (int x = 0; x < 4; ++x) {
        for (int y = 0; y < 4; ++y) {
            const int sub = flip ? (y >= 2) : (x >= 2);
            const uint32_t index = pixelIndex(bits, x * 4 + y);
            const int* ab = kModifiers[tables[sub]];
            int modifier;
            if (transparentMode) {
                // Opaque bit clear: index 2 is transparent black and the small modifiers are zero.
                if (index == 2) {
                    setPixel(out, x, y, 0, 0, 0, 0);
                    continue;
                }
                modifier = index == 0 ? 0 : index == 1 ? ab[1] : -ab[1];
            } else {
                // Index 0: +a, 1: +b, 2: -a, 3: -b.
                modifier = (index & 2) ? -ab[index & 1] : ab[index & 1];
            }
            setPixel(out, x, y, base[sub][0] + modifier, base[sub][1] + modifier, base[sub][2] + modifier,
                     255);
        }
    }
}

// EAC 8-bit alpha of ETC2 RGBA into channel 3 of 16 RGBA pixels.
void decodeEacAlpha(uint64_t bits, uint8_t* out) {
    const int base = int(field(bits, 56, 8)), multiplier = int(field(bits, 52, 4));
    const int* table = kEacModifiers[field(bits, 48, 4)];
    for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 4; ++y)
            out[(y * 4 + x) * 4 + 3] =
                clamp255(base + table[field(bits, 45 - 3 * (x * 4 + y), 3)] * multiplier);
}

// EAC R11, unsigned or signed, as 8-bit values into channel `channel` of 16 RGBA pixels. The 11-bit
// result maps to 0..1 (unsigned, v / 2047) or -1..1 (signed, v / 1023); stored as decode.h says.
void decodeEac11(uint64_t bits, bool isSigned, int channel, uint8_t* out) {
    int base = int(field(bits, 56, 8));
    const int multiplier = int(field(bits, 52, 4));
    const int* table = kEacModifiers[field(bits, 48, 4)];
    if (isSigned) {
        base = base >= 128 ? base - 256 : base;
        base = std::max(base, -127);  // -128 is not allowed and reads as -127
    }
    for (int x = 0; x < 4; ++x) {
        for (int y = 0; y < 4; ++y) {
            const int modifier = table[field(bits, 45 - 3 * (x * 4 + y), 3)];
            // A zero multiplier means 1/8: the modifier is added unscaled.
            const int delta = multiplier ? modifier * multiplier * 8 : modifier;
            uint8_t value;
            if (isSigned) {
                const int v = std::clamp(base * 8 + delta, -1023, 1023);
                value = uint8_t(((v + 1023) * 255 + 1023) / 2046);  // round((v / 1023 * 0.5 + 0.5) * 255)
            } else {
                const int v = std::clamp(base * 8 + 4 + delta, 0, 2047);
                value = uint8_t((v * 255 + 1023) / 2047);  // round(v / 2047 * 255)
            }
            out[(y * 4 + x) * 4 + channel] = value;
        }
    }
}

}  // namespace

void decodeEtc(PixelFormat format, const uint8_t* blocks, uint32_t width, uint32_t height, uint8_t* rgba) {
    size_t blockSize = 8;
    switch (format) {
        case PixelFormat::Etc1_Rgb:
        case PixelFormat::Etc2_Rgb:
        case PixelFormat::Etc2_Rgb_A1:
        case PixelFormat::Eac_R11:
        case PixelFormat::Eac_R11_Signed:
            break;
        case PixelFormat::Etc2_Rgba:
        case PixelFormat::Eac_Rg11:
        case PixelFormat::Eac_Rg11_Signed:
            blockSize = 16;
            break;
        default:
            // Not an ETC format (a caller's mistake): the surface reads as the error colour, magenta.
            for (size_t i = 0; i < size_t(width) * height; ++i) {
                rgba[i * 4 + 0] = 255, rgba[i * 4 + 1] = 0, rgba[i * 4 + 2] = 255, rgba[i * 4 + 3] = 255;
            }
            return;
    }
    const uint32_t blocksX = (width + 3) / 4, blocksY = (height + 3) / 4;
    uint8_t pixels[64];
    for (uint32_t by = 0; by < blocksY; ++by) {
        for (uint32_t bx = 0; bx < blocksX; ++bx) {
            const uint8_t* block = blocks + (size_t(by) * blocksX + bx) * blockSize;
            switch (format) {
                case PixelFormat::Etc1_Rgb:
                case PixelFormat::Etc2_Rgb:
                    decodeColourBlock(loadBigEndian64(block), false, pixels);
                    break;
                case PixelFormat::Etc2_Rgb_A1:
                    decodeColourBlock(loadBigEndian64(block), true, pixels);
                    break;
                case PixelFormat::Etc2_Rgba:
                    decodeColourBlock(loadBigEndian64(block + 8), false, pixels);
                    decodeEacAlpha(loadBigEndian64(block), pixels);
                    break;
                default: {
                    const bool isSigned =
                        format == PixelFormat::Eac_R11_Signed || format == PixelFormat::Eac_Rg11_Signed;
                    for (int i = 0; i < 16; ++i) {
                        pixels[i * 4 + 1] = 0, pixels[i * 4 + 2] = 0, pixels[i * 4 + 3] = 255;
                    }
                    decodeEac11(loadBigEndian64(block), isSigned, 0, pixels);
                    if (blockSize == 16) decodeEac11(loadBigEndian64(block + 8), isSigned, 1, pixels);
                    break;
                }
            }
            // Blocks over the right or bottom edge: only the pixels inside the image are written.
            const uint32_t columns = std::min<uint32_t>(4, width - bx * 4);
            const uint32_t rows = std::min<uint32_t>(4, height - by * 4);
            for (uint32_t y = 0; y < rows; ++y)
                std::memcpy(rgba + ((size_t(by) * 4 + y) * width + size_t(bx) * 4) * 4, pixels + y * 16,
                            columns * 4);
        }
    }
}

}  // namespace esv
