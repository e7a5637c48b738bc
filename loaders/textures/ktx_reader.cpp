// Khronos KTX containers. KTX 1.1: a 64-byte header (either byte order), key/value data, then per
// mip level an imageSize word and the level's array elements, faces and rows (uncompressed rows
// padded to 4 bytes; each face of a non-array cube map padded to 4 bytes; each level padded to 4
// bytes). KTX 2.0: an 80-byte header, a level index (byte offset and length of every level, stored
// smallest first), the data format descriptor, key/value and supercompression data, then the
// levels, each holding its layers and faces tightly packed and optionally compressed whole
// (Zstandard, zlib). Compressed surfaces stay views into the file (or into the decompressed level);
// uncompressed formats become RGBA8 with a note.
#include <algorithm>
#include <cstring>

#include <zlib.h>

#if ESVIEW_HAS_ZSTD
#include <zstd.h>
#endif

#include "loaders/byte_reader.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_bytes.h"

namespace esv {

using namespace texbytes;

namespace {

constexpr uint8_t kKtx1Identifier[12] = {0xAB, 'K', 'T', 'X', ' ', '1', '1', 0xBB, '\r', '\n', 0x1A, '\n'};
constexpr uint8_t kKtx2Identifier[12] = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'};
constexpr uint32_t kKtx1HeaderSize = 64;
constexpr uint32_t kKtx2HeaderSize = 80;
constexpr uint32_t kKtx2LevelEntrySize = 24;
constexpr uint32_t kEndianness = 0x04030201u;
constexpr uint32_t kEndiannessSwapped = 0x01020304u;
// Array layers beyond this are refused: GL ES 3 guarantees 256, desktop parts 2048. It also bounds
// every level size computed from a layer count (2048 x 6 x 2^32 < 2^64).
constexpr uint32_t kMaxLayers = 2048;
// A supercompressed level is decompressed whole before layer 0 is taken: at most this many bytes.
constexpr uint64_t kMaxDecompressedLevel = 256ull << 20;

// ASTC 2D block sizes in the order of the GL and Vulkan enums.
constexpr uint8_t kAstcBlocks[14][2] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                        {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};

// What a KTX header says the data is: a compressed format, or an uncompressed layout to convert.
struct KtxFormat {
    PixelFormat format = PixelFormat::Rgba8;
    uint32_t blockWidth = 4, blockHeight = 4;
    bool srgb = false;
    bool uncompressed = false;
    PixelLayout layout;     // uncompressed only
    uint32_t typeSize = 1;  // uncompressed: bytes of one swappable unit (1, 2 or 4)
};

// One row of a GL or Vulkan compressed-format table.
struct CompressedEnum {
    uint32_t value;
    PixelFormat format;
    bool srgb;
};

bool compressed(KtxFormat& f, PixelFormat format, bool srgb = false) {
    f.format = format;
    f.srgb = srgb;
    return true;
}

bool masks(KtxFormat& f, const char* name, uint32_t bytesPerPixel, uint32_t typeSize, char r0, uint32_t m0,
           char r1 = 0, uint32_t m1 = 0, char r2 = 0, uint32_t m2 = 0, char r3 = 0, uint32_t m3 = 0) {
    f.uncompressed = true;
    f.typeSize = typeSize;
    f.layout = maskLayout(name, bytesPerPixel, r0, m0, r1, m1, r2, m2, r3, m3);
    return true;
}

// Channels of `roles` ("rgba", "la", ...), each channelBytes wide, unsigned normalised or float.
bool wide(KtxFormat& f, const std::string& name, const char* roles, uint32_t channelBytes, bool isFloat) {
    f.uncompressed = true;
    f.typeSize = channelBytes;
    PixelLayout& l = f.layout;
    l = PixelLayout{};
    l.name = name;
    l.wide = true;
    l.isFloat = isFloat;
    l.channelBytes = channelBytes;
    l.channelCount = std::min<uint32_t>(uint32_t(std::strlen(roles)), 4);
    l.bytesPerPixel = l.channelCount * channelBytes;
    for (uint32_t i = 0; i < l.channelCount && i < 4; ++i) l.roles[i] = roles[i];
    return true;
}

// ---------------------------------------------------------------------------------------------
// KTX 1.1: GL enums

// glInternalFormat of a compressed texture (glType 0). False with `why` for formats esview lacks.
bool glCompressedFormat(uint32_t internal, KtxFormat& f, std::string& why) {
    if (internal >= 0x93B0 && internal <= 0x93BD) {  // COMPRESSED_RGBA_ASTC_*_KHR
        f.blockWidth = kAstcBlocks[internal - 0x93B0][0];
        f.blockHeight = kAstcBlocks[internal - 0x93B0][1];
        return compressed(f, PixelFormat::Astc);
    }
    if (internal >= 0x93D0 && internal <= 0x93DD) {  // COMPRESSED_SRGB8_ALPHA8_ASTC_*_KHR
        f.blockWidth = kAstcBlocks[internal - 0x93D0][0];
        f.blockHeight = kAstcBlocks[internal - 0x93D0][1];
        return compressed(f, PixelFormat::Astc, true);
    }
    // Enum, format, sRGB: ETC1_RGB8_OES; ETC2/EAC (ES 3.0); IMG_texture_compression_pvrtc and
    // EXT_pvrtc_sRGB; EXT_texture_compression_s3tc and EXT_texture_sRGB's S3TC forms.
    static const CompressedEnum kGl[] = {
        {0x8D64, PixelFormat::Etc1_Rgb, false},
        {0x9270, PixelFormat::Eac_R11, false},
        {0x9271, PixelFormat::Eac_R11_Signed, false},
        {0x9272, PixelFormat::Eac_Rg11, false},
        {0x9273, PixelFormat::Eac_Rg11_Signed, false},
        {0x9274, PixelFormat::Etc2_Rgb, false},
        {0x9275, PixelFormat::Etc2_Rgb, true},
        {0x9276, PixelFormat::Etc2_Rgb_A1, false},
        {0x9277, PixelFormat::Etc2_Rgb_A1, true},
        {0x9278, PixelFormat::Etc2_Rgba, false},
        {0x9279, PixelFormat::Etc2_Rgba, true},
        {0x8C00, PixelFormat::Pvrtc1_4bpp_Rgb, false},
        {0x8C01, PixelFormat::Pvrtc1_2bpp_Rgb, false},
        {0x8C02, PixelFormat::Pvrtc1_4bpp_Rgba, false},
        {0x8C03, PixelFormat::Pvrtc1_2bpp_Rgba, false},
        {0x8A54, PixelFormat::Pvrtc1_2bpp_Rgb, true},
        {0x8A55, PixelFormat::Pvrtc1_4bpp_Rgb, true},
        {0x8A56, PixelFormat::Pvrtc1_2bpp_Rgba, true},
        {0x8A57, PixelFormat::Pvrtc1_4bpp_Rgba, true},
        {0x83F0, PixelFormat::Bc1_Rgb, false},
        {0x83F1, PixelFormat::Bc1_Rgba, false},
        {0x83F2, PixelFormat::Bc2, false},
        {0x83F3, PixelFormat::Bc3, false},
        {0x8C4C, PixelFormat::Bc1_Rgb, true},
        {0x8C4D, PixelFormat::Bc1_Rgba, true},
        {0x8C4E, PixelFormat::Bc2, true},
        {0x8C4F, PixelFormat::Bc3, true},
    };
    for (const CompressedEnum& c : kGl)
        if (c.value == internal) return compressed(f, c.format, c.srgb);
    const char* family = nullptr;
    if (internal >= 0x93C0 && internal <= 0x93C9) family = "3D ASTC";
    if (internal >= 0x93E0 && internal <= 0x93E9) family = "3D ASTC sRGB";
    if (internal >= 0x8E8C && internal <= 0x8E8F) family = "BPTC (BC6H/BC7)";
    if (internal >= 0x8DBB && internal <= 0x8DBE) family = "RGTC (BC4/BC5)";
    if (internal == 0x9137 || internal == 0x9138) family = "PVRTC-II";
    if (internal == 0x8C92 || internal == 0x8C93 || internal == 0x87EE) family = "ATC";
    if (internal == 0x8B90) family = "paletted";
    why = "KTX glInternalFormat " + hex(internal) +
          (family ? std::string(" (") + family + ") is not supported" : " is not a known compressed format");
    return false;
}

// Roles of an unsized glFormat for one byte or one wide channel per component; nullptr when unknown.
const char* glFormatRoles(uint32_t format) {
    switch (format) {
        case 0x1908:
            return "rgba";  // RGBA
        case 0x1907:
            return "rgb";  // RGB
        case 0x80E1:
            return "bgra";  // BGRA
        case 0x80E0:
            return "bgr";  // BGR
        case 0x190A:
            return "la";  // LUMINANCE_ALPHA
        case 0x1909:
            return "l";  // LUMINANCE
        case 0x1906:
            return "a";  // ALPHA
        case 0x1903:
            return "r";  // RED
        case 0x8227:
            return "rg";  // RG
        default:
            return nullptr;
    }
}

// glType / glFormat / glTypeSize of an uncompressed texture.
bool glUncompressedFormat(uint32_t type, uint32_t format, uint32_t typeSize, KtxFormat& f, std::string& why,
                          uint64_t& whereOffset) {
    const char* roles = glFormatRoles(format);
    uint32_t expectSize = 0;
    bool ok = false;
    std::string upper = roles ? roles : "";
    for (char& c : upper) c = char(c - 'a' + 'A');
    switch (type) {
        case 0x1401: {  // UNSIGNED_BYTE: bytes in memory order
            expectSize = 1;
            if (!roles) break;
            const uint32_t n = uint32_t(std::strlen(roles));
            ok = masks(f, (upper + "8").c_str(), n, 1, roles[0], 0xFFu, n > 1 ? roles[1] : 0, 0xFF00u,
                       n > 2 ? roles[2] : 0, 0xFF0000u, n > 3 ? roles[3] : 0, 0xFF000000u);
            break;
        }
        case 0x8363:  // UNSIGNED_SHORT_5_6_5
            expectSize = 2;
            if (format == 0x1907) ok = masks(f, "RGB565", 2, 2, 'r', 0xF800, 'g', 0x07E0, 'b', 0x001F);
            break;
        case 0x8033:  // UNSIGNED_SHORT_4_4_4_4
            expectSize = 2;
            if (format == 0x1908)
                ok = masks(f, "RGBA4444", 2, 2, 'r', 0xF000, 'g', 0x0F00, 'b', 0x00F0, 'a', 0x000F);
            break;
        case 0x8034:  // UNSIGNED_SHORT_5_5_5_1
            expectSize = 2;
            if (format == 0x1908)
                ok = masks(f, "RGBA5551", 2, 2, 'r', 0xF800, 'g', 0x07C0, 'b', 0x003E, 'a', 0x0001);
            break;
        case 0x1403:  // UNSIGNED_SHORT
            expectSize = 2;
            if (roles) ok = wide(f, upper + "16", roles, 2, false);
            break;
        case 0x140B:  // HALF_FLOAT
        case 0x8D61:  // HALF_FLOAT_OES
            expectSize = 2;
            if (roles) ok = wide(f, upper + "16F", roles, 2, true);
            break;
        case 0x1406:  // FLOAT
            expectSize = 4;
            if (roles) ok = wide(f, upper + "32F", roles, 4, true);
            break;
        default:
            whereOffset = 0x10;
            why = "KTX glType " + hex(type) + " is not supported";
            return false;
    }
    if (!ok) {
        whereOffset = 0x18;
        why = "KTX glFormat " + hex(format) + " with glType " + hex(type) + " is not supported";
        return false;
    }
    if (typeSize != expectSize) {
        whereOffset = 0x14;
        why = "KTX glTypeSize " + std::to_string(typeSize) + " does not match glType " + hex(type) + " (" +
              std::to_string(expectSize) + ")";
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// KTX 2.0: Vulkan formats

bool vkFormat(uint32_t vk, KtxFormat& f, std::string& why) {
    if (vk >= 157 && vk <= 184) {  // VK_FORMAT_ASTC_*_UNORM_BLOCK / _SRGB_BLOCK, in pairs
        f.blockWidth = kAstcBlocks[(vk - 157) / 2][0];
        f.blockHeight = kAstcBlocks[(vk - 157) / 2][1];
        return compressed(f, PixelFormat::Astc, (vk - 157) % 2 == 1);
    }
    // Enum, format, sRGB: BC1-3, ETC2/EAC, VK_IMG_format_pvrtc (PVRTC1 in Vulkan always has alpha).
    static const CompressedEnum kVk[] = {
        {131, PixelFormat::Bc1_Rgb, false},
        {132, PixelFormat::Bc1_Rgb, true},
        {133, PixelFormat::Bc1_Rgba, false},
        {134, PixelFormat::Bc1_Rgba, true},
        {135, PixelFormat::Bc2, false},
        {136, PixelFormat::Bc2, true},
        {137, PixelFormat::Bc3, false},
        {138, PixelFormat::Bc3, true},
        {147, PixelFormat::Etc2_Rgb, false},
        {148, PixelFormat::Etc2_Rgb, true},
        {149, PixelFormat::Etc2_Rgb_A1, false},
        {150, PixelFormat::Etc2_Rgb_A1, true},
        {151, PixelFormat::Etc2_Rgba, false},
        {152, PixelFormat::Etc2_Rgba, true},
        {153, PixelFormat::Eac_R11, false},
        {154, PixelFormat::Eac_R11_Signed, false},
        {155, PixelFormat::Eac_Rg11, false},
        {156, PixelFormat::Eac_Rg11_Signed, false},
        {1000054000, PixelFormat::Pvrtc1_2bpp_Rgba, false},
        {1000054001, PixelFormat::Pvrtc1_4bpp_Rgba, false},
        {1000054004, PixelFormat::Pvrtc1_2bpp_Rgba, true},
        {1000054005, PixelFormat::Pvrtc1_4bpp_Rgba, true},
    };
    for (const CompressedEnum& c : kVk)
        if (c.value == vk) return compressed(f, c.format, c.srgb);
    switch (vk) {
        case 9:
        case 15:
            f.srgb = vk == 15;
            return masks(f, "R8", 1, 1, 'r', 0xFF);
        case 16:
        case 22:
            f.srgb = vk == 22;
            return masks(f, "R8G8", 2, 1, 'r', 0xFF, 'g', 0xFF00);
        case 23:
        case 29:
            f.srgb = vk == 29;
            return masks(f, "R8G8B8", 3, 1, 'r', 0xFF, 'g', 0xFF00, 'b', 0xFF0000);
        case 30:
        case 36:
            f.srgb = vk == 36;
            return masks(f, "B8G8R8", 3, 1, 'b', 0xFF, 'g', 0xFF00, 'r', 0xFF0000);
        case 37:
        case 43:
            f.srgb = vk == 43;
            return masks(f, "R8G8B8A8", 4, 1, 'r', 0xFF, 'g', 0xFF00, 'b', 0xFF0000, 'a', 0xFF000000u);
        case 44:
        case 50:
            f.srgb = vk == 50;
            return masks(f, "B8G8R8A8", 4, 1, 'b', 0xFF, 'g', 0xFF00, 'r', 0xFF0000, 'a', 0xFF000000u);
        case 51:  // A8B8G8R8_*_PACK32: a 32-bit word, r in the low byte
        case 57:
            f.srgb = vk == 57;
            return masks(f, "A8B8G8R8", 4, 4, 'r', 0xFF, 'g', 0xFF00, 'b', 0xFF0000, 'a', 0xFF000000u);
        case 2:
            return masks(f, "R4G4B4A4", 2, 2, 'r', 0xF000, 'g', 0x0F00, 'b', 0x00F0, 'a', 0x000F);
        case 3:
            return masks(f, "B4G4R4A4", 2, 2, 'b', 0xF000, 'g', 0x0F00, 'r', 0x00F0, 'a', 0x000F);
        case 4:
            return masks(f, "R5G6B5", 2, 2, 'r', 0xF800, 'g', 0x07E0, 'b', 0x001F);
        case 5:
            return masks(f, "B5G6R5", 2, 2, 'b', 0xF800, 'g', 0x07E0, 'r', 0x001F);
        case 6:
            return masks(f, "R5G5B5A1", 2, 2, 'r', 0xF800, 'g', 0x07C0, 'b', 0x003E, 'a', 0x0001);
        case 7:
            return masks(f, "B5G5R5A1", 2, 2, 'b', 0xF800, 'g', 0x07C0, 'r', 0x003E, 'a', 0x0001);
        case 8:
            return masks(f, "A1R5G5B5", 2, 2, 'a', 0x8000, 'r', 0x7C00, 'g', 0x03E0, 'b', 0x001F);
        case 70:
            return wide(f, "R16", "r", 2, false);
        case 77:
            return wide(f, "R16G16", "rg", 2, false);
        case 84:
            return wide(f, "R16G16B16", "rgb", 2, false);
        case 91:
            return wide(f, "R16G16B16A16", "rgba", 2, false);
        case 76:
            return wide(f, "R16 float", "r", 2, true);
        case 83:
            return wide(f, "R16G16 float", "rg", 2, true);
        case 90:
            return wide(f, "R16G16B16 float", "rgb", 2, true);
        case 97:
            return wide(f, "R16G16B16A16 float", "rgba", 2, true);
        case 100:
            return wide(f, "R32 float", "r", 4, true);
        case 103:
            return wide(f, "R32G32 float", "rg", 4, true);
        case 106:
            return wide(f, "R32G32B32 float", "rgb", 4, true);
        case 109:
            return wide(f, "R32G32B32A32 float", "rgba", 4, true);
        default:
            break;
    }
    const char* family = nullptr;
    if (vk >= 139 && vk <= 146) family = "BC4-BC7";
    if (vk >= 1000054002 && vk <= 1000054007) family = "PVRTC-II";
    if (vk >= 1000066000 && vk <= 1000066013) family = "ASTC HDR";
    if (vk >= 1000288000 && vk <= 1000288029) family = "3D ASTC";
    why = "KTX2 vkFormat " + std::to_string(vk) +
          (family ? std::string(" (") + family + ") is not supported" : " is not a supported format");
    return false;
}

// ---------------------------------------------------------------------------------------------
// Shared: key/value data, orientation, surfaces

uint32_t swap32(uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

struct Orientation {
    bool rowsBottomUp = false, columnsRightToLeft = false;
};

// Key/value pairs: a 32-bit byte length (in the file's byte order), the NUL-terminated key and its
// value, padding to 4 bytes. Every entry is checked against the block; only KTXorientation is read
// (KTX 1: "S=r,T=u"; KTX 2: "ru"; u means rows stored bottom-up, l columns right to left).
bool readKeyValues(ByteReader block, bool swapped, const char* container, Orientation& o,
                   std::string& error) {
    while (!block.atEnd()) {
        const uint64_t entryOffset = block.offset();
        uint32_t size = block.u32();
        if (swapped) size = swap32(size);
        if (!block.ok()) {
            error =
                atOffset(entryOffset, std::string(container) + " key/value entry needs a 4-byte length, " +
                                          std::to_string(block.remaining()) + " bytes are left");
            return false;
        }
        if (!block.canRead(size)) {
            error = atOffset(entryOffset, std::string(container) + " key/value entry of " +
                                              std::to_string(size) + " bytes runs past the key/value data (" +
                                              std::to_string(block.remaining()) + " bytes left)");
            return false;
        }
        const std::string entry(reinterpret_cast<const char*>(block.current()), size);
        block.skip(size);
        block.skip(std::min<uint64_t>((4 - size % 4) % 4, block.remaining()));
        const size_t nul = entry.find('\0');
        if (nul == std::string::npos || entry.compare(0, nul, "KTXorientation") != 0) continue;
        std::string value = entry.substr(nul + 1);
        value = value.substr(0, value.find('\0'));
        if (value.find("T=u") != std::string::npos ||
            (value.size() >= 2 && value[0] != 'S' && value[1] == 'u'))
            o.rowsBottomUp = true;
        if (value.find("S=l") != std::string::npos || (!value.empty() && value[0] == 'l'))
            o.columnsRightToLeft = true;
    }
    return true;
}

// One stored face of one level, to become a surface: `bytes` holds the level (the file, or the
// decompressed level), `offset` where the face starts in it.
struct FaceSpan {
    ByteView source;
    uint64_t offset = 0;
};

// Copies a stored uncompressed face into tight rows (dropping KTX 1 row padding) and puts every
// typeSize-byte unit in little-endian order.
std::vector<uint8_t> tightRows(const uint8_t* src, uint32_t width, uint32_t height, uint64_t rowStride,
                               const KtxFormat& f, bool swapped) {
    const size_t rowBytes = size_t(width) * f.layout.bytesPerPixel;
    std::vector<uint8_t> out(rowBytes * height);
    for (uint32_t y = 0; y < height; ++y) std::memcpy(&out[y * rowBytes], src + y * rowStride, rowBytes);
    if (swapped && f.typeSize > 1)
        for (size_t i = 0; i + f.typeSize <= out.size(); i += f.typeSize)
            std::reverse(out.begin() + std::ptrdiff_t(i), out.begin() + std::ptrdiff_t(i + f.typeSize));
    return out;
}

// Fills image.surfaces (level-major, faces in GL order as KTX stores them) from the kept spans, and
// image.layerSurfaces from the later layers' base-level spans, converting uncompressed faces to
// RGBA8; adds the conversion and orientation notes.
void fillKtxSurfaces(const std::vector<FaceSpan>& spans, const std::vector<FaceSpan>& layerSpans, const KtxFormat& f,
                     bool rowPadding, bool swapped, const Orientation& o, const char* container, Image& image) {
    auto surface = [&](const FaceSpan& s, uint32_t w, uint32_t h) {
        if (!f.uncompressed)
            return s.source.sub(size_t(s.offset), surfaceSize(f.format, w, h, f.blockWidth, f.blockHeight));
        const uint64_t rowBytes = uint64_t(w) * f.layout.bytesPerPixel;
        const uint64_t stride = rowPadding ? (rowBytes + 3) / 4 * 4 : rowBytes;
        const std::vector<uint8_t> rows = tightRows(s.source.data + s.offset, w, h, stride, f, swapped);
        return makeOwnedBytes(convertToRgba8(rows.data(), f.layout, w, h, false, o.rowsBottomUp));
    };
    image.surfaces.clear();
    for (size_t i = 0; i < spans.size(); ++i) {
        const uint32_t level = uint32_t(i / image.faces);
        image.surfaces.push_back(surface(spans[i], image.levelWidth(level), image.levelHeight(level)));
    }
    image.layerSurfaces.clear();
    for (const FaceSpan& s : layerSpans) image.layerSurfaces.push_back(surface(s, image.width, image.height));
    if (o.columnsRightToLeft)
        image.notes.push_back("KTXorientation: columns stored right to left (kept as stored)");
    if (f.uncompressed) {
        image.notes.push_back(f.layout.name + " (" + container + ") converted to RGBA8");
        if (o.rowsBottomUp)
            image.notes.push_back("KTXorientation: rows stored bottom-up, flipped so row 0 is the top");
    } else {
        if (o.rowsBottomUp)
            image.notes.push_back("KTXorientation: rows stored bottom-up (compressed data kept as stored)");
        image.bottomUp = o.rowsBottomUp;
    }
}

// Bytes of one stored face of `level`: compressed blocks, or rows (padded to 4 bytes in KTX 1).
uint64_t faceBytes(const KtxFormat& f, uint32_t w, uint32_t h, bool rowPadding) {
    if (!f.uncompressed) return surfaceSize(f.format, w, h, f.blockWidth, f.blockHeight);
    const uint64_t rowBytes = uint64_t(w) * f.layout.bytesPerPixel;
    return (rowPadding ? (rowBytes + 3) / 4 * 4 : rowBytes) * h;
}

// Shared shape checks: size (a 1D texture's height 0 reads as 1), depth, faces, layers, levels.
bool checkKtxShape(const char* container, uint32_t width, uint32_t& height, uint32_t depth, uint32_t faces,
                   uint32_t layers, uint32_t& levels, uint64_t at, Image& image, std::string& error) {
    const bool two = std::strcmp(container, "KTX2") == 0;
    // Field offsets: KTX 1 width 0x24, height 0x28, depth 0x2C, elements 0x30, faces 0x34, levels 0x38;
    // KTX 2 width 0x14 ... levels 0x28.
    const uint64_t base = at;
    if (height == 0 && width != 0) {
        image.notes.push_back("1D texture: read as " + std::to_string(width) + "x1");
        height = 1;
    }
    if (!checkDimensions(width, base, height, base + 4, container, error)) return false;
    if (depth > (two ? 0u : 1u)) {
        error = atOffset(base + 8, std::string(container) + " depth " + std::to_string(depth) +
                                       ": 3D textures are not supported");
        return false;
    }
    if (layers > kMaxLayers) {
        error = atOffset(base + 12, std::string(container) + " array of " + std::to_string(layers) +
                                        " layers is more than " + std::to_string(kMaxLayers));
        return false;
    }
    if (faces != 1 && faces != 6) {
        error = atOffset(base + 16, std::string(container) + " face count " + std::to_string(faces) +
                                        " is neither 1 nor 6");
        return false;
    }
    if (faces == 6 && width != height) {
        error = atOffset(base, std::string(container) + " cube map of " + std::to_string(width) + "x" +
                                   std::to_string(height) + " is not square");
        return false;
    }
    image.layers = std::max<uint32_t>(layers, 1);
    if (layers > 1)
        image.notes.push_back("texture array of " + std::to_string(layers) + (faces == 6 ? " cubes" : " layers") +
                              ": layer 0 is drawn; the inspector shows each layer's base level");
    if (levels == 0) {
        image.notes.push_back("mip level count 0 (generate mipmaps) read as 1");
        levels = 1;
    }
    const uint32_t full = fullChainLevels(width, height);
    if (levels > full) {
        error = atOffset(base + 20, std::string(container) + " mip level count " + std::to_string(levels) +
                                        " is more than a full chain (" + std::to_string(full) + ") for " +
                                        std::to_string(width) + "x" + std::to_string(height));
        return false;
    }
    return true;
}

void keepLevels(uint32_t kept, uint32_t declared, uint64_t fileSize, Image& image) {
    image.levels = kept;
    if (kept < declared)
        image.notes.push_back("file ends at byte " + std::to_string(fileSize) + ": kept the " +
                              std::to_string(kept) + " complete of " + std::to_string(declared) +
                              " mip levels");
}

// ---------------------------------------------------------------------------------------------
// KTX 1.1

struct Ktx1Header {
    bool swapped = false;
    uint32_t glType = 0, glTypeSize = 0, glFormat = 0, glInternalFormat = 0, glBaseInternalFormat = 0;
    uint32_t width = 0, height = 0, depth = 0, arrayElements = 0, faces = 0, levels = 0, kvBytes = 0;
};

bool readKtx1Header(ByteReader& r, size_t fileSize, Ktx1Header& h, std::string& error) {
    uint8_t identifier[12] = {};
    r.bytes(identifier, 12);
    const uint32_t endianness = r.u32();
    uint32_t* fields[] = {&h.glType, &h.glTypeSize, &h.glFormat, &h.glInternalFormat, &h.glBaseInternalFormat,
                          &h.width,  &h.height,     &h.depth,    &h.arrayElements,    &h.faces,
                          &h.levels, &h.kvBytes};
    for (uint32_t* field : fields) *field = r.u32();
    if (!r.ok()) {
        error = atOffset(0, "KTX header needs " + std::to_string(kKtx1HeaderSize) + " bytes, the file has " +
                                std::to_string(fileSize));
        return false;
    }
    if (std::memcmp(identifier, kKtx1Identifier, 12) != 0) {
        error = atOffset(0, "not a KTX 1.1 file (identifier " + printableBytes(identifier, 12) + ")");
        return false;
    }
    if (endianness != kEndianness && endianness != kEndiannessSwapped) {
        error = atOffset(0x0C, "KTX endianness " + hex(endianness) + " is neither 0x04030201 nor 0x01020304");
        return false;
    }
    h.swapped = endianness == kEndiannessSwapped;
    if (h.swapped)
        for (uint32_t* field : fields) *field = swap32(*field);
    return true;
}

bool ktx1Format(const Ktx1Header& h, KtxFormat& f, std::string& error) {
    std::string why;
    if (h.glType == 0) {
        if (!glCompressedFormat(h.glInternalFormat, f, why)) {
            error = atOffset(0x1C, why);
            return false;
        }
        return true;
    }
    uint64_t where = 0x10;
    if (!glUncompressedFormat(h.glType, h.glFormat, h.glTypeSize, f, why, where)) {
        error = atOffset(where, why);
        return false;
    }
    // SRGB8 and SRGB8_ALPHA8 (and their _EXT forms) as the sized internal format.
    f.srgb = h.glInternalFormat == 0x8C41 || h.glInternalFormat == 0x8C43;
    return true;
}

// Walks the levels: imageSize, then the elements' faces (each non-array cube face padded to 4
// bytes), then mip padding. Level 0 must be whole; a later level cut off ends the chain (note).
bool sliceKtx1(const ByteView& bytes, const Ktx1Header& h, const KtxFormat& f, uint32_t levels, Image& image,
               std::vector<FaceSpan>& spans, std::vector<FaceSpan>& layerSpans, std::string& error) {
    ByteReader r(bytes.data, bytes.size);
    r.seek(kKtx1HeaderSize + uint64_t(h.kvBytes));
    const bool nonArrayCube = h.faces == 6 && h.arrayElements == 0;
    const uint64_t layers = std::max<uint32_t>(h.arrayElements, 1);
    uint32_t kept = 0;
    for (uint32_t level = 0; level < levels; ++level) {
        const uint32_t w = image.levelWidth(level), ht = image.levelHeight(level);
        const uint64_t face = faceBytes(f, w, ht, true);
        const uint64_t sizeOffset = r.offset();
        uint32_t imageSize = r.u32();
        if (h.swapped) imageSize = swap32(imageSize);
        const uint64_t expected = nonArrayCube ? face : layers * h.faces * face;
        const uint64_t stored = nonArrayCube ? 6 * ((face + 3) / 4 * 4) : expected;
        if (r.ok() && imageSize != expected) {
            error = atOffset(
                sizeOffset, "KTX level " + std::to_string(level) + " imageSize " + std::to_string(imageSize) +
                                " is not the " + std::to_string(expected) + " bytes of " + std::to_string(w) +
                                "x" + std::to_string(ht) + (nonArrayCube ? " (one cube face)" : ""));
            return false;
        }
        if (!r.ok() || !r.canRead(stored)) {
            if (level > 0) break;
            error = atOffset(r.ok() ? sizeOffset + 4 : sizeOffset,
                             "level 0 (" + std::to_string(w) + "x" + std::to_string(ht) + ") needs " +
                                 std::to_string(stored + 4) + " bytes, the file has " +
                                 std::to_string(bytes.size - std::min<uint64_t>(bytes.size, sizeOffset)) +
                                 " after the header");
            return false;
        }
        const uint64_t start = r.position();
        for (uint32_t fc = 0; fc < h.faces; ++fc)
            spans.push_back({bytes, start + fc * (nonArrayCube ? (face + 3) / 4 * 4 : face)});
        for (uint64_t layer = 1; level == 0 && layer < layers; ++layer) layerSpans.push_back({bytes, start + layer * h.faces * face});
        r.skip(stored);
        r.skip(std::min<uint64_t>((4 - stored % 4) % 4, r.remaining()));  // mipPadding
        ++kept;
    }
    keepLevels(kept, levels, bytes.size, image);
    return true;
}

// ---------------------------------------------------------------------------------------------
// KTX 2.0

struct Ktx2Header {
    uint32_t vkFormat = 0, typeSize = 0, width = 0, height = 0, depth = 0, layers = 0, faces = 0, levels = 0;
    uint32_t scheme = 0;
    uint32_t dfdOffset = 0, dfdLength = 0, kvdOffset = 0, kvdLength = 0;
    uint64_t sgdOffset = 0, sgdLength = 0;
};

bool readKtx2Header(ByteReader& r, size_t fileSize, Ktx2Header& h, std::string& error) {
    uint8_t identifier[12] = {};
    r.bytes(identifier, 12);
    uint32_t* fields[] = {&h.vkFormat,  &h.typeSize,  &h.width,    &h.height, &h.depth,
                          &h.layers,    &h.faces,     &h.levels,   &h.scheme, &h.dfdOffset,
                          &h.dfdLength, &h.kvdOffset, &h.kvdLength};
    for (uint32_t* field : fields) *field = r.u32();
    h.sgdOffset = r.u64();
    h.sgdLength = r.u64();
    if (!r.ok()) {
        error = atOffset(0, "KTX2 header needs " + std::to_string(kKtx2HeaderSize) + " bytes, the file has " +
                                std::to_string(fileSize));
        return false;
    }
    if (std::memcmp(identifier, kKtx2Identifier, 12) != 0) {
        error = atOffset(0, "not a KTX 2.0 file (identifier " + printableBytes(identifier, 12) + ")");
        return false;
    }
    return true;
}

// A block of the file named by an (offset, length) pair of the header must lie inside the file.
bool checkRange(uint64_t offset, uint64_t length, uint64_t fieldOffset, const char* what, size_t fileSize,
                std::string& error) {
    if (length == 0) return true;
    if (offset > fileSize || length > fileSize - offset) {
        error =
            atOffset(fieldOffset, std::string("KTX2 ") + what + " (offset " + std::to_string(offset) + ", " +
                                      std::to_string(length) + " bytes) runs past the end of the file (" +
                                      std::to_string(fileSize) + " bytes)");
        return false;
    }
    return true;
}

// The format: BasisLZ and UASTC (Basis Universal) refused by name, then the vkFormat.
bool ktx2Format(const ByteView& bytes, const Ktx2Header& h, KtxFormat& f, std::string& error) {
    if (h.scheme == 1) {
        error = atOffset(0x2C, "KTX2 BasisLZ supercompression is not supported (Basis Universal)");
        return false;
    }
    if (h.vkFormat == 0) {
        // The basic descriptor block's colour model (byte 12 of the DFD): 166 is UASTC, 163 ETC1S.
        const uint8_t model = h.dfdLength >= 16 ? bytes.data[h.dfdOffset + 12] : 0;
        if (model == 166 || model == 163)
            error = atOffset(h.dfdOffset + 12, std::string("KTX2 ") + (model == 166 ? "UASTC" : "ETC1S") +
                                                   " is not supported (Basis Universal)");
        else
            error = atOffset(0x0C, "KTX2 vkFormat 0 (UNDEFINED) is not supported");
        return false;
    }
    std::string why;
    if (!vkFormat(h.vkFormat, f, why)) {
        error = atOffset(0x0C, why);
        return false;
    }
    const uint32_t expectTypeSize = f.uncompressed ? f.typeSize : 1;
    if (h.typeSize != expectTypeSize) {
        error = atOffset(0x10, "KTX2 typeSize " + std::to_string(h.typeSize) + " is not the format's " +
                                   std::to_string(expectTypeSize));
        return false;
    }
    return true;
}

// Decompresses one level of `length` bytes at `src` that must inflate to exactly `expected` bytes.
bool inflateLevel(uint32_t scheme, const uint8_t* src, uint64_t length, uint64_t expected, uint64_t at,
                  uint32_t level, ByteView& out, std::string& error) {
    const std::string where = "KTX2 level " + std::to_string(level);
    if (expected > kMaxDecompressedLevel) {
        error = atOffset(at, where + " decompresses to " + std::to_string(expected) + " bytes, more than " +
                                 std::to_string(kMaxDecompressedLevel));
        return false;
    }
    // Neither codec can expand data without bound (zlib at most about 1032:1; Zstandard's densest
    // block, a 4-byte run of 128 KiB, 32768:1): a level claiming more is refused before allocating.
    const uint64_t ratio = scheme == 2 ? 32768 : 1032;
    if (expected / ratio > length + 1) {
        error = atOffset(at, where + ": " + std::to_string(length) + " compressed bytes cannot hold " +
                                 std::to_string(expected));
        return false;
    }
    if (scheme == 2) {
#if ESVIEW_HAS_ZSTD
        const unsigned long long content = ZSTD_getFrameContentSize(src, size_t(length));
        if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN || content != expected) {
            error = atOffset(at, where + ": Zstandard frame " +
                                     (content == ZSTD_CONTENTSIZE_ERROR ? std::string("is not valid")
                                      : content == ZSTD_CONTENTSIZE_UNKNOWN
                                          ? std::string("does not give its size")
                                          : "holds " + std::to_string(content) + " bytes, not " +
                                                std::to_string(expected)));
            return false;
        }
        std::vector<uint8_t> buffer(static_cast<size_t>(expected));
        const size_t got = ZSTD_decompress(buffer.data(), buffer.size(), src, size_t(length));
        if (ZSTD_isError(got) || got != expected) {
            error = atOffset(at, where + ": Zstandard data is corrupt (" +
                                     (ZSTD_isError(got) ? std::string(ZSTD_getErrorName(got))
                                                        : std::to_string(got) + " bytes") +
                                     ")");
            return false;
        }
        out = makeOwnedBytes(std::move(buffer));
        return true;
#else
        (void)src;
        (void)length;
        error = atOffset(0x2C, "KTX2 Zstandard supercompression is not supported in this build");
        return false;
#endif
    }
    std::vector<uint8_t> buffer(static_cast<size_t>(expected));
    uLongf got = uLongf(expected);
    if (length > uLong(-1) || uncompress(buffer.data(), &got, src, uLong(length)) != Z_OK ||
        got != expected) {
        error = atOffset(at, where + ": zlib data is corrupt or not " + std::to_string(expected) + " bytes");
        return false;
    }
    out = makeOwnedBytes(std::move(buffer));
    return true;
}

// Reads the level index and cuts out (or decompresses) each level, keeping layer 0's faces (and the
// later layers' first face of level 0, for inspection).
bool sliceKtx2(const ByteView& bytes, const Ktx2Header& h, const KtxFormat& f, uint32_t levels, Image& image,
               std::vector<FaceSpan>& spans, std::vector<FaceSpan>& layerSpans, std::string& error) {
    const uint64_t layers = std::max<uint32_t>(h.layers, 1);
    uint32_t kept = 0;
    for (uint32_t level = 0; level < levels; ++level) {
        const uint64_t entry = kKtx2HeaderSize + uint64_t(level) * kKtx2LevelEntrySize;
        ByteReader r(bytes.data, bytes.size);
        r.seek(entry);
        const uint64_t offset = r.u64(), length = r.u64(), uncompressed = r.u64();
        const uint32_t w = image.levelWidth(level), ht = image.levelHeight(level);
        const uint64_t face = faceBytes(f, w, ht, false);
        const uint64_t expected = layers * h.faces * face;
        const std::string what = "KTX2 level " + std::to_string(level);
        if (uncompressed != expected) {
            error = atOffset(entry + 16, what + " uncompressedByteLength " + std::to_string(uncompressed) +
                                             " is not the " + std::to_string(expected) + " bytes of " +
                                             std::to_string(w) + "x" + std::to_string(ht));
            return false;
        }
        if (h.scheme == 0 && length != expected) {
            error = atOffset(entry + 8, what + " byteLength " + std::to_string(length) + " is not the " +
                                            std::to_string(expected) + " bytes of " + std::to_string(w) +
                                            "x" + std::to_string(ht));
            return false;
        }
        if (offset > bytes.size || length > bytes.size - offset) {
            if (level > 0) break;
            error = atOffset(entry, what + " (offset " + std::to_string(offset) + ", " +
                                        std::to_string(length) + " bytes) runs past the end of the file (" +
                                        std::to_string(bytes.size) + " bytes)");
            return false;
        }
        ByteView levelBytes = bytes.sub(size_t(offset), size_t(length));
        if (h.scheme != 0 &&
            !inflateLevel(h.scheme, levelBytes.data, length, expected, entry, level, levelBytes, error))
            return false;
        for (uint32_t fc = 0; fc < h.faces; ++fc) spans.push_back({levelBytes, fc * face});
        for (uint64_t layer = 1; level == 0 && layer < layers; ++layer) layerSpans.push_back({levelBytes, layer * h.faces * face});
        ++kept;
    }
    keepLevels(kept, levels, bytes.size, image);
    return true;
}

bool readKtx2Blocks(const ByteView& bytes, const Ktx2Header& h, Orientation& o, std::string& error) {
    if (h.scheme > 3) {
        error =
            atOffset(0x2C, "KTX2 supercompression scheme " + std::to_string(h.scheme) + " is not supported");
        return false;
    }
    if (!checkRange(h.dfdOffset, h.dfdLength, 0x30, "data format descriptor", bytes.size, error) ||
        !checkRange(h.kvdOffset, h.kvdLength, 0x38, "key/value data", bytes.size, error) ||
        !checkRange(h.sgdOffset, h.sgdLength, 0x40, "supercompression global data", bytes.size, error))
        return false;
    ByteReader kvd(bytes.data + (h.kvdLength ? h.kvdOffset : 0), h.kvdLength, h.kvdLength ? h.kvdOffset : 0);
    return readKeyValues(kvd, false, "KTX2", o, error);
}

}  // namespace

bool readKtx(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    ByteReader r(bytes.data, bytes.size);
    Ktx1Header h;
    if (!readKtx1Header(r, bytes.size, h, error)) return false;
    image.container = "ktx";
    if (h.swapped) image.notes.push_back("KTX file written big-endian: header and samples byte-swapped");
    KtxFormat f;
    uint32_t levels = h.levels;
    if (!ktx1Format(h, f, error) || !checkKtxShape("KTX", h.width, h.height, h.depth, h.faces,
                                                   h.arrayElements, levels, 0x24, image, error))
        return false;
    if (h.kvBytes > r.remaining()) {
        error = atOffset(0x3C, "KTX key/value data of " + std::to_string(h.kvBytes) +
                                   " bytes runs past the end of the file (" + std::to_string(r.remaining()) +
                                   " bytes follow the header)");
        return false;
    }
    Orientation o;
    if (!readKeyValues(r.sub(h.kvBytes), h.swapped, "KTX", o, error)) return false;
    image.width = h.width;
    image.height = h.height;
    image.faces = h.faces;
    image.format = f.uncompressed ? PixelFormat::Rgba8 : f.format;
    image.blockWidth = f.blockWidth;
    image.blockHeight = f.blockHeight;
    image.srgb = f.srgb;
    std::vector<FaceSpan> spans, layerSpans;
    if (!sliceKtx1(bytes, h, f, levels, image, spans, layerSpans, error)) return false;
    fillKtxSurfaces(spans, layerSpans, f, true, h.swapped, o, "KTX", image);
    return true;
}

bool readKtx2(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    ByteReader r(bytes.data, bytes.size);
    Ktx2Header h;
    if (!readKtx2Header(r, bytes.size, h, error)) return false;
    image.container = "ktx2";
    Orientation o;
    KtxFormat f;
    uint32_t levels = h.levels;
    if (!readKtx2Blocks(bytes, h, o, error) || !ktx2Format(bytes, h, f, error) ||
        !checkKtxShape("KTX2", h.width, h.height, h.depth, h.faces, h.layers, levels, 0x14, image, error))
        return false;
    // The level index holds max(levelCount, 1) entries after the header.
    if (!r.canReadArray(levels, kKtx2LevelEntrySize)) {
        error = atOffset(0x28, "KTX2 level index of " + std::to_string(levels) +
                                   " entries runs past the end of "
                                   "the file (" +
                                   std::to_string(r.remaining()) + " bytes follow the header)");
        return false;
    }
    image.width = h.width;
    image.height = h.height;
    image.faces = h.faces;
    image.format = f.uncompressed ? PixelFormat::Rgba8 : f.format;
    image.blockWidth = f.blockWidth;
    image.blockHeight = f.blockHeight;
    image.srgb = f.srgb;
    if (h.scheme == 2) image.notes.push_back("KTX2 levels decompressed (Zstandard)");
    if (h.scheme == 3) image.notes.push_back("KTX2 levels decompressed (zlib)");
    std::vector<FaceSpan> spans, layerSpans;
    if (!sliceKtx2(bytes, h, f, levels, image, spans, layerSpans, error)) return false;
    fillKtxSurfaces(spans, layerSpans, f, false, false, o, "KTX2", image);
    return true;
}

}  // namespace esv
