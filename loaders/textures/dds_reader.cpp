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

// The DDS_HEADER fields the reader uses, in file order.
struct DdsHeader {
    char magic[4] = {};
    uint32_t headerSize = 0, flags = 0, height = 0, width = 0, depth = 0, mipCount = 0;
    uint32_t pfFlags = 0, pfFourCC = 0, pfBitCount = 0;
    uint32_t pfMasks[4] = {};
    uint32_t caps = 0, caps2 = 0;
};

// What the pixel format fields (and the DX10 header) say the data is.
struct DdsFormat {
    PixelFormat format = PixelFormat::Rgba8;
    PixelLayout layout;  // uncompressed formats
    bool uncompressed = false;
    uint32_t faces = 1;
    uint64_t dataOffset = kHeaderEnd;
};

// Reads the magic and the 124-byte DDS_HEADER; false when the file is shorter or not a DDS file.
bool readHeader(ByteReader& r, size_t fileSize, DdsHeader& h, std::string& error) {
    r.bytes(h.magic, 4);
    h.headerSize = r.u32();
    h.flags = r.u32();
    h.height = r.u32();
    h.width = r.u32();
    r.u32();  // pitch or linear size: rows are read tightly packed, as the format's sizes give them
    h.depth = r.u32();
    h.mipCount = r.u32();
    r.skip(11 * 4);
    r.u32();  // pixel format size
    h.pfFlags = r.u32();
    h.pfFourCC = r.u32();
    h.pfBitCount = r.u32();
    for (uint32_t& mask : h.pfMasks) mask = r.u32();
    h.caps = r.u32();
    h.caps2 = r.u32();
    r.skip(3 * 4);
    if (!r.ok()) {
        error = atOffset(0, "DDS header needs " + std::to_string(kHeaderEnd) + " bytes, the file has " +
                                std::to_string(fileSize));
        return false;
    }
    if (std::memcmp(h.magic, "DDS ", 4) != 0) {
        error = atOffset(0, "not a DDS file (no \"DDS \" magic)");
        return false;
    }
    return true;
}

// Checks the size, rejects volumes and partial cube maps; sets the face count.
bool checkShape(const DdsHeader& h, Image& image, DdsFormat& f, std::string& error) {
    if (h.headerSize != 124)
        image.notes.push_back("header size field " + std::to_string(h.headerSize) + " read as 124");
    if (!checkDimensions(h.width, 0x10, h.height, 0x0C, "DDS", error)) return false;
    if ((h.caps2 & kCaps2Volume) || ((h.flags & kFlagDepth) && h.depth > 1)) {
        error = atOffset(0x70, "DDS volume textures are not supported");
        return false;
    }
    if (h.caps2 & kCaps2CubeMap) {
        if ((h.caps2 & kCaps2AllFaces) != kCaps2AllFaces) {
            error = atOffset(0x70, "DDS cube map with only some faces (caps2 " + hex(h.caps2) +
                                       ") is not supported: all six are needed");
            return false;
        }
        f.faces = 6;
    }
    return true;
}

// Reads the DX10 header after DDS_HEADER: the DXGI format, dimension, cube flag and array size.
bool readDx10Header(ByteReader& r, size_t fileSize, Image& image, DdsFormat& f, std::string& error) {
    const uint32_t dxgi = r.u32();
    const uint32_t dimension = r.u32();
    const uint32_t misc = r.u32();
    const uint32_t arraySize = r.u32();
    r.u32();  // miscFlags2 (alpha mode)
    if (!r.ok()) {
        error = atOffset(kHeaderEnd, "DDS DX10 header needs " + std::to_string(kDx10HeaderSize) +
                                         " bytes, the file has " + std::to_string(fileSize - kHeaderEnd));
        return false;
    }
    if (dimension == kDimensionTexture3D) {
        error = atOffset(kHeaderEnd + 4, "DDS volume textures are not supported");
        return false;
    }
    if (dimension != kDimensionTexture2D && dimension != kDimensionTexture1D) {
        error = atOffset(kHeaderEnd + 4,
                         "DDS DX10 resource dimension " + std::to_string(dimension) + " is not a texture");
        return false;
    }
    DxgiFormat dx;
    std::string why;
    if (!dxgiFormat(dxgi, dx, why)) {
        error = atOffset(kHeaderEnd, why);
        return false;
    }
    f.format = dx.format;
    f.layout = dx.layout;
    f.uncompressed = dx.uncompressed;
    image.srgb = dx.srgb;
    if (misc & kMiscTextureCube) f.faces = 6;
    if (arraySize > 1)
        image.notes.push_back("texture array of " + std::to_string(arraySize) +
                              (f.faces == 6 ? " cubes" : " surfaces") + ": only the first is used");
    f.dataOffset = kHeaderEnd + kDx10HeaderSize;
    return true;
}

// The fourCC formats: DXT1-5, or "DX10" with its extra header.
bool readFourCCFormat(ByteReader& r, size_t fileSize, const DdsHeader& h, Image& image, DdsFormat& f,
                      std::string& error) {
    switch (h.pfFourCC) {
        case fourCC('D', 'X', 'T', '1'):
            f.format = (h.pfFlags & kPfAlphaPixels) ? PixelFormat::Bc1_Rgba : PixelFormat::Bc1_Rgb;
            return true;
        case fourCC('D', 'X', 'T', '2'):
            image.premultiplied = true;
            [[fallthrough]];
        case fourCC('D', 'X', 'T', '3'):
            f.format = PixelFormat::Bc2;
            return true;
        case fourCC('D', 'X', 'T', '4'):
            image.premultiplied = true;
            [[fallthrough]];
        case fourCC('D', 'X', 'T', '5'):
            f.format = PixelFormat::Bc3;
            return true;
        case fourCC('D', 'X', '1', '0'):
            return readDx10Header(r, fileSize, image, f, error);
        default:
            error = atOffset(0x54, "DDS " + fourCCText(h.pfFourCC) + " is not supported");
            return false;
    }
}

// The mask formats (RGB, luminance, alpha): a layout from the bit count and channel masks.
bool readMaskFormat(const DdsHeader& h, DdsFormat& f, std::string& error) {
    if (h.pfBitCount != 8 && h.pfBitCount != 16 && h.pfBitCount != 24 && h.pfBitCount != 32) {
        error = atOffset(0x58, "DDS " + std::to_string(h.pfBitCount) + " bits per pixel is not supported");
        return false;
    }
    const uint32_t* m = h.pfMasks;
    const uint32_t bpp = h.pfBitCount / 8;
    const uint32_t alpha = (h.pfFlags & (kPfAlphaPixels | kPfAlpha)) ? m[3] : 0;
    PixelLayout& layout = f.layout;
    if (h.pfFlags & kPfRgb)
        layout = maskLayout("", bpp, 'r', m[0], 'g', m[1], 'b', m[2], 'a', alpha);
    else if (h.pfFlags & kPfLuminance)
        layout = maskLayout("", bpp, 'l', m[0], 'a', alpha);
    else
        layout = maskLayout("", bpp, 'a', alpha);
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
    f.uncompressed = true;
    return true;
}

// DDS_PIXELFORMAT: a fourCC, channel masks, or a family esview does not read.
bool readPixelFormat(ByteReader& r, size_t fileSize, const DdsHeader& h, Image& image, DdsFormat& f,
                     std::string& error) {
    if (h.pfFlags & kPfFourCC) return readFourCCFormat(r, fileSize, h, image, f, error);
    if (h.pfFlags & (kPfPaletteIndexed8 | kPfYuv)) {
        error = atOffset(0x50, std::string("DDS ") + ((h.pfFlags & kPfYuv) ? "YUV" : "palette") +
                                   " pixel formats are not supported");
        return false;
    }
    if (h.pfFlags & (kPfRgb | kPfLuminance | kPfAlpha)) return readMaskFormat(h, f, error);
    error = atOffset(0x50, "DDS pixel format flags " + hex(h.pfFlags) + " name no known format");
    return false;
}

// Cuts the face-major chain of levels out of the file and fills the image's surfaces.
bool readSurfaces(const ByteView& bytes, const DdsHeader& h, const DdsFormat& f, Image& image,
                  std::string& error) {
    uint32_t levels = 1;
    if (((h.flags & kFlagMipMapCount) || (h.caps & kCapsMipMap)) && h.mipCount > 0) levels = h.mipCount;
    levels = clampToFullChain(levels, h.width, h.height, image.notes);

    image.width = h.width;
    image.height = h.height;
    image.faces = f.faces;
    image.format = f.format;

    ChainLayout chain;
    chain.format = f.format;
    chain.storedBytesPerPixel = f.layout.bytesPerPixel;
    chain.width = h.width;
    chain.height = h.height;
    chain.levels = levels;
    chain.faces = f.faces;
    chain.faceMajor = true;
    chain.dataOffset = f.dataOffset;
    std::vector<SurfaceSpan> spans;
    if (!sliceChain(chain, bytes.size, spans, image.levels, image.notes, error)) return false;
    fillSurfaces(bytes, spans, f.uncompressed ? &f.layout : nullptr, false, false, image);
    if (f.uncompressed) image.notes.push_back(f.layout.name + " (DDS) converted to RGBA8");
    return true;
}

}  // namespace

bool readDds(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    ByteReader r(bytes.data, bytes.size);
    DdsHeader h;
    if (!readHeader(r, bytes.size, h, error)) return false;
    image.container = "dds";
    DdsFormat f;
    return checkShape(h, image, f, error) && readPixelFormat(r, bytes.size, h, image, f, error) &&
           readSurfaces(bytes, h, f, image, error);
}

}  // namespace esv
