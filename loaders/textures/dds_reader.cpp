// DirectDraw Surface files: "DDS " then the 124-byte DDS_HEADER (with its 32-byte pixel format),
// then the 20-byte DX10 header when the fourCC is "DX10". Data is face-major: each cube face with
// all its mip levels, faces in the order +X, -X, +Y, -Y, +Z, -Z (GL's order).
#include <algorithm>
#include <cstring>

#include "loaders/byte_reader.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_bytes.h"

namespace esv {

using namespace texbytes;

namespace {

constexpr uint32_t kHeaderEnd = 128;  // magic + DDS_HEADER
constexpr uint32_t kDx10HeaderSize = 20;

// DDS_HEADER.dwFlags
constexpr uint32_t kFlagMipMapCount = 0x20000;
constexpr uint32_t kFlagDepth = 0x800000;
// DDS_PIXELFORMAT.dwFlags
constexpr uint32_t kPfAlphaPixels = 0x1;
constexpr uint32_t kPfAlpha = 0x2;
constexpr uint32_t kPfFourCC = 0x4;
constexpr uint32_t kPfPaletteIndexed8 = 0x20;
constexpr uint32_t kPfRgb = 0x40;
constexpr uint32_t kPfYuv = 0x200;
constexpr uint32_t kPfLuminance = 0x20000;
// dwCaps / dwCaps2
constexpr uint32_t kCapsMipMap = 0x400000;
constexpr uint32_t kCaps2CubeMap = 0x200;
constexpr uint32_t kCaps2AllFaces = 0xFC00;  // +X, -X, +Y, -Y, +Z, -Z
constexpr uint32_t kCaps2Volume = 0x200000;
// DX10 header
constexpr uint32_t kDimensionTexture1D = 2;
constexpr uint32_t kDimensionTexture2D = 3;
constexpr uint32_t kDimensionTexture3D = 4;
constexpr uint32_t kMiscTextureCube = 0x4;

constexpr uint32_t fourCC(char a, char b, char c, char d) {
    return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 |
           uint32_t(uint8_t(d)) << 24;
}

std::string fourCCText(uint32_t code) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const char c = char((code >> (8 * i)) & 0xFF);
        if (c < 32 || c > 126) return "format code " + std::to_string(code);
        s += c;
    }
    return "fourCC '" + s + "'";
}

// A name such as A8R8G8B8 / X8R8G8B8 / R5G6B5 / A8L8 from the masks, highest bits first.
std::string maskName(const PixelLayout& layout) {
    uint32_t used = 0;
    struct Part {
        uint32_t shift;
        std::string text;
    };
    std::vector<Part> parts;
    for (uint32_t c = 0; c < layout.channelCount; ++c) {
        const uint32_t mask = layout.masks[c];
        uint32_t shift = 0, bits = 0;
        while (shift < 32 && !(mask >> shift & 1u)) ++shift;
        for (uint32_t m = mask >> shift; m & 1u; m >>= 1) ++bits;
        used |= mask;
        parts.push_back({shift, std::string(1, char(layout.roles[c] - 'a' + 'A')) + std::to_string(bits)});
    }
    std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.shift > b.shift; });
    std::string name;
    const uint32_t totalBits = layout.bytesPerPixel * 8;
    uint32_t top = 0;
    while (top < totalBits && !(used >> (totalBits - 1 - top) & 1u)) ++top;
    if (top > 0 && top < totalBits) name = "X" + std::to_string(top);
    for (const Part& p : parts) name += p.text;
    return name;
}

struct DxgiFormat {
    PixelFormat format = PixelFormat::Rgba8;
    PixelLayout layout;
    bool uncompressed = false;
    bool srgb = false;
};

bool dxgiFormat(uint32_t dxgi, DxgiFormat& out, std::string& why) {
    auto masks = [&](const char* name, uint32_t bpp, char r0, uint32_t m0, char r1 = 0, uint32_t m1 = 0,
                     char r2 = 0, uint32_t m2 = 0, char r3 = 0, uint32_t m3 = 0) {
        out.uncompressed = true;
        out.layout = maskLayout(name, bpp, r0, m0, r1, m1, r2, m2, r3, m3);
        return true;
    };
    out.srgb = dxgi == 29 || dxgi == 72 || dxgi == 75 || dxgi == 78 || dxgi == 91 || dxgi == 93;
    switch (dxgi) {
        case 27:  // R8G8B8A8_TYPELESS
        case 28:  // R8G8B8A8_UNORM
        case 29:  // R8G8B8A8_UNORM_SRGB
            return masks("R8G8B8A8", 4, 'r', 0xFF, 'g', 0xFF00, 'b', 0xFF0000, 'a', 0xFF000000u);
        case 49:
            return masks("R8G8", 2, 'r', 0xFF, 'g', 0xFF00);  // R8G8_UNORM
        case 61:
            return masks("R8", 1, 'r', 0xFF);  // R8_UNORM
        case 65:
            return masks("A8", 1, 'a', 0xFF);  // A8_UNORM
        // Direct3D 10 BC1 always has the 1-bit alpha mode.
        case 70:
        case 71:
        case 72:
            out.format = PixelFormat::Bc1_Rgba;
            return true;
        case 73:
        case 74:
        case 75:
            out.format = PixelFormat::Bc2;
            return true;
        case 76:
        case 77:
        case 78:
            out.format = PixelFormat::Bc3;
            return true;
        case 85:
            return masks("B5G6R5", 2, 'r', 0xF800, 'g', 0x07E0, 'b', 0x001F);
        case 86:
            return masks("B5G5R5A1", 2, 'a', 0x8000, 'r', 0x7C00, 'g', 0x03E0, 'b', 0x001F);
        case 87:  // B8G8R8A8_UNORM
        case 90:  // B8G8R8A8_TYPELESS
        case 91:  // B8G8R8A8_UNORM_SRGB
            return masks("B8G8R8A8", 4, 'b', 0xFF, 'g', 0xFF00, 'r', 0xFF0000, 'a', 0xFF000000u);
        case 88:  // B8G8R8X8_UNORM
        case 92:  // B8G8R8X8_TYPELESS
        case 93:  // B8G8R8X8_UNORM_SRGB
            return masks("B8G8R8X8", 4, 'b', 0xFF, 'g', 0xFF00, 'r', 0xFF0000);
        case 115:
            return masks("B4G4R4A4", 2, 'a', 0xF000, 'r', 0x0F00, 'g', 0x00F0, 'b', 0x000F);
        default:
            break;
    }
    why = "DDS DXGI format " + std::to_string(dxgi) + " is not supported";
    return false;
}

}  // namespace

bool readDds(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    ByteReader r(bytes.data, bytes.size);
    char magic[4] = {};
    r.bytes(magic, 4);
    const uint32_t headerSize = r.u32();
    const uint32_t flags = r.u32();
    const uint32_t height = r.u32();
    const uint32_t width = r.u32();
    r.u32();  // pitch or linear size: rows are read tightly packed, as the format's sizes give them
    const uint32_t depth = r.u32();
    const uint32_t mipCount = r.u32();
    r.skip(11 * 4);
    r.u32();  // pixel format size
    const uint32_t pfFlags = r.u32();
    const uint32_t pfFourCC = r.u32();
    const uint32_t pfBitCount = r.u32();
    const uint32_t pfMasks[4] = {r.u32(), r.u32(), r.u32(), r.u32()};
    const uint32_t caps = r.u32();
    const uint32_t caps2 = r.u32();
    r.skip(3 * 4);
    if (!r.ok()) {
        error = atOffset(0, "DDS header needs " + std::to_string(kHeaderEnd) + " bytes, the file has " +
                                std::to_string(bytes.size));
        return false;
    }
    if (std::memcmp(magic, "DDS ", 4) != 0) {
        error = atOffset(0, "not a DDS file (no \"DDS \" magic)");
        return false;
    }
    image.container = "dds";
    if (headerSize != 124)
        image.notes.push_back("header size field " + std::to_string(headerSize) + " read as 124");
    if (!checkDimensions(width, 0x10, height, 0x0C, "DDS", error)) return false;
    if ((caps2 & kCaps2Volume) || ((flags & kFlagDepth) && depth > 1)) {
        error = atOffset(0x70, "DDS volume textures are not supported");
        return false;
    }

    uint32_t faces = 1;
    if (caps2 & kCaps2CubeMap) {
        if ((caps2 & kCaps2AllFaces) != kCaps2AllFaces) {
            error = atOffset(0x70, "DDS cube map with only some faces (caps2 " + hex(caps2) +
                                       ") is not supported: all six are needed");
            return false;
        }
        faces = 6;
    }

    PixelFormat format = PixelFormat::Rgba8;
    PixelLayout layout;
    bool uncompressed = false;
    uint64_t dataOffset = kHeaderEnd;
    if (pfFlags & kPfFourCC) {
        switch (pfFourCC) {
            case fourCC('D', 'X', 'T', '1'):
                format = (pfFlags & kPfAlphaPixels) ? PixelFormat::Bc1_Rgba : PixelFormat::Bc1_Rgb;
                break;
            case fourCC('D', 'X', 'T', '2'):
                image.premultiplied = true;
                [[fallthrough]];
            case fourCC('D', 'X', 'T', '3'):
                format = PixelFormat::Bc2;
                break;
            case fourCC('D', 'X', 'T', '4'):
                image.premultiplied = true;
                [[fallthrough]];
            case fourCC('D', 'X', 'T', '5'):
                format = PixelFormat::Bc3;
                break;
            case fourCC('D', 'X', '1', '0'): {
                const uint32_t dxgi = r.u32();
                const uint32_t dimension = r.u32();
                const uint32_t misc = r.u32();
                const uint32_t arraySize = r.u32();
                r.u32();  // miscFlags2 (alpha mode)
                if (!r.ok()) {
                    error = atOffset(kHeaderEnd, "DDS DX10 header needs " + std::to_string(kDx10HeaderSize) +
                                                     " bytes, the file has " +
                                                     std::to_string(bytes.size - kHeaderEnd));
                    return false;
                }
                if (dimension == kDimensionTexture3D) {
                    error = atOffset(kHeaderEnd + 4, "DDS volume textures are not supported");
                    return false;
                }
                if (dimension != kDimensionTexture2D && dimension != kDimensionTexture1D) {
                    error = atOffset(kHeaderEnd + 4, "DDS DX10 resource dimension " +
                                                         std::to_string(dimension) + " is not a texture");
                    return false;
                }
                DxgiFormat dx;
                std::string why;
                if (!dxgiFormat(dxgi, dx, why)) {
                    error = atOffset(kHeaderEnd, why);
                    return false;
                }
                format = dx.format;
                layout = dx.layout;
                uncompressed = dx.uncompressed;
                image.srgb = dx.srgb;
                if (misc & kMiscTextureCube) faces = 6;
                if (arraySize > 1)
                    image.notes.push_back("texture array of " + std::to_string(arraySize) +
                                          (faces == 6 ? " cubes" : " surfaces") + ": only the first is used");
                dataOffset = kHeaderEnd + kDx10HeaderSize;
                break;
            }
            default:
                error = atOffset(0x54, "DDS " + fourCCText(pfFourCC) + " is not supported");
                return false;
        }
    } else if (pfFlags & (kPfPaletteIndexed8 | kPfYuv)) {
        error = atOffset(0x50, std::string("DDS ") + ((pfFlags & kPfYuv) ? "YUV" : "palette") +
                                   " pixel formats are not supported");
        return false;
    } else if (pfFlags & (kPfRgb | kPfLuminance | kPfAlpha)) {
        if (pfBitCount != 8 && pfBitCount != 16 && pfBitCount != 24 && pfBitCount != 32) {
            error = atOffset(0x58, "DDS " + std::to_string(pfBitCount) + " bits per pixel is not supported");
            return false;
        }
        const uint32_t alpha = (pfFlags & (kPfAlphaPixels | kPfAlpha)) ? pfMasks[3] : 0;
        if (pfFlags & kPfRgb)
            layout =
                maskLayout("", pfBitCount / 8, 'r', pfMasks[0], 'g', pfMasks[1], 'b', pfMasks[2], 'a', alpha);
        else if (pfFlags & kPfLuminance)
            layout = maskLayout("", pfBitCount / 8, 'l', pfMasks[0], 'a', alpha);
        else
            layout = maskLayout("", pfBitCount / 8, 'a', alpha);
        if (layout.channelCount == 0) {
            error = atOffset(0x5C, "DDS pixel format has no channel masks");
            return false;
        }
        std::string why;
        if (!checkMasks(layout, why)) {
            error = atOffset(0x5C, "DDS " + why);
            return false;
        }
        layout.name = maskName(layout);
        uncompressed = true;
    } else {
        error = atOffset(0x50, "DDS pixel format flags " + hex(pfFlags) + " name no known format");
        return false;
    }

    uint32_t levels = 1;
    if (((flags & kFlagMipMapCount) || (caps & kCapsMipMap)) && mipCount > 0) levels = mipCount;
    levels = clampToFullChain(levels, width, height, image.notes);

    image.width = width;
    image.height = height;
    image.faces = faces;
    image.format = format;

    ChainLayout chain;
    chain.format = format;
    chain.storedBytesPerPixel = layout.bytesPerPixel;
    chain.width = width;
    chain.height = height;
    chain.levels = levels;
    chain.faces = faces;
    chain.faceMajor = true;
    chain.dataOffset = dataOffset;
    std::vector<SurfaceSpan> spans;
    if (!sliceChain(chain, bytes.size, spans, image.levels, image.notes, error)) return false;
    fillSurfaces(bytes, spans, uncompressed ? &layout : nullptr, false, false, image);
    if (uncompressed) image.notes.push_back(layout.name + " (DDS) converted to RGBA8");
    return true;
}

}  // namespace esv
