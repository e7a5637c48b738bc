// PVRTC version 1 software decoder (2 and 4 bpp).
//
// Follows the PVRTC chapter of the Khronos Data Format Specification (itself derived from
// Imagination's PVRTC user guide) and S. Fenney, "Texture Compression using Low-Frequency Signal
// Modulation", Graphics Hardware 2003. A texture is two low-resolution colour images A and B, one
// texel of each per 64-bit word, bilinearly upscaled across word boundaries (wrapping at the
// texture edges) and blended per pixel by a 1- or 2-bit modulation signal.
#include <algorithm>
#include <vector>

#include "loaders/textures/decode.h"

namespace esv {
namespace {

constexpr uint32_t kWordHeight = 4;

// Per-pixel modulation, as stored in the weight map: the weight 0..8 of colour B (out of 8), or
// kPending plus an interpolation mode for 2bpp pixels whose weight comes from their neighbours.
constexpr uint8_t kPunchThrough = 0x10;  // alpha forced to 0 (DFD: modulation bits 0b10 when M = 1)
constexpr uint8_t kPending = 0x80;
enum : uint8_t { kInterpolateHV = 1, kInterpolateH = 2, kInterpolateV = 3 };

// Weights of the 2-bit modulation values: DFD table "Modulation weights for PVRTC1 4bpp".
constexpr uint8_t kStandardWeights[4] = {0, 3, 5, 8};
constexpr uint8_t kPunchThroughWeights[4] = {0, 4, 4 | kPunchThrough, 8};

inline uint32_t load32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

inline int replicate4to5(uint32_t v) {
    return int((v << 1) | (v >> 3));
}
inline int replicate3to5(uint32_t v) {
    return int((v << 2) | (v >> 1));
}

// Colour A (bits 47..33 of the word, here bits 15..1 of the colour half) and colour B (bits 63..48)
// widened to ARGB 4555 for the upscale: 3- and 4-bit colour channels by bit replication, the 3-bit
// alpha zero-padded, an opaque colour's alpha 0b1111.
void unpackColourA(uint32_t c, int out[4]) {
    if (c & 0x8000u) {  // opaque: RGB 554
        out[0] = int((c >> 10) & 31);
        out[1] = int((c >> 5) & 31);
        out[2] = replicate4to5((c >> 1) & 15);
        out[3] = 15;
    } else {  // translucent: ARGB 3443
        out[0] = replicate4to5((c >> 8) & 15);
        out[1] = replicate4to5((c >> 4) & 15);
        out[2] = replicate3to5((c >> 1) & 7);
        out[3] = int(((c >> 12) & 7) << 1);
    }
}

void unpackColourB(uint32_t c, int out[4]) {
    if (c & 0x80000000u) {  // opaque: RGB 555
        out[0] = int((c >> 26) & 31);
        out[1] = int((c >> 21) & 31);
        out[2] = int((c >> 16) & 31);
        out[3] = 15;
    } else {  // translucent: ARGB 3444
        out[0] = replicate4to5((c >> 24) & 15);
        out[1] = replicate4to5((c >> 20) & 15);
        out[2] = replicate4to5((c >> 16) & 15);
        out[3] = int(((c >> 28) & 7) << 1);
    }
}

bool isPowerOfTwo(uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

// Word offset in the DFD's "reflected Morton" order: bits of X and Y interleaved (Y in the lower bit
// of each pair) for as many bits as the smaller dimension needs; the larger dimension's remaining
// bits follow above, linear. Both word counts are powers of two here.
uint32_t mortonOffset(uint32_t x, uint32_t y, uint32_t wordsX, uint32_t wordsY) {
    const uint32_t minDim = wordsX < wordsY ? wordsX : wordsY;
    uint32_t offset = 0, shift = 0;
    for (uint32_t mask = 1; mask < minDim; mask <<= 1, ++shift)
        offset |= ((y & mask) | ((x & mask) << 1)) << shift;
    return offset | ((x | y) >> shift) << (2 * shift);
}

// Fills the weight map (one byte per pixel of the whole wordsX x wordsY surface) from the
// modulation halves of the words (in row-major word order).
void unpackModulation(const std::vector<uint32_t>& modulation, const std::vector<uint8_t>& modeFlag,
                      uint32_t wordsX, uint32_t wordsY, bool twoBpp, std::vector<uint8_t>& weights) {
    const uint32_t wordWidth = twoBpp ? 8 : 4;
    const size_t stride = size_t(wordsX) * wordWidth;
    for (uint32_t wy = 0; wy < wordsY; ++wy) {
        for (uint32_t wx = 0; wx < wordsX; ++wx) {
            const size_t word = size_t(wy) * wordsX + wx;
            uint32_t bits = modulation[word];
            const bool m = modeFlag[word] != 0;
            uint8_t* out = weights.data() + size_t(wy) * kWordHeight * stride + size_t(wx) * wordWidth;
            if (!twoBpp) {
                const uint8_t* table = m ? kPunchThroughWeights : kStandardWeights;
                for (uint32_t y = 0; y < 4; ++y)
                    for (uint32_t x = 0; x < 4; ++x, bits >>= 2) out[y * stride + x] = table[bits & 3];
            } else if (!m) {
                // Direct 1 bpp modulation: each pixel is A or B.
                for (uint32_t y = 0; y < 4; ++y)
                    for (uint32_t x = 0; x < 8; ++x, bits >>= 1) out[y * stride + x] = (bits & 1) ? 8 : 0;
            } else {
                // Checkerboard: 2-bit samples for pixels with (x ^ y) even, in raster order, weighted as
                // 4bpp's punch-through mode (DFD "PVRTC1 2bpp color modulation"). Bit 0 is a flag: 0 =
                // the other pixels average four neighbours; 1 = two, vertical if bit 20 (flag F) is set
                // and horizontal otherwise. The samples whose low bit holds a flag (pixel (0,0), and
                // (4,2) when bit 0 is set) duplicate their high bit. (Imagination's PVRTDecompress weighs
                // these samples 0, 3, 5, 8 without punch-through; the DFD's table is followed here.)
                uint8_t mode = kInterpolateHV;
                if (bits & 1u) {
                    mode = (bits & (1u << 20)) ? kInterpolateV : kInterpolateH;
                    bits = (bits & ~(1u << 20)) | ((bits >> 1) & (1u << 20));
                }
                bits = (bits & ~1u) | ((bits >> 1) & 1u);
                for (uint32_t y = 0; y < 4; ++y) {
                    for (uint32_t x = 0; x < 8; ++x) {
                        if (((x ^ y) & 1) == 0) {
                            out[y * stride + x] = kPunchThroughWeights[bits & 3];
                            bits >>= 2;
                        } else {
                            out[y * stride + x] = kPending | mode;
                        }
                    }
                }
            }
        }
    }
    if (!twoBpp) return;
    // Interpolated pixels: their neighbours have the other checkerboard parity (word sizes are even),
    // so they hold stored or direct weights, never pending ones. Neighbours wrap around the surface.
    const uint32_t width = wordsX * 8, height = wordsY * kWordHeight;
    for (uint32_t y = 0; y < height; ++y) {
        const uint8_t* up = weights.data() + size_t(y == 0 ? height - 1 : y - 1) * stride;
        const uint8_t* down = weights.data() + size_t(y + 1 == height ? 0 : y + 1) * stride;
        uint8_t* row = weights.data() + size_t(y) * stride;
        for (uint32_t x = 0; x < width; ++x) {
            if (!(row[x] & kPending)) continue;
            const uint32_t left = x == 0 ? width - 1 : x - 1, right = x + 1 == width ? 0 : x + 1;
            const int h = (row[left] & 15) + (row[right] & 15);
            const int v = (up[x] & 15) + (down[x] & 15);
            switch (row[x] & 3) {
                case kInterpolateHV:
                    row[x] = uint8_t((h + v + 2) / 4);
                    break;
                case kInterpolateH:
                    row[x] = uint8_t((h + 1) / 2);
                    break;
                default:
                    row[x] = uint8_t((v + 1) / 2);
                    break;
            }
        }
    }
}

}  // namespace

void decodePvrtc1(const uint8_t* blocks, uint32_t width, uint32_t height, bool twoBpp, uint8_t* rgba) {
    if (width == 0 || height == 0) return;
    const uint32_t wordWidth = twoBpp ? 8 : 4;
    // Every level has at least 2x2 words (the GL extension's size rule, as surfaceSize); a level
    // smaller than that is the top-left corner of the decoded words (DFD "PVRTC1 4bpp").
    const uint32_t wordsX = std::max<uint32_t>(2, (width + wordWidth - 1) / wordWidth);
    const uint32_t wordsY = std::max<uint32_t>(2, (height + kWordHeight - 1) / kWordHeight);
    const size_t wordCount = size_t(wordsX) * wordsY;
    // PVRTC1 sizes are powers of two; any other word count is not a valid PVRTC1 surface and is read in
    // row-major order instead, so that every word is still inside the surface.
    const bool twiddled = isPowerOfTwo(wordsX) && isPowerOfTwo(wordsY);

    // Words unpacked into row-major order: colours A and B per word (4 channels each) and modulation.
    std::vector<int> colours(wordCount * 8);
    std::vector<uint32_t> modulation(wordCount);
    std::vector<uint8_t> modeFlag(wordCount);
    for (uint32_t wy = 0; wy < wordsY; ++wy) {
        for (uint32_t wx = 0; wx < wordsX; ++wx) {
            const size_t src = twiddled ? mortonOffset(wx, wy, wordsX, wordsY) : size_t(wy) * wordsX + wx;
            const uint8_t* word = blocks + src * 8;
            const size_t dst = size_t(wy) * wordsX + wx;
            const uint32_t colour = load32(word + 4);
            unpackColourA(colour, &colours[dst * 8]);
            unpackColourB(colour, &colours[dst * 8 + 4]);
            modulation[dst] = load32(word);
            modeFlag[dst] = uint8_t(colour & 1);
        }
    }
    const uint32_t surfaceWidth = wordsX * wordWidth, surfaceHeight = wordsY * kWordHeight;
    std::vector<uint8_t> weights(size_t(surfaceWidth) * surfaceHeight);
    unpackModulation(modulation, modeFlag, wordsX, wordsY, twoBpp, weights);

    // Bilinear upscale: the sample of word (X, Y) sits at pixel (X * wordWidth + wordWidth / 2, 4Y + 2).
    // Vertical pass per output row into `column` (scale 4), horizontal per pixel to scale 32 (4bpp's
    // horizontal weights doubled), so that one conversion to 8 bits serves both rates: DFD
    // "floor(C/4) + floor(C/128)" for R, G, B at 2bpp, and "floor(C/2) + floor(C/32)" for alpha.
    std::vector<int> column(size_t(wordsX) * 8);
    const uint32_t xScale = twoBpp ? 1 : 2;
    for (uint32_t y = 0; y < height; ++y) {
        const uint32_t ty = y + surfaceHeight - kWordHeight / 2;
        const uint32_t yLow = (ty / kWordHeight) % wordsY, yHigh = (yLow + 1) % wordsY;
        const int yr = int(ty % kWordHeight);
        const int* top = &colours[size_t(yLow) * wordsX * 8];
        const int* bottom = &colours[size_t(yHigh) * wordsX * 8];
        for (size_t i = 0; i < size_t(wordsX) * 8; ++i) column[i] = top[i] * (4 - yr) + bottom[i] * yr;

        const uint8_t* weightRow = weights.data() + size_t(y) * surfaceWidth;
        uint8_t* out = rgba + size_t(y) * width * 4;
        // Pixel 0 lies half a word right of the last column's sample (wrapping); step through the columns.
        uint32_t xLow = wordsX - 1, xr = wordWidth / 2;
        for (uint32_t x = 0; x < width; ++x, out += 4) {
            const uint32_t xHigh = xLow + 1 == wordsX ? 0 : xLow + 1;
            const int wx = int(xr * xScale);
            const int* left = &column[size_t(xLow) * 8];
            const int* right = &column[size_t(xHigh) * 8];
            if (++xr == wordWidth) xr = 0, xLow = xHigh;
            int a[4], b[4];
            for (int c = 0; c < 4; ++c) {
                const int ca = left[c] * (8 - wx) + right[c] * wx;
                const int cb = left[c + 4] * (8 - wx) + right[c + 4] * wx;
                a[c] = c < 3 ? (ca >> 2) + (ca >> 7) : (ca >> 1) + (ca >> 5);
                b[c] = c < 3 ? (cb >> 2) + (cb >> 7) : (cb >> 1) + (cb >> 5);
            }
            const int modulationByte = weightRow[x];
            const int w = modulationByte & 15;
            for (int c = 0; c < 4; ++c) out[c] = uint8_t((a[c] * (8 - w) + b[c] * w) >> 3);
            if (modulationByte & kPunchThrough) out[3] = 0;
        }
    }
}

}  // namespace esv
