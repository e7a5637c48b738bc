// readImage (container chosen by magic bytes) and the helpers the container readers share
// (texture_bytes.h): offset-tagged errors, mip chain slicing, uncompressed layouts to RGBA8.
#include "loaders/textures/image_reader.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "loaders/textures/texture_bytes.h"

namespace esv {

namespace texbytes {

std::string hex(uint64_t value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%" PRIX64, value);
    return buf;
}

std::string atOffset(uint64_t offset, const std::string& message) {
    return "offset " + hex(offset) + ": " + message;
}

PixelLayout maskLayout(const char* name, uint32_t bytesPerPixel, char role0, uint32_t mask0, char role1,
                       uint32_t mask1, char role2, uint32_t mask2, char role3, uint32_t mask3) {
    PixelLayout layout;
    layout.name = name;
    layout.bytesPerPixel = bytesPerPixel;
    const char roles[4] = {role0, role1, role2, role3};
    const uint32_t masks[4] = {mask0, mask1, mask2, mask3};
    for (int i = 0; i < 4; ++i) {
        if (roles[i] == 0 || masks[i] == 0) continue;
        layout.roles[layout.channelCount] = roles[i];
        layout.masks[layout.channelCount] = masks[i];
        ++layout.channelCount;
    }
    return layout;
}

namespace {

uint32_t lowestBit(uint32_t mask) {
    uint32_t shift = 0;
    while (shift < 32 && !(mask >> shift & 1u)) ++shift;
    return shift;
}

float halfToFloat(uint16_t h) {
    const uint32_t exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    float v;
    if (exponent == 0)
        v = std::ldexp(float(mantissa), -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = std::ldexp(float(mantissa | 0x400u), int(exponent) - 25);
    return (h & 0x8000u) ? -v : v;
}

uint8_t unitTo8(float f) {
    if (!(f > 0.0f)) return 0;  // negative and NaN
    if (f >= 1.0f) return 255;
    return uint8_t(f * 255.0f + 0.5f);
}

bool isPowerOfTwo(uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

// Writes one channel value (0..255) of `role` into the output pixel; `hasAlpha` tells an intensity
// channel whether a separate alpha exists.
void store(uint8_t* out, char role, uint8_t v, bool hasAlpha) {
    switch (role) {
        case 'r':
            out[0] = v;
            break;
        case 'g':
            out[1] = v;
            break;
        case 'b':
            out[2] = v;
            break;
        case 'a':
            out[3] = v;
            break;
        case 'l':
            out[0] = out[1] = out[2] = v;
            break;
        case 'i':
            out[0] = out[1] = out[2] = v;
            if (!hasAlpha) out[3] = v;
            break;
        default:
            break;
    }
}

}  // namespace

bool checkMasks(const PixelLayout& layout, std::string& why) {
    if (layout.wide) return true;
    if (layout.bytesPerPixel < 1 || layout.bytesPerPixel > 4) {
        why = std::to_string(layout.bytesPerPixel * 8) + " bits per pixel is not supported";
        return false;
    }
    const uint64_t limit =
        layout.bytesPerPixel == 4 ? 0xFFFFFFFFull : (1ull << (8 * layout.bytesPerPixel)) - 1;
    for (uint32_t i = 0; i < layout.channelCount; ++i) {
        const uint32_t mask = layout.masks[i];
        const uint32_t run = mask >> lowestBit(mask);
        if ((uint64_t(run) + 1) & run) {
            why = "channel mask " + hex(mask) + " is not one contiguous run of bits";
            return false;
        }
        if (mask > limit) {
            why = "channel mask " + hex(mask) + " does not fit a " +
                  std::to_string(layout.bytesPerPixel * 8) + "-bit pixel";
            return false;
        }
    }
    return true;
}

uint64_t twiddleIndex(uint32_t width, uint32_t height, uint32_t x, uint32_t y) {
    const uint32_t minDimension = std::min(width, height);
    uint64_t rest = height < width ? x : y;
    uint64_t twiddled = 0, srcBit = 1, dstBit = 1;
    uint32_t shift = 0;
    while (srcBit < minDimension) {
        if (y & srcBit) twiddled |= dstBit;
        if (x & srcBit) twiddled |= dstBit << 1;
        srcBit <<= 1;
        dstBit <<= 2;
        ++shift;
    }
    return twiddled | ((rest >> shift) << (2 * shift));
}

std::vector<uint8_t> convertToRgba8(const uint8_t* src, const PixelLayout& layout, uint32_t width,
                                    uint32_t height, bool twiddled, bool flipRows) {
    std::vector<uint8_t> rgba(size_t(width) * height * 4);
    if (twiddled && !(isPowerOfTwo(width) && isPowerOfTwo(height)))
        twiddled = false;  // the readers refuse these
    uint32_t shifts[4] = {0, 0, 0, 0}, maxima[4] = {1, 1, 1, 1};
    for (uint32_t c = 0; c < layout.channelCount && !layout.wide; ++c) {
        shifts[c] = lowestBit(layout.masks[c]);
        maxima[c] = layout.masks[c] >> shifts[c];
    }
    const bool separateAlpha = std::find(layout.roles, layout.roles + layout.channelCount, 'a') !=
                               layout.roles + layout.channelCount;
    const size_t bpp = layout.bytesPerPixel;
    for (uint32_t y = 0; y < height; ++y) {
        const uint32_t sy = flipRows ? height - 1 - y : y;
        for (uint32_t x = 0; x < width; ++x) {
            const uint64_t index = twiddled ? twiddleIndex(width, height, x, sy) : uint64_t(sy) * width + x;
            const uint8_t* p = src + index * bpp;
            uint8_t* out = &rgba[(size_t(y) * width + x) * 4];
            out[0] = out[1] = out[2] = 0;
            out[3] = 255;
            if (!layout.wide) {
                uint32_t word = 0;
                for (size_t i = 0; i < bpp; ++i) word |= uint32_t(p[i]) << (8 * i);
                for (uint32_t c = 0; c < layout.channelCount; ++c) {
                    const uint64_t v = (word & layout.masks[c]) >> shifts[c];
                    store(out, layout.roles[c], uint8_t((v * 255 + maxima[c] / 2) / maxima[c]),
                          separateAlpha);
                }
                continue;
            }
            for (uint32_t c = 0; c < layout.channelCount; ++c) {
                const uint8_t* q = p + size_t(c) * layout.channelBytes;
                uint8_t v = 0;
                if (layout.channelBytes == 2) {
                    const uint16_t raw = uint16_t(q[0] | q[1] << 8);
                    v = layout.isFloat ? unitTo8(halfToFloat(raw))
                                       : uint8_t((uint32_t(raw) * 255 + 32767) / 65535);
                } else {
                    const uint32_t raw =
                        uint32_t(q[0]) | uint32_t(q[1]) << 8 | uint32_t(q[2]) << 16 | uint32_t(q[3]) << 24;
                    if (layout.isFloat) {
                        float f;
                        std::memcpy(&f, &raw, 4);
                        v = unitTo8(f);
                    } else {
                        v = uint8_t((uint64_t(raw) * 255 + 0x7FFFFFFFull) / 0xFFFFFFFFull);
                    }
                }
                store(out, layout.roles[c], v, separateAlpha);
            }
        }
    }
    return rgba;
}

uint32_t fullChainLevels(uint32_t width, uint32_t height) {
    uint32_t largest = std::max(width, height), levels = 1;
    while (largest > 1) {
        largest >>= 1;
        ++levels;
    }
    return levels;
}

uint32_t clampToFullChain(uint64_t levels, uint32_t width, uint32_t height, std::vector<std::string>& notes) {
    const uint32_t fullChain = fullChainLevels(width, height);
    if (levels <= fullChain) return uint32_t(levels);
    notes.push_back("mip count " + std::to_string(levels) + " is more than a full chain: clamped to " +
                    std::to_string(fullChain));
    return fullChain;
}

bool checkDimensions(uint32_t width, uint64_t widthOffset, uint32_t height, uint64_t heightOffset,
                     const char* container, std::string& error) {
    if (width == 0 || width > kMaxDimension) {
        error = atOffset(widthOffset, std::string(container) + " width " + std::to_string(width) +
                                          " is out of range (1.." + std::to_string(kMaxDimension) + ")");
        return false;
    }
    if (height == 0 || height > kMaxDimension) {
        error = atOffset(heightOffset, std::string(container) + " height " + std::to_string(height) +
                                           " is out of range (1.." + std::to_string(kMaxDimension) + ")");
        return false;
    }
    return true;
}

uint64_t storedSurfaceSize(const ChainLayout& chain, uint32_t level) {
    const uint32_t w = std::max<uint32_t>(chain.width >> level, 1),
                   h = std::max<uint32_t>(chain.height >> level, 1);
    if (chain.format == PixelFormat::Rgba8) return uint64_t(w) * h * chain.storedBytesPerPixel;
    return surfaceSize(chain.format, w, h, chain.astcBlockWidth, chain.astcBlockHeight);
}

bool sliceChain(const ChainLayout& chain, uint64_t fileSize, std::vector<SurfaceSpan>& spans,
                uint32_t& levelsPresent, std::vector<std::string>& notes, std::string& error) {
    spans.clear();
    levelsPresent = 0;
    // Sizes are bounded (16384^2 pixels x 16 bytes < 2^33), so prefix sums over at most 15 levels
    // and 6 faces cannot overflow 64 bits; only the array-surface stride needs a checked multiply.
    std::vector<uint64_t> sizes(chain.levels);
    uint64_t chainBytes = 0;
    for (uint32_t level = 0; level < chain.levels; ++level) {
        sizes[level] = storedSurfaceSize(chain, level);
        chainBytes += sizes[level];
    }
    const uint64_t available = fileSize > chain.dataOffset ? fileSize - chain.dataOffset : 0;
    uint64_t levelBase = 0;  // level-major: where this level's first surface starts (relative)
    bool pastEnd = false;
    for (uint32_t level = 0; level < chain.levels && !pastEnd; ++level) {
        const uint64_t size = sizes[level];
        uint64_t starts[6] = {};
        bool fits = true;
        for (uint32_t face = 0; face < chain.faces; ++face) {
            uint64_t start = 0;
            if (chain.faceMajor) {
                start = face * chainBytes;
                for (uint32_t l = 0; l < level; ++l) start += sizes[l];
            } else {
                start = levelBase + face * size;
            }
            starts[face] = start;
            if (start > available || size > available - start) fits = false;
        }
        if (!fits) break;
        for (uint32_t face = 0; face < chain.faces; ++face)
            spans.push_back({chain.dataOffset + starts[face], size});
        ++levelsPresent;
        if (!chain.faceMajor) {
            // Next level starts after every array surface and face of this one.
            const uint64_t perSurface = uint64_t(chain.faces) * size;
            if (perSurface != 0 && chain.arraySurfaces > (UINT64_MAX - levelBase) / perSurface)
                pastEnd = true;
            else
                levelBase += chain.arraySurfaces * perSurface;
        }
    }
    if (levelsPresent == 0) {
        const uint64_t need = sizes.empty() ? 0 : sizes[0];
        error = atOffset(chain.dataOffset, "level 0 (" + std::to_string(chain.width) + "x" +
                                               std::to_string(chain.height) + ") needs " +
                                               std::to_string(need) + " bytes per face, the file has " +
                                               std::to_string(available) + " after the header");
        return false;
    }
    if (levelsPresent < chain.levels)
        notes.push_back("file ends at byte " + std::to_string(fileSize) + ": kept the " +
                        std::to_string(levelsPresent) + " complete of " + std::to_string(chain.levels) +
                        " mip levels");
    return true;
}

void fillSurfaces(const ByteView& bytes, const std::vector<SurfaceSpan>& spans, const PixelLayout* layout,
                  bool twiddled, bool flipRows, Image& image) {
    image.surfaces.clear();
    image.surfaces.reserve(spans.size());
    for (size_t i = 0; i < spans.size(); ++i) {
        const uint32_t level = uint32_t(i / image.faces);
        const SurfaceSpan& span = spans[i];
        if (!layout) {
            image.surfaces.push_back(bytes.sub(size_t(span.offset), size_t(span.size)));
            continue;
        }
        image.surfaces.push_back(
            makeOwnedBytes(convertToRgba8(bytes.data + span.offset, *layout, image.levelWidth(level),
                                          image.levelHeight(level), twiddled, flipRows)));
    }
}

}  // namespace texbytes

bool readImage(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    const uint8_t* p = bytes.data;
    const size_t n = bytes.size;
    auto u32At = [&](size_t at) {
        return uint32_t(p[at]) | uint32_t(p[at + 1]) << 8 | uint32_t(p[at + 2]) << 16 |
               uint32_t(p[at + 3]) << 24;
    };
    if (n >= 4 && (u32At(0) == 0x03525650u || u32At(0) == 0x50565203u)) return readPvr(bytes, image, error);
    if (n >= 52 && u32At(0) == 52 && std::memcmp(p + 44, "PVR!", 4) == 0) return readPvr(bytes, image, error);
    if (n >= 4 && std::memcmp(p, "DDS ", 4) == 0) return readDds(bytes, image, error);
    // The KTX identifiers' first 8 bytes, so a file cut inside the 12-byte identifier is still a KTX error.
    if (n >= 8 && std::memcmp(p, "\xABKTX 11\xBB", 8) == 0) return readKtx(bytes, image, error);
    if (n >= 8 && std::memcmp(p, "\xABKTX 20\xBB", 8) == 0) return readKtx2(bytes, image, error);
    // PCX has only a manufacturer byte for a magic, so version, encoding, bits per pixel and (when
    // the header is there) the plane count must all be values ZSoft defined. TGA, the one stb
    // format without a magic, is not taken: with an ID length of 10 it would need colour-map type
    // 0 or 2-5 and image type 0 or 1, none of which stb_image reads as a TGA.
    if (n >= 4 && p[0] == 0x0A && (p[1] == 0 || (p[1] >= 2 && p[1] <= 5)) && p[2] <= 1 &&
        (p[3] == 1 || p[3] == 2 || p[3] == 4 || p[3] == 8) && (n <= 0x41 || (p[0x41] >= 1 && p[0x41] <= 4)))
        return readPcx(bytes, image, error);
    return readWithStb(bytes, image, error);
}

}  // namespace esv
