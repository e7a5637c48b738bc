// Internal to the image readers (pvr_reader, dds_reader, stb_reader): offset-tagged errors, mip
// chains sliced out of the file with truncation handling, and uncompressed pixel layouts converted
// to RGBA8. Defined in image_reader.cpp. Not part of the loaders' public interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scene/image.h"

namespace esv::texbytes {

// Largest width or height any reader accepts (GL ES 3 implementations top out here).
constexpr uint32_t kMaxDimension = 16384;

// "offset 0x34: <message>" (the offset in upper-case hex, as loaders/load.cpp formats problems).
std::string atOffset(uint64_t offset, const std::string& message);
std::string hex(uint64_t value);  // "0x1F"

// An uncompressed pixel layout. Two kinds:
//  - Masks: each pixel is a little-endian word of bytesPerPixel (1..4) bytes and each channel is a
//    contiguous bit mask in it (DDS pixel formats, PVR packed and 8-bit-per-channel orders).
//  - Wide: channelCount channels of channelBytes (2 or 4) each in memory order, unsigned
//    normalised or float (PVR v3 16- and 32-bit channel orders).
// Channel roles: 'r', 'g', 'b', 'a', 'l' (luminance: r = g = b), 'i' (intensity: r = g = b = a
// unless an 'a' channel exists), 'x' (ignored). Missing colour reads 0, missing alpha 255.
struct PixelLayout {
    std::string name;  // for the conversion note, e.g. "RGB565"
    uint32_t bytesPerPixel = 0;
    bool wide = false;
    bool isFloat = false;       // wide only: half (2 bytes) or float (4 bytes) channels
    uint32_t channelBytes = 0;  // wide only
    uint32_t channelCount = 0;
    char roles[4] = {0, 0, 0, 0};
    uint32_t masks[4] = {0, 0, 0, 0};  // masks kind only
};

// A layout from up to four (role, mask) pairs; roles with a zero mask are left out.
PixelLayout maskLayout(const char* name, uint32_t bytesPerPixel, char role0, uint32_t mask0, char role1 = 0,
                       uint32_t mask1 = 0, char role2 = 0, uint32_t mask2 = 0, char role3 = 0,
                       uint32_t mask3 = 0);

// Checks a masks layout: every mask contiguous and inside bytesPerPixel. False with a sentence.
bool checkMasks(const PixelLayout& layout, std::string& why);

// Converts a width x height surface stored tightly packed (rows of width * bytesPerPixel bytes)
// to RGBA8, top row first. `src` holds at least width * height * bytesPerPixel bytes (the caller
// checked). twiddled: pixels stored in PowerVR's Morton order (both sizes powers of two);
// flipRows: rows stored bottom-up.
std::vector<uint8_t> convertToRgba8(const uint8_t* src, const PixelLayout& layout, uint32_t width,
                                    uint32_t height, bool twiddled, bool flipRows);

// Index of pixel (x, y) in PowerVR's twiddled (Morton) order for a width x height power-of-two
// surface: bits of y and x interleave (y in the lower bit) over the smaller dimension, the
// remaining bits of the larger coordinate follow.
uint64_t twiddleIndex(uint32_t width, uint32_t height, uint32_t x, uint32_t y);

// Where the surfaces of a mip chain lie in the file and how many complete levels it holds.
struct ChainLayout {
    PixelFormat format = PixelFormat::Rgba8;  // the stored format; Rgba8 means "uncompressed"
    uint32_t storedBytesPerPixel = 0;         // uncompressed storage (the layout's bytesPerPixel)
    uint32_t astcBlockWidth = 4, astcBlockHeight = 4;
    uint32_t width = 0, height = 0;
    uint32_t levels = 1;         // as declared (already clamped to the full chain)
    uint32_t faces = 1;          // 1 or 6
    uint64_t arraySurfaces = 1;  // PVR v3 texture arrays: only surface 0 is kept
    bool faceMajor = false;      // DDS, PVR v2: each face with all its levels; PVR v3: level-major
    uint64_t dataOffset = 0;     // first byte of pixel data in the file
};

struct SurfaceSpan {
    uint64_t offset = 0;
    uint64_t size = 0;
};

// Stored byte size of one level's surface (compressed: surfaceSize; uncompressed: w * h * bpp).
uint64_t storedSurfaceSize(const ChainLayout& chain, uint32_t level);

// Fills spans[level * faces + face] for every complete level (levels whose every face lies inside
// fileSize) and sets levelsPresent. Fails (with the offset where level 0 would end) when even
// level 0 is not all there. Adds a note to `notes` when later levels are cut off.
bool sliceChain(const ChainLayout& chain, uint64_t fileSize, std::vector<SurfaceSpan>& spans,
                uint32_t& levelsPresent, std::vector<std::string>& notes, std::string& error);

// Number of levels in a full mip chain down to 1x1 for a width x height image.
uint32_t fullChainLevels(uint32_t width, uint32_t height);

// `levels` as a header claims them, clamped to a full chain for width x height (with a note).
uint32_t clampToFullChain(uint64_t levels, uint32_t width, uint32_t height, std::vector<std::string>& notes);

// Checks width and height (0 or above kMaxDimension is an error naming the field's offset).
bool checkDimensions(uint32_t width, uint64_t widthOffset, uint32_t height, uint64_t heightOffset,
                     const char* container, std::string& error);

// Builds image.surfaces from spans: compressed formats as views into `bytes`, uncompressed ones
// converted with `layout` (twiddled / flipped as stored). image.format, width, height, faces and
// levels must already be set.
void fillSurfaces(const ByteView& bytes, const std::vector<SurfaceSpan>& spans, const PixelLayout* layout,
                  bool twiddled, bool flipRows, Image& image);

}  // namespace esv::texbytes
