// PowerVR PVR containers: version 3 (PVR File Format Specification: 52-byte header, metadata,
// data ordered mip -> surface -> face -> depth) and the legacy version 2 header (52 bytes, 'PVR!'
// tag at offset 44, each surface with all its mip levels). Compressed surfaces stay views into
// the file; uncompressed pixel formats become RGBA8 with a note.
#include <algorithm>
#include <cstring>

#include "loaders/byte_reader.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_bytes.h"

namespace esv {

using namespace texbytes;

namespace {

constexpr uint32_t kPvr3Magic = 0x03525650u;         // "PVR\x03" read little-endian
constexpr uint32_t kPvr3MagicSwapped = 0x50565203u;  // the same written by a big-endian tool
constexpr uint32_t kPvr3HeaderSize = 52;
constexpr uint32_t kPvr2HeaderSize = 52;

// ---------------------------------------------------------------------------------------------
// Version 3

constexpr uint32_t kPvr3FlagPremultiplied = 0x02;
constexpr uint32_t kPvr3ColourSpaceSrgb = 1;

// Channel types (the specification's "Channel Type" list).
const char* channelTypeName(uint32_t type) {
    static const char* const kNames[] = {"unsigned byte normalised",
                                         "signed byte normalised",
                                         "unsigned byte",
                                         "signed byte",
                                         "unsigned short normalised",
                                         "signed short normalised",
                                         "unsigned short",
                                         "signed short",
                                         "unsigned integer normalised",
                                         "signed integer normalised",
                                         "unsigned integer",
                                         "signed integer",
                                         "signed float",
                                         "unsigned float"};
    return type < sizeof kNames / sizeof kNames[0] ? kNames[type] : "unknown";
}
bool isSignedChannelType(uint32_t type) {
    return type <= 11 && (type & 1u);
}
bool isUnormChannelType(uint32_t type) {
    return type == 0 || type == 4 || type == 8;
}
bool isFloatChannelType(uint32_t type) {
    return type == 12 || type == 13;
}

struct CompressedFormat {
    PixelFormat format = PixelFormat::Rgba8;
    uint32_t blockWidth = 4, blockHeight = 4;
    bool premultiplied = false;
};

// Compressed pixel format ids (the 64-bit pixel format with its high 32 bits zero). Returns false
// with `why` (a sentence naming the format) for ids esview does not read.
bool pvr3CompressedFormat(uint32_t id, uint32_t channelType, CompressedFormat& out, std::string& why) {
    // ASTC 2D block sizes for ids 27..40, in the specification's order.
    static const uint8_t kAstc[14][2] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                         {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};
    const bool isSigned = isSignedChannelType(channelType);
    switch (id) {
        case 0:
            out.format = PixelFormat::Pvrtc1_2bpp_Rgb;
            return true;
        case 1:
            out.format = PixelFormat::Pvrtc1_2bpp_Rgba;
            return true;
        case 2:
            out.format = PixelFormat::Pvrtc1_4bpp_Rgb;
            return true;
        case 3:
            out.format = PixelFormat::Pvrtc1_4bpp_Rgba;
            return true;
        case 6:
            out.format = PixelFormat::Etc1_Rgb;
            return true;
        // DXT1 carries no opaque/alpha distinction in PVR: keep the 1-bit alpha mode's transparency.
        case 7:
            out.format = PixelFormat::Bc1_Rgba;
            return true;
        case 8:
            out.format = PixelFormat::Bc2;
            out.premultiplied = true;
            return true;  // DXT2
        case 9:
            out.format = PixelFormat::Bc2;
            return true;
        case 10:
            out.format = PixelFormat::Bc3;
            out.premultiplied = true;
            return true;  // DXT4
        case 11:
            out.format = PixelFormat::Bc3;
            return true;
        case 22:
            out.format = PixelFormat::Etc2_Rgb;
            return true;
        case 23:
            out.format = PixelFormat::Etc2_Rgba;
            return true;
        case 24:
            out.format = PixelFormat::Etc2_Rgb_A1;
            return true;
        // EAC signedness is the channel type, not a separate id.
        case 25:
            out.format = isSigned ? PixelFormat::Eac_R11_Signed : PixelFormat::Eac_R11;
            return true;
        case 26:
            out.format = isSigned ? PixelFormat::Eac_Rg11_Signed : PixelFormat::Eac_Rg11;
            return true;
        default:
            break;
    }
    if (id >= 27 && id <= 40) {
        out.format = PixelFormat::Astc;
        out.blockWidth = kAstc[id - 27][0];
        out.blockHeight = kAstc[id - 27][1];
        return true;
    }
    static const char* const kUnsupported[] = {
        nullptr,         nullptr,   nullptr, nullptr,   "PVRTC-II 2bpp",
        "PVRTC-II 4bpp", nullptr,   nullptr, nullptr,   nullptr,
        nullptr,         nullptr,   "BC4",   "BC5",     "BC6H",
        "BC7",           "UYVY",    "YUY2",  "BW 1bpp", "R9G9B9E5 shared exponent",
        "RGBG8888",      "GRGB8888"};
    if (id < sizeof kUnsupported / sizeof kUnsupported[0] && kUnsupported[id]) {
        why = "PVR v3 pixel format " + std::to_string(id) + " (" + kUnsupported[id] + ") is not supported";
        return false;
    }
    if (id >= 41 && id <= 50) {
        why = "PVR v3 pixel format " + std::to_string(id) + " (3D ASTC) is not supported";
        return false;
    }
    why = "PVR v3 pixel format " + hex(id) + " is not a known format";
    return false;
}

// The channel-order form: the low 4 bytes name the channels ('r', 'g', 'b', 'a', 'l', ...) and
// the high 4 bytes give their widths in bits, in the same order. Byte-wide channels lie in memory
// order; packed ones (any width other than 8) fill a little-endian word from its top bit down, as
// GL's UNSIGNED_SHORT_5_6_5 / 4_4_4_4 / 5_5_5_1 do.
bool pvr3ChannelOrder(uint64_t pixelFormat, uint32_t channelType, PixelLayout& layout, std::string& why) {
    char roles[4] = {0, 0, 0, 0};
    uint32_t bits[4] = {0, 0, 0, 0};
    uint32_t count = 0, total = 0;
    std::string letters, widths;
    bool allEight = true, allSixteen = true, allThirtyTwo = true, allSmall = true, anyWide = false;
    for (uint32_t i = 0; i < 4; ++i) {
        const char c = char((pixelFormat >> (8 * i)) & 0xFF);
        const uint32_t b = uint32_t((pixelFormat >> (32 + 8 * i)) & 0xFF);
        if (c == 0) break;
        if (!std::strchr("rgbalix", c)) {
            why = std::string("PVR v3 channel '") +
                  (c >= 32 && c < 127 ? std::string(1, c) : hex(uint8_t(c))) +
                  "' is not supported (only r, g, b, a, l, i, x)";
            return false;
        }
        if (b == 0 || (b > 8 && b != 16 && b != 32)) {
            why = "PVR v3 channel '" + std::string(1, c) + "' of " + std::to_string(b) +
                  " bits is not supported";
            return false;
        }
        roles[count] = c;
        bits[count] = b;
        letters += char(c - 'a' + 'A');
        if (!widths.empty() && (b > 9 || anyWide)) widths += '.';
        widths += std::to_string(b);
        anyWide |= b > 9;
        allEight &= b == 8;
        allSixteen &= b == 16;
        allThirtyTwo &= b == 32;
        allSmall &= b <= 8;
        total += b;
        ++count;
    }
    if (count == 0) {
        why = "PVR v3 channel-order pixel format names no channels";
        return false;
    }
    const std::string name = letters + widths;
    if (allSmall) {
        if (!isUnormChannelType(channelType)) {
            why = "PVR v3 " + name + " with " + channelTypeName(channelType) +
                  " channels is not supported (only unsigned normalised)";
            return false;
        }
        if (total % 8 != 0 || total > 32) {
            why = "PVR v3 " + name + " has " + std::to_string(total) +
                  " bits per pixel (not whole bytes up to 32)";
            return false;
        }
        layout = PixelLayout{};
        layout.name = name;
        layout.bytesPerPixel = total / 8;
        layout.channelCount = count;
        uint32_t top = total;
        for (uint32_t i = 0; i < count; ++i) {
            layout.roles[i] = roles[i];
            const uint32_t ones = bits[i] == 32 ? 0xFFFFFFFFu : (1u << bits[i]) - 1;
            if (allEight) {
                layout.masks[i] = ones << (8 * i);
            } else {
                top -= bits[i];
                layout.masks[i] = ones << top;
            }
        }
        return true;
    }
    if (allSixteen || allThirtyTwo) {
        const bool isFloat = isFloatChannelType(channelType);
        if (!isFloat && !isUnormChannelType(channelType)) {
            why = "PVR v3 " + name + " with " + channelTypeName(channelType) +
                  " channels is not supported (only unsigned normalised or float)";
            return false;
        }
        layout = PixelLayout{};
        layout.name = name + (isFloat ? " float" : "");
        layout.wide = true;
        layout.isFloat = isFloat;
        layout.channelBytes = allSixteen ? 2 : 4;
        layout.channelCount = count;
        layout.bytesPerPixel = layout.channelBytes * count;
        for (uint32_t i = 0; i < count; ++i) layout.roles[i] = roles[i];
        return true;
    }
    why = "PVR v3 " + name + " mixes channel widths (only all up to 8 bits, all 16 or all 32)";
    return false;
}

// Metadata keys of the PowerVR namespace (fourCC "PVR\x03").
constexpr uint32_t kMetaCubeMapOrder = 2;
constexpr uint32_t kMetaOrientation = 3;

// The version 3 header fields, in file order.
struct Pvr3Header {
    uint32_t flags = 0;
    uint64_t pixelFormat = 0;
    uint32_t colourSpace = 0, channelType = 0, height = 0, width = 0, depth = 0;
    uint32_t surfaces = 0, faces = 0, mipCount = 0, metaSize = 0;
};

// What the metadata says about orientation and the order of the cube faces.
struct Pvr3Metadata {
    bool rowsBottomUp = false, columnsRightToLeft = false;
    int faceToGl[6] = {0, 1, 2, 3, 4, 5};
    bool reorderFaces = false;
};

// Reads the 52-byte header; false when the file is shorter or written big-endian.
bool readPvr3Header(ByteReader& r, size_t fileSize, Pvr3Header& h, std::string& error) {
    const uint32_t magic = r.u32();
    if (magic == kPvr3MagicSwapped) {
        error = atOffset(0, "PVR v3 file written big-endian is not supported");
        return false;
    }
    h.flags = r.u32();
    h.pixelFormat = r.u64();
    h.colourSpace = r.u32();
    h.channelType = r.u32();
    h.height = r.u32();
    h.width = r.u32();
    h.depth = r.u32();
    h.surfaces = r.u32();
    h.faces = r.u32();
    h.mipCount = r.u32();
    h.metaSize = r.u32();
    if (!r.ok()) {
        error = atOffset(0, "PVR v3 header needs " + std::to_string(kPvr3HeaderSize) +
                                " bytes, the file has " + std::to_string(fileSize));
        return false;
    }
    return true;
}

// Checks size, depth and faces; settles surfaces and mip count (with notes); checks the metadata size.
bool checkPvr3Shape(const ByteReader& r, Pvr3Header& h, Image& image, std::string& error) {
    if (!checkDimensions(h.width, 0x1C, h.height, 0x18, "PVR v3", error)) return false;
    if (h.depth > 1) {
        error =
            atOffset(0x20, "PVR v3 depth " + std::to_string(h.depth) + ": volume textures are not supported");
        return false;
    }
    if (h.faces != 1 && h.faces != 6) {
        error = atOffset(0x28, "PVR v3 face count " + std::to_string(h.faces) + " is neither 1 nor 6");
        return false;
    }
    if (h.surfaces == 0) h.surfaces = 1;
    if (h.surfaces > 1)
        image.notes.push_back("texture array of " + std::to_string(h.surfaces) +
                              " surfaces: only surface 0 is used");
    if (h.mipCount == 0) {
        image.notes.push_back("mip count 0 read as 1");
        h.mipCount = 1;
    }
    h.mipCount = clampToFullChain(h.mipCount, h.width, h.height, image.notes);
    if (h.metaSize > r.remaining()) {
        error = atOffset(0x30, "PVR v3 metadata of " + std::to_string(h.metaSize) +
                                   " bytes runs past the end of the file (" + std::to_string(r.remaining()) +
                                   " bytes follow the header)");
        return false;
    }
    return true;
}

// The cube map order entry: six letters, upper case for the positive face ("XxYyZz" is GL's order).
void readCubeMapOrder(const uint8_t* data, Pvr3Metadata& m, Image& image) {
    static const char kGl[] = "XxYyZz";
    bool seen[6] = {};
    bool valid = true;
    for (int i = 0; i < 6; ++i) {
        const char* at = std::strchr(kGl, char(data[i]));
        if (!at || data[i] == 0 || seen[at - kGl]) {
            valid = false;
            break;
        }
        seen[at - kGl] = true;
        m.faceToGl[i] = int(at - kGl);
    }
    const std::string order(reinterpret_cast<const char*>(data), 6);
    if (!valid) {
        image.notes.push_back("cube map order metadata is not a face order: ignored");
        for (int i = 0; i < 6; ++i) m.faceToGl[i] = i;
    } else if (order != kGl) {
        m.reorderFaces = true;
        image.notes.push_back("cube faces stored in order " + order +
                              " (metadata): reordered to +X, -X, +Y, "
                              "-Y, +Z, -Z");
    }
}

// Metadata: entries of (fourCC, key, size, data); unknown ones are skipped by their size.
bool readPvr3Metadata(ByteReader& r, const Pvr3Header& h, Pvr3Metadata& m, Image& image, std::string& error) {
    ByteReader meta = r.sub(h.metaSize);
    while (!meta.atEnd()) {
        const uint64_t entryOffset = meta.offset();
        const uint32_t fourCC = meta.u32();
        const uint32_t key = meta.u32();
        const uint32_t size = meta.u32();
        if (!meta.ok()) {
            error =
                atOffset(entryOffset, "PVR v3 metadata entry header needs 12 bytes, the metadata block has " +
                                          std::to_string(meta.remaining()) + " left");
            return false;
        }
        if (!meta.canRead(size)) {
            error = atOffset(entryOffset + 8, "PVR v3 metadata entry of " + std::to_string(size) +
                                                  " bytes runs past the metadata block (" +
                                                  std::to_string(meta.remaining()) + " bytes left)");
            return false;
        }
        const uint8_t* data = meta.current();
        meta.skip(size);
        if (fourCC != kPvr3Magic) continue;
        if (key == kMetaOrientation && size >= 3) {
            m.columnsRightToLeft = data[0] != 0;
            m.rowsBottomUp = data[1] != 0;
        } else if (key == kMetaCubeMapOrder && size >= 6 && h.faces == 6) {
            readCubeMapOrder(data, m, image);
        }
    }
    return true;
}

// Cuts the mip -> surface -> face chain out of the file, with the cube faces put in GL's order.
bool slicePvr3(const ByteView& bytes, const Pvr3Header& h, const Pvr3Metadata& m, const PixelLayout& layout,
               Image& image, std::vector<SurfaceSpan>& spans, std::string& error) {
    ChainLayout chain;
    chain.format = image.format;
    chain.storedBytesPerPixel = layout.bytesPerPixel;
    chain.astcBlockWidth = image.blockWidth;
    chain.astcBlockHeight = image.blockHeight;
    chain.width = h.width;
    chain.height = h.height;
    chain.levels = h.mipCount;
    chain.faces = h.faces;
    chain.arraySurfaces = h.surfaces;
    chain.faceMajor = false;
    chain.dataOffset = kPvr3HeaderSize + uint64_t(h.metaSize);
    if (!sliceChain(chain, bytes.size, spans, image.levels, image.notes, error)) return false;
    if (m.reorderFaces) {
        std::vector<SurfaceSpan> ordered(spans.size());
        for (uint32_t level = 0; level < image.levels; ++level)
            for (uint32_t face = 0; face < 6; ++face)
                ordered[level * 6 + uint32_t(m.faceToGl[face])] = spans[level * 6 + face];
        spans = std::move(ordered);
    }
    return true;
}

// Fills the surfaces: channel-order data becomes RGBA8 (flipped when stored bottom-up), compressed
// data stays as stored; adds the orientation notes.
void fillPvr3(const ByteView& bytes, const std::vector<SurfaceSpan>& spans, bool channelOrder,
              const PixelLayout& layout, const Pvr3Metadata& m, Image& image) {
    if (m.columnsRightToLeft)
        image.notes.push_back("orientation metadata: columns stored right to left (kept as stored)");
    if (channelOrder) {
        fillSurfaces(bytes, spans, &layout, false, m.rowsBottomUp, image);
        image.notes.push_back(layout.name + " (PVR v3 channel order) converted to RGBA8");
        if (m.rowsBottomUp)
            image.notes.push_back("orientation metadata: rows stored bottom-up, flipped so row 0 is the top");
    } else {
        fillSurfaces(bytes, spans, nullptr, false, false, image);
        if (m.rowsBottomUp)
            image.notes.push_back(
                "orientation metadata: rows stored bottom-up (compressed data kept as stored)");
        image.bottomUp = m.rowsBottomUp;
    }
}

bool readPvr3(const ByteView& bytes, Image& image, std::string& error) {
    ByteReader r(bytes.data, bytes.size);
    Pvr3Header h;
    if (!readPvr3Header(r, bytes.size, h, error)) return false;

    image.container = "pvr3";
    const bool channelOrder = (h.pixelFormat >> 32) != 0;
    CompressedFormat compressed;
    PixelLayout layout;
    std::string why;
    if (channelOrder ? !pvr3ChannelOrder(h.pixelFormat, h.channelType, layout, why)
                     : !pvr3CompressedFormat(uint32_t(h.pixelFormat), h.channelType, compressed, why)) {
        error = atOffset(0x08, why);
        return false;
    }
    Pvr3Metadata m;
    if (!checkPvr3Shape(r, h, image, error) || !readPvr3Metadata(r, h, m, image, error)) return false;

    image.width = h.width;
    image.height = h.height;
    image.faces = h.faces;
    image.srgb = h.colourSpace == kPvr3ColourSpaceSrgb;
    image.premultiplied = (h.flags & kPvr3FlagPremultiplied) != 0 || compressed.premultiplied;
    image.format = channelOrder ? PixelFormat::Rgba8 : compressed.format;
    image.blockWidth = compressed.blockWidth;
    image.blockHeight = compressed.blockHeight;

    std::vector<SurfaceSpan> spans;
    if (!slicePvr3(bytes, h, m, layout, image, spans, error)) return false;
    fillPvr3(bytes, spans, channelOrder, layout, m, image);
    return true;
}

// ---------------------------------------------------------------------------------------------
// Version 2 (legacy PowerVR SDK header)

constexpr uint32_t kPvr2FlagMipmaps = 1u << 8;
constexpr uint32_t kPvr2FlagTwiddled = 1u << 9;
constexpr uint32_t kPvr2FlagCubeMap = 1u << 12;
constexpr uint32_t kPvr2FlagVolume = 1u << 14;
constexpr uint32_t kPvr2FlagAlpha = 1u << 15;
constexpr uint32_t kPvr2FlagVerticalFlip = 1u << 16;

struct Pvr2Format {
    PixelFormat format = PixelFormat::Rgba8;
    PixelLayout layout;  // uncompressed types
    bool uncompressed = false;
    bool premultiplied = false;
};

// Pixel types (low 8 bits of the flags): the OGL_* range, the MGL_* ones with a clear layout, the
// D3D DXT ones and ETC1. `alpha` picks the RGBA variant of PVRTC / DXT1.
bool pvr2Format(uint32_t type, bool alpha, Pvr2Format& out, std::string& why) {
    auto masks = [&](const char* name, uint32_t bpp, char r0, uint32_t m0, char r1 = 0, uint32_t m1 = 0,
                     char r2 = 0, uint32_t m2 = 0, char r3 = 0, uint32_t m3 = 0) {
        out.uncompressed = true;
        out.layout = maskLayout(name, bpp, r0, m0, r1, m1, r2, m2, r3, m3);
        return true;
    };
    switch (type) {
        // MGL (PowerVR MBX) types: D3D-style packed words with alpha on top.
        case 0x00:
            return masks("ARGB4444", 2, 'a', 0xF000, 'r', 0x0F00, 'g', 0x00F0, 'b', 0x000F);
        case 0x01:
            return masks("ARGB1555", 2, 'a', 0x8000, 'r', 0x7C00, 'g', 0x03E0, 'b', 0x001F);
        case 0x02:
            return masks("RGB565", 2, 'r', 0xF800, 'g', 0x07E0, 'b', 0x001F);
        case 0x03:
            return masks("RGB555", 2, 'r', 0x7C00, 'g', 0x03E0, 'b', 0x001F);
        case 0x07:
            return masks("I8", 1, 'i', 0xFF);
        case 0x0C:
            out.format = alpha ? PixelFormat::Pvrtc1_2bpp_Rgba : PixelFormat::Pvrtc1_2bpp_Rgb;
            return true;
        case 0x0D:
            out.format = alpha ? PixelFormat::Pvrtc1_4bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgb;
            return true;
        // OGL types: GL's packed UNSIGNED_SHORT layouts (first channel in the top bits) and byte orders.
        case 0x10:
            return masks("RGBA4444", 2, 'r', 0xF000, 'g', 0x0F00, 'b', 0x00F0, 'a', 0x000F);
        case 0x11:
            return masks("RGBA5551", 2, 'r', 0xF800, 'g', 0x07C0, 'b', 0x003E, 'a', 0x0001);
        case 0x12:
            return masks("RGBA8888", 4, 'r', 0xFF, 'g', 0xFF00, 'b', 0xFF0000, 'a', 0xFF000000u);
        case 0x13:
            return masks("RGB565", 2, 'r', 0xF800, 'g', 0x07E0, 'b', 0x001F);
        case 0x14:
            return masks("RGB555", 2, 'r', 0xF800, 'g', 0x07C0, 'b', 0x003E);  // 5_5_5_1 with the bit unused
        case 0x15:
            return masks("RGB888", 3, 'r', 0xFF, 'g', 0xFF00, 'b', 0xFF0000);
        case 0x16:
            return masks("I8", 1, 'l', 0xFF);
        case 0x17:
            return masks("AI88", 2, 'l', 0xFF, 'a', 0xFF00);
        case 0x18:
            out.format = alpha ? PixelFormat::Pvrtc1_2bpp_Rgba : PixelFormat::Pvrtc1_2bpp_Rgb;
            return true;
        case 0x19:
            out.format = alpha ? PixelFormat::Pvrtc1_4bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgb;
            return true;
        case 0x1A:
            return masks("BGRA8888", 4, 'b', 0xFF, 'g', 0xFF00, 'r', 0xFF0000, 'a', 0xFF000000u);
        case 0x1B:
            return masks("A8", 1, 'a', 0xFF);
        case 0x20:
            out.format = alpha ? PixelFormat::Bc1_Rgba : PixelFormat::Bc1_Rgb;
            return true;
        case 0x21:
            out.format = PixelFormat::Bc2;
            out.premultiplied = true;
            return true;  // DXT2
        case 0x22:
            out.format = PixelFormat::Bc2;
            return true;
        case 0x23:
            out.format = PixelFormat::Bc3;
            out.premultiplied = true;
            return true;  // DXT4
        case 0x24:
            out.format = PixelFormat::Bc3;
            return true;
        case 0x36:
            out.format = PixelFormat::Etc1_Rgb;
            return true;
        default:
            break;
    }
    const char* name = nullptr;
    switch (type) {
        case 0x04:
            name = "MGL RGB888";
            break;
        case 0x05:
            name = "MGL ARGB8888";
            break;
        case 0x06:
            name = "MGL ARGB8332";
            break;
        case 0x08:
            name = "MGL AI88";
            break;
        case 0x09:
            name = "MGL 1bpp";
            break;
        case 0x0A:
            name = "MGL VY1UY0";
            break;
        case 0x0B:
            name = "MGL Y1VY0U";
            break;
        case 0x0E:
        case 0x1C:
            name = "PVRTC-II 4bpp";
            break;
        case 0x0F:
        case 0x1D:
            name = "PVRTC-II 2bpp";
            break;
        case 0x37:
        case 0x38:
            name = "ETC RGBA";
            break;
        default:
            if (type >= 0x25 && type <= 0x35) name = "D3D uncompressed";
            break;
    }
    why = "PVR v2 pixel type " + hex(type) +
          (name ? std::string(" (") + name + ") is not supported" : " is not a known type");
    return false;
}

bool readPvr2(const ByteView& bytes, Image& image, std::string& error) {
    ByteReader r(bytes.data, bytes.size);
    const uint32_t headerSize = r.u32();
    const uint32_t height = r.u32();
    const uint32_t width = r.u32();
    const uint32_t mipCount = r.u32();  // levels after the first
    const uint32_t flags = r.u32();
    r.skip(4 * 5);  // data size, bpp, R/G/B masks
    const uint32_t alphaMask = r.u32();
    char tag[4] = {};
    r.bytes(tag, 4);
    const uint32_t numSurfaces = r.u32();
    if (!r.ok()) {
        error = atOffset(0, "PVR v2 header needs " + std::to_string(kPvr2HeaderSize) +
                                " bytes, the file has " + std::to_string(bytes.size));
        return false;
    }
    if (headerSize != kPvr2HeaderSize || std::memcmp(tag, "PVR!", 4) != 0) {
        error =
            atOffset(0, "not a PVR file (no PVR v3 magic, no v2 header with its 'PVR!' tag at offset 0x2C)");
        return false;
    }
    image.container = "pvr2";
    const uint32_t type = flags & 0xFFu;
    Pvr2Format format;
    std::string why;
    if (!pvr2Format(type, alphaMask != 0 || (flags & kPvr2FlagAlpha) != 0, format, why)) {
        error = atOffset(0x10, why);
        return false;
    }
    if (!checkDimensions(width, 0x08, height, 0x04, "PVR v2", error)) return false;
    if (flags & kPvr2FlagVolume) {
        error = atOffset(0x10, "PVR v2 volume textures are not supported");
        return false;
    }
    const bool twiddled = format.uncompressed && (flags & kPvr2FlagTwiddled) != 0;
    if (twiddled && ((width & (width - 1)) != 0 || (height & (height - 1)) != 0)) {
        error = atOffset(0x10, "PVR v2 twiddled " + std::to_string(width) + "x" + std::to_string(height) +
                                   " data needs power-of-two sizes");
        return false;
    }
    const uint32_t faces = (flags & kPvr2FlagCubeMap) ? 6 : 1;
    if (faces == 1 && numSurfaces > 1)
        image.notes.push_back(std::to_string(numSurfaces) + " surfaces: only the first is used");
    uint64_t levels = uint64_t(mipCount) + 1;
    if (!(flags & kPvr2FlagMipmaps) && mipCount > 0)
        image.notes.push_back("mip count " + std::to_string(mipCount) +
                              " without the mipmap flag: levels read anyway");
    levels = clampToFullChain(levels, width, height, image.notes);

    image.width = width;
    image.height = height;
    image.faces = faces;
    image.format = format.format;
    image.premultiplied = format.premultiplied;

    ChainLayout chain;
    chain.format = format.format;
    chain.storedBytesPerPixel = format.layout.bytesPerPixel;
    chain.width = width;
    chain.height = height;
    chain.levels = uint32_t(levels);
    chain.faces = faces;
    chain.faceMajor = true;
    chain.dataOffset = kPvr2HeaderSize;
    std::vector<SurfaceSpan> spans;
    if (!sliceChain(chain, bytes.size, spans, image.levels, image.notes, error)) return false;

    const bool flipped = (flags & kPvr2FlagVerticalFlip) != 0;
    if (format.uncompressed) {
        fillSurfaces(bytes, spans, &format.layout, twiddled, flipped, image);
        image.notes.push_back(format.layout.name + " (PVR v2) converted to RGBA8");
        if (twiddled) image.notes.push_back("twiddled (Morton order) pixels put back in row order");
        if (flipped)
            image.notes.push_back("vertical flip flag: rows stored bottom-up, flipped so row 0 is the top");
    } else {
        // Compressed data is block-ordered by its codec; the twiddle flag says nothing more for it.
        fillSurfaces(bytes, spans, nullptr, false, false, image);
        if (flipped)
            image.notes.push_back(
                "vertical flip flag: rows stored bottom-up (compressed data kept as stored)");
        image.bottomUp = flipped;
    }
    return true;
}

}  // namespace

bool readPvr(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    if (bytes.size >= 4) {
        const uint32_t magic = uint32_t(bytes.data[0]) | uint32_t(bytes.data[1]) << 8 |
                               uint32_t(bytes.data[2]) << 16 | uint32_t(bytes.data[3]) << 24;
        if (magic == kPvr3Magic || magic == kPvr3MagicSwapped) return readPvr3(bytes, image, error);
    }
    return readPvr2(bytes, image, error);
}

}  // namespace esv
