// libFuzzer entry point for the AWD reader. Each input is loaded three ways, in load and check mode:
// as a whole file (header, compression, body length); as the uncompressed body of an AWD 2.1 file
// (so mutations reach the blocks directly instead of dying in zlib); and as such a body with every
// precision flag set (float64 matrices, geometry and properties).
// A finding is a crash, a sanitizer report, a leak, a timeout, an allocation over -rss_limit_mb,
// or a broken invariant below (trap).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/load.h"

namespace {

using esv::fuzz::check;

void loadBoth(const std::shared_ptr<const std::vector<uint8_t>>& bytes) {
    esv::fuzz::loadInBothModes(bytes, "fuzz.awd", [](const esv::LoadResult& r) {
        if (!r.scene) return;
        check(r.problems.empty());  // AWD keeps no scene from a file with problems
        esv::fuzz::evaluateRestPose(*r.scene);
        for (const esv::Texture& t : r.scene->textures)
            if (!t.embedded.empty()) check(t.embedded.data != nullptr);
    });
}

std::shared_ptr<const std::vector<uint8_t>> asBody(const uint8_t* data, size_t size, uint16_t flags) {
    std::vector<uint8_t> file = {'A', 'W', 'D', 2, 1, static_cast<uint8_t>(flags), static_cast<uint8_t>(flags >> 8), 0};
    for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(size >> (8 * i)));
    file.insert(file.end(), data, data + size);
    return std::make_shared<const std::vector<uint8_t>>(std::move(file));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    loadBoth(std::make_shared<const std::vector<uint8_t>>(data, data + size));
    loadBoth(asBody(data, size, 0));
    loadBoth(asBody(data, size, 0x000E));
    return 0;
}
