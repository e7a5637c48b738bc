// libFuzzer entry point: any bytes through readImage (PVR v3/v2, DDS, PCX, stb_image by magic bytes),
// then the software decoders on what was read, when its RGBA8 result stays under 64 MiB.
// A finding is a crash, a sanitizer report, a leak, a timeout, an allocation over -rss_limit_mb,
// or a broken contract (fuzz/fuzz_contract.h and below).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/textures/decode.h"
#include "loaders/textures/image_reader.h"

namespace {

constexpr uint64_t kMaxDecodedBytes = 64ull << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    const esv::ByteView view{bytes, bytes->data(), bytes->size()};
    esv::Image image;
    std::string error;
    const bool read = esv::readImage(view, image, error);
    esv::fuzz::checkResultOrReason(read, error);
    if (!read) return 0;
    // A read image is consistent: one surface of exactly the format's size per (level, face).
    esv::fuzz::check(image.levels > 0 && (image.faces == 1 || image.faces == 6));
    esv::fuzz::check(image.surfaces.size() == size_t(image.levels) * image.faces);
    uint64_t decodedBytes = 0;
    volatile uint32_t sum = 0;
    for (uint32_t level = 0; level < image.levels; ++level) {
        const uint32_t w = image.levelWidth(level), h = image.levelHeight(level);
        for (uint32_t face = 0; face < image.faces; ++face) {
            const esv::ByteView& s = image.surface(level, face);
            esv::fuzz::check(s.size ==
                             esv::surfaceSize(image.format, w, h, image.blockWidth, image.blockHeight));
            sum = sum + s.data[0] + s.data[s.size - 1];
            decodedBytes += uint64_t(w) * h * 4;
        }
    }
    if (esv::isCompressed(image.format) && decodedBytes <= kMaxDecodedBytes) {
        esv::Image decoded;
        esv::fuzz::check(esv::decodeImage(image, decoded, error));  // readImage's images always decode
    }
    return 0;
}
