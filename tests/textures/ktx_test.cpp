// KTX 1.1 and KTX 2.0 readers against files written by other tools: KTX 1 files from the
// specification's layout by tests/textures/ktx/make_ktx_fixtures.py (both byte orders), KTX 2 files
// by npm's ktx-parse (make_ktx2.mjs), ASTC payloads from astcenc with astcenc's own decode as the
// reference, Zstandard levels from the zstd command. The build runs the generator into the test
// output folder; the KTX 2 tests skip (fail in CI) without ktx-parse, all of them without python3
// or astcenc. Also: every header field's one-line error with its offset, every truncated prefix and
// corrupted header byte of every fixture (an error or a consistent image, never a crash).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "loaders/textures/decode.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/scene_textures.h"
#include "loaders/textures/texture_lookup.h"
#include "scene/scene.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

fs::path fixtureDir() {
    return test::outputDir() / "ktx";
}

// The build writes the fixtures (tests/textures/CMakeLists.txt, target ktx_fixtures); what is
// missing says why in OUT/ktx1.missing or OUT/ktx2.missing.
std::string missing(const char* part) {
    if (fs::exists(fixtureDir() / (std::string(part) + ".done"))) return "";
    std::ifstream why(fixtureDir() / (std::string(part) + ".missing"));
    const std::string text((std::istreambuf_iterator<char>(why)), std::istreambuf_iterator<char>());
    return text.empty() ? std::string("the KTX fixtures were not generated (target ktx_fixtures)") : text;
}
struct Generated {
    std::string ktx1Missing = missing("ktx1"), ktx2Missing = missing("ktx2");
};
const Generated& generated() {
    static const Generated g;
    return g;
}

#define REQUIRE_KTX1() \
    if (!generated().ktx1Missing.empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << generated().ktx1Missing
#define REQUIRE_KTX2() \
    if (!generated().ktx2Missing.empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << generated().ktx2Missing

Bytes fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Image readFixture(const std::string& name, std::string* errorOut = nullptr) {
    Image image;
    std::string error;
    const bool ok = readImage(makeOwnedBytes(fileBytes(fixtureDir() / name)), image, error);
    if (errorOut)
        *errorOut = error;
    else
        EXPECT_TRUE(ok) << name << ": " << error;
    return image;
}

Bytes surfaceBytes(const Image& image, uint32_t level, uint32_t face = 0) {
    if (size_t(level) * image.faces + face >= image.surfaces.size()) {
        ADD_FAILURE() << "no surface for level " << level << " face " << face;
        return {};
    }
    const ByteView& s = image.surface(level, face);
    return Bytes(s.begin(), s.end());
}

bool hasNote(const Image& image, const std::string& part) {
    for (const std::string& n : image.notes)
        if (n.find(part) != std::string::npos) return true;
    return false;
}

// Every surface present and exactly its level's size: what the renderer and decoders rely on.
void expectConsistent(const Image& image) {
    ASSERT_EQ(image.surfaces.size(), size_t(image.levels) * image.faces);
    for (uint32_t level = 0; level < image.levels; ++level)
        for (uint32_t face = 0; face < image.faces; ++face) {
            const uint32_t w = image.levelWidth(level), h = image.levelHeight(level);
            const size_t expected = isCompressed(image.format)
                                        ? surfaceSize(image.format, w, h, image.blockWidth, image.blockHeight)
                                        : size_t(w) * h * 4;
            EXPECT_EQ(image.surface(level, face).size, expected) << "level " << level << " face " << face;
        }
}

Bytes decoded(const Image& image, uint32_t level, uint32_t face = 0) {
    Bytes rgba;
    std::string error;
    if (size_t(level) * image.faces + face >= image.surfaces.size()) {
        ADD_FAILURE() << "no surface for level " << level << " face " << face;
        return rgba;
    }
    EXPECT_TRUE(decodeSurface(image, level, face, rgba, error)) << error;
    return rgba;
}

// ---------------------------------------------------------------------------------------------
// KTX 1.1

TEST(Ktx1, etc1_mip_chain_reads_the_same_in_both_byte_orders) {
    REQUIRE_KTX1();
    const Bytes raw = fileBytes(fixtureDir() / "etc1.raw");
    const Image le = readFixture("etc1_le.ktx"), be = readFixture("etc1_be.ktx");
    for (const Image* image : {&le, &be}) {
        EXPECT_EQ(image->container, "ktx");
        EXPECT_EQ(image->format, PixelFormat::Etc1_Rgb);
        EXPECT_EQ(image->width, 16u);
        EXPECT_EQ(image->height, 8u);
        EXPECT_EQ(image->levels, 5u);
        EXPECT_EQ(image->faces, 1u);
        EXPECT_FALSE(image->bottomUp);
        expectConsistent(*image);
        size_t at = 0;
        for (uint32_t level = 0; level < image->levels; ++level) {
            const Bytes s = surfaceBytes(*image, level);
            EXPECT_EQ(s, Bytes(raw.begin() + long(at), raw.begin() + long(at + s.size())))
                << "level " << level;
            at += s.size();
        }
        EXPECT_EQ(at, raw.size());
    }
    EXPECT_TRUE(hasNote(be, "big-endian"));
    EXPECT_FALSE(hasNote(le, "big-endian"));
    // Decoded like the same blocks from a raw path.
    Image rawImage = le;
    rawImage.surfaces = {makeOwnedBytes(Bytes(raw.begin(), raw.begin() + 64))};  // 4x2 blocks
    rawImage.levels = 1;
    EXPECT_EQ(decoded(be, 0), decoded(rawImage, 0));
}

TEST(Ktx1, etc2_cube_faces_in_gl_order_with_their_mips) {
    REQUIRE_KTX1();
    const Bytes raw = fileBytes(fixtureDir() / "etc2_cube.raw");
    const Image image = readFixture("etc2_cube.ktx");
    EXPECT_EQ(image.format, PixelFormat::Etc2_Rgba);
    EXPECT_EQ(image.faces, 6u);
    EXPECT_EQ(image.levels, 4u);
    expectConsistent(image);
    size_t at = 0;
    for (uint32_t level = 0; level < 4; ++level)
        for (uint32_t face = 0; face < 6; ++face) {
            const Bytes s = surfaceBytes(image, level, face);
            EXPECT_EQ(s, Bytes(raw.begin() + long(at), raw.begin() + long(at + s.size())))
                << "level " << level << " face " << face;
            at += s.size();
        }
    EXPECT_EQ(at, raw.size());
    // decodeLayer's face (the inspector's cube face picture): each face's base level blocks, decoded.
    for (uint32_t face = 0; face < 6; ++face) {
        std::vector<uint8_t> rgba, expected(8 * 8 * 4);
        std::string error;
        ASSERT_TRUE(decodeLayer(image, 0, rgba, error, face)) << error;
        decodeEtc(image.format, raw.data() + face * 64, 8, 8, expected.data());
        EXPECT_EQ(rgba, expected) << "face " << face;
    }
    std::vector<uint8_t> none;
    std::string error;
    EXPECT_FALSE(decodeLayer(image, 0, none, error, 6));
    EXPECT_EQ(error, "no face 6 (the image has 6)");
}

// Every layer's blocks, as the script wrote them: layer 0 as the image's surfaces, the later ones for
// the inspector; decoded, each layer is its own blocks decoded.
void expectLayers(const Image& image, const Bytes& raw, uint32_t blockBytes) {
    ASSERT_EQ(image.layers, 3u);
    ASSERT_EQ(image.layerSurfaces.size(), 2u);
    EXPECT_EQ(surfaceBytes(image, 0), Bytes(raw.begin(), raw.begin() + blockBytes));
    for (uint32_t layer = 1; layer < 3; ++layer) {
        const ByteView& s = image.layerSurfaces[layer - 1];
        EXPECT_EQ(Bytes(s.begin(), s.end()),
                  Bytes(raw.begin() + long(layer * blockBytes), raw.begin() + long((layer + 1) * blockBytes)))
            << "layer " << layer;
        std::vector<uint8_t> rgba, expected(size_t(image.width) * image.height * 4);
        std::string error;
        ASSERT_TRUE(decodeLayer(image, layer, rgba, error)) << error;
        decodeEtc(image.format, raw.data() + layer * blockBytes, image.width, image.height, expected.data());
        EXPECT_EQ(rgba, expected) << "layer " << layer;
    }
    Image decoded;
    std::string error;
    ASSERT_TRUE(decodeImage(image, decoded, error)) << error;
    ASSERT_EQ(decoded.layerSurfaces.size(), 2u);
    std::vector<uint8_t> last;
    ASSERT_TRUE(decodeLayer(image, 2, last, error)) << error;
    EXPECT_EQ(Bytes(decoded.layerSurfaces[1].begin(), decoded.layerSurfaces[1].end()), last);
    std::vector<uint8_t> none;
    EXPECT_FALSE(decodeLayer(image, 3, none, error));
    EXPECT_EQ(error, "no layer 3 (the image has 3)");
}

TEST(Ktx1, array_keeps_every_layer_and_draws_layer_zero) {
    REQUIRE_KTX1();
    const Bytes raw = fileBytes(fixtureDir() / "etc1_array.raw");
    const Image image = readFixture("etc1_array.ktx");
    EXPECT_EQ(image.levels, 1u);
    expectLayers(image, raw, 32);
    EXPECT_TRUE(hasNote(image, "texture array of 3 layers: layer 0 is drawn; the inspector shows each layer's base level"));
}

TEST(Ktx1, astc_levels_decode_as_astcenc_decodes_them) {
    REQUIRE_KTX1();
    const Image image = readFixture("astc6x6.ktx");
    EXPECT_EQ(image.format, PixelFormat::Astc);
    EXPECT_EQ(image.blockWidth, 6u);
    EXPECT_EQ(image.blockHeight, 6u);
    EXPECT_EQ(image.width, 37u);
    EXPECT_EQ(image.height, 23u);
    EXPECT_EQ(image.levels, 3u);
    EXPECT_FALSE(image.srgb);
    for (uint32_t level = 0; level < image.levels; ++level) {
        const Image theirs = readFixture("astc6x6_l" + std::to_string(level) + ".astcenc.png");
        ASSERT_EQ(theirs.width, image.levelWidth(level));
        ASSERT_EQ(theirs.height, image.levelHeight(level));
        EXPECT_EQ(decoded(image, level), surfaceBytes(theirs, 0)) << "level " << level;
    }
}

TEST(Ktx1, pvrtc_and_s3tc_surfaces_are_the_stored_blocks) {
    REQUIRE_KTX1();
    const Image pvrtc = readFixture("pvrtc4.ktx");
    EXPECT_EQ(pvrtc.format, PixelFormat::Pvrtc1_4bpp_Rgba);
    EXPECT_EQ(surfaceBytes(pvrtc, 0), fileBytes(fixtureDir() / "pvrtc4.raw"));
    const Image dxt1 = readFixture("dxt1.ktx");
    EXPECT_EQ(dxt1.format, PixelFormat::Bc1_Rgba);
    EXPECT_EQ(surfaceBytes(dxt1, 0), fileBytes(fixtureDir() / "dxt1.raw"));
}

TEST(Ktx1, uncompressed_layouts_convert_to_rgba8) {
    REQUIRE_KTX1();
    // RGB8 5x3: rows of 15 bytes padded to 16; pixel (x*50, y*80, 200-x*10); level 1 is 2x1.
    const Image rgb = readFixture("rgb8.ktx");
    EXPECT_EQ(rgb.format, PixelFormat::Rgba8);
    EXPECT_EQ(rgb.levels, 2u);
    EXPECT_TRUE(hasNote(rgb, "RGB8 (KTX) converted to RGBA8"));
    for (uint32_t level = 0; level < 2; ++level) {
        Bytes expected;
        for (uint32_t y = 0; y < rgb.levelHeight(level); ++y)
            for (uint32_t x = 0; x < rgb.levelWidth(level); ++x)
                expected.insert(expected.end(),
                                {uint8_t(x * 50), uint8_t(y * 80), uint8_t(200 - x * 10), 255});
        EXPECT_EQ(surfaceBytes(rgb, level), expected) << "level " << level;
    }
    // RGB565 big-endian: r = x*10, g = y*20 + x, b = 31 - x, scaled round(v * 255 / max).
    const Image c565 = readFixture("rgb565_be.ktx");
    Bytes expected;
    auto scale = [](uint32_t v, uint32_t max) { return uint8_t((v * 255 + max / 2) / max); };
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 3; ++x)
            expected.insert(expected.end(),
                            {scale(x * 10, 31), scale(y * 20 + x, 63), scale(31 - x, 31), 255});
    EXPECT_EQ(surfaceBytes(c565, 0), expected);
    EXPECT_TRUE(hasNote(c565, "big-endian"));
    // RGBA4444: r = x*15, g = y*15, b = 5, a = 10 (4-bit values * 17).
    const Image c4444 = readFixture("rgba4444.ktx");
    EXPECT_EQ(surfaceBytes(c4444, 0),
              (Bytes{0, 0, 85, 170, 255, 0, 85, 170, 0, 255, 85, 170, 255, 255, 85, 170}));
    // LA8 3x1: l = 10 + 100x, a = 250 - x.
    EXPECT_EQ(surfaceBytes(readFixture("la8.ktx"), 0),
              (Bytes{10, 10, 10, 250, 110, 110, 110, 249, 210, 210, 210, 248}));
    // KTXorientation T=u: the stored first row is the bottom one; flipped so row 0 is the top.
    const Image up = readFixture("rgba8_bottomup.ktx");
    EXPECT_EQ(surfaceBytes(up, 0), (Bytes{0, 100, 7, 255, 100, 100, 7, 255, 0, 0, 7, 255, 100, 0, 7, 255}));
    EXPECT_TRUE(hasNote(up, "rows stored bottom-up, flipped"));
}

// The shared sample gnome_texture.pvr (PVRTC1 4bpp RGBA, 1024x1024, 11 levels, orientation
// metadata: rows bottom-up) rewrapped as KTX 1.1 by the generator: the same image both ways.
TEST(Ktx1, shared_pvr_sample_rewrapped_reads_the_same) {
    REQUIRE_KTX1();
    ESVIEW_REQUIRE_MODELS("pod/nsdk");
    ASSERT_TRUE(fs::exists(fixtureDir() / "gnome_texture_from_pvr.ktx"));
    Image pvr;
    std::string error;
    ASSERT_TRUE(
        readImage(makeOwnedBytes(fileBytes(test::modelsDir() / "pod/nsdk/gnome_texture.pvr")), pvr, error))
        << error;
    const Image ktx = readFixture("gnome_texture_from_pvr.ktx");
    EXPECT_EQ(ktx.format, PixelFormat::Pvrtc1_4bpp_Rgba);
    EXPECT_EQ(ktx.format, pvr.format);
    EXPECT_EQ(ktx.width, 1024u);
    EXPECT_EQ(ktx.levels, pvr.levels);
    EXPECT_EQ(ktx.levels, 11u);
    EXPECT_TRUE(pvr.bottomUp);
    EXPECT_EQ(ktx.bottomUp, pvr.bottomUp);
    for (uint32_t level = 0; level < ktx.levels; ++level)
        EXPECT_EQ(surfaceBytes(ktx, level), surfaceBytes(pvr, level)) << "level " << level;
}

// ---------------------------------------------------------------------------------------------
// KTX 2.0

TEST(Ktx2, astc_levels_are_the_ktx1_payloads_with_and_without_zstandard) {
    REQUIRE_KTX1();
    REQUIRE_KTX2();
    const Image ktx1 = readFixture("astc6x6.ktx");
    for (const char* name : {"astc6x6.ktx2", "astc6x6_zstd.ktx2"}) {
        SCOPED_TRACE(name);
        const Image image = readFixture(name);
        EXPECT_EQ(image.container, "ktx2");
        EXPECT_EQ(image.format, PixelFormat::Astc);
        EXPECT_EQ(image.blockWidth, 6u);
        EXPECT_EQ(image.blockHeight, 6u);
        EXPECT_EQ(image.width, 37u);
        EXPECT_EQ(image.height, 23u);
        EXPECT_EQ(image.levels, 3u);
        EXPECT_FALSE(image.bottomUp);
        expectConsistent(image);
        for (uint32_t level = 0; level < 3; ++level) {
            EXPECT_EQ(surfaceBytes(image, level), surfaceBytes(ktx1, level)) << "level " << level;
            const Image theirs = readFixture("astc6x6_l" + std::to_string(level) + ".astcenc.png");
            EXPECT_EQ(decoded(image, level), surfaceBytes(theirs, 0)) << "level " << level;
        }
    }
    EXPECT_TRUE(hasNote(readFixture("astc6x6_zstd.ktx2"), "Zstandard"));
}

TEST(Ktx2, etc2_cube_matches_ktx1_stored_plain_and_zlib) {
    REQUIRE_KTX1();
    REQUIRE_KTX2();
    const Image ktx1 = readFixture("etc2_cube.ktx");
    for (const char* name : {"etc2_cube.ktx2", "etc2_cube_zlib.ktx2"}) {
        SCOPED_TRACE(name);
        const Image image = readFixture(name);
        EXPECT_EQ(image.format, PixelFormat::Etc2_Rgba);
        EXPECT_EQ(image.faces, 6u);
        EXPECT_EQ(image.levels, 4u);
        for (uint32_t level = 0; level < 4; ++level)
            for (uint32_t face = 0; face < 6; ++face)
                EXPECT_EQ(surfaceBytes(image, level, face), surfaceBytes(ktx1, level, face));
    }
}

TEST(Ktx2, zstandard_array_keeps_every_layer_and_draws_layer_zero) {
    REQUIRE_KTX2();
    const Bytes raw = fileBytes(fixtureDir() / "etc1_array.raw");
    const Image image = readFixture("etc2_array_zstd.ktx2");
    EXPECT_EQ(image.format, PixelFormat::Etc2_Rgb);
    expectLayers(image, raw, 32);
    EXPECT_TRUE(hasNote(image, "layer 0 is drawn"));
}

TEST(Ktx2, uncompressed_formats_srgb_and_orientation) {
    REQUIRE_KTX2();
    // R8G8B8A8_SRGB 4x4 and 2x2, pixel (x*60, y*60, 9, 200+x), KTXorientation "ru": flipped.
    const Image rgba = readFixture("rgba8_srgb.ktx2");
    EXPECT_TRUE(rgba.srgb);
    EXPECT_EQ(rgba.levels, 2u);
    for (uint32_t level = 0; level < 2; ++level) {
        const uint32_t n = rgba.levelWidth(level);
        Bytes expected;
        for (uint32_t y = 0; y < n; ++y)
            for (uint32_t x = 0; x < n; ++x)
                expected.insert(expected.end(),
                                {uint8_t(x * 60), uint8_t((n - 1 - y) * 60), 9, uint8_t(200 + x)});
        EXPECT_EQ(surfaceBytes(rgba, level), expected);
    }
    const Image c565 = readFixture("r5g6b5.ktx2");
    EXPECT_FALSE(c565.srgb);
    const Bytes pixels = surfaceBytes(c565, 0);
    EXPECT_EQ(Bytes(pixels.begin() + 4, pixels.begin() + 8),
              (Bytes{82, 4, 247, 255}));  // (x=1, y=0): r 10/31, g 1/63, b 30/31
}

TEST(Ktx2, basis_universal_is_refused_with_one_line) {
    REQUIRE_KTX2();
    std::string error;
    readFixture("basislz.ktx2", &error);
    EXPECT_EQ(error, "offset 0x2C: KTX2 BasisLZ supercompression is not supported (Basis Universal)");
    readFixture("uastc.ktx2", &error);
    EXPECT_NE(error.find("KTX2 UASTC is not supported (Basis Universal)"), std::string::npos) << error;
}

// ---------------------------------------------------------------------------------------------
// Header errors: each field, its offset

void putU32(Bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

struct FieldCase {
    const char* file;
    size_t at;
    uint32_t value;
    const char* error;  // the start of the expected error
};

TEST(KtxErrors, every_header_field_has_its_offset) {
    REQUIRE_KTX1();
    REQUIRE_KTX2();
    const FieldCase cases[] = {
        {"etc1_le.ktx", 0x0C, 0x12345678, "offset 0xC: KTX endianness 0x12345678"},
        {"rgb8.ktx", 0x10, 0x9999, "offset 0x10: KTX glType 0x9999 is not supported"},
        {"rgb8.ktx", 0x14, 3, "offset 0x14: KTX glTypeSize 3 does not match"},
        {"rgb8.ktx", 0x18, 0x1234, "offset 0x18: KTX glFormat 0x1234"},
        {"etc1_le.ktx", 0x1C, 0x8E8C,
         "offset 0x1C: KTX glInternalFormat 0x8E8C (BPTC (BC6H/BC7)) is not supported"},
        {"etc1_le.ktx", 0x1C, 0x1234, "offset 0x1C: KTX glInternalFormat 0x1234 is not a known"},
        {"etc1_le.ktx", 0x24, 0, "offset 0x24: KTX width 0"},
        {"etc1_le.ktx", 0x28, 20000, "offset 0x28: KTX height 20000"},
        {"etc1_le.ktx", 0x2C, 4, "offset 0x2C: KTX depth 4: 3D textures are not supported"},
        {"etc1_le.ktx", 0x30, 5000, "offset 0x30: KTX array of 5000 layers"},
        {"etc1_le.ktx", 0x34, 3, "offset 0x34: KTX face count 3"},
        {"etc1_le.ktx", 0x38, 9, "offset 0x38: KTX mip level count 9 is more than a full chain (5)"},
        {"etc1_le.ktx", 0x3C, 0xFFFFFF, "offset 0x3C: KTX key/value data"},
        {"etc1_le.ktx", 0x40, 0xFFFF, "offset 0x40: KTX key/value entry of 65535 bytes"},
        {"astc6x6.ktx", 0x40, 100, "offset 0x40: KTX level 0 imageSize 100 is not the 448 bytes of 37x23"},
        {"astc6x6.ktx2", 0x0C, 146, "offset 0xC: KTX2 vkFormat 146 (BC4-BC7) is not supported"},
        {"astc6x6.ktx2", 0x0C, 0, "offset 0xC: KTX2 vkFormat 0 (UNDEFINED) is not supported"},
        {"astc6x6.ktx2", 0x10, 2, "offset 0x10: KTX2 typeSize 2 is not the format's 1"},
        {"astc6x6.ktx2", 0x14, 0, "offset 0x14: KTX2 width 0"},
        {"astc6x6.ktx2", 0x18, 0x10000, "offset 0x18: KTX2 height 65536"},
        {"astc6x6.ktx2", 0x1C, 2, "offset 0x1C: KTX2 depth 2: 3D textures are not supported"},
        {"astc6x6.ktx2", 0x20, 4096, "offset 0x20: KTX2 array of 4096 layers"},
        {"astc6x6.ktx2", 0x24, 2, "offset 0x24: KTX2 face count 2"},
        {"astc6x6.ktx2", 0x28, 12, "offset 0x28: KTX2 mip level count 12"},
        {"astc6x6.ktx2", 0x2C, 7, "offset 0x2C: KTX2 supercompression scheme 7"},
        {"astc6x6.ktx2", 0x30, 0xFFFFFF, "offset 0x30: KTX2 data format descriptor"},
        {"astc6x6.ktx2", 0x38, 0xFFFFFF, "offset 0x38: KTX2 key/value data"},
        {"astc6x6.ktx2", 0x44, 1, "offset 0x40: KTX2 supercompression global data"},
        {"astc6x6.ktx2", 0x50, 0x7FFFFFFF, "offset 0x50: KTX2 level 0 (offset 2147483647"},
        {"astc6x6.ktx2", 0x58, 100, "offset 0x58: KTX2 level 0 byteLength 100 is not the 448 bytes"},
        {"astc6x6.ktx2", 0x60, 100, "offset 0x60: KTX2 level 0 uncompressedByteLength 100"},
        {"astc6x6_zstd.ktx2", 0x60, 100, "offset 0x60: KTX2 level 0 uncompressedByteLength 100"},
    };
    for (const FieldCase& c : cases) {
        Bytes bytes = fileBytes(fixtureDir() / c.file);
        putU32(bytes, c.at, c.value);
        if (c.at == 0x44) putU32(bytes, 0x48, 16);  // a global data block past the end
        Image image;
        std::string error;
        EXPECT_FALSE(readImage(makeOwnedBytes(bytes), image, error)) << c.file << " at " << c.at;
        EXPECT_EQ(error.rfind(c.error, 0), 0u) << c.file << " at " << c.at << ": " << error;
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }
}

TEST(KtxErrors, corrupt_zstandard_level_is_one_line) {
    REQUIRE_KTX2();
    Bytes bytes = fileBytes(fixtureDir() / "astc6x6_zstd.ktx2");
    // Level 0's data: the offset in the index entry at 0x50; its frame header says 448 bytes.
    const uint32_t at = uint32_t(bytes[0x50]) | uint32_t(bytes[0x51]) << 8 | uint32_t(bytes[0x52]) << 16;
    Bytes broken = bytes;
    for (size_t i = at + 6; i < broken.size(); ++i) broken[i] ^= 0x5A;
    Image image;
    std::string error;
    EXPECT_FALSE(readImage(makeOwnedBytes(broken), image, error));
    EXPECT_EQ(error.rfind("offset 0x50: KTX2 level 0: Zstandard", 0), 0u) << error;
    broken = bytes;
    broken[at] ^= 0xFF;  // the frame's magic
    EXPECT_FALSE(readImage(makeOwnedBytes(broken), image, error));
    EXPECT_EQ(error, "offset 0x50: KTX2 level 0: Zstandard frame is not valid");
}

// A level that claims more than its codec can expand is refused before anything is allocated:
// the zlib cube said to be 4096x4096 (6 x 16 MiB of ETC2 RGBA in level 0) from ~100 bytes.
TEST(KtxErrors, supercompressed_level_claiming_too_much_is_refused_before_allocating) {
    REQUIRE_KTX2();
    Bytes bytes = fileBytes(fixtureDir() / "etc2_cube_zlib.ktx2");
    putU32(bytes, 0x14, 4096);
    putU32(bytes, 0x18, 4096);
    putU32(bytes, 0x60, 6u * 4096 * 4096);
    Image image;
    std::string error;
    EXPECT_FALSE(readImage(makeOwnedBytes(bytes), image, error));
    EXPECT_EQ(error.rfind("offset 0x50: KTX2 level 0: ", 0), 0u) << error;
    EXPECT_NE(error.find("compressed bytes cannot hold 100663296"), std::string::npos) << error;
}

// ---------------------------------------------------------------------------------------------
// Truncation and corruption sweeps

std::vector<std::string> allFixtures() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(fixtureDir())) {
        const std::string ext = entry.path().extension().string();
        // The generator's own fixtures, not the rewrapped shared sample (700 KB: its prefixes are
        // the PVR sample's, swept by test_texture_files).
        if ((ext == ".ktx" || ext == ".ktx2") && entry.path().stem() != "gnome_texture_from_pvr")
            names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

void expectErrorOrConsistent(const Bytes& bytes, size_t& accepted, size_t& refused) {
    Image image;
    std::string error;
    if (readImage(makeOwnedBytes(bytes), image, error)) {
        ++accepted;
        expectConsistent(image);
        const uint32_t last = image.levels - 1;
        std::vector<uint8_t> rgba;
        EXPECT_TRUE(decodeSurface(image, last, 0, rgba, error)) << error;
    } else {
        ++refused;
        EXPECT_FALSE(error.empty());
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
        EXPECT_EQ(error.rfind("offset 0x", 0), 0u) << error;
    }
}

TEST(KtxSweeps, every_prefix_is_an_error_or_keeps_complete_levels) {
    REQUIRE_KTX1();
    const auto names = allFixtures();
    ASSERT_GE(names.size(), 11u);
    size_t accepted = 0, refused = 0;
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        const Bytes file = fileBytes(fixtureDir() / name);
        for (size_t n = 0; n < file.size(); ++n)
            expectErrorOrConsistent(Bytes(file.begin(), file.begin() + long(n)), accepted, refused);
    }
    EXPECT_GT(accepted, 0u);  // KTX 1 files cut inside a later level keep the levels before it
    EXPECT_GT(refused, 0u);
    // The ETC1 chain cut inside its last level: 4 of 5 levels, with the note.
    const Bytes file = fileBytes(fixtureDir() / "etc1_le.ktx");
    Image image;
    std::string error;
    ASSERT_TRUE(readImage(makeOwnedBytes(Bytes(file.begin(), file.end() - 2)), image, error)) << error;
    EXPECT_EQ(image.levels, 4u);
    EXPECT_TRUE(hasNote(image, "kept the 4 complete of 5 mip levels"));
}

TEST(KtxSweeps, corrupted_header_and_index_bytes_never_crash) {
    REQUIRE_KTX1();
    size_t accepted = 0, refused = 0;
    for (const std::string& name : allFixtures()) {
        SCOPED_TRACE(name);
        const Bytes file = fileBytes(fixtureDir() / name);
        const size_t span = std::min<size_t>(file.size(), 200);
        for (size_t i = 0; i < span; ++i)
            for (const uint8_t value :
                 {uint8_t(0x00), uint8_t(0xFF), uint8_t(file[i] ^ 0x80), uint8_t(file[i] + 1)}) {
                Bytes bytes = file;
                bytes[i] = value;
                expectErrorOrConsistent(bytes, accepted, refused);
            }
    }
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(refused, 0u);
}

// ---------------------------------------------------------------------------------------------
// Lookup: a model naming another extension finds the .ktx / .ktx2 beside it.

TEST(KtxLookup, names_with_other_extensions_find_ktx_files) {
    const fs::path root = test::outputDir() / "ktx_lookup";
    fs::remove_all(root);
    fs::create_directories(root / "textures");
    std::ofstream(root / "wall.ktx") << "x";
    std::ofstream(root / "textures" / "Floor.KTX2") << "x";
    const std::string model = (root / "scene.pod").string();
    EXPECT_EQ(resolveTexturePath(model, "wall.png"), (root / "wall.ktx").string());
    EXPECT_EQ(resolveTexturePath(model, "floor.tga"), (root / "textures" / "Floor.KTX2").string());
    const auto& extensions = textureExtensions();
    EXPECT_NE(std::find(extensions.begin(), extensions.end(), ".ktx2"), extensions.end());
    fs::remove_all(root);
}

// A model's textures named with other extensions come from KTX files: read, kept as stored where
// the GPU samples the format, decoded in software where it does not (with the usual info line).
TEST(KtxSceneTextures, model_textures_resolve_to_ktx_files_and_decode_when_needed) {
    REQUIRE_KTX2();
    const fs::path root = test::outputDir() / "ktx_scene";
    fs::remove_all(root);
    fs::create_directories(root / "textures");
    fs::copy_file(fixtureDir() / "astc6x6_zstd.ktx2", root / "textures" / "wall.ktx2");
    fs::copy_file(fixtureDir() / "etc2_cube.ktx", root / "sky.ktx");
    auto makeScene = [&] {
        Scene scene;
        scene.sourcePath = (root / "model.pod").string();
        for (const char* name : {"wall.png", "sky.pvr"}) {
            Texture t;
            t.name = t.path = name;
            scene.textures.push_back(t);
        }
        return scene;
    };
    auto infoLines = [](const Scene& scene, const std::string& part) {
        return std::count_if(scene.report.begin(), scene.report.end(), [&](const ReportLine& l) {
            return l.severity == Severity::Info && l.text.find(part) != std::string::npos;
        });
    };
    Scene native = makeScene();
    EXPECT_EQ(prepareSceneTextures(native, [](PixelFormat) { return true; }), 0);
    EXPECT_EQ(native.textures[0].image.container, "ktx2");
    EXPECT_EQ(native.textures[0].image.format, PixelFormat::Astc);
    EXPECT_EQ(native.textures[1].image.container, "ktx");
    EXPECT_EQ(native.textures[1].image.faces, 6u);
    EXPECT_EQ(native.textures[1].resolvedPath, (root / "sky.ktx").string());
    Scene software = makeScene();
    EXPECT_EQ(prepareSceneTextures(software, [](PixelFormat f) { return f == PixelFormat::Rgba8; }), 0);
    EXPECT_EQ(software.textures[0].image.format, PixelFormat::Rgba8);
    EXPECT_EQ(software.textures[0].image.levels, 3u);
    EXPECT_EQ(
        infoLines(software, "texture 0 'wall.png': ASTC 6x6 decoded to RGBA8 in software (no GPU support)"),
        1);
    EXPECT_EQ(infoLines(software, "ETC2 RGBA decoded to RGBA8 in software"), 1);
    const Image theirs = readFixture("astc6x6_l0.astcenc.png");
    EXPECT_EQ(surfaceBytes(software.textures[0].image, 0), surfaceBytes(theirs, 0));
    fs::remove_all(root);
}

}  // namespace
}  // namespace esv
