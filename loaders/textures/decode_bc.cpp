// S3TC software decoder: BC1 (DXT1, opaque or with 1-bit alpha), BC2 (DXT3), BC3 (DXT5), as the
// EXT_texture_compression_s3tc specification describes them. Rounding follows Mesa's and the
// reference decoders' integer arithmetic: the interpolated colours are floor((2*c0 + c1) / 3) and
// floor((c0 + 2*c1) / 3) per channel on the 8-bit expanded endpoints, the 3-colour midpoint is
// floor((c0 + c1) / 2), and BC3's alpha steps are floor(((n-i)*a0 + i*a1) / n) for n = 7 or 5.
#include "loaders/textures/decode.h"

#include <algorithm>
#include <cstring>

namespace esv {

namespace {

inline uint32_t read16(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8;
}
inline uint32_t read32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// RGB565 to 8 bits per channel by bit replication (the top bits fill the low bits).
inline void expand565(uint32_t c, uint8_t* rgb) {
    const uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    rgb[0] = uint8_t(r << 3 | r >> 2);
    rgb[1] = uint8_t(g << 2 | g >> 4);
    rgb[2] = uint8_t(b << 3 | b >> 2);
}

// Decodes the 8-byte colour block into 16 RGBA texels (row-major). `allowThreeColour` is false for
// BC2/BC3, whose colour blocks always use the 4-colour table whatever the endpoint order.
// `transparentBlack` gives index 3 of the 3-colour mode alpha 0 (BC1 with alpha) instead of 255.
void decodeColourBlock(const uint8_t* block, bool allowThreeColour, bool transparentBlack, uint8_t* texels) {
    const uint32_t c0 = read16(block), c1 = read16(block + 2);
    uint8_t palette[4][4];
    expand565(c0, palette[0]);
    expand565(c1, palette[1]);
    palette[0][3] = palette[1][3] = palette[2][3] = palette[3][3] = 255;
    if (c0 > c1 || !allowThreeColour) {
        for (int ch = 0; ch < 3; ++ch) {
            palette[2][ch] = uint8_t((2 * palette[0][ch] + palette[1][ch]) / 3);
            palette[3][ch] = uint8_t((palette[0][ch] + 2 * palette[1][ch]) / 3);
        }
    } else {
        for (int ch = 0; ch < 3; ++ch) {
            palette[2][ch] = uint8_t((palette[0][ch] + palette[1][ch]) / 2);
            palette[3][ch] = 0;
        }
        // GL's COMPRESSED_RGB_S3TC_DXT1_EXT returns opaque black here; the RGBA variant transparent.
        palette[3][3] = transparentBlack ? 0 : 255;
    }
    const uint32_t indices = read32(block + 4);
    for (int i = 0; i < 16; ++i) std::memcpy(texels + i * 4, palette[(indices >> (2 * i)) & 3], 4);
}

// BC2: 16 explicit 4-bit alphas, texel i in bits 4i..4i+3 (little-endian), expanded by 17.
void decodeExplicitAlpha(const uint8_t* block, uint8_t* texels) {
    for (int i = 0; i < 16; ++i) {
        const uint32_t nibble = (block[i / 2] >> ((i & 1) * 4)) & 15;
        texels[i * 4 + 3] = uint8_t(nibble * 17);
    }
}

// BC3: two 8-bit endpoints then 16 3-bit indices (48 bits, little-endian). a0 > a1 selects 8
// interpolated alphas; otherwise 6 interpolated plus 0 and 255.
void decodeInterpolatedAlpha(const uint8_t* block, uint8_t* texels) {
    const uint32_t a0 = block[0], a1 = block[1];
    uint8_t palette[8];
    palette[0] = uint8_t(a0);
    palette[1] = uint8_t(a1);
    if (a0 > a1) {
        for (uint32_t i = 1; i < 7; ++i) palette[i + 1] = uint8_t(((7 - i) * a0 + i * a1) / 7);
    } else {
        for (uint32_t i = 1; i < 5; ++i) palette[i + 1] = uint8_t(((5 - i) * a0 + i * a1) / 5);
        palette[6] = 0;
        palette[7] = 255;
    }
    uint64_t indices = 0;
    for (int i = 0; i < 6; ++i) indices |= uint64_t(block[2 + i]) << (8 * i);
    for (int i = 0; i < 16; ++i) texels[i * 4 + 3] = palette[(indices >> (3 * i)) & 7];
}

}  // namespace

void decodeBc(PixelFormat format, const uint8_t* blocks, uint32_t width, uint32_t height, uint8_t* rgba) {
    const uint32_t blockBytesCount =
        (format == PixelFormat::Bc1_Rgb || format == PixelFormat::Bc1_Rgba) ? 8 : 16;
    const uint32_t blocksX = (width + 3) / 4, blocksY = (height + 3) / 4;
    uint8_t texels[16 * 4];
    for (uint32_t by = 0; by < blocksY; ++by) {
        for (uint32_t bx = 0; bx < blocksX; ++bx) {
            const uint8_t* block = blocks + (size_t(by) * blocksX + bx) * blockBytesCount;
            switch (format) {
                case PixelFormat::Bc1_Rgb:
                    decodeColourBlock(block, true, false, texels);
                    break;
                case PixelFormat::Bc1_Rgba:
                    decodeColourBlock(block, true, true, texels);
                    break;
                case PixelFormat::Bc2:
                    decodeColourBlock(block + 8, false, false, texels);
                    decodeExplicitAlpha(block, texels);
                    break;
                case PixelFormat::Bc3:
                    decodeColourBlock(block + 8, false, false, texels);
                    decodeInterpolatedAlpha(block, texels);
                    break;
                default:
                    // Not an S3TC format: the error colour, so a wrong call shows rather than crashes.
                    for (int i = 0; i < 16; ++i) {
                        const uint8_t magenta[4] = {255, 0, 255, 255};
                        std::memcpy(texels + i * 4, magenta, 4);
                    }
                    break;
            }
            // Blocks on the right and bottom edges write only the texels inside the image.
            const uint32_t w = std::min(4u, width - bx * 4), h = std::min(4u, height - by * 4);
            for (uint32_t y = 0; y < h; ++y) {
                std::memcpy(rgba + ((size_t(by) * 4 + y) * width + bx * 4) * 4, texels + y * 16, w * 4);
            }
        }
    }
}

}  // namespace esv
