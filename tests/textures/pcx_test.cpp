// PCX reader: files ImageMagick wrote (tests/textures/pcx/, see make_fixtures.sh) against their
// source PNGs read through stb_image, pixel for pixel; hand-built files for what ImageMagick does
// not write (runs across scanlines, padded rows, 4-bit and planar EGA, greyscale, odd palettes);
// refusals; every truncated prefix and seeded corruptions of every fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_lookup.h"

// The largest single allocation made through operator new since the last reset, so a test can
// show that a header's sizes alone allocate nothing large.
static std::atomic<size_t> g_largestAllocation{0};

// Out of line, so GCC does not pair an inlined free() with the operator new it sees as built in.
__attribute__((noinline)) void* operator new(size_t size) {
    size_t seen = g_largestAllocation.load(std::memory_order_relaxed);
    while (size > seen && !g_largestAllocation.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
    }
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
__attribute__((noinline)) void operator delete(void* p) noexcept {
    std::free(p);
}
__attribute__((noinline)) void operator delete(void* p, size_t) noexcept {
    std::free(p);
}

namespace esv {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

ByteView own(Bytes bytes) {
    return makeOwnedBytes(std::move(bytes));
}

fs::path fixtureDir() {
    return test::sourceDir() / "tests" / "textures" / "pcx";
}

Bytes readFixture(const std::string& name) {
    std::string error;
    auto bytes = readWholeFile((fixtureDir() / name).string(), error);
    if (!bytes) {
        ADD_FAILURE() << name << ": " << error;
        return {};
    }
    return *bytes;
}

bool hasNote(const Image& image, const std::string& part) {
    return std::any_of(image.notes.begin(), image.notes.end(),
                       [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

Bytes pixels(const Image& image) {
    if (image.surfaces.empty()) return {};
    return Bytes(image.surface(0).begin(), image.surface(0).end());
}

// The error contract every reader keeps: one line, starting with the byte offset.
void expectOffsetError(const std::string& error) {
    EXPECT_EQ(error.rfind("offset 0x", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// ---------------------------------------------------------------------------------------------
// Hand-built files

struct Header {
    uint8_t version = 5, encoding = 1, bits = 8, planes = 1;
    uint16_t xmin = 0, ymin = 0, xmax = 0, ymax = 0;
    uint16_t bytesPerLine = 0;
    uint16_t paletteInfo = 1;
    uint8_t ega[48] = {};

    Header(uint16_t width, uint16_t height, uint16_t bpl)
        : xmax(uint16_t(width - 1)), ymax(uint16_t(height - 1)), bytesPerLine(bpl) {}

    Bytes bytes() const {
        Bytes b(128, 0);
        b[0] = 0x0A;
        b[1] = version;
        b[2] = encoding;
        b[3] = bits;
        auto put16 = [&](size_t at, uint16_t v) {
            b[at] = uint8_t(v);
            b[at + 1] = uint8_t(v >> 8);
        };
        put16(4, xmin);
        put16(6, ymin);
        put16(8, xmax);
        put16(10, ymax);
        put16(12, 72);
        put16(14, 72);
        std::copy(ega, ega + 48, b.begin() + 16);
        b[65] = planes;
        put16(66, bytesPerLine);
        put16(68, paletteInfo);
        return b;
    }
};

// A file: header, data, then (if given) the 0x0C marker and a palette.
Bytes pcxFile(const Header& h, const Bytes& data, const Bytes& palette = {}) {
    Bytes file = h.bytes();
    // Byte by byte: GCC 12 warns (array-bounds) about a range insert after the 128-byte header.
    for (uint8_t v : data) file.push_back(v);
    if (!palette.empty()) {
        file.push_back(0x0C);
        for (uint8_t v : palette) file.push_back(v);
    }
    return file;
}

// Palette entry i = (i, 255 - i, i * 3 mod 256): every index gives a distinct colour.
Bytes testPalette() {
    Bytes p;
    for (int i = 0; i < 256; ++i) {
        p.push_back(uint8_t(i));
        p.push_back(uint8_t(255 - i));
        p.push_back(uint8_t(i * 3));
    }
    return p;
}

Bytes paletteColour(uint8_t index) {
    return {index, uint8_t(255 - index), uint8_t(index * 3), 255};
}

// RGBA8 of a row of palette indices.
Bytes paletteRow(const Bytes& indices) {
    Bytes out;
    for (uint8_t i : indices) {
        const Bytes c = paletteColour(i);
        out.insert(out.end(), c.begin(), c.end());
    }
    return out;
}

Bytes run(uint8_t count, uint8_t value) {
    return {uint8_t(0xC0 | count), value};
}

Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

struct Read {
    bool ok = false;
    Image image;
    std::string error;
};

Read read(const Bytes& file) {
    Read r;
    r.ok = readImage(own(file), r.image, r.error);
    return r;
}

// ---------------------------------------------------------------------------------------------
// ImageMagick fixtures

struct Fixture {
    const char* pcx;
    const char* png;
    uint8_t encoding, bits, planes;
    const char* note;
};

const std::vector<Fixture>& fixtures() {
    static const std::vector<Fixture> list = {
        {"rgb_rle.pcx", "rgb.png", 1, 8, 3, "PCX 24-bit RGB (3 planes) converted to RGBA8"},
        {"rgb_raw.pcx", "rgb.png", 0, 8, 3, "PCX 24-bit RGB (3 planes) converted to RGBA8"},
        {"rgba_rle.pcx", "rgba.png", 1, 8, 4, "PCX 32-bit RGBA (4 planes) converted to RGBA8"},
        {"rgba_raw.pcx", "rgba.png", 0, 8, 4, "PCX 32-bit RGBA (4 planes) converted to RGBA8"},
        {"pal_rle.pcx", "pal.png", 1, 8, 1, "PCX 8-bit palettised converted to RGBA8"},
        {"pal_raw.pcx", "pal.png", 0, 8, 1, "PCX 8-bit palettised converted to RGBA8"},
        {"bw_rle.pcx", "bw.png", 1, 1, 1, "PCX 1-bit (2 colours, header palette) converted to RGBA8"},
        {"bw_raw.pcx", "bw.png", 0, 1, 1, "PCX 1-bit (2 colours, header palette) converted to RGBA8"},
        {"blocks_pal.pcx", "blocks.png", 1, 8, 1, "PCX 8-bit palettised converted to RGBA8"},
        {"blocks_rgb.pcx", "blocks.png", 1, 8, 3, "PCX 24-bit RGB (3 planes) converted to RGBA8"},
    };
    return list;
}

// Every ImageMagick PCX decodes to exactly the pixels of the PNG it was written from (the PNG read
// by the stb_image path). The palettised sources were quantised before writing, so the palette
// holds their exact colours; PNGs without alpha read 255, as PCX without an alpha plane does.
TEST(PcxFixtures, decode_like_their_png_sources) {
    for (const Fixture& f : fixtures()) {
        SCOPED_TRACE(f.pcx);
        const Bytes file = readFixture(f.pcx);
        ASSERT_GE(file.size(), 128u);
        EXPECT_EQ(file[2], f.encoding);
        EXPECT_EQ(file[3], f.bits);
        EXPECT_EQ(file[65], f.planes);
        const Read pcx = read(file);
        ASSERT_TRUE(pcx.ok) << pcx.error;
        const Read png = read(readFixture(f.png));
        ASSERT_TRUE(png.ok) << png.error;
        EXPECT_EQ(png.image.container, "png");
        EXPECT_EQ(pcx.image.container, "pcx");
        EXPECT_EQ(pcx.image.format, PixelFormat::Rgba8);
        EXPECT_EQ(pcx.image.levels, 1u);
        EXPECT_EQ(pcx.image.faces, 1u);
        EXPECT_EQ(pcx.image.width, png.image.width);
        EXPECT_EQ(pcx.image.height, png.image.height);
        EXPECT_TRUE(hasNote(pcx.image, f.note));
        EXPECT_EQ(pcx.image.notes.size(), 1u);
        EXPECT_TRUE(pixels(pcx.image) == pixels(png.image));
    }
}

// Facts of the fixtures that make them worth having: odd widths, 1-bit rows padded, long runs
// split at 63, literal bytes of 0xC0 and above written as runs of one.
TEST(PcxFixtures, cover_padding_and_run_lengths) {
    const Bytes bw = readFixture("bw_rle.pcx");
    ASSERT_GE(bw.size(), 128u);
    EXPECT_EQ(bw[8] | bw[9] << 8, 36);   // Xmax: 37 pixels
    EXPECT_EQ(bw[66] | bw[67] << 8, 5);  // 40 bits per row, 3 of them padding
    const Bytes blocks = readFixture("blocks_rgb.pcx");
    const Bytes noisy = readFixture("rgb_rle.pcx");
    ASSERT_GE(blocks.size(), 128u);
    ASSERT_GE(noisy.size(), 128u);
    auto hasPair = [](const Bytes& f, uint8_t count) {
        for (size_t i = 128; i + 1 < f.size(); ++i)
            if (f[i] == count) return true;
        return false;
    };
    EXPECT_TRUE(hasPair(blocks, 0xC0 | 63));
    EXPECT_TRUE(hasPair(noisy, 0xC1));
}

// ---------------------------------------------------------------------------------------------
// Hand-built files

// Runs may go on into the next scanline (and across planes within one); the stream is decoded as
// a whole, as the reader's contract says.
TEST(PcxHandBuilt, runs_cross_scanlines_and_planes) {
    Header h(4, 3, 4);
    // 12 indices: seven 1s, five 2s.
    const Read pal = read(pcxFile(h, cat({run(7, 1), run(5, 2)}), testPalette()));
    ASSERT_TRUE(pal.ok) << pal.error;
    EXPECT_EQ(pixels(pal.image), paletteRow({1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2}));

    Header rgb(2, 2, 2);
    rgb.planes = 3;
    // Row 0: R = 10 10, G = 10 20, B = 20 20 (two runs spanning planes); row 1 continues the run
    // of 20 into its red plane, then literals.
    const Read r = read(pcxFile(rgb, cat({run(3, 10), run(4, 20), {30, 40, 50, 60, 70}})));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(pixels(r.image), (Bytes{10, 10, 20, 255, 10, 20, 20, 255, 20, 40, 60, 255, 30, 50, 70, 255}));
    EXPECT_EQ(r.image.notes.size(), 1u);
}

// BytesPerLine larger than a row needs: the pad bytes (here 0xEE, also inside runs) are skipped.
TEST(PcxHandBuilt, padded_rows) {
    Header h(3, 2, 6);
    const Read pal = read(pcxFile(h, cat({{1, 2, 3}, run(3, 0xEE), {4, 5, 6}, run(3, 0xEE)}), testPalette()));
    ASSERT_TRUE(pal.ok) << pal.error;
    EXPECT_EQ(pal.image.width, 3u);
    EXPECT_EQ(pixels(pal.image), paletteRow({1, 2, 3, 4, 5, 6}));

    Header rgba(1, 1, 4);
    rgba.planes = 4;
    rgba.encoding = 0;
    const Read r = read(pcxFile(rgba, {9, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0, 6, 0, 0, 0}));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(pixels(r.image), (Bytes{9, 8, 7, 6}));
}

// Encoding 0: every byte is data, 0xC0 and above included.
TEST(PcxHandBuilt, uncompressed) {
    Header h(4, 1, 4);
    h.encoding = 0;
    const Read r = read(pcxFile(h, {0xC5, 0xFF, 0x00, 0xC0}, testPalette()));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(pixels(r.image), paletteRow({0xC5, 0xFF, 0x00, 0xC0}));
}

// The longest run (63), a run of one for a literal of 0xC0 and above, and a run of zero (nothing).
TEST(PcxHandBuilt, run_lengths) {
    Header h(70, 1, 70);
    Bytes data = cat({run(63, 9), run(1, 0xD0), run(0, 0x55), run(1, 0xC0), {1, 2, 3, 4, 5}});
    const Read r = read(pcxFile(h, data, testPalette()));
    ASSERT_TRUE(r.ok) << r.error;
    Bytes expected(63, 9);
    expected.insert(expected.end(), {0xD0, 0xC0, 1, 2, 3, 4, 5});
    EXPECT_EQ(pixels(r.image), paletteRow(expected));
}

// A run that goes past the last byte of the image is cut there, with a note naming it.
TEST(PcxHandBuilt, run_past_the_end_is_clamped) {
    Header h(2, 2, 2);
    const Read r = read(pcxFile(h, cat({{1}, run(40, 7)}), testPalette()));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(pixels(r.image), paletteRow({1, 7, 7, 7}));
    EXPECT_TRUE(hasNote(r.image, "run-length run at 0x81 goes 37 bytes past the end of the image: dropped"));
}

// Width and height come from the window: Xmax - Xmin + 1.
TEST(PcxHandBuilt, window_origin) {
    Header h(1, 1, 3);
    h.xmin = 100;
    h.xmax = 102;
    h.ymin = 7;
    h.ymax = 8;
    const Read r = read(pcxFile(h, {1, 2, 3, 4, 5, 6}, testPalette()));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.image.width, 3u);
    EXPECT_EQ(r.image.height, 2u);
    EXPECT_EQ(pixels(r.image), paletteRow({1, 2, 3, 4, 5, 6}));
}

// 16-colour files: 4 bits x 1 plane (high nibble first) and 1 bit x 4 planes (bit p of the index
// in plane p), both with the header's EGA palette; version 3 has none and gets the default one.
TEST(PcxHandBuilt, sixteen_colours) {
    Header packed(3, 1, 2);
    packed.bits = 4;
    for (int i = 0; i < 48; ++i) packed.ega[i] = uint8_t(i * 5);
    const Read p4 = read(pcxFile(packed, {0x1F, 0x7A}));  // indices 1, 15, 7 (the 0xA is padding)
    ASSERT_TRUE(p4.ok) << p4.error;
    EXPECT_EQ(pixels(p4.image), (Bytes{15, 20, 25, 255, 225, 230, 235, 255, 105, 110, 115, 255}));
    EXPECT_TRUE(hasNote(p4.image, "PCX 4-bit (16 colours, header palette) converted to RGBA8"));

    Header planar(9, 1, 2);
    planar.bits = 1;
    planar.planes = 4;
    for (int i = 0; i < 48; ++i) planar.ega[i] = uint8_t(i * 5);
    // Pixel x has index x (mod 16): plane p holds bit p of 0..8.
    const Bytes data = {0x55, 0x00, 0x33, 0x00, 0x0F, 0x00, 0x00, 0x80};
    const Read p1 = read(pcxFile(planar, data));
    ASSERT_TRUE(p1.ok) << p1.error;
    Bytes expected;
    for (uint8_t i = 0; i < 9; ++i)
        expected.insert(expected.end(), {uint8_t(15 * i), uint8_t(15 * i + 5), uint8_t(15 * i + 10), 255});
    EXPECT_EQ(pixels(p1.image), expected);
    EXPECT_TRUE(
        hasNote(p1.image, "PCX 16-colour planar (4 planes x 1 bit, header palette) converted to RGBA8"));

    planar.version = 3;
    const Read v3 = read(pcxFile(planar, data));
    ASSERT_TRUE(v3.ok) << v3.error;
    const Bytes s = pixels(v3.image);
    ASSERT_EQ(s.size(), 36u);
    EXPECT_EQ(Bytes(s.begin() + 4, s.begin() + 8), (Bytes{0x00, 0x00, 0xAA, 255}));    // 1 blue
    EXPECT_EQ(Bytes(s.begin() + 24, s.begin() + 28), (Bytes{0xAA, 0x55, 0x00, 255}));  // 6 brown
    EXPECT_TRUE(
        hasNote(v3.image, "PCX 16-colour planar (4 planes x 1 bit, default EGA palette) converted to RGBA8"));
    EXPECT_EQ(v3.image.notes.size(), 1u);
}

// 1 bit x 1 plane: rows pad to whole bytes; the two colours come from the header palette, or are
// black (0) and white (1) when it has none (both entries the same, or version 3).
TEST(PcxHandBuilt, monochrome) {
    Header h(10, 2, 2);
    h.bits = 1;
    const Bytes data = cat({{0xA5}, run(1, 0xC0), {0x40, 0x7F}});
    const int bits[2][10] = {{1, 0, 1, 0, 0, 1, 0, 1, 1, 1}, {0, 1, 0, 0, 0, 0, 0, 0, 0, 1}};
    const Read bw = read(pcxFile(h, data));
    ASSERT_TRUE(bw.ok) << bw.error;
    EXPECT_TRUE(hasNote(bw.image, "PCX 1-bit black and white (no header palette) converted to RGBA8"));
    Bytes expected;
    for (const auto& row : bits)
        for (int bit : row)
            expected.insert(expected.end(),
                            {uint8_t(bit * 255), uint8_t(bit * 255), uint8_t(bit * 255), 255});
    EXPECT_EQ(pixels(bw.image), expected);

    const uint8_t colours[6] = {10, 20, 30, 200, 210, 220};
    std::copy(colours, colours + 6, h.ega);
    const Read two = read(pcxFile(h, data));
    ASSERT_TRUE(two.ok) << two.error;
    EXPECT_TRUE(hasNote(two.image, "PCX 1-bit (2 colours, header palette) converted to RGBA8"));
    expected.clear();
    for (const auto& row : bits)
        for (int bit : row)
            expected.insert(expected.end(),
                            {colours[3 * bit], colours[3 * bit + 1], colours[3 * bit + 2], 255});
    EXPECT_EQ(pixels(two.image), expected);

    h.version = 3;
    const Read v3 = read(pcxFile(h, data));
    ASSERT_TRUE(v3.ok) << v3.error;
    EXPECT_EQ(pixels(v3.image), pixels(bw.image));
}

// 8-bit files without a palette: greyscale when the header says so (palette info 2) or the version
// predates the 256-colour palette; an error otherwise. A palette with bytes after it is found
// right after the data.
TEST(PcxHandBuilt, palette_placement) {
    Header h(3, 1, 3);
    h.encoding = 0;
    h.paletteInfo = 2;
    const Read grey = read(pcxFile(h, {0, 128, 255}));
    ASSERT_TRUE(grey.ok) << grey.error;
    EXPECT_EQ(pixels(grey.image), (Bytes{0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255}));
    EXPECT_TRUE(hasNote(grey.image, "PCX 8-bit greyscale (no palette in the file) converted to RGBA8"));

    h.paletteInfo = 1;
    const Read none = read(pcxFile(h, {0, 128, 255}));
    EXPECT_FALSE(none.ok);
    EXPECT_EQ(none.error,
              "offset 0x83: PCX 8-bit image has no 256-colour palette (the file ends with the image data)");

    // Versions before 5 predate the 256-colour palette: greyscale, whatever the palette info says.
    for (uint8_t version : {uint8_t(0), uint8_t(2), uint8_t(3), uint8_t(4)}) {
        h.version = version;
        const Read old = read(pcxFile(h, {0, 128, 255}));
        ASSERT_TRUE(old.ok) << "version " << int(version) << ": " << old.error;
        EXPECT_EQ(pixels(old.image), (Bytes{0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255}))
            << "version " << int(version);
    }
    h.version = 5;

    Bytes trailing = pcxFile(h, {1, 2, 3}, testPalette());
    trailing.insert(trailing.end(), {0xDE, 0xAD});
    const Read after = read(trailing);
    ASSERT_TRUE(after.ok) << after.error;
    EXPECT_EQ(pixels(after.image), paletteRow({1, 2, 3}));
    EXPECT_TRUE(
        hasNote(after.image, "PCX palette found after the image data at 0x83; 2 trailing bytes ignored"));

    Bytes shortPalette = pcxFile(h, {1, 2, 3}, testPalette());
    shortPalette.resize(shortPalette.size() - 10);
    const Read cut = read(shortPalette);
    EXPECT_FALSE(cut.ok);
    EXPECT_EQ(cut.error,
              "offset 0x83: PCX 256-colour palette is cut short: 768 bytes needed after the 0x0C marker, the "
              "file has 758");

    Bytes noMarker = pcxFile(h, {1, 2, 3}, testPalette());
    noMarker[0x83] = 0x0D;
    const Read wrong = read(noMarker);
    EXPECT_FALSE(wrong.ok);
    EXPECT_EQ(wrong.error,
              "offset 0x83: PCX 256-colour palette marker 0x0C not found after the image data (byte 0xD "
              "here, 769 bytes to the end of the file)");
}

// ---------------------------------------------------------------------------------------------
// Refusals and limits

TEST(PcxRefused, unsupported_layouts_and_header_values) {
    struct Case {
        uint8_t bits, planes;
        const char* error;
    };
    const std::vector<Case> cases = {
        {2, 1,
         "offset 0x3: PCX 2 bits per pixel x 1 plane (CGA 4-colour) is not supported (8 x 1, 3 or 4; 4 x 1; "
         "1 x "
         "1 to 4 are)"},
        {8, 2,
         "offset 0x41: PCX 8 bits per pixel x 2 planes is not supported (8 x 1, 3 or 4; 4 x 1; 1 x 1 to 4 "
         "are)"},
        {4, 4,
         "offset 0x3: PCX 4 bits per pixel x 4 planes is not supported (8 x 1, 3 or 4; 4 x 1; 1 x 1 to 4 "
         "are)"},
    };
    for (const Case& c : cases) {
        Header h(4, 4, 4);
        h.bits = c.bits;
        h.planes = c.planes;
        const Read r = read(pcxFile(h, Bytes(64, 0)));
        EXPECT_FALSE(r.ok);
        EXPECT_EQ(r.error, c.error);
    }
    Header h(4, 4, 4);
    std::string error;
    Image image;
    h.version = 1;
    EXPECT_FALSE(readPcx(own(pcxFile(h, Bytes(16, 0))), image, error));
    EXPECT_EQ(error, "offset 0x1: PCX version 1 is not known (0, 2, 3, 4, 5)");
    h.version = 5;
    h.encoding = 2;
    EXPECT_FALSE(readPcx(own(pcxFile(h, Bytes(16, 0))), image, error));
    EXPECT_EQ(error, "offset 0x2: PCX encoding 2 is not known (0 raw, 1 run-length)");
    h.encoding = 1;
    h.xmin = 5;
    h.xmax = 3;
    EXPECT_FALSE(readPcx(own(pcxFile(h, Bytes(16, 0))), image, error));
    EXPECT_EQ(error, "offset 0x8: PCX window Xmax 3 is less than Xmin 5");
    h.xmin = 0;
    h.bytesPerLine = 3;
    EXPECT_FALSE(readPcx(own(pcxFile(h, Bytes(16, 0))), image, error));
    EXPECT_EQ(error, "offset 0x42: PCX bytes per line 3 is less than the 4 a row of 4 pixels needs");
    EXPECT_FALSE(readPcx(own(Bytes(100, 0x0A)), image, error));
    EXPECT_EQ(error, "offset 0x0: PCX header needs 128 bytes, the file has 100");
}

// Sizes from the header are checked before anything is allocated: 65535 wide is out of range, and
// a 16384 x 16384 RGBA image cannot come out of 100 bytes of run-length data (at most 63 bytes per
// 2), nor out of a raw stream shorter than the image.
TEST(PcxRefused, huge_headers_allocate_nothing) {
    Header wide(1, 1, 65535);
    wide.xmax = 65534;
    Bytes file = pcxFile(wide, Bytes(100, 0xFF));
    g_largestAllocation = 0;
    Read r = read(file);
    EXPECT_LT(g_largestAllocation.load(), size_t(4096));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "offset 0x8: PCX width 65535 is out of range (1..16384)");

    Header huge(16384, 16384, 16384);
    huge.planes = 4;
    file = pcxFile(huge, Bytes(100, 0xFF));
    g_largestAllocation = 0;
    r = read(file);
    EXPECT_LT(g_largestAllocation.load(), size_t(4096));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error,
              "offset 0xE4: PCX run-length data of 100 bytes cannot expand to the 1073741824 bytes of a "
              "16384x16384 image");

    huge.encoding = 0;
    file = pcxFile(huge, Bytes(100, 0xFF));
    g_largestAllocation = 0;
    r = read(file);
    EXPECT_LT(g_largestAllocation.load(), size_t(4096));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error,
              "offset 0xE4: PCX image data needs 1073741824 bytes from offset 0x80, the file has 100");

    // Plausible sizes but the data stops early: the error names the end of the file and the row.
    Header tall(4, 100, 4);
    Bytes data;
    for (int i = 0; i < 6; ++i) data = cat({data, run(63, 1)});
    r = read(pcxFile(tall, cat({data, {1, 2, 3, 4, 5}})));  // 383 of 400 bytes
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "offset 0x91: PCX run-length image data ends in row 95 of 100");
}

// A TGA whose ID length happens to be 10 (the PCX manufacturer byte) is still a TGA.
TEST(PcxRefused, tga_with_id_length_ten_is_not_pcx) {
    Bytes tga = {10, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 24, 0};
    tga.insert(tga.end(), 10, 'x');
    tga.insert(tga.end(), {1, 2, 3, 4, 5, 6});
    const Read r = read(tga);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.image.container, "tga");
    EXPECT_EQ(pixels(r.image), (Bytes{3, 2, 1, 255, 6, 5, 4, 255}));
}

// ---------------------------------------------------------------------------------------------
// Robustness

// Every prefix of every fixture is refused with a one-line error that starts with the offset
// (1-bit files, which need no palette, read whole once the image data is all there, before the
// palette ImageMagick appends anyway); so are the fixtures with bytes changed, or the image they
// give is consistent.
TEST(PcxRobustness, truncations_and_corruptions) {
    std::mt19937 random(20240611);
    size_t prefixes = 0, accepted = 0, refused = 0;
    for (const Fixture& f : fixtures()) {
        SCOPED_TRACE(f.pcx);
        const Bytes file = readFixture(f.pcx);
        const Read whole = read(file);
        ASSERT_TRUE(whole.ok) << whole.error;
        for (size_t length = 0; length < file.size(); ++length) {
            const Read r = read(Bytes(file.begin(), file.begin() + length));
            ++prefixes;
            if (r.ok) {
                EXPECT_EQ(f.bits, 1) << "prefix of " << length << " bytes";
                EXPECT_TRUE(pixels(r.image) == pixels(whole.image)) << "prefix of " << length << " bytes";
            } else {
                expectOffsetError(r.error);
            }
        }
        for (int i = 0; i < 400; ++i) {
            Bytes bytes = file;
            // Half the corruptions hit the header, half anywhere.
            const size_t span = (i % 2) ? bytes.size() : 128;
            const int changes = 1 + int(random() % 4);
            for (int k = 0; k < changes; ++k) bytes[random() % span] = uint8_t(random());
            const Read r = read(bytes);
            if (r.ok) {
                ++accepted;
                ASSERT_EQ(r.image.surfaces.size(), 1u);
                EXPECT_EQ(r.image.surface(0).size, size_t(r.image.width) * r.image.height * 4);
            } else {
                ++refused;
                expectOffsetError(r.error);
            }
        }
    }
    EXPECT_GT(prefixes, 15000u);
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(refused, 0u);
}

// ---------------------------------------------------------------------------------------------
// Lookup: FreeSpace models name textures without an extension; the .pcx file is found, after the
// formats that usually replace it.

TEST(PcxLookup, bare_names_find_pcx_files) {
    const fs::path root = test::outputDir() / "pcx_lookup";
    fs::remove_all(root);
    fs::create_directories(root / "Maps");
    std::ofstream(root / "ship.pof").put('x');
    std::ofstream(root / "Maps" / "Hull01.PCX").put('x');
    EXPECT_EQ(resolveTexturePath((root / "ship.pof").string(), "hull01"),
              (root / "Maps" / "Hull01.PCX").string());
    std::ofstream(root / "Maps" / "hull01.dds").put('x');
    EXPECT_EQ(resolveTexturePath((root / "ship.pof").string(), "hull01"),
              (root / "Maps" / "hull01.dds").string());
    EXPECT_EQ(resolveTexturePath((root / "ship.pof").string(), "hull01.pcx"),
              (root / "Maps" / "Hull01.PCX").string());
    fs::remove_all(root);
}

}  // namespace
}  // namespace esv
