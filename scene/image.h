// Images as the scene carries them: a pixel format, a size, and one byte surface per (mip level,
// cube face). Compressed surfaces stay as the file stores them so the renderer can upload them
// when the GPU has the codec; everything else is RGBA8. Readers and software decoders live in
// loaders/textures; the renderer only uploads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scene/bytes.h"

namespace esv {

enum class PixelFormat : uint8_t {
    Rgba8,  // 4 bytes per pixel in memory order r, g, b, a
    // PVRTC version 1 (PowerVR): 8-byte blocks of 8x4 (2 bpp) or 4x4 (4 bpp) pixels.
    Pvrtc1_2bpp_Rgb,
    Pvrtc1_2bpp_Rgba,
    Pvrtc1_4bpp_Rgb,
    Pvrtc1_4bpp_Rgba,
    // Ericsson texture compression: 4x4 blocks.
    Etc1_Rgb,        // 8 bytes
    Etc2_Rgb,        // 8 bytes
    Etc2_Rgb_A1,     // 8 bytes, punch-through alpha
    Etc2_Rgba,       // 16 bytes: EAC alpha block then ETC2 colour block
    Eac_R11,         // 8 bytes
    Eac_R11_Signed,  // 8 bytes
    Eac_Rg11,        // 16 bytes
    Eac_Rg11_Signed, // 16 bytes
    // ASTC LDR: 16-byte blocks of Image::blockWidth x Image::blockHeight pixels.
    Astc,
    // S3TC / DXT: 4x4 blocks.
    Bc1_Rgb,   // DXT1, 8 bytes
    Bc1_Rgba,  // DXT1 with 1-bit alpha, 8 bytes
    Bc2,       // DXT3, 16 bytes
    Bc3,       // DXT5, 16 bytes
    Count
};

const char* pixelFormatName(PixelFormat format);
inline bool isCompressed(PixelFormat format) { return format != PixelFormat::Rgba8; }

// Block footprint of a format (1x1 for Rgba8; blockWidth x blockHeight is only read for Astc).
void blockFootprint(PixelFormat format, uint32_t astcBlockWidth, uint32_t astcBlockHeight, uint32_t& blockW,
                    uint32_t& blockH);
// Bytes of one block (4 for Rgba8: one pixel).
uint32_t blockBytes(PixelFormat format);
// Exact size in bytes of a width x height surface: whole blocks, and for PVRTC1 at least 2x2 blocks
// (the GL extension's rule: max(w, 8 or 16) * max(h, 8) * bpp / 8). 0 for a zero-sized surface.
size_t surfaceSize(PixelFormat format, uint32_t width, uint32_t height, uint32_t astcBlockWidth = 4,
                   uint32_t astcBlockHeight = 4);

struct Image {
    PixelFormat format = PixelFormat::Rgba8;
    uint32_t width = 0, height = 0;
    uint32_t blockWidth = 4, blockHeight = 4;  // ASTC block size; ignored by other formats
    uint32_t faces = 1;                        // 6 for a cube map, in GL order +X, -X, +Y, -Y, +Z, -Z
    uint32_t levels = 1;                       // mip levels present (level 0 = full size)
    uint32_t layers = 1;                       // array layers in the file (KTX, KTX2); layer 0 is `surfaces`
    bool srgb = false;
    bool premultiplied = false;
    // Compressed surfaces whose rows the file stores bottom-up (PVR flip flag or orientation
    // metadata): block data cannot be flipped as stored, so such images are decoded in software,
    // which puts row 0 at the top.
    bool bottomUp = false;
    std::string container;  // "png", "jpeg", "tga", "bmp", "gif", "psd", "hdr", "pvr2", "pvr3", "dds", "ktx", "ktx2",
                            // "pcx", "pnm", "checker"
    // surfaces[level * faces + face]; each exactly surfaceSize() of that level's size.
    std::vector<ByteView> surfaces;
    // An array's later layers, for inspection: layerSurfaces[layer - 1] is the base level of layer
    // `layer` (its first face), as surfaces holds levels (same format). Materials sample layer 0.
    std::vector<ByteView> layerSurfaces;
    std::vector<std::string> notes;  // conversions made while reading or decoding, and why

    bool empty() const { return surfaces.empty(); }
    bool isCube() const { return faces == 6; }
    uint32_t levelWidth(uint32_t level) const { return width >> level ? width >> level : 1; }
    uint32_t levelHeight(uint32_t level) const { return height >> level ? height >> level : 1; }
    const ByteView& surface(uint32_t level, uint32_t face = 0) const { return surfaces[level * faces + face]; }
};

// The placeholder for a texture that is missing or unreadable: a size x size magenta/grey checker,
// RGBA8, one level.
Image makeCheckerImage(uint32_t size = 64);

}  // namespace esv
