// Image containers (PVR v3, PVR v2, DDS, stb_image), uncompressed pixel formats, texture lookup and
// scene texture preparation. Synthetic fixtures are written byte by byte here; the real files under
// ../shared/models are checked against facts read from their headers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <stb_image.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "loaders/textures/decode.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/scene_textures.h"
#include "loaders/textures/texture_lookup.h"

namespace esv {
namespace {

// The first byte of the file buffer a surface views (the readers hand views of the vector they read).
const uint8_t* fileStart(const ByteView& view) {
    return static_cast<const std::vector<uint8_t>*>(view.owner.get())->data();
}

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

// ---------------------------------------------------------------------------------------------
// Fixture writers

struct Writer {
    Bytes b;
    Writer& u8(uint8_t v) {
        b.push_back(v);
        return *this;
    }
    Writer& u16(uint16_t v) { return u8(uint8_t(v)).u8(uint8_t(v >> 8)); }
    Writer& u32(uint32_t v) { return u16(uint16_t(v)).u16(uint16_t(v >> 16)); }
    Writer& u64(uint64_t v) { return u32(uint32_t(v)).u32(uint32_t(v >> 32)); }
    Writer& raw(const Bytes& v) {
        b.insert(b.end(), v.begin(), v.end());
        return *this;
    }
    Writer& text(const char* s, size_t n) {
        b.insert(b.end(), s, s + n);
        return *this;
    }
    Writer& zeros(size_t n) {
        b.insert(b.end(), n, 0);
        return *this;
    }
    // Bytes 0, 1, 2, ... (mod 251) so every surface has recognisable content.
    Writer& pattern(size_t n, uint8_t seed = 0) {
        for (size_t i = 0; i < n; ++i) b.push_back(uint8_t((i + seed) % 251));
        return *this;
    }
};

ByteView own(Bytes bytes) {
    return makeOwnedBytes(std::move(bytes));
}

// A PVR v3 pixel format in the channel-order form: names and bit widths of up to four channels.
uint64_t channelOrder(const char* names, uint8_t b0, uint8_t b1 = 0, uint8_t b2 = 0, uint8_t b3 = 0) {
    uint64_t v = 0;
    for (int i = 0; i < 4 && names[i]; ++i) v |= uint64_t(uint8_t(names[i])) << (8 * i);
    const uint8_t bits[4] = {b0, b1, b2, b3};
    for (int i = 0; i < 4; ++i) v |= uint64_t(bits[i]) << (32 + 8 * i);
    return v;
}

struct Pvr3 {
    uint64_t pixelFormat = 0;
    uint32_t width = 1, height = 1, mips = 1, faces = 1, surfaces = 1, depth = 1;
    uint32_t channelType = 0, colourSpace = 0, flags = 0;
    Bytes meta;
    Bytes header() const {
        Writer w;
        w.u32(0x03525650).u32(flags).u64(pixelFormat).u32(colourSpace).u32(channelType);
        w.u32(height).u32(width).u32(depth).u32(surfaces).u32(faces).u32(mips).u32(uint32_t(meta.size()));
        w.raw(meta);
        return w.b;
    }
};

Bytes pvr3Meta(uint32_t key, const Bytes& data) {
    Writer w;
    w.u32(0x03525650).u32(key).u32(uint32_t(data.size())).raw(data);
    return w.b;
}

struct Pvr2 {
    uint32_t flags = 0;  // pixel type in the low 8 bits
    uint32_t width = 1, height = 1, mipCount = 0, alphaMask = 0, surfaces = 1;
    Bytes header() const {
        Writer w;
        w.u32(52).u32(height).u32(width).u32(mipCount).u32(flags).u32(0).u32(0).u32(0).u32(0).u32(0).u32(
            alphaMask);
        w.text("PVR!", 4).u32(surfaces);
        return w.b;
    }
};

struct Dds {
    uint32_t flags = 0x1007;  // caps, height, width, pixel format
    uint32_t width = 1, height = 1, mips = 0, depth = 0;
    uint32_t pfFlags = 0, fourCC = 0, bitCount = 0, masks[4] = {0, 0, 0, 0};
    uint32_t caps = 0x1000, caps2 = 0;
    bool dx10 = false;
    uint32_t dxgi = 0, dimension = 3, misc = 0, arraySize = 1;
    Bytes header() const {
        Writer w;
        w.text("DDS ", 4).u32(124).u32(flags).u32(height).u32(width).u32(0).u32(depth).u32(mips).zeros(44);
        w.u32(32).u32(pfFlags).u32(fourCC).u32(bitCount).u32(masks[0]).u32(masks[1]).u32(masks[2]).u32(
            masks[3]);
        w.u32(caps).u32(caps2).zeros(12);
        if (dx10) w.u32(dxgi).u32(dimension).u32(misc).u32(arraySize).u32(0);
        return w.b;
    }
};

uint32_t fourCC(const char* s) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

Bytes surfaceBytes(const Image& image, uint32_t level = 0, uint32_t face = 0) {
    const ByteView& v = image.surface(level, face);
    return Bytes(v.begin(), v.end());
}

bool hasNote(const Image& image, const std::string& part) {
    return std::any_of(image.notes.begin(), image.notes.end(),
                       [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

// Every surface of a read image has exactly the size its format and level call for.
void expectConsistent(const Image& image) {
    ASSERT_EQ(image.surfaces.size(), size_t(image.levels) * image.faces);
    for (uint32_t level = 0; level < image.levels; ++level)
        for (uint32_t face = 0; face < image.faces; ++face)
            EXPECT_EQ(image.surface(level, face).size,
                      surfaceSize(image.format, image.levelWidth(level), image.levelHeight(level),
                                  image.blockWidth, image.blockHeight));
}

// ---------------------------------------------------------------------------------------------
// Uncompressed formats: two pixels each, decoded values checked exactly.

struct PixelCase {
    const char* name;
    uint32_t code;  // PVR v2 pixel type
    Bytes stored;   // two pixels as stored
    Bytes rgba;     // the two pixels expected in RGBA8
};

TEST(Pvr2Uncompressed, every_pixel_type_converts_exactly) {
    const std::vector<PixelCase> cases = {
        {"RGBA4444", 0x10, {0x34, 0x12, 0xA5, 0xF0}, {17, 34, 51, 68, 255, 0, 170, 85}},
        {"RGBA5551", 0x11, {0x21, 0xF8, 0xC0, 0x0F}, {255, 0, 132, 255, 8, 255, 0, 0}},
        {"RGBA8888", 0x12, {1, 2, 3, 4, 255, 128, 0, 127}, {1, 2, 3, 4, 255, 128, 0, 127}},
        {"RGB565", 0x13, {0x00, 0xFC, 0x1F, 0x00}, {255, 130, 0, 255, 0, 0, 255, 255}},
        {"RGB555", 0x14, {0x02, 0xFC, 0x01, 0x00}, {255, 132, 8, 255, 0, 0, 0, 255}},
        {"RGB888", 0x15, {10, 11, 12, 255, 0, 128}, {10, 11, 12, 255, 255, 0, 128, 255}},
        {"I8", 0x16, {0, 200}, {0, 0, 0, 255, 200, 200, 200, 255}},
        {"AI88", 0x17, {0x10, 0x20, 0xFF, 0x00}, {16, 16, 16, 32, 255, 255, 255, 0}},
        {"BGRA8888", 0x1A, {1, 2, 3, 4, 255, 128, 0, 127}, {3, 2, 1, 4, 0, 128, 255, 127}},
        {"A8", 0x1B, {0, 128}, {0, 0, 0, 0, 0, 0, 0, 128}},
        // MGL types: D3D-style words, alpha in the top bits.
        {"ARGB4444", 0x00, {0x34, 0x12, 0xA5, 0xF0}, {34, 51, 68, 17, 0, 170, 85, 255}},
        {"ARGB1555", 0x01, {0x10, 0xFC, 0xE0, 0x03}, {255, 0, 132, 255, 0, 255, 0, 0}},
        {"RGB565", 0x02, {0x00, 0xFC, 0x1F, 0x00}, {255, 130, 0, 255, 0, 0, 255, 255}},
        {"RGB555", 0x03, {0x00, 0x7C, 0x1F, 0x00}, {255, 0, 0, 255, 0, 0, 255, 255}},
        {"I8", 0x07, {0, 200}, {0, 0, 0, 0, 200, 200, 200, 200}},  // intensity: alpha too
    };
    for (const PixelCase& c : cases) {
        SCOPED_TRACE(c.name);
        Pvr2 h;
        h.flags = c.code;
        h.width = 2;
        Writer w;
        w.raw(h.header()).raw(c.stored);
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.container, "pvr2");
        EXPECT_EQ(image.format, PixelFormat::Rgba8);
        EXPECT_EQ(image.width, 2u);
        EXPECT_EQ(image.height, 1u);
        EXPECT_EQ(image.levels, 1u);
        EXPECT_EQ(surfaceBytes(image), c.rgba);
        EXPECT_TRUE(hasNote(image, std::string(c.name) + " (PVR v2) converted to RGBA8"));
    }
}

TEST(Pvr2Uncompressed, twiddled_data_is_put_back_in_row_order) {
    // 4x4 RGBA8888 stored twiddled: stored pixel k has red = k. Morton order with y in the low bit.
    Pvr2 h;
    h.flags = 0x12 | 0x200;
    h.width = h.height = 4;
    Writer w;
    w.raw(h.header());
    for (uint8_t k = 0; k < 16; ++k) w.u8(k).u8(0).u8(0).u8(255);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    const Bytes px = surfaceBytes(image);
    auto red = [&](int x, int y) { return int(px[(size_t(y) * 4 + x) * 4]); };
    EXPECT_EQ(red(0, 0), 0);
    EXPECT_EQ(red(0, 1), 1);
    EXPECT_EQ(red(1, 0), 2);
    EXPECT_EQ(red(1, 1), 3);
    EXPECT_EQ(red(0, 2), 4);
    EXPECT_EQ(red(2, 0), 8);
    EXPECT_EQ(red(3, 3), 15);
    EXPECT_TRUE(hasNote(image, "twiddled"));

    // Rectangular 4x2: Morton over the 2x2 squares, the remaining x bit on top.
    Pvr2 r;
    r.flags = 0x16 | 0x200;  // I8
    r.width = 4;
    r.height = 2;
    Writer wr;
    wr.raw(r.header());
    for (uint8_t k = 0; k < 8; ++k) wr.u8(uint8_t(k * 10));
    ASSERT_TRUE(readImage(own(wr.b), image, error)) << error;
    const Bytes p2 = surfaceBytes(image);
    auto lum = [&](int x, int y) { return int(p2[(size_t(y) * 4 + x) * 4]); };
    EXPECT_EQ(lum(0, 0), 0);
    EXPECT_EQ(lum(0, 1), 10);
    EXPECT_EQ(lum(1, 0), 20);
    EXPECT_EQ(lum(1, 1), 30);
    EXPECT_EQ(lum(2, 0), 40);
    EXPECT_EQ(lum(3, 1), 70);

    // Twiddled data must have power-of-two sizes.
    Pvr2 bad = h;
    bad.width = 3;
    Writer wb;
    wb.raw(bad.header()).zeros(3 * 4 * 4);
    EXPECT_FALSE(readImage(own(wb.b), image, error));
    EXPECT_NE(error.find("offset 0x10"), std::string::npos) << error;
    EXPECT_NE(error.find("power-of-two"), std::string::npos) << error;
}

TEST(Pvr2Uncompressed, vertical_flip_flag_puts_the_top_row_first) {
    Pvr2 h;
    h.flags = 0x16 | 0x10000;  // I8, flipped
    h.width = 2;
    h.height = 3;
    Writer w;
    w.raw(h.header()).raw({1, 2, 3, 4, 5, 6});
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    const Bytes px = surfaceBytes(image);
    EXPECT_EQ(px[0], 5);
    EXPECT_EQ(px[4], 6);
    EXPECT_EQ(px[8], 3);
    EXPECT_EQ(px[16], 1);
    EXPECT_EQ(px[20], 2);
    EXPECT_TRUE(hasNote(image, "flipped so row 0 is the top"));
}

TEST(Pvr3Uncompressed, channel_orders_convert_exactly) {
    struct Case {
        const char* name;
        uint64_t format;
        uint32_t channelType;
        Bytes stored, rgba;
    };
    const std::vector<Case> cases = {
        {"RGBA8888",
         channelOrder("rgba", 8, 8, 8, 8),
         0,
         {1, 2, 3, 4, 255, 128, 0, 127},
         {1, 2, 3, 4, 255, 128, 0, 127}},
        {"BGRA8888",
         channelOrder("bgra", 8, 8, 8, 8),
         0,
         {1, 2, 3, 4, 255, 128, 0, 127},
         {3, 2, 1, 4, 0, 128, 255, 127}},
        {"RGB888",
         channelOrder("rgb", 8, 8, 8),
         0,
         {10, 11, 12, 255, 0, 128},
         {10, 11, 12, 255, 255, 0, 128, 255}},
        {"RGB565",
         channelOrder("rgb", 5, 6, 5),
         4,
         {0x00, 0xFC, 0x1F, 0x00},
         {255, 130, 0, 255, 0, 0, 255, 255}},
        {"RGBA4444",
         channelOrder("rgba", 4, 4, 4, 4),
         4,
         {0x34, 0x12, 0xA5, 0xF0},
         {17, 34, 51, 68, 255, 0, 170, 85}},
        {"RGBA5551",
         channelOrder("rgba", 5, 5, 5, 1),
         4,
         {0x21, 0xF8, 0xC0, 0x0F},
         {255, 0, 132, 255, 8, 255, 0, 0}},
        {"ARGB1555",
         channelOrder("argb", 1, 5, 5, 5),
         4,
         {0x10, 0xFC, 0xE0, 0x03},
         {255, 0, 132, 255, 0, 255, 0, 0}},
        {"LA88", channelOrder("la", 8, 8), 0, {0x10, 0x20, 0xFF, 0x00}, {16, 16, 16, 32, 255, 255, 255, 0}},
        {"L8", channelOrder("l", 8), 0, {0, 200}, {0, 0, 0, 255, 200, 200, 200, 255}},
        {"A8", channelOrder("a", 8), 0, {0, 128}, {0, 0, 0, 0, 0, 0, 0, 128}},
        {"RGBX8888",
         channelOrder("rgbx", 8, 8, 8, 8),
         0,
         {1, 2, 3, 4, 5, 6, 7, 8},
         {1, 2, 3, 255, 5, 6, 7, 255}},
        {"RGBA16.16.16.16",
         channelOrder("rgba", 16, 16, 16, 16),
         4,
         {0xFF, 0xFF, 0x00, 0x80, 0x00, 0x00, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF},
         {255, 128, 0, 64, 0, 0, 0, 255}},
        {"RGBA16.16.16.16 float",
         channelOrder("rgba", 16, 16, 16, 16),
         12,
         {0x00, 0x3C, 0x00, 0x38, 0x00, 0x00, 0x00, 0x34, 0x00, 0xBC, 0x00, 0x7C, 0x00, 0x40, 0x00, 0x3C},
         {255, 128, 0, 64, 0, 255, 255, 255}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        Pvr3 h;
        h.pixelFormat = c.format;
        h.channelType = c.channelType;
        h.width = 2;
        Writer w;
        w.raw(h.header()).raw(c.stored);
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.container, "pvr3");
        EXPECT_EQ(image.format, PixelFormat::Rgba8);
        EXPECT_EQ(surfaceBytes(image), c.rgba);
        EXPECT_TRUE(hasNote(image, std::string(c.name) + " (PVR v3 channel order) converted to RGBA8"));
    }

    // 32-bit float channels, clamped to 0..1.
    Pvr3 h;
    h.pixelFormat = channelOrder("rgba", 32, 32, 32, 32);
    h.channelType = 12;
    h.width = 2;
    Writer w;
    w.raw(h.header());
    for (float f : {1.0f, 0.5f, 0.0f, 2.0f, -1.0f, 0.25f, 0.75f, 1.0f}) {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        w.u32(bits);
    }
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(surfaceBytes(image), (Bytes{255, 128, 0, 255, 0, 64, 191, 255}));
}

TEST(Pvr3Uncompressed, unreadable_channel_types_are_refused_with_the_offset) {
    struct Case {
        uint64_t format;
        uint32_t channelType;
        const char* says;
    };
    const std::vector<Case> cases = {
        {channelOrder("rgba", 8, 8, 8, 8), 1, "signed byte normalised"},
        {channelOrder("rgba", 8, 8, 8, 8), 12, "signed float"},
        {channelOrder("rgb", 11, 11, 10), 12, "of 11 bits is not supported"},
        {channelOrder("rg", 16, 32), 12, "mixes channel widths"},
        {channelOrder("d", 24), 0, "channel 'd' is not supported"},
        {channelOrder("rgb", 4, 4, 4), 0, "12 bits per pixel"},
    };
    for (const Case& c : cases) {
        Pvr3 h;
        h.pixelFormat = c.format;
        h.channelType = c.channelType;
        Writer w;
        w.raw(h.header()).zeros(64);
        Image image;
        std::string error;
        EXPECT_FALSE(readImage(own(w.b), image, error));
        EXPECT_EQ(error.rfind("offset 0x8: ", 0), 0u) << error;
        EXPECT_NE(error.find(c.says), std::string::npos) << error;
    }
}

TEST(DdsUncompressed, every_mask_format_converts_exactly) {
    constexpr uint32_t kRgb = 0x40, kAlphaPixels = 0x1, kLuminance = 0x20000, kAlpha = 0x2;
    struct Case {
        const char* name;
        uint32_t pfFlags, bits, r, g, b, a;
        Bytes stored, rgba;
    };
    const std::vector<Case> cases = {
        {"A8R8G8B8",
         kRgb | kAlphaPixels,
         32,
         0xFF0000,
         0xFF00,
         0xFF,
         0xFF000000u,
         {1, 2, 3, 4, 0, 128, 255, 127},
         {3, 2, 1, 4, 255, 128, 0, 127}},
        {"X8R8G8B8",
         kRgb,
         32,
         0xFF0000,
         0xFF00,
         0xFF,
         0,
         {1, 2, 3, 4, 0, 128, 255, 0},
         {3, 2, 1, 255, 255, 128, 0, 255}},
        {"A8B8G8R8",
         kRgb | kAlphaPixels,
         32,
         0xFF,
         0xFF00,
         0xFF0000,
         0xFF000000u,
         {1, 2, 3, 4, 0, 128, 255, 127},
         {1, 2, 3, 4, 0, 128, 255, 127}},
        {"R8G8B8",
         kRgb,
         24,
         0xFF0000,
         0xFF00,
         0xFF,
         0,
         {1, 2, 3, 10, 20, 30},
         {3, 2, 1, 255, 30, 20, 10, 255}},
        {"R5G6B5",
         kRgb,
         16,
         0xF800,
         0x07E0,
         0x001F,
         0,
         {0x00, 0xFC, 0x1F, 0x00},
         {255, 130, 0, 255, 0, 0, 255, 255}},
        {"A1R5G5B5",
         kRgb | kAlphaPixels,
         16,
         0x7C00,
         0x03E0,
         0x001F,
         0x8000,
         {0x10, 0xFC, 0xE0, 0x03},
         {255, 0, 132, 255, 0, 255, 0, 0}},
        {"X1R5G5B5",
         kRgb,
         16,
         0x7C00,
         0x03E0,
         0x001F,
         0,
         {0x00, 0xFC, 0x1F, 0x00},
         {255, 0, 0, 255, 0, 0, 255, 255}},
        {"A4R4G4B4",
         kRgb | kAlphaPixels,
         16,
         0x0F00,
         0x00F0,
         0x000F,
         0xF000,
         {0x34, 0x12, 0xA5, 0xF0},
         {34, 51, 68, 17, 0, 170, 85, 255}},
        {"L8", kLuminance, 8, 0xFF, 0, 0, 0, {0, 200}, {0, 0, 0, 255, 200, 200, 200, 255}},
        {"A8L8",
         kLuminance | kAlphaPixels,
         16,
         0xFF,
         0,
         0,
         0xFF00,
         {0x10, 0x20, 0xFF, 0x00},
         {16, 16, 16, 32, 255, 255, 255, 0}},
        {"A8", kAlpha, 8, 0, 0, 0, 0xFF, {0, 128}, {0, 0, 0, 0, 0, 0, 0, 128}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        Dds h;
        h.width = 2;
        h.pfFlags = c.pfFlags;
        h.bitCount = c.bits;
        h.masks[0] = c.r;
        h.masks[1] = c.g;
        h.masks[2] = c.b;
        h.masks[3] = c.a;
        Writer w;
        w.raw(h.header()).raw(c.stored);
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.container, "dds");
        EXPECT_EQ(image.format, PixelFormat::Rgba8);
        EXPECT_EQ(surfaceBytes(image), c.rgba);
        EXPECT_TRUE(hasNote(image, std::string(c.name) + " (DDS) converted to RGBA8"));
    }
}

TEST(DdsUncompressed, dx10_uncompressed_formats) {
    struct Case {
        uint32_t dxgi;
        bool srgb;
        Bytes stored, rgba;
    };
    const std::vector<Case> cases = {
        {28, false, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {29, true, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {87, false, {1, 2, 3, 4}, {3, 2, 1, 4}},
        {88, false, {1, 2, 3, 4}, {3, 2, 1, 255}},
        {91, true, {1, 2, 3, 4}, {3, 2, 1, 4}},
        {85, false, {0x00, 0xF8, 0, 0}, {255, 0, 0, 255}},
        {115, false, {0x34, 0x12, 0, 0}, {34, 51, 68, 17}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.dxgi);
        Dds h;
        h.pfFlags = 0x4;
        h.fourCC = fourCC("DX10");
        h.dx10 = true;
        h.dxgi = c.dxgi;
        Writer w;
        w.raw(h.header()).raw(c.stored);
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.srgb, c.srgb);
        const Bytes px = surfaceBytes(image);
        EXPECT_EQ(Bytes(px.begin(), px.begin() + 4), c.rgba);
    }
}

// ---------------------------------------------------------------------------------------------
// Compressed formats: ids, mip chains, cube maps, surface offsets

TEST(Pvr3Compressed, format_ids_map_to_the_specification) {
    struct Case {
        uint32_t id, channelType;
        PixelFormat format;
        uint32_t bw, bh;
        bool premultiplied;
    };
    const std::vector<Case> cases = {
        {0, 0, PixelFormat::Pvrtc1_2bpp_Rgb, 4, 4, false},
        {1, 0, PixelFormat::Pvrtc1_2bpp_Rgba, 4, 4, false},
        {2, 0, PixelFormat::Pvrtc1_4bpp_Rgb, 4, 4, false},
        {3, 0, PixelFormat::Pvrtc1_4bpp_Rgba, 4, 4, false},
        {6, 0, PixelFormat::Etc1_Rgb, 4, 4, false},
        {7, 0, PixelFormat::Bc1_Rgba, 4, 4, false},
        {8, 0, PixelFormat::Bc2, 4, 4, true},
        {9, 0, PixelFormat::Bc2, 4, 4, false},
        {10, 0, PixelFormat::Bc3, 4, 4, true},
        {11, 0, PixelFormat::Bc3, 4, 4, false},
        {22, 0, PixelFormat::Etc2_Rgb, 4, 4, false},
        {23, 0, PixelFormat::Etc2_Rgba, 4, 4, false},
        {24, 0, PixelFormat::Etc2_Rgb_A1, 4, 4, false},
        {25, 0, PixelFormat::Eac_R11, 4, 4, false},
        {25, 1, PixelFormat::Eac_R11_Signed, 4, 4, false},
        {26, 0, PixelFormat::Eac_Rg11, 4, 4, false},
        {26, 3, PixelFormat::Eac_Rg11_Signed, 4, 4, false},
        {27, 0, PixelFormat::Astc, 4, 4, false},
        {28, 0, PixelFormat::Astc, 5, 4, false},
        {29, 0, PixelFormat::Astc, 5, 5, false},
        {30, 0, PixelFormat::Astc, 6, 5, false},
        {31, 0, PixelFormat::Astc, 6, 6, false},
        {32, 0, PixelFormat::Astc, 8, 5, false},
        {33, 0, PixelFormat::Astc, 8, 6, false},
        {34, 0, PixelFormat::Astc, 8, 8, false},
        {35, 0, PixelFormat::Astc, 10, 5, false},
        {36, 0, PixelFormat::Astc, 10, 6, false},
        {37, 0, PixelFormat::Astc, 10, 8, false},
        {38, 0, PixelFormat::Astc, 10, 10, false},
        {39, 0, PixelFormat::Astc, 12, 10, false},
        {40, 0, PixelFormat::Astc, 12, 12, false},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.id);
        Pvr3 h;
        h.pixelFormat = c.id;
        h.channelType = c.channelType;
        h.width = 24;
        h.height = 20;
        h.colourSpace = 1;
        Writer w;
        w.raw(h.header()).pattern(surfaceSize(c.format, 24, 20, c.bw, c.bh));
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.format, c.format);
        EXPECT_TRUE(image.srgb);
        EXPECT_EQ(image.premultiplied, c.premultiplied);
        if (c.format == PixelFormat::Astc) {
            EXPECT_EQ(image.blockWidth, c.bw);
            EXPECT_EQ(image.blockHeight, c.bh);
        }
        // Compressed surfaces are views into the file, right after the header.
        EXPECT_EQ(image.surface(0).data, fileStart(image.surfaces[0]) + 52);
        expectConsistent(image);
    }

    const std::vector<std::pair<uint32_t, std::string>> refused = {
        {4, "offset 0x8: PVR v3 pixel format 4 (PVRTC-II 2bpp) is not supported"},
        {5, "offset 0x8: PVR v3 pixel format 5 (PVRTC-II 4bpp) is not supported"},
        {15, "offset 0x8: PVR v3 pixel format 15 (BC7) is not supported"},
        {0x2A, "offset 0x8: PVR v3 pixel format 42 (3D ASTC) is not supported"},
        {0x7F, "offset 0x8: PVR v3 pixel format 0x7F is not a known format"},
    };
    for (const auto& [id, message] : refused) {
        Pvr3 h;
        h.pixelFormat = id;
        Writer w;
        w.raw(h.header()).zeros(64);
        Image image;
        std::string error;
        EXPECT_FALSE(readImage(own(w.b), image, error));
        EXPECT_EQ(error, message);
    }
}

TEST(Pvr3Compressed, cube_map_with_mips_is_level_major) {
    // 8x8 ETC1: levels of 32, 8, 8, 8 bytes (4x4 blocks of 8 bytes), six faces each.
    Pvr3 h;
    h.pixelFormat = 6;
    h.width = h.height = 8;
    h.faces = 6;
    h.mips = 4;
    Writer w;
    w.raw(h.header()).pattern((32 + 8 + 8 + 8) * 6);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(image.format, PixelFormat::Etc1_Rgb);
    EXPECT_TRUE(image.isCube());
    EXPECT_EQ(image.levels, 4u);
    expectConsistent(image);
    const uint8_t* base = fileStart(image.surfaces[0]);
    const size_t levelStart[4] = {52, 52 + 6 * 32, 52 + 6 * 32 + 6 * 8, 52 + 6 * 32 + 12 * 8};
    const size_t levelSize[4] = {32, 8, 8, 8};
    for (uint32_t level = 0; level < 4; ++level)
        for (uint32_t face = 0; face < 6; ++face)
            EXPECT_EQ(size_t(image.surface(level, face).data - base),
                      levelStart[level] + face * levelSize[level])
                << "level " << level << " face " << face;
    EXPECT_TRUE(image.notes.empty());
}

TEST(Pvr3Compressed, array_textures_keep_surface_zero) {
    // 8x8 PVRTC 4bpp (32 bytes per level down to 2x2 blocks), 3 surfaces, 2 levels: level 0 of all
    // three surfaces, then level 1 of all three.
    Pvr3 h;
    h.pixelFormat = 3;
    h.width = h.height = 8;
    h.surfaces = 3;
    h.mips = 2;
    Writer w;
    w.raw(h.header()).pattern(32 * 3 + 32 * 3);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(image.levels, 2u);
    const uint8_t* base = fileStart(image.surfaces[0]);
    EXPECT_EQ(image.surface(0).data - base, 52);
    EXPECT_EQ(image.surface(1).data - base, 52 + 96);
    EXPECT_TRUE(hasNote(image, "texture array of 3 surfaces: only surface 0 is used"));
}

TEST(Pvr3Metadata, orientation_and_cube_order) {
    // Orientation y "up": rows bottom-up; uncompressed data is flipped.
    Pvr3 h;
    h.pixelFormat = channelOrder("l", 8);
    h.width = 1;
    h.height = 3;
    h.meta = pvr3Meta(3, {0, 2, 0});
    Writer w;
    w.raw(h.header()).raw({10, 20, 30});
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    const Bytes px = surfaceBytes(image);
    EXPECT_EQ(px[0], 30);
    EXPECT_EQ(px[8], 10);
    EXPECT_TRUE(hasNote(image, "rows stored bottom-up, flipped"));

    // Compressed data stays as stored with a note; unknown metadata is skipped by its size.
    Pvr3 c;
    c.pixelFormat = 6;
    c.width = c.height = 4;
    Bytes other = pvr3Meta(99, {1, 2, 3, 4, 5});
    other[0] = 'X';  // another namespace
    c.meta = other;
    const Bytes orientation = pvr3Meta(3, {0, 2, 0});
    c.meta.insert(c.meta.end(), orientation.begin(), orientation.end());
    Writer wc;
    wc.raw(c.header()).pattern(8);
    ASSERT_TRUE(readImage(own(wc.b), image, error)) << error;
    EXPECT_EQ(image.surface(0).data - fileStart(image.surfaces[0]), ptrdiff_t(52 + c.meta.size()));
    EXPECT_TRUE(hasNote(image, "compressed data kept as stored"));

    // Cube faces stored in another order are put in GL order.
    Pvr3 cube;
    cube.pixelFormat = channelOrder("l", 8);
    cube.faces = 6;
    cube.meta = pvr3Meta(2, {'X', 'x', 'Z', 'z', 'Y', 'y'});
    Writer wq;
    wq.raw(cube.header()).raw({0, 1, 4, 5, 2, 3});  // face k holds the GL face number it is
    ASSERT_TRUE(readImage(own(wq.b), image, error)) << error;
    for (uint32_t face = 0; face < 6; ++face) EXPECT_EQ(surfaceBytes(image, 0, face)[0], face);
    EXPECT_TRUE(hasNote(image, "cube faces stored in order XxZzYy"));

    // A metadata entry larger than its block.
    Pvr3 bad;
    bad.pixelFormat = 6;
    bad.width = bad.height = 4;
    bad.meta = pvr3Meta(3, {0, 0, 0});
    bad.meta[8] = 200;  // entry size
    Writer wb;
    wb.raw(bad.header()).pattern(300);
    EXPECT_FALSE(readImage(own(wb.b), image, error));
    EXPECT_EQ(error.rfind("offset 0x3C: ", 0), 0u) << error;
}

TEST(Pvr3Header, refusals_name_the_field_offset) {
    struct Case {
        const char* what;
        Pvr3 h;
        const char* prefix;
    };
    std::vector<Case> cases;
    Pvr3 base;
    base.pixelFormat = 6;
    base.width = base.height = 4;
    Case c{"width 0", base, "offset 0x1C: "};
    c.h.width = 0;
    cases.push_back(c);
    c = {"height 16385", base, "offset 0x18: "};
    c.h.height = 16385;
    cases.push_back(c);
    c = {"depth 2", base, "offset 0x20: "};
    c.h.depth = 2;
    cases.push_back(c);
    c = {"3 faces", base, "offset 0x28: "};
    c.h.faces = 3;
    cases.push_back(c);
    for (const Case& k : cases) {
        SCOPED_TRACE(k.what);
        Writer w;
        w.raw(k.h.header()).pattern(1000);
        Image image;
        std::string error;
        EXPECT_FALSE(readImage(own(w.b), image, error));
        EXPECT_EQ(error.rfind(k.prefix, 0), 0u) << error;
    }
    // Metadata claiming more than the file holds.
    Writer w;
    w.raw(base.header()).pattern(8);
    w.b[48] = 0xFF;
    Image image;
    std::string error;
    EXPECT_FALSE(readImage(own(w.b), image, error));
    EXPECT_EQ(error.rfind("offset 0x30: ", 0), 0u) << error;
}

TEST(Pvr2Compressed, pvrtc_mip_chain_and_cube) {
    // 32x32 PVRTC 4bpp, 5 extra levels: 512, 128, 32, 32, 32, 32 bytes (at least 2x2 blocks).
    Pvr2 h;
    h.flags = 0x19 | 0x100 | 0x200;  // PVRTC4, mipmaps, twiddled (always, for PVRTC)
    h.width = h.height = 32;
    h.mipCount = 5;
    Writer w;
    w.raw(h.header()).pattern(512 + 128 + 32 * 4);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(image.container, "pvr2");
    EXPECT_EQ(image.format, PixelFormat::Pvrtc1_4bpp_Rgb);
    EXPECT_EQ(image.levels, 6u);
    expectConsistent(image);
    const uint8_t* base = fileStart(image.surfaces[0]);
    const size_t offsets[6] = {52, 52 + 512, 52 + 640, 52 + 672, 52 + 704, 52 + 736};
    for (uint32_t level = 0; level < 6; ++level)
        EXPECT_EQ(size_t(image.surface(level).data - base), offsets[level]);
    EXPECT_TRUE(image.notes.empty());

    // The alpha mask picks the RGBA variant; PVRTC 2bpp.
    h.flags = 0x18;
    h.mipCount = 0;
    h.alphaMask = 1;
    Writer w2;
    w2.raw(h.header()).pattern(surfaceSize(PixelFormat::Pvrtc1_2bpp_Rgba, 32, 32));
    ASSERT_TRUE(readImage(own(w2.b), image, error)) << error;
    EXPECT_EQ(image.format, PixelFormat::Pvrtc1_2bpp_Rgba);

    // Cube map: each face with all its levels (face-major). 8x8 DXT1, two levels of 32 and 8 bytes.
    Pvr2 cube;
    cube.flags = 0x20 | 0x100 | 0x1000;
    cube.width = cube.height = 8;
    cube.mipCount = 1;
    cube.surfaces = 6;
    Writer wc;
    wc.raw(cube.header()).pattern(6 * 40);
    ASSERT_TRUE(readImage(own(wc.b), image, error)) << error;
    EXPECT_EQ(image.format, PixelFormat::Bc1_Rgb);
    EXPECT_EQ(image.faces, 6u);
    EXPECT_EQ(image.levels, 2u);
    base = fileStart(image.surfaces[0]);
    for (uint32_t face = 0; face < 6; ++face) {
        EXPECT_EQ(size_t(image.surface(0, face).data - base), 52 + face * 40);
        EXPECT_EQ(size_t(image.surface(1, face).data - base), 52 + face * 40 + 32);
    }

    // Other v2 types: DXT3/5, DXT2/4 premultiplied, ETC1; PVRTC-II refused.
    const std::vector<std::pair<uint32_t, PixelFormat>> types = {{0x22, PixelFormat::Bc2},
                                                                 {0x24, PixelFormat::Bc3},
                                                                 {0x36, PixelFormat::Etc1_Rgb},
                                                                 {0x0D, PixelFormat::Pvrtc1_4bpp_Rgb}};
    for (const auto& [type, format] : types) {
        Pvr2 t;
        t.flags = type;
        t.width = t.height = 4;
        Writer wt;
        wt.raw(t.header()).pattern(surfaceSize(format, 4, 4));
        ASSERT_TRUE(readImage(own(wt.b), image, error)) << error;
        EXPECT_EQ(image.format, format);
    }
    Pvr2 premult;
    premult.flags = 0x23;
    premult.width = premult.height = 4;
    Writer wp;
    wp.raw(premult.header()).pattern(16);
    ASSERT_TRUE(readImage(own(wp.b), image, error)) << error;
    EXPECT_TRUE(image.premultiplied);
    Pvr2 two;
    two.flags = 0x1C;
    Writer w3;
    w3.raw(two.header()).pattern(64);
    EXPECT_FALSE(readImage(own(w3.b), image, error));
    EXPECT_EQ(error, "offset 0x10: PVR v2 pixel type 0x1C (PVRTC-II 4bpp) is not supported");
}

TEST(DdsCompressed, fourcc_and_dx10_formats) {
    struct Case {
        const char* code;
        uint32_t pfFlags;
        PixelFormat format;
        bool premultiplied;
    };
    const std::vector<Case> cases = {
        {"DXT1", 0x4, PixelFormat::Bc1_Rgb, false}, {"DXT1", 0x5, PixelFormat::Bc1_Rgba, false},
        {"DXT2", 0x4, PixelFormat::Bc2, true},      {"DXT3", 0x4, PixelFormat::Bc2, false},
        {"DXT4", 0x4, PixelFormat::Bc3, true},      {"DXT5", 0x4, PixelFormat::Bc3, false},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.code);
        Dds h;
        h.width = h.height = 8;
        h.pfFlags = c.pfFlags;
        h.fourCC = fourCC(c.code);
        Writer w;
        w.raw(h.header()).pattern(surfaceSize(c.format, 8, 8));
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.format, c.format);
        EXPECT_EQ(image.premultiplied, c.premultiplied);
        EXPECT_EQ(image.surface(0).data - fileStart(image.surfaces[0]), 128);
    }
    const std::vector<std::tuple<uint32_t, PixelFormat, bool>> dx10 = {
        {71, PixelFormat::Bc1_Rgba, false}, {72, PixelFormat::Bc1_Rgba, true}, {74, PixelFormat::Bc2, false},
        {75, PixelFormat::Bc2, true},       {77, PixelFormat::Bc3, false},     {78, PixelFormat::Bc3, true},
    };
    for (const auto& [dxgi, format, srgb] : dx10) {
        SCOPED_TRACE(dxgi);
        Dds h;
        h.width = h.height = 8;
        h.pfFlags = 0x4;
        h.fourCC = fourCC("DX10");
        h.dx10 = true;
        h.dxgi = dxgi;
        Writer w;
        w.raw(h.header()).pattern(surfaceSize(format, 8, 8));
        Image image;
        std::string error;
        ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
        EXPECT_EQ(image.format, format);
        EXPECT_EQ(image.srgb, srgb);
        EXPECT_EQ(image.surface(0).data - fileStart(image.surfaces[0]), 148);
    }
    Dds h;
    h.pfFlags = 0x4;
    h.fourCC = fourCC("ATI2");
    Writer w;
    w.raw(h.header()).pattern(16);
    Image image;
    std::string error;
    EXPECT_FALSE(readImage(own(w.b), image, error));
    EXPECT_EQ(error, "offset 0x54: DDS fourCC 'ATI2' is not supported");
    h.fourCC = fourCC("DX10");
    h.dx10 = true;
    h.dxgi = 98;  // BC7
    Writer w2;
    w2.raw(h.header()).pattern(16);
    EXPECT_FALSE(readImage(own(w2.b), image, error));
    EXPECT_EQ(error, "offset 0x80: DDS DXGI format 98 is not supported");
}

TEST(DdsCompressed, cube_map_with_mips_is_face_major) {
    // 8x8 DXT5 with 4 levels (64, 16, 16, 16 bytes) and all six faces.
    Dds h;
    h.flags |= 0x20000;
    h.width = h.height = 8;
    h.mips = 4;
    h.pfFlags = 0x4;
    h.fourCC = fourCC("DXT5");
    h.caps = 0x401008;
    h.caps2 = 0x200 | 0xFC00;
    const size_t chain = 64 + 16 * 3;
    Writer w;
    w.raw(h.header()).pattern(chain * 6);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(image.faces, 6u);
    EXPECT_EQ(image.levels, 4u);
    expectConsistent(image);
    const uint8_t* base = fileStart(image.surfaces[0]);
    const size_t within[4] = {0, 64, 80, 96};
    for (uint32_t face = 0; face < 6; ++face)
        for (uint32_t level = 0; level < 4; ++level)
            EXPECT_EQ(size_t(image.surface(level, face).data - base), 128 + face * chain + within[level]);

    // Some faces only: refused.
    Dds partial = h;
    partial.caps2 = 0x200 | 0x400 | 0x800;
    Writer wp;
    wp.raw(partial.header()).pattern(chain * 6);
    EXPECT_FALSE(readImage(own(wp.b), image, error));
    EXPECT_EQ(error.rfind("offset 0x70: DDS cube map with only some faces", 0), 0u) << error;

    // Volume textures: refused.
    Dds volume = h;
    volume.caps2 = 0x200000;
    volume.flags |= 0x800000;
    volume.depth = 4;
    Writer wv;
    wv.raw(volume.header()).pattern(chain * 6);
    EXPECT_FALSE(readImage(own(wv.b), image, error));
    EXPECT_EQ(error, "offset 0x70: DDS volume textures are not supported");

    // DX10 cube flag.
    Dds dx = h;
    dx.caps2 = 0;
    dx.fourCC = fourCC("DX10");
    dx.dx10 = true;
    dx.dxgi = 77;
    dx.misc = 0x4;
    Writer wd;
    wd.raw(dx.header()).pattern(chain * 6);
    ASSERT_TRUE(readImage(own(wd.b), image, error)) << error;
    EXPECT_EQ(image.faces, 6u);
    EXPECT_EQ(image.surface(1, 2).data - fileStart(image.surfaces[0]), ptrdiff_t(148 + 2 * chain + 64));
}

TEST(DdsCompressed, mip_count_rules) {
    Dds h;
    h.width = h.height = 16;
    h.mips = 3;  // no DDSD_MIPMAPCOUNT flag and no mipmap cap: one level
    h.pfFlags = 0x4;
    h.fourCC = fourCC("DXT1");
    Writer w;
    w.raw(h.header()).pattern(128 + 32 + 8);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(image.levels, 1u);

    h.flags |= 0x20000;
    Writer w2;
    w2.raw(h.header()).pattern(128 + 32 + 8);
    ASSERT_TRUE(readImage(own(w2.b), image, error)) << error;
    EXPECT_EQ(image.levels, 3u);

    h.mips = 9;  // more than 16x16's chain of 5
    Writer w3;
    w3.raw(h.header()).pattern(128 + 32 + 8 * 3);
    ASSERT_TRUE(readImage(own(w3.b), image, error)) << error;
    EXPECT_EQ(image.levels, 5u);
    EXPECT_TRUE(hasNote(image, "mip count 9 is more than a full chain: clamped to 5"));
}

// ---------------------------------------------------------------------------------------------
// Truncation and corruption

TEST(Truncation, a_short_last_mip_keeps_the_complete_levels) {
    // 16x16 DXT1 with 5 levels: 128 + 32 + 8 + 8 + 8 bytes.
    Dds h;
    h.flags |= 0x20000;
    h.width = h.height = 16;
    h.mips = 5;
    h.pfFlags = 0x4;
    h.fourCC = fourCC("DXT1");
    Writer w;
    w.raw(h.header()).pattern(128 + 32 + 8 + 8 + 4);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(w.b), image, error)) << error;
    EXPECT_EQ(image.levels, 4u);
    expectConsistent(image);
    EXPECT_TRUE(hasNote(image, "kept the 4 complete of 5 mip levels"));

    // Level 0 cut short: an error naming where the data starts.
    Writer w0;
    w0.raw(h.header()).pattern(100);
    EXPECT_FALSE(readImage(own(w0.b), image, error));
    EXPECT_EQ(error.rfind("offset 0x80: level 0 (16x16) needs 128 bytes", 0), 0u) << error;

    // The same for PVR v3 (level-major: the cut falls in level 1 of a cube).
    Pvr3 p;
    p.pixelFormat = 6;
    p.width = p.height = 8;
    p.faces = 6;
    p.mips = 2;
    Writer wp;
    wp.raw(p.header()).pattern(6 * 32 + 5 * 8);
    ASSERT_TRUE(readImage(own(wp.b), image, error)) << error;
    EXPECT_EQ(image.levels, 1u);
    Writer wq;
    wq.raw(p.header()).pattern(5 * 32);
    EXPECT_FALSE(readImage(own(wq.b), image, error));
    EXPECT_EQ(error.rfind("offset 0x34: level 0", 0), 0u) << error;
}

TEST(Truncation, every_header_prefix_is_an_error_with_an_offset) {
    Pvr3 p;
    p.pixelFormat = 3;
    p.width = p.height = 8;
    p.meta = pvr3Meta(3, {0, 0, 0});
    Pvr2 v2;
    v2.flags = 0x19;
    v2.width = v2.height = 8;
    Dds d;
    d.width = d.height = 4;
    d.pfFlags = 0x4;
    d.fourCC = fourCC("DX10");
    d.dx10 = true;
    d.dxgi = 71;
    for (const Bytes& header : {p.header(), v2.header(), d.header()}) {
        for (size_t n = 0; n < header.size(); ++n) {
            Image image;
            std::string error;
            EXPECT_FALSE(readImage(own(Bytes(header.begin(), header.begin() + n)), image, error)) << n;
            EXPECT_NE(error.find("offset 0x"), std::string::npos) << n << ": " << error;
        }
    }
    // The container readers directly, with their own messages.
    Image image;
    std::string error;
    const Bytes pvrHeader = p.header(), ddsHeader = d.header();
    EXPECT_FALSE(readPvr(own(Bytes(pvrHeader.begin(), pvrHeader.begin() + 40)), image, error));
    EXPECT_EQ(error, "offset 0x0: PVR v3 header needs 52 bytes, the file has 40");
    EXPECT_FALSE(readDds(own(Bytes(ddsHeader.begin(), ddsHeader.begin() + 130)), image, error));
    EXPECT_EQ(error, "offset 0x80: DDS DX10 header needs 20 bytes, the file has 2");
    EXPECT_FALSE(readPvr(own(Bytes(60, 0)), image, error));
    EXPECT_EQ(error.rfind("offset 0x0: not a PVR file", 0), 0u) << error;
}

// ---------------------------------------------------------------------------------------------
// stb_image and detection by magic bytes

uint32_t crc32(const uint8_t* p, size_t n) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

// A PNG of width x height RGBA pixels, its zlib stream made of one stored (uncompressed) block.
Bytes makePng(uint32_t width, uint32_t height, const Bytes& rgba) {
    Bytes raw;
    for (uint32_t y = 0; y < height; ++y) {
        raw.push_back(0);  // filter: none
        raw.insert(raw.end(), rgba.begin() + y * width * 4, rgba.begin() + (y + 1) * width * 4);
    }
    uint32_t a = 1, b = 0;
    for (uint8_t v : raw) {
        a = (a + v) % 65521;
        b = (b + a) % 65521;
    }
    Bytes z = {0x78,
               0x01,
               0x01,
               uint8_t(raw.size()),
               uint8_t(raw.size() >> 8),
               uint8_t(~raw.size()),
               uint8_t(~raw.size() >> 8)};
    z.insert(z.end(), raw.begin(), raw.end());
    const uint32_t adler = (b << 16) | a;
    for (int s = 24; s >= 0; s -= 8) z.push_back(uint8_t(adler >> s));
    Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    auto chunk = [&](const char* type, const Bytes& data) {
        for (int s = 24; s >= 0; s -= 8) png.push_back(uint8_t(data.size() >> s));
        const size_t start = png.size();
        png.insert(png.end(), type, type + 4);
        png.insert(png.end(), data.begin(), data.end());
        const uint32_t crc = crc32(&png[start], png.size() - start);
        for (int s = 24; s >= 0; s -= 8) png.push_back(uint8_t(crc >> s));
    };
    Bytes ihdr;
    for (uint32_t v : {width, height})
        for (int s = 24; s >= 0; s -= 8) ihdr.push_back(uint8_t(v >> s));
    ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8-bit RGBA
    chunk("IHDR", ihdr);
    chunk("IDAT", z);
    chunk("IEND", {});
    return png;
}

TEST(Stb, png_fixture_and_detection_by_magic_not_name) {
    const Bytes pixels = {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40};
    const Bytes png = makePng(2, 2, pixels);
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(png), image, error)) << error;
    EXPECT_EQ(image.container, "png");
    EXPECT_EQ(image.width, 2u);
    EXPECT_EQ(surfaceBytes(image), pixels);

    // Named .bmp on disk: the name plays no part.
    const fs::path dir = test::outputDir() / "textures_magic";
    fs::create_directories(dir);
    std::ofstream(dir / "really_a_png.bmp", std::ios::binary)
        .write(reinterpret_cast<const char*>(png.data()), png.size());
    auto bytes = readWholeFile((dir / "really_a_png.bmp").string(), error);
    ASSERT_TRUE(bytes);
    ASSERT_TRUE(readImage(ByteView{bytes, bytes->data(), bytes->size()}, image, error)) << error;
    EXPECT_EQ(image.container, "png");
}

// Binary PGM/PPM: the samples after the header must all be there (fuzz/corpus/textures/5c58f31f...,
// a 16-bit P5 of 22 bytes); complete files decode.
TEST(Pnm, samples_must_fit_the_file) {
    const std::string crash = std::string("P555\x0c" "5\x0c" "527\0\xff" "55\x0c" "5\x0c" "527\0\xff", 22);
    Image image;
    std::string error;
    EXPECT_FALSE(readImage(own(Bytes(crash.begin(), crash.end())), image, error));
    // Its maximum is followed by a zero byte, not the one whitespace byte Netpbm requires.
    EXPECT_NE(error.find("offset 0xA: PNM header: one whitespace byte was expected"), std::string::npos) << error;
    // A 2x1 8-bit grey image, with a comment in its header, and the same at 16 bits.
    const std::string grey8 = std::string("P5 # made by hand\n2 1\n255\n", 26) + std::string("\x10\xF0", 2);
    ASSERT_TRUE(readImage(own(Bytes(grey8.begin(), grey8.end())), image, error)) << error;
    ASSERT_EQ(image.width, 2u);
    EXPECT_EQ(image.surfaces[0].data[0], 0x10);
    EXPECT_EQ(image.surfaces[0].data[4], 0xF0);
    // 16-bit samples whose two bytes are equal: the same value either way round.
    const std::string grey16 = std::string("P5\n2 1\n65535\n") + std::string("\x10\x10\xF0\xF0", 4);
    ASSERT_TRUE(readImage(own(Bytes(grey16.begin(), grey16.end())), image, error)) << error;
    EXPECT_EQ(image.surfaces[0].data[0], 0x10);
    // One byte short of either: refused.
    for (const std::string& whole : {grey8, grey16}) {
        const Bytes cut(whole.begin(), whole.end() - 1);
        EXPECT_FALSE(readImage(own(cut), image, error)) << whole.size();
        EXPECT_NE(error.find("bytes of samples"), std::string::npos) << error;
    }
}

// PGM/PPM are read by esview (stb_image's PNM loader swaps 16-bit samples, scales nothing and,
// asked for RGBA, read twice the bytes it wrote: fuzz/corpus/textures/77bebf59..., a 722-byte 55x5
// P5 of maximum 527). Samples are big-endian and scaled from 0..maximum to 0..255, rounded.
TEST(Pnm, samples_are_big_endian_and_scaled_to_the_maximum) {
    auto scaled = [](unsigned v, unsigned max) { return int((uint64_t(v) * 255 + max / 2) / max); };
    std::string grey = "P5\n3 2\n65535\n";
    for (int i = 0; i < 6; ++i) {
        grey += char(0x10 * (i + 1));  // most significant byte first
        grey += char(0x0F - i);
    }
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(own(Bytes(grey.begin(), grey.end())), image, error)) << error;
    EXPECT_EQ(image.container, "pnm");
    ASSERT_EQ(image.width * image.height, 6u);
    ASSERT_EQ(image.surfaces[0].size, 24u);
    for (int i = 0; i < 6; ++i) {
        const uint8_t* px = image.surfaces[0].data + 4 * i;
        const int want = scaled(unsigned(0x10 * (i + 1)) << 8 | unsigned(0x0F - i), 65535);
        EXPECT_EQ(int(px[0]), want) << i;
        EXPECT_EQ(int(px[1]), want) << i;
        EXPECT_EQ(int(px[2]), want) << i;
        EXPECT_EQ(int(px[3]), 255) << i;
    }
    // Colour, maximum 1000: 258, 515, 772 | 16, 288, 1000 (and the maximum is white).
    std::string rgb = "P6 2 1 1000\n";
    const uint8_t samples[12] = {0x01, 0x02, 0x02, 0x03, 0x03, 0x04, 0x00, 0x10, 0x01, 0x20, 0x03, 0xE8};
    rgb.append(reinterpret_cast<const char*>(samples), sizeof samples);
    ASSERT_TRUE(readImage(own(Bytes(rgb.begin(), rgb.end())), image, error)) << error;
    const uint8_t* px = image.surfaces[0].data;
    EXPECT_EQ(std::vector<int>(px, px + 8),
              (std::vector<int>{scaled(258, 1000), scaled(515, 1000), scaled(772, 1000), 255, scaled(16, 1000),
                                scaled(288, 1000), 255, 255}));
    EXPECT_EQ(int(px[0]), 66);
    // 8 bits, maximum 15 (4-bit grey): 15 is white, 8 is 136.
    const std::string nibble = std::string("P5 2 1 15\n") + std::string("\x0f\x08", 2);
    ASSERT_TRUE(readImage(own(Bytes(nibble.begin(), nibble.end())), image, error)) << error;
    EXPECT_EQ(int(image.surfaces[0].data[0]), 255);
    EXPECT_EQ(int(image.surfaces[0].data[4]), 136);
    // The fuzzer's input decodes, 55x5, and the header errors name their field.
    // (with a line feed after the maximum where it has a zero byte: see Stb.pnm_samples_must_fit_the_file)
    const Bytes fuzzed = {'P', '5', '5', '5', 0x0c, '5', 0x0c, '5', '2', '7', '\n'};
    Bytes whole = fuzzed;
    whole.resize(11 + 550, 0x80);
    ASSERT_TRUE(readImage(own(whole), image, error)) << error;
    EXPECT_EQ(image.width, 55u);
    EXPECT_EQ(image.height, 5u);
    for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
             {"P5 2 1 0\n\x01\x02", "maximum value 0 is outside 1..65535"},
             {"P5 2 1 70000\n\x01\x02\x01\x02", "maximum value 70000 is outside 1..65535"},
             {"P5 2 x", "offset 0x5: PNM header: the height was expected"},
             {"P6 0 1 255\n", "PNM image of 0x1 is outside"},
             {"P5 2 1 255", "one whitespace byte was expected after the maximum value"}}) {
        EXPECT_FALSE(readImage(own(Bytes(text.begin(), text.end())), image, error)) << text;
        EXPECT_NE(error.find(message), std::string::npos) << error;
    }
}

TEST(Stb, size_caps_before_decoding) {
    // A TGA header claiming 16000x16000 in a 30-byte file: refused without decoding.
    Bytes tga = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3E, 0x80, 0x3E, 32, 0};
    tga.resize(30, 0);
    Image image;
    std::string error;
    EXPECT_FALSE(readImage(own(tga), image, error));
    EXPECT_NE(error.find("would decode to 976 MiB"), std::string::npos) << error;
    // 4000x4000 (61 MiB) still cannot fit in 30 bytes of raw TGA.
    tga[12] = 0xA0;
    tga[13] = 0x0F;
    tga[14] = 0xA0;
    tga[15] = 0x0F;
    EXPECT_FALSE(readImage(own(tga), image, error));
    EXPECT_NE(error.find("cannot fit in a file of 30 bytes"), std::string::npos) << error;
    // Too wide.
    const Bytes png = makePng(20000, 1, Bytes(20000 * 4, 0));
    EXPECT_FALSE(readImage(own(png), image, error));
    EXPECT_EQ(error, "offset 0x0: png image of 20000x1 is outside 1..16384 pixels per side");
    // Not an image at all.
    EXPECT_FALSE(readImage(own(Bytes{'h', 'e', 'l', 'l', 'o'}), image, error));
    EXPECT_EQ(error.rfind("offset 0x0: not a readable image", 0), 0u) << error;
    EXPECT_FALSE(readImage(own(Bytes{}), image, error));
    EXPECT_EQ(error, "offset 0x0: empty file");
}

// ---------------------------------------------------------------------------------------------
// Real sample files

struct SampleFacts {
    const char* path;
    const char* container;
    PixelFormat format;
    uint32_t width, height, levels;
};

const std::vector<SampleFacts>& sampleFacts() {
    static const std::vector<SampleFacts> facts = {
        {"pod/nsdk/Marble.pvr", "pvr3", PixelFormat::Pvrtc1_4bpp_Rgba, 1024, 1024, 11},
        {"pod/nsdk/MarbleNormalMap.pvr", "pvr3", PixelFormat::Pvrtc1_4bpp_Rgba, 1024, 1024, 11},
        {"pod/nsdk/gnome_texture.pvr", "pvr3", PixelFormat::Pvrtc1_4bpp_Rgba, 1024, 1024, 11},
        {"pod/webglsdk/tex_arm.pvr", "pvr3", PixelFormat::Rgba8, 256, 256, 9},  // 'rgb' 8.8.8
        {"pod/webglsdk/tex_base.pvr", "pvr3", PixelFormat::Rgba8, 256, 256, 9},
        {"pod/cocos3d/tex_arm.pvr", "pvr2", PixelFormat::Pvrtc1_4bpp_Rgb, 256, 256, 9},
        {"pod/cocos3d/tex_base.pvr", "pvr2", PixelFormat::Pvrtc1_4bpp_Rgb, 256, 256, 9},
        {"pod/oolong/tex_arm.pvr", "pvr2", PixelFormat::Pvrtc1_4bpp_Rgb, 256, 256, 9},
        {"pod/oolong/tex_base.pvr", "pvr2", PixelFormat::Pvrtc1_4bpp_Rgb, 256, 256, 9},
        {"pof/ChimeraUV.dds", "dds", PixelFormat::Bc1_Rgb, 1024, 1024, 1},
        {"pof/destroyer_framework_01.dds", "dds", PixelFormat::Bc3, 1024, 1024, 11},
        {"pof/invisiblebta.dds", "dds", PixelFormat::Bc3, 128, 128, 8},
        {"pof/f14.png", "png", PixelFormat::Rgba8, 512, 512, 1},
        {"pof/glass-trans.png", "png", PixelFormat::Rgba8, 32, 32, 1},
        {"pof/missile1.png", "png", PixelFormat::Rgba8, 512, 512, 1},
        {"pod/cocos3d/BrushedSteel.png", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/cocos3d/Head_diffuse.bmp", "png", PixelFormat::Rgba8, 256, 256, 1},  // a PNG named .bmp
        {"pod/cocos3d/tex_base.bmp", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/cocos3d/belt.png", "png", PixelFormat::Rgba8, 32, 32, 1},
        {"pod/cocos3d/body.png", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/cocos3d/cocos3dMascot.png", "png", PixelFormat::Rgba8, 512, 512, 1},
        {"pod/cocos3d/legs.png", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/cocos3d/mallet.png", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/cocos3d/tex_arm.png", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/cocos3d/tex_base.png", "png", PixelFormat::Rgba8, 256, 256, 1},
        {"pod/oolong/mallet.bmp", "bmp", PixelFormat::Rgba8, 256, 256, 1},
        {"awd/onkba_N.jpg", "jpeg", PixelFormat::Rgba8, 1024, 1024, 1},
        {"awd/polarbear_diffuse.jpg", "jpeg", PixelFormat::Rgba8, 1024, 1024, 1},
        {"ogex/Test.png", "png", PixelFormat::Rgba8, 2, 2, 1},
        {"ogex/image.tga", "tga", PixelFormat::Rgba8, 2, 3, 1},
    };
    return facts;
}

Image readSample(const std::string& relative, std::shared_ptr<const std::vector<uint8_t>>* keep = nullptr) {
    std::string error;
    auto bytes = readWholeFile((test::modelsDir() / relative).string(), error);
    EXPECT_TRUE(bytes) << error;
    Image image;
    if (!bytes) return image;
    EXPECT_TRUE(readImage(ByteView{bytes, bytes->data(), bytes->size()}, image, error))
        << relative << ": " << error;
    if (keep) *keep = bytes;
    return image;
}

TEST(Samples, every_image_reads_with_the_facts_from_its_header) {
    ESVIEW_REQUIRE_MODELS("");
    for (const SampleFacts& f : sampleFacts()) {
        SCOPED_TRACE(f.path);
        if (!fs::exists(test::modelsDir() / f.path)) {
            ADD_FAILURE() << "missing sample";
            continue;
        }
        const Image image = readSample(f.path);
        EXPECT_EQ(image.container, f.container);
        EXPECT_EQ(image.format, f.format);
        EXPECT_EQ(image.width, f.width);
        EXPECT_EQ(image.height, f.height);
        EXPECT_EQ(image.levels, f.levels);
        EXPECT_EQ(image.faces, 1u);
        expectConsistent(image);
    }
    // And every image file there, listed or not, reads.
    size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(test::modelsDir())) {
        std::string ext = entry.path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (ext != ".pvr" && ext != ".dds" && ext != ".png" && ext != ".jpg" && ext != ".bmp" &&
            ext != ".tga")
            continue;
        SCOPED_TRACE(entry.path().string());
        const Image image = readSample(fs::relative(entry.path(), test::modelsDir()).string());
        EXPECT_FALSE(image.empty());
        ++count;
    }
    EXPECT_GE(count, sampleFacts().size());
}

TEST(Samples, header_details_and_pixels) {
    ESVIEW_REQUIRE_MODELS("pod");
    // Marble: no orientation change; the normal map's metadata says rows go up.
    Image marble = readSample("pod/nsdk/Marble.pvr");
    EXPECT_TRUE(marble.notes.empty());
    EXPECT_EQ(marble.surface(10).size, 32u);  // 1x1 PVRTC 4bpp is still 2x2 blocks
    Image normals = readSample("pod/nsdk/MarbleNormalMap.pvr");
    EXPECT_TRUE(hasNote(normals, "rows stored bottom-up (compressed data kept as stored)"));
    // The mip data starts after the 52-byte header and 15 bytes of metadata.
    std::shared_ptr<const std::vector<uint8_t>> keep;
    marble = readSample("pod/nsdk/Marble.pvr", &keep);
    EXPECT_EQ(marble.surface(0).data - keep->data(), 67);
    EXPECT_EQ(marble.surface(1).data - keep->data(), 67 + 524288);

    // Legacy cocos3d PVR: the vertical flip flag is noted; oolong's identical file has none.
    EXPECT_TRUE(hasNote(readSample("pod/cocos3d/tex_base.pvr"), "vertical flip flag"));
    EXPECT_TRUE(readSample("pod/oolong/tex_base.pvr").notes.empty());

    // WebGL SDK: RGB888 converted; its orientation metadata says rows go up, so the first stored
    // pixel (bytes 0xBB 0xC2 0xAD at offset 67) lands in the bottom row.
    const Image webgl = readSample("pod/webglsdk/tex_base.pvr");
    EXPECT_TRUE(hasNote(webgl, "RGB888 (PVR v3 channel order) converted to RGBA8"));
    EXPECT_TRUE(hasNote(webgl, "rows stored bottom-up, flipped so row 0 is the top"));
    const size_t lastRow = size_t(255) * 256 * 4;
    EXPECT_EQ(Bytes(webgl.surface(0).begin() + lastRow, webgl.surface(0).begin() + lastRow + 4),
              (Bytes{0xBB, 0xC2, 0xAD, 255}));
    EXPECT_EQ(webgl.surface(8).size, 4u);

    ESVIEW_REQUIRE_MODELS("ogex");
    // Test.png: 2x2 opaque black. image.tga: 2x3 BGR stored bottom-up.
    EXPECT_EQ(surfaceBytes(readSample("ogex/Test.png")),
              (Bytes{0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255}));
    EXPECT_EQ(surfaceBytes(readSample("ogex/image.tga")),
              (Bytes{7, 6, 5, 255, 8, 7, 6, 255, 5, 4, 3, 255, 6, 5, 4, 255, 3, 2, 1, 255, 4, 3, 2, 255}));
    // mallet.bmp: a bottom-up 24-bit BMP; its first stored pixel is the bottom-left one.
    const Image mallet = readSample("pod/oolong/mallet.bmp");
    const size_t bottomLeft = size_t(255) * 256 * 4;
    EXPECT_EQ(Bytes(mallet.surface(0).begin() + bottomLeft, mallet.surface(0).begin() + bottomLeft + 4),
              (Bytes{0x7B, 0x50, 0x29, 255}));
}

// Every truncation (at ~64 points) and 200 seeded corruptions of every sample must give true or
// false, never a crash; images that read must be consistent, and their smallest level decodes.
TEST(Samples, truncations_and_corruptions_never_crash) {
    ESVIEW_REQUIRE_MODELS("");
    std::mt19937 random(12345);
    size_t accepted = 0, refused = 0;
    for (const SampleFacts& f : sampleFacts()) {
        SCOPED_TRACE(f.path);
        std::string error;
        auto original = readWholeFile((test::modelsDir() / f.path).string(), error);
        ASSERT_TRUE(original) << error;
        const Bytes& file = *original;
        auto check = [&](Bytes bytes) {
            Image image;
            std::string why;
            if (readImage(own(std::move(bytes)), image, why)) {
                ++accepted;
                expectConsistent(image);
                std::vector<uint8_t> rgba;
                const uint32_t last = image.levels - 1;
                if (image.levelWidth(last) * image.levelHeight(last) <= 4096) {
                    EXPECT_TRUE(decodeSurface(image, last, 0, rgba, why)) << why;
                }
            } else {
                ++refused;
                EXPECT_FALSE(why.empty());
            }
        };
        for (int i = 0; i < 64; ++i) check(Bytes(file.begin(), file.begin() + file.size() * i / 64));
        for (int i = 0; i < 200; ++i) {
            Bytes bytes = file;
            // Half the corruptions hit the first 160 bytes (headers), half anywhere.
            const size_t span = (i % 2) ? bytes.size() : std::min<size_t>(bytes.size(), 160);
            const int flips = 1 + int(random() % 4);
            for (int k = 0; k < flips; ++k) bytes[random() % span] = uint8_t(random());
            check(std::move(bytes));
        }
    }
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(refused, 0u);
}

// ---------------------------------------------------------------------------------------------
// Texture lookup

struct TempTree {
    fs::path root;
    explicit TempTree(const char* name) : root(test::outputDir() / name) {
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~TempTree() { fs::remove_all(root); }
    std::string file(const std::string& relative, const Bytes& content = {1}) const {
        const fs::path p = root / relative;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary)
            .write(reinterpret_cast<const char*>(content.data()), content.size());
        return p.string();
    }
};

TEST(Lookup, case_subfolders_extensions_and_windows_paths) {
    TempTree t("textures_lookup");
    const std::string model = t.file("scene.pod");
    const std::string diffuse = t.file("Diffuse.PNG");
    const std::string normal = t.file("Textures/Normal.pvr");
    const std::string spec = t.file("maps/spec.dds");
    const std::string a_png = t.file("a.png");
    const std::string a_pvr = t.file("a.pvr");
    const std::string deep = t.file("Art/Sub/deep.tga");
    const std::string bare = t.file("noextension");

    EXPECT_EQ(resolveTexturePath(model, "diffuse.png"), diffuse);
    EXPECT_EQ(resolveTexturePath(model, "DIFFUSE.bmp"), diffuse);               // extension substituted
    EXPECT_EQ(resolveTexturePath(model, "C:\\work\\art\\Normal.png"), normal);  // drive and folders dropped
    EXPECT_EQ(resolveTexturePath(model, "textures\\normal.pvr"), normal);       // relative folder, any case
    EXPECT_EQ(resolveTexturePath(model, "spec"), spec);                         // no extension (POF)
    EXPECT_EQ(resolveTexturePath(model, "a.png"), a_png);                       // own extension first
    EXPECT_EQ(resolveTexturePath(model, "a.bmp"), a_pvr);                       // then .pvr first
    EXPECT_EQ(resolveTexturePath(model, "art/sub/DEEP.TGA"), deep);
    EXPECT_EQ(resolveTexturePath(model, "noextension.png"), bare);              // bare name last
    EXPECT_EQ(resolveTexturePath(model, deep), deep);                           // absolute, as given
    EXPECT_EQ(resolveTexturePath(model, "/no/such/dir/Diffuse.png"), diffuse);  // absolute, not there

    std::vector<std::string> searched;
    EXPECT_EQ(resolveTexturePath(model, "missing.png", &searched), "");
    ASSERT_EQ(searched.size(), 3u);  // next to the model, Textures/, maps/
    EXPECT_EQ(searched[0], (t.root / "missing.*").string());
    EXPECT_EQ(searched[1], (t.root / "Textures" / "missing.*").string());
    EXPECT_EQ(searched[2], (t.root / "maps" / "missing.*").string());
    searched.clear();
    EXPECT_EQ(resolveTexturePath(model, "  ", &searched), "");
    EXPECT_TRUE(searched.empty());
}

TEST(Lookup, exact_case_wins_over_a_folded_match) {
    TempTree t("textures_lookup_case");
    const std::string model = t.file("m.pod");
    const std::string lowerName = t.file("skin.png");
    const std::string upperName = t.file("SKIN.png");
    if (!fs::exists(lowerName) || !fs::exists(upperName) || fs::equivalent(lowerName, upperName))
        GTEST_SKIP() << "case-insensitive file system";
    EXPECT_EQ(resolveTexturePath(model, "SKIN.png"), upperName);
    EXPECT_EQ(resolveTexturePath(model, "skin.png"), lowerName);
    EXPECT_EQ(resolveTexturePath(model, "Skin.png"), upperName);  // no exact match: first folded one (sorted)
}

// textureExtensions() is what the lookup tries, in its order (the browser page guesses by it).
TEST(Lookup, listed_extensions_are_the_ones_tried_in_that_order) {
    const std::vector<std::string>& extensions = textureExtensions();
    ASSERT_GE(extensions.size(), 2u);
    EXPECT_EQ(extensions.front(), ".pvr");
    for (size_t i = 0; i < extensions.size(); ++i) {
        SCOPED_TRACE(extensions[i]);
        TempTree t("textures_lookup_extensions");
        const std::string model = t.file("m.pod");
        // This extension and every later one exist: this one is found first.
        for (size_t j = i; j < extensions.size(); ++j) t.file("skin" + extensions[j]);
        EXPECT_EQ(resolveTexturePath(model, "skin"), (t.root / ("skin" + extensions[i])).string());
    }
}

TEST(Lookup, real_samples_name_other_extensions_and_cases) {
    ESVIEW_REQUIRE_MODELS("pod");
    const fs::path pod = test::modelsDir() / "pod";
    EXPECT_EQ(resolveTexturePath((pod / "oolong/oolong_IntroducingPOD_fixed.pod").string(), "tex_arm.bmp"),
              (pod / "oolong/tex_arm.pvr").string());
    EXPECT_EQ(resolveTexturePath((pod / "nsdk/nsdk_Bumpmap_scene.pod").string(), "marble.pvr"),
              (pod / "nsdk/Marble.pvr").string());
    EXPECT_EQ(resolveTexturePath((pod / "nsdk/nsdk_gnome6.pod").string(), "gnome_texture.png"),
              (pod / "nsdk/gnome_texture.pvr").string());
    // cocos3d ships tex_base.bmp (a PNG) next to the POD naming it: found as named.
    EXPECT_EQ(resolveTexturePath((pod / "cocos3d/cocos3d_ReflectiveMask.pod").string(), "tex_base.bmp"),
              (pod / "cocos3d/tex_base.bmp").string());
}

// ---------------------------------------------------------------------------------------------
// Scene preparation

size_t countLines(const Scene& scene, Severity severity, const std::string& part) {
    return size_t(std::count_if(scene.report.begin(), scene.report.end(), [&](const ReportLine& l) {
        return l.severity == severity && l.text.find(part) != std::string::npos;
    }));
}

std::unique_ptr<Scene> loadPod(const std::string& relative) {
    LoadResult r = loadSceneFile((test::modelsDir() / relative).string());
    EXPECT_TRUE(r.scene) << (r.problems.empty() ? "" : r.problems[0].format());
    return std::move(r.scene);
}

TEST(SceneTextures, pod_textures_resolve_read_and_share) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto scene = loadPod("pod/nsdk/nsdk_Bumpmap_scene.pod");
    ASSERT_TRUE(scene);
    ASSERT_EQ(scene->textures.size(), 2u);
    const size_t warningsBefore = countLines(*scene, Severity::Warning, "");
    EXPECT_EQ(prepareSceneTextures(*scene, [](PixelFormat) { return true; }), 0);
    const fs::path nsdk = test::modelsDir() / "pod/nsdk";
    EXPECT_EQ(scene->textures[0].path, "marble.pvr");
    EXPECT_EQ(scene->textures[0].resolvedPath, (nsdk / "Marble.pvr").string());
    EXPECT_EQ(scene->textures[1].resolvedPath, (nsdk / "MarbleNormalMap.pvr").string());
    for (const Texture& t : scene->textures) {
        EXPECT_FALSE(t.placeholder);
        EXPECT_EQ(t.image.levels, 11u);
    }
    // The marble map stays PVRTC for the GPU; the normal map is stored bottom-up (orientation
    // metadata), so it is decoded top-down even with GPU support.
    EXPECT_EQ(scene->textures[0].image.format, PixelFormat::Pvrtc1_4bpp_Rgba);
    EXPECT_EQ(scene->textures[1].image.format, PixelFormat::Rgba8);
    EXPECT_EQ(
        countLines(*scene, Severity::Info,
                   "texture 1 'MarbleNormalMap.pvr': PVRTC1 4bpp RGBA decoded to RGBA8 in software (rows "
                   "stored bottom-up)"),
        1u);
    EXPECT_EQ(countLines(*scene, Severity::Warning, ""), warningsBefore);
    EXPECT_EQ(countLines(*scene, Severity::Info, "texture 0 'marble.pvr': found as"), 1u);
    EXPECT_EQ(countLines(*scene, Severity::Info, "texture 1 'MarbleNormalMap.pvr': orientation metadata"),
              1u);

    // Two names for one file are read once and share the surfaces.
    Texture again;
    again.name = again.path = "MARBLE.png";
    scene->textures.push_back(again);
    EXPECT_EQ(prepareSceneTextures(*scene, nullptr), 0);
    EXPECT_EQ(scene->textures[2].resolvedPath, scene->textures[0].resolvedPath);
    EXPECT_EQ(scene->textures[2].image.surface(0).data, scene->textures[0].image.surface(0).data);
    EXPECT_EQ(countLines(*scene, Severity::Info, "texture 2 'MARBLE.png': same file as texture 0"), 1u);
}

TEST(SceneTextures, software_decode_when_the_gpu_lacks_the_codec) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto scene = loadPod("pod/oolong/oolong_IntroducingPOD_fixed.pod");
    ASSERT_TRUE(scene);
    ASSERT_EQ(scene->textures.size(), 2u);
    EXPECT_EQ(prepareSceneTextures(*scene, [](PixelFormat f) { return f == PixelFormat::Rgba8; }), 0);
    const fs::path oolong = test::modelsDir() / "pod/oolong";
    EXPECT_EQ(scene->textures[0].resolvedPath, (oolong / "tex_arm.pvr").string());
    EXPECT_EQ(scene->textures[1].resolvedPath, (oolong / "tex_base.pvr").string());
    for (const Texture& t : scene->textures) {
        EXPECT_FALSE(t.placeholder);
        EXPECT_EQ(t.image.format, PixelFormat::Rgba8);
        EXPECT_EQ(t.image.levels, 9u);
        EXPECT_EQ(t.image.surface(0).size, 256u * 256 * 4);
    }
    EXPECT_EQ(
        countLines(*scene, Severity::Info,
                   "texture 0 'tex_arm.bmp': PVRTC1 4bpp RGB decoded to RGBA8 in software (no GPU support)"),
        1u);
    EXPECT_EQ(countLines(*scene, Severity::Info, "texture 1 'tex_base.bmp': found as"), 1u);
}

// cocos3d's legacy PVRTC files carry the vertical flip flag: block data cannot be flipped as
// stored, so they are decoded (rows top-down) even when the GPU has PVRTC.
TEST(SceneTextures, bottom_up_compressed_textures_are_decoded_top_down) {
    ESVIEW_REQUIRE_MODELS("pod");
    Scene scene;
    scene.sourcePath = (test::modelsDir() / "pod/cocos3d/any.pod").string();
    Texture t;
    t.name = t.path = "tex_base.pvr";
    scene.textures.push_back(t);
    EXPECT_EQ(prepareSceneTextures(scene, [](PixelFormat) { return true; }), 0);
    EXPECT_EQ(scene.textures[0].image.format, PixelFormat::Rgba8);
    EXPECT_FALSE(scene.textures[0].image.bottomUp);
    EXPECT_EQ(countLines(scene, Severity::Info, "decoded to RGBA8 in software (rows stored bottom-up)"), 1u);
    // Top-down now: the decoded image matches the PNG of the same texture row for row.
    int w = 0, h = 0, n = 0;
    const std::string png = (test::modelsDir() / "pod/cocos3d/tex_base.png").string();
    unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
    ASSERT_NE(pixels, nullptr);
    ASSERT_EQ(w, 256);
    ASSERT_EQ(h, 256);
    double error = 0.0;
    const uint8_t* decoded = scene.textures[0].image.surface(0).data;
    for (int i = 0; i < w * h * 4; ++i)
        if (i % 4 != 3) error += std::abs(int(decoded[i]) - int(pixels[i]));
    stbi_image_free(pixels);
    EXPECT_LT(error / (w * h * 3), 6.0) << "mean absolute difference against the PNG";
}

TEST(SceneTextures, missing_and_unreadable_textures_get_one_warning_each) {
    ESVIEW_REQUIRE_MODELS("pod");
    auto scene = loadPod("pod/webglsdk/webglsdk_IntroducingPOD.pod");
    ASSERT_TRUE(scene);
    const size_t textures = scene->textures.size();
    ASSERT_EQ(textures, 2u);
    Texture missing;
    missing.name = missing.path = "nowhere_to_be_found.png";
    scene->textures.push_back(missing);
    const size_t warningsBefore = countLines(*scene, Severity::Warning, "");
    EXPECT_EQ(prepareSceneTextures(*scene, [](PixelFormat) { return true; }), 1);
    EXPECT_EQ(countLines(*scene, Severity::Warning, ""), warningsBefore + 1);
    EXPECT_EQ(countLines(*scene, Severity::Warning,
                         "texture 2 'nowhere_to_be_found.png': 'nowhere_to_be_found.png' "
                         "not found; searched "),
              1u);
    EXPECT_EQ(countLines(*scene, Severity::Warning, "nowhere_to_be_found.*"), 1u);
    const Texture& t = scene->textures[2];
    EXPECT_TRUE(t.placeholder);
    EXPECT_EQ(t.image.container, "checker");
    EXPECT_TRUE(t.resolvedPath.empty());
    EXPECT_EQ(scene->textures[0].image.format, PixelFormat::Rgba8);  // webglsdk's RGB888 PVRs
    EXPECT_FALSE(scene->textures[0].placeholder);

    // Unreadable files and embedded bytes.
    TempTree tree("textures_prepare");
    Scene s;
    s.sourcePath = tree.file("model.pod");
    tree.file("broken.png", Bytes{'n', 'o', 'p', 'e'});
    Texture broken;
    broken.name = broken.path = "broken.png";
    Texture embedded;
    embedded.name = "inline";
    embedded.embedded = own(makePng(1, 1, {1, 2, 3, 4}));
    Texture nameless;
    s.textures = {broken, embedded, nameless};
    EXPECT_EQ(prepareSceneTextures(s, nullptr), 2);
    EXPECT_EQ(countLines(s, Severity::Warning, ""), 2u);
    EXPECT_EQ(countLines(s, Severity::Warning, "texture 0 'broken.png': "), 1u);
    EXPECT_EQ(countLines(s, Severity::Warning, "offset 0x0: not a readable image"), 1u);
    EXPECT_EQ(countLines(s, Severity::Warning, "texture 2 '': no file name"), 1u);
    EXPECT_TRUE(s.textures[0].placeholder);
    EXPECT_FALSE(s.textures[1].placeholder);
    EXPECT_EQ(surfaceBytes(s.textures[1].image), (Bytes{1, 2, 3, 4}));
}

}  // namespace
}  // namespace esv
