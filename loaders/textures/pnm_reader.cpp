// Binary Netpbm grey and colour maps (PGM "P5", PPM "P6"), read here rather than by stb_image,
// whose PNM loader in the packaged version keeps 16-bit samples in the machine's byte order
// (Netpbm stores them most significant byte first), hands them to its 8-bit channel converter
// when RGBA is asked for and then reads twice the bytes that converter wrote (found by
// fuzz/textures), and does not scale samples whose maximum is not 255 or 65535.
#include <algorithm>
#include <string>
#include <vector>

#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_bytes.h"

namespace esv {

using namespace texbytes;

namespace {

constexpr uint64_t kMaxDecodedBytes = 256ull << 20;

struct PnmHeader {
    uint64_t width = 0, height = 0, maxValue = 0;
    uint32_t channels = 1;
    size_t samplesAt = 0;  // the first sample's byte offset
};

// Width, height and maximum: decimal numbers after the magic, each after whitespace and
// comments ("#" to the end of the line), then exactly one whitespace byte before the samples.
bool readHeader(const uint8_t* p, size_t n, PnmHeader& header, std::string& error) {
    static const char* const kFields[3] = {"width", "height", "maximum value"};
    uint64_t* fields[3] = {&header.width, &header.height, &header.maxValue};
    header.channels = p[1] == '6' ? 3 : 1;
    size_t at = 2;
    for (int f = 0; f < 3; ++f) {
        for (;;) {
            while (at < n && (p[at] == ' ' || (p[at] >= '\t' && p[at] <= '\r'))) ++at;
            if (at < n && p[at] == '#') {
                while (at < n && p[at] != '\n' && p[at] != '\r') ++at;
                continue;
            }
            break;
        }
        const size_t start = at;
        uint64_t value = 0;
        while (at < n && p[at] >= '0' && p[at] <= '9') {
            if (at - start >= 10) {
                error = atOffset(start, std::string("PNM header: the ") + kFields[f] + " has more than 10 digits");
                return false;
            }
            value = value * 10 + (p[at++] - '0');
        }
        if (at == start) {
            error = atOffset(at, std::string("PNM header: the ") + kFields[f] + " was expected (a decimal number)");
            return false;
        }
        *fields[f] = value;
    }
    if (at >= n || !(p[at] == ' ' || (p[at] >= '\t' && p[at] <= '\r'))) {
        error = atOffset(at, "PNM header: one whitespace byte was expected after the maximum value");
        return false;
    }
    header.samplesAt = at + 1;
    return true;
}

}  // namespace

bool readPnm(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    const uint8_t* p = bytes.data;
    const size_t n = bytes.size;
    if (n < 2 || p[0] != 'P' || (p[1] != '5' && p[1] != '6')) {
        error = atOffset(0, "not a binary PGM or PPM file (P5 or P6 expected)");
        return false;
    }
    PnmHeader h;
    if (!readHeader(p, n, h, error)) return false;
    const std::string size = std::to_string(h.width) + "x" + std::to_string(h.height);
    if (h.width == 0 || h.height == 0 || h.width > kMaxDimension || h.height > kMaxDimension) {
        error = atOffset(2, "PNM image of " + size + " is outside 1.." + std::to_string(kMaxDimension) +
                                " pixels per side");
        return false;
    }
    if (h.maxValue == 0 || h.maxValue > 65535) {
        error = atOffset(2, "PNM maximum value " + std::to_string(h.maxValue) + " is outside 1..65535");
        return false;
    }
    const uint64_t pixels = h.width * h.height;
    if (pixels * 4 > kMaxDecodedBytes) {
        error = atOffset(2, "PNM image of " + size + " would decode to " + std::to_string(pixels * 4 >> 20) +
                                " MiB (more than " + std::to_string(kMaxDecodedBytes >> 20) + " MiB)");
        return false;
    }
    const uint64_t sampleBytes = h.maxValue > 255 ? 2 : 1;
    const uint64_t need = pixels * h.channels * sampleBytes;
    if (n - h.samplesAt < need) {
        error = atOffset(h.samplesAt, "PNM image of " + size + " needs " + std::to_string(need) +
                                          " bytes of samples, the file has " + std::to_string(n - h.samplesAt));
        return false;
    }
    // Each sample scaled from 0..maximum to 0..255, rounded to nearest; values above the maximum
    // (the format forbids them) are clamped.
    const uint64_t maxValue = h.maxValue;
    auto scale = [maxValue](uint64_t v) {
        return uint8_t((std::min(v, maxValue) * 255 + maxValue / 2) / maxValue);
    };
    std::vector<uint8_t> rgba(size_t(pixels) * 4);
    const uint8_t* s = p + h.samplesAt;
    auto next = [&]() -> uint64_t {
        const uint64_t v = sampleBytes == 2 ? (uint64_t(s[0]) << 8) + s[1] : s[0];
        s += sampleBytes;
        return v;
    };
    for (size_t i = 0; i < size_t(pixels); ++i) {
        uint8_t* o = &rgba[i * 4];
        o[0] = scale(next());
        o[1] = h.channels == 3 ? scale(next()) : o[0];
        o[2] = h.channels == 3 ? scale(next()) : o[0];
        o[3] = 255;
    }
    image.container = "pnm";
    image.format = PixelFormat::Rgba8;
    image.width = uint32_t(h.width);
    image.height = uint32_t(h.height);
    image.surfaces.push_back(makeOwnedBytes(std::move(rgba)));
    if (sampleBytes == 2) image.notes.push_back("16-bit channels reduced to 8 bits");
    if (h.maxValue != 255 && h.maxValue != 65535)
        image.notes.push_back("samples scaled from 0.." + std::to_string(h.maxValue) + " to 0..255");
    return true;
}

}  // namespace esv
