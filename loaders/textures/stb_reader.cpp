// Everything that is not PVR, DDS, PCX or binary PGM/PPM goes through stb_image (libstb, which already holds the
// implementation): the size is read first and capped, then the image is decoded to RGBA8.
#include <algorithm>
#include <climits>
#include <cstring>

#include <stb_image.h>

#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_bytes.h"

namespace esv {

using namespace texbytes;

namespace {

constexpr uint64_t kMaxDecodedBytes = 256ull << 20;

// The container stb_image will pick, from the same magic bytes it tests (TGA has none).
const char* stbContainer(const uint8_t* p, size_t n) {
    auto starts = [&](const char* magic, size_t len) { return n >= len && std::memcmp(p, magic, len) == 0; };
    if (starts("\x89PNG", 4)) return "png";
    if (starts("\xFF\xD8", 2)) return "jpeg";
    if (starts("GIF8", 4)) return "gif";
    if (starts("BM", 2)) return "bmp";
    if (starts("8BPS", 4)) return "psd";
    if (starts("#?RADIANCE\n", 11) || starts("#?RGBE\n", 7)) return "hdr";
    if (starts("\x53\x80\xF6\x34", 4)) return "pic";
    if (starts("P5", 2) || starts("P6", 2)) return "pnm";
    return "tga";
}

// Formats that store pixels raw or run-length encoded (at most 128 pixels per 2 bytes) cannot
// hold more than this many pixels per file byte; a header claiming more is refused before stb
// allocates the image. PNG, JPEG and GIF compress further and are only held to the byte cap.
bool boundedByFileSize(const std::string& container) {
    return container != "png" && container != "jpeg" && container != "gif";
}
constexpr uint64_t kMaxPixelsPerByte = 256;

}  // namespace

bool readWithStb(const ByteView& bytes, Image& image, std::string& error) {
    image = Image{};
    error.clear();
    if (bytes.size == 0) {
        error = atOffset(0, "empty file");
        return false;
    }
    if (bytes.size > size_t(INT_MAX)) {
        error = atOffset(0, "image file of " + std::to_string(bytes.size) + " bytes is too large");
        return false;
    }
    const std::string container = stbContainer(bytes.data, bytes.size);
    if (container == "pnm") return readPnm(bytes, image, error);
    const int length = int(bytes.size);
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_memory(bytes.data, length, &w, &h, &channels)) {
        const char* reason = stbi_failure_reason();
        error = atOffset(0, "not a readable image (no PVR, DDS or stb_image format matches" +
                                (reason ? std::string(": ") + reason : std::string()) + ")");
        return false;
    }
    const uint64_t pixels = uint64_t(uint32_t(w)) * uint32_t(h);
    if (w <= 0 || h <= 0 || uint32_t(w) > kMaxDimension || uint32_t(h) > kMaxDimension) {
        error = atOffset(0, container + " image of " + std::to_string(w) + "x" + std::to_string(h) +
                                " is outside 1.." + std::to_string(kMaxDimension) + " pixels per side");
        return false;
    }
    if (pixels * 4 > kMaxDecodedBytes) {
        error = atOffset(0, container + " image of " + std::to_string(w) + "x" + std::to_string(h) +
                                " would decode to " + std::to_string(pixels * 4 >> 20) + " MiB (more than " +
                                std::to_string(kMaxDecodedBytes >> 20) + " MiB)");
        return false;
    }
    if (boundedByFileSize(container) && pixels > uint64_t(bytes.size) * kMaxPixelsPerByte) {
        error = atOffset(0, container + " image of " + std::to_string(w) + "x" + std::to_string(h) +
                                " cannot fit in a file of " + std::to_string(bytes.size) + " bytes");
        return false;
    }
    const bool sixteenBit = stbi_is_16_bit_from_memory(bytes.data, length) != 0;
    int dw = 0, dh = 0, dc = 0;
    stbi_uc* rgba = stbi_load_from_memory(bytes.data, length, &dw, &dh, &dc, 4);
    if (!rgba) {
        const char* reason = stbi_failure_reason();
        error = atOffset(
            0, container + " data could not be decoded (stb_image: " + (reason ? reason : "unknown") + ")");
        return false;
    }
    if (dw != w || dh != h) {
        stbi_image_free(rgba);
        error = atOffset(0, container + " header says " + std::to_string(w) + "x" + std::to_string(h) +
                                " but the data decodes to " + std::to_string(dw) + "x" + std::to_string(dh));
        return false;
    }
    std::vector<uint8_t> pixelsRgba(rgba, rgba + size_t(pixels) * 4);
    stbi_image_free(rgba);

    image.container = container;
    image.format = PixelFormat::Rgba8;
    image.width = uint32_t(w);
    image.height = uint32_t(h);
    image.surfaces.push_back(makeOwnedBytes(std::move(pixelsRgba)));
    if (container == "hdr")
        image.notes.push_back("HDR tone-mapped to 8 bits per channel by stb_image (gamma 2.2)");
    if (sixteenBit) image.notes.push_back("16-bit channels reduced to 8 bits");
    if (container == "gif") image.notes.push_back("GIF: only the first frame is read");
    return true;
}

}  // namespace esv
