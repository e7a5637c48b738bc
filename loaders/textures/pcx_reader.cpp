// ZSoft PCX (PC Paintbrush) images, the format retail FreeSpace 2 ships its textures in: a 128-byte
// header, then the scanlines (each plane of a row one after the other, bytesPerLine bytes each)
// raw or run-length encoded, then for 8-bit palettised images a 0x0C byte and a 768-byte palette.
// Everything is converted to RGBA8.
#include <algorithm>
#include <cstring>

#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_bytes.h"

namespace esv {

using namespace texbytes;

namespace {

constexpr uint32_t kHeaderSize = 128;
constexpr uint32_t kPaletteSize = 768;  // 256 x (r, g, b), after the 0x0C marker byte
constexpr uint8_t kPaletteMarker = 0x0C;
constexpr uint32_t kMaxRun = 63;  // an RLE count byte is 0xC0 | count

// Header fields (offsets in the 128-byte header).
constexpr uint32_t kVersionAt = 0x01, kEncodingAt = 0x02, kBitsAt = 0x03, kXminAt = 0x04, kYminAt = 0x06,
                   kXmaxAt = 0x08, kYmaxAt = 0x0A, kEgaPaletteAt = 0x10, kPlanesAt = 0x41,
                   kBytesPerLineAt = 0x42, kPaletteInfoAt = 0x44;

// The 16 colours of a standard EGA adapter, for files whose version says the header has no palette.
constexpr uint8_t kDefaultEga[48] = {0x00, 0x00, 0x00, 0x00, 0x00, 0xAA, 0x00, 0xAA, 0x00, 0x00, 0xAA, 0xAA,
                                     0xAA, 0x00, 0x00, 0xAA, 0x00, 0xAA, 0xAA, 0x55, 0x00, 0xAA, 0xAA, 0xAA,
                                     0x55, 0x55, 0x55, 0x55, 0x55, 0xFF, 0x55, 0xFF, 0x55, 0x55, 0xFF, 0xFF,
                                     0xFF, 0x55, 0x55, 0xFF, 0x55, 0xFF, 0xFF, 0xFF, 0x55, 0xFF, 0xFF, 0xFF};

// How the pixels of a row are stored.
enum class Layout {
    Palette8,  // 8 bits x 1 plane: indices into the palette at the end of the file
    Rgb,       // 8 bits x 3 planes: r, g, b planes
    Rgba,      // 8 bits x 4 planes: r, g, b, a planes
    Packed4,   // 4 bits x 1 plane: two indices per byte, high nibble first (EGA palette)
    Planar1,   // 1 bit x 1..4 planes: bit p of the index in plane p (EGA palette; 1 plane: 2 colours)
};

// The image data as one stream of bytes: RLE runs may go on into the next scanline (some writers
// do that, most stop at each scanline's end), so the decoder keeps a run across calls.
struct DataStream {
    const uint8_t* data = nullptr;
    size_t size = 0;  // the whole file
    size_t pos = 0;   // next file byte
    bool rle = false;
    uint32_t runLeft = 0;
    uint8_t runValue = 0;
    size_t runAt = 0;  // offset of the count byte of the current run

    // Fills out[0, count); false when the file ends first.
    bool fill(uint8_t* out, size_t count) {
        if (!rle) {
            if (size - pos < count) return false;
            std::memcpy(out, data + pos, count);
            pos += count;
            return true;
        }
        size_t i = 0;
        while (i < count) {
            if (runLeft != 0) {
                const size_t take = std::min<size_t>(runLeft, count - i);
                std::memset(out + i, runValue, take);
                i += take;
                runLeft -= uint32_t(take);
                continue;
            }
            if (pos == size) return false;
            const uint8_t b = data[pos];
            if (b < 0xC0) {
                out[i++] = b;
                ++pos;
                continue;
            }
            if (size - pos < 2) return false;
            runAt = pos;
            runLeft = b & 0x3Fu;
            runValue = data[pos + 1];
            pos += 2;
        }
        return true;
    }
};

uint16_t u16At(const uint8_t* p, size_t at) {
    return uint16_t(p[at] | p[at + 1] << 8);
}

std::string plural(uint64_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// What the header says, checked field group by field group before anything is allocated.
struct PcxHeader {
    uint8_t version = 0, bits = 0, planes = 0;
    bool rle = false;
    bool defaultEga = false;  // versions 0 and 3 carry no palette in the header
    Layout layout = Layout::Palette8;
    std::string note;  // what the conversion did: the image's first note
    uint32_t width = 0, height = 0, bytesPerLine = 0;
    uint64_t lineBytes = 0;  // one scanline, all its planes
};

// Checks the header's size, manufacturer byte, version and encoding; reads bits and planes.
bool readPcxIdentity(const uint8_t* p, size_t n, PcxHeader& h, std::string& error) {
    if (n < kHeaderSize) {
        error = atOffset(0, "PCX header needs " + std::to_string(kHeaderSize) + " bytes, the file has " +
                                std::to_string(n));
        return false;
    }
    if (p[0] != 0x0A) {
        error = atOffset(0, "not a PCX file (manufacturer byte " + hex(p[0]) + ", not 0x0A)");
        return false;
    }
    const uint8_t version = p[kVersionAt], encoding = p[kEncodingAt];
    if (version != 0 && version != 2 && version != 3 && version != 4 && version != 5) {
        error =
            atOffset(kVersionAt, "PCX version " + std::to_string(version) + " is not known (0, 2, 3, 4, 5)");
        return false;
    }
    if (encoding > 1) {
        error = atOffset(kEncodingAt,
                         "PCX encoding " + std::to_string(encoding) + " is not known (0 raw, 1 run-length)");
        return false;
    }
    h.version = version;
    h.rle = encoding == 1;
    h.bits = p[kBitsAt];
    h.planes = p[kPlanesAt];
    // Versions 0 and 3 carry no palette in the header: 16-colour images use the standard EGA one.
    h.defaultEga = version == 0 || version == 3;
    return true;
}

// Picks the row layout for bits x planes and the note naming the conversion.
bool chooseLayout(PcxHeader& h, std::string& error) {
    const uint8_t bits = h.bits, planes = h.planes;
    const std::string egaPalette = h.defaultEga ? "default EGA palette" : "header palette";
    if (bits == 8 && planes == 1) {
        h.layout = Layout::Palette8;
        h.note = "PCX 8-bit palettised converted to RGBA8";
    } else if (bits == 8 && planes == 3) {
        h.layout = Layout::Rgb;
        h.note = "PCX 24-bit RGB (3 planes) converted to RGBA8";
    } else if (bits == 8 && planes == 4) {
        h.layout = Layout::Rgba;
        h.note = "PCX 32-bit RGBA (4 planes) converted to RGBA8";
    } else if (bits == 4 && planes == 1) {
        h.layout = Layout::Packed4;
        h.note = "PCX 4-bit (16 colours, " + egaPalette + ") converted to RGBA8";
    } else if (bits == 1 && planes == 1) {
        h.layout = Layout::Planar1;
        h.note = "PCX 1-bit (2 colours, header palette) converted to RGBA8";
    } else if (bits == 1 && planes >= 2 && planes <= 4) {
        h.layout = Layout::Planar1;
        h.note = "PCX " + std::to_string(1u << planes) + "-colour planar (" + std::to_string(planes) +
                 " planes x 1 bit, " + egaPalette + ") converted to RGBA8";
    } else {
        const bool planesAtFault = bits == 1 || bits == 8;
        std::string what = "PCX " + plural(bits, "bit") + " per pixel x " + plural(planes, "plane");
        if (bits == 2 && planes == 1) what += " (CGA 4-colour)";
        error = atOffset(planesAtFault ? kPlanesAt : kBitsAt,
                         what + " is not supported (8 x 1, 3 or 4; 4 x 1; 1 x 1 to 4 are)");
        return false;
    }
    return true;
}

// Reads the window (Xmin..Xmax, Ymin..Ymax) into a size and checks bytes per line against it.
bool readWindow(const uint8_t* p, PcxHeader& h, std::string& error) {
    const uint16_t xmin = u16At(p, kXminAt), ymin = u16At(p, kYminAt), xmax = u16At(p, kXmaxAt),
                   ymax = u16At(p, kYmaxAt);
    if (xmax < xmin) {
        error = atOffset(kXmaxAt, "PCX window Xmax " + std::to_string(xmax) + " is less than Xmin " +
                                      std::to_string(xmin));
        return false;
    }
    if (ymax < ymin) {
        error = atOffset(kYmaxAt, "PCX window Ymax " + std::to_string(ymax) + " is less than Ymin " +
                                      std::to_string(ymin));
        return false;
    }
    const uint32_t width = uint32_t(xmax) - xmin + 1, height = uint32_t(ymax) - ymin + 1;
    if (!checkDimensions(width, kXmaxAt, height, kYmaxAt, "PCX", error)) return false;
    const uint32_t bytesPerLine = u16At(p, kBytesPerLineAt);
    const uint64_t neededPerLine = (uint64_t(width) * h.bits + 7) / 8;
    if (bytesPerLine < neededPerLine) {
        error = atOffset(kBytesPerLineAt, "PCX bytes per line " + std::to_string(bytesPerLine) +
                                              " is less than the " + std::to_string(neededPerLine) +
                                              " a row of " + std::to_string(width) + " pixels needs");
        return false;
    }
    h.width = width;
    h.height = height;
    h.bytesPerLine = bytesPerLine;
    return true;
}

// Sizes a scanline and checks the whole image data against what the file can hold.
bool checkStreamSize(size_t n, PcxHeader& h, std::string& error) {
    // One scanline is at most 65535 x 4 bytes; the whole stream is checked against what the file
    // can hold (raw: itself; RLE: at most 63 bytes per 2) before the image is allocated.
    h.lineBytes = uint64_t(h.bytesPerLine) * h.planes;
    const uint64_t streamBytes = h.lineBytes * h.height;
    const uint64_t available = n - kHeaderSize;
    if (!h.rle && streamBytes > available) {
        error = atOffset(n, "PCX image data needs " + std::to_string(streamBytes) + " bytes from offset " +
                                hex(kHeaderSize) + ", the file has " + std::to_string(available));
        return false;
    }
    if (h.rle && streamBytes > (available + 1) / 2 * kMaxRun) {
        error =
            atOffset(n, "PCX run-length data of " + std::to_string(available) +
                            " bytes cannot expand to the " + std::to_string(streamBytes) + " bytes of a " +
                            std::to_string(h.width) + "x" + std::to_string(h.height) + " image");
        return false;
    }
    return true;
}

// Fills the 16-colour palette (header or default EGA), black and white for 1-bit files without one.
void loadPalette16(const uint8_t* p, PcxHeader& h, uint8_t palette16[48]) {
    std::memcpy(palette16, h.defaultEga ? kDefaultEga : p + kEgaPaletteAt, 48);
    if (h.layout == Layout::Planar1 && h.planes == 1) {
        // Two colours from the header (ImageMagick writes white, black and sets the bits of the
        // black pixels), unless the file has no palette to give: then 0 is black and 1 white.
        if (h.defaultEga || std::memcmp(palette16, palette16 + 3, 3) == 0) {
            std::memset(palette16, 0, 3);
            std::memset(palette16 + 3, 255, 3);
            h.note = "PCX 1-bit black and white (no header palette) converted to RGBA8";
        }
    }
}

// Converts one decoded scanline (its planes one after the other) to RGBA8; Palette8 keeps the index.
void convertRow(const PcxHeader& h, const uint8_t* plane0, const uint8_t* palette16, uint8_t* out) {
    const uint32_t bytesPerLine = h.bytesPerLine;
    for (uint32_t x = 0; x < h.width; ++x, out += 4) {
        switch (h.layout) {
            case Layout::Palette8:
                out[0] = plane0[x];  // the index, until the palette is known
                break;
            case Layout::Rgb:
            case Layout::Rgba:
                out[0] = plane0[x];
                out[1] = plane0[bytesPerLine + x];
                out[2] = plane0[2 * size_t(bytesPerLine) + x];
                out[3] = h.layout == Layout::Rgba ? plane0[3 * size_t(bytesPerLine) + x] : 255;
                break;
            case Layout::Packed4: {
                const uint8_t index = (plane0[x / 2] >> ((x & 1) ? 0 : 4)) & 0x0F;
                std::memcpy(out, palette16 + 3 * index, 3);
                out[3] = 255;
                break;
            }
            case Layout::Planar1: {
                uint32_t index = 0;
                for (uint32_t plane = 0; plane < h.planes; ++plane)
                    index |= uint32_t(plane0[plane * size_t(bytesPerLine) + x / 8] >> (7 - x % 8) & 1u)
                             << plane;
                std::memcpy(out, palette16 + 3 * index, 3);
                out[3] = 255;
                break;
            }
        }
    }
}

// Decodes every scanline from the stream into rgba; false when the data ends first.
bool decodeRows(size_t n, const PcxHeader& h, const uint8_t* palette16, DataStream& stream,
                std::vector<uint8_t>& rgba, std::string& error) {
    std::vector<uint8_t> line(static_cast<size_t>(h.lineBytes));
    for (uint32_t y = 0; y < h.height; ++y) {
        if (!stream.fill(line.data(), line.size())) {
            error = atOffset(n, std::string("PCX ") + (h.rle ? "run-length" : "raw") +
                                    " image data ends in row " + std::to_string(y) + " of " +
                                    std::to_string(h.height));
            return false;
        }
        convertRow(h, line.data(), palette16, &rgba[size_t(y) * h.width * 4]);
    }
    return true;
}

// Finds the 256-colour palette after the image data (null with a greyscale note when the file
// has none and needs none); false when one is needed and missing or cut short.
bool findPalette256(const uint8_t* p, size_t n, size_t dataEnd, PcxHeader& h, const uint8_t*& palette,
                    Image& image, std::string& error) {
    // The palette is the file's last 769 bytes; a file with bytes after it still reads when
    // the marker follows the image data directly.
    const size_t after = n - dataEnd;
    palette = nullptr;
    if (after >= kPaletteSize + 1 && p[n - kPaletteSize - 1] == kPaletteMarker) {
        palette = p + n - kPaletteSize;
    } else if (after >= kPaletteSize + 1 && p[dataEnd] == kPaletteMarker) {
        palette = p + dataEnd + 1;
        image.notes.push_back("PCX palette found after the image data at " + hex(dataEnd) + "; " +
                              plural(after - kPaletteSize - 1, "trailing byte") + " ignored");
    } else if (after == 0 && (p[kPaletteInfoAt] == 2 || h.version < 5)) {
        h.note = "PCX 8-bit greyscale (no palette in the file) converted to RGBA8";
    } else {
        if (after == 0)
            error = atOffset(dataEnd,
                             "PCX 8-bit image has no 256-colour palette (the file ends with the "
                             "image data)");
        else if (p[dataEnd] == kPaletteMarker)
            error = atOffset(dataEnd,
                             "PCX 256-colour palette is cut short: 768 bytes needed after the "
                             "0x0C marker, the file has " +
                                 std::to_string(after - 1));
        else
            error = atOffset(dataEnd,
                             "PCX 256-colour palette marker 0x0C not found after the image "
                             "data (byte " +
                                 hex(p[dataEnd]) + " here, " + plural(after, "byte") +
                                 " to the end of the file)");
        return false;
    }
    return true;
}

// Replaces the indices of a Palette8 image with the palette's colours (grey levels without one).
void applyPalette256(const uint8_t* palette, std::vector<uint8_t>& rgba) {
    for (size_t i = 0; i < rgba.size(); i += 4) {
        const uint8_t index = rgba[i];
        if (palette) {
            std::memcpy(&rgba[i], palette + 3 * size_t(index), 3);
        } else {
            rgba[i + 1] = rgba[i + 2] = index;
        }
        rgba[i + 3] = 255;
    }
}

}  // namespace

bool readPcx(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    const uint8_t* p = bytes.data;
    const size_t n = bytes.size;
    PcxHeader h;
    if (!readPcxIdentity(p, n, h, error) || !chooseLayout(h, error) || !readWindow(p, h, error) ||
        !checkStreamSize(n, h, error))
        return false;

    image.container = "pcx";
    image.format = PixelFormat::Rgba8;
    image.width = h.width;
    image.height = h.height;
    std::vector<uint8_t> rgba(size_t(h.width) * h.height * 4);
    uint8_t palette16[48];
    loadPalette16(p, h, palette16);

    DataStream stream{p, n, kHeaderSize, h.rle};
    if (!decodeRows(n, h, palette16, stream, rgba, error)) {
        image = Image{};
        return false;
    }
    if (stream.runLeft != 0)
        image.notes.push_back("run-length run at " + hex(stream.runAt) + " goes " +
                              plural(stream.runLeft, "byte") + " past the end of the image: dropped");
    const size_t dataEnd = stream.pos;

    if (h.layout == Layout::Palette8) {
        const uint8_t* palette = nullptr;
        if (!findPalette256(p, n, dataEnd, h, palette, image, error)) {
            image = Image{};
            return false;
        }
        applyPalette256(palette, rgba);
    }
    image.notes.insert(image.notes.begin(), h.note);
    image.surfaces.push_back(makeOwnedBytes(std::move(rgba)));
    return true;
}

}  // namespace esv
