// libFuzzer entry point for the POF reader. Each input is loaded in load and check mode as a whole
// file, and a second time behind a PSPO header of each BSP era (2117 and 2301), so that mutations
// of chunk sequences reach the chunk readers without first having to keep the magic intact.
// A finding is a crash, a sanitizer report, a leak, a timeout, an allocation over -rss_limit_mb,
// or a broken invariant below (trap).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/load.h"
#include "scene/pof_extras.h"

namespace {

using esv::fuzz::check;

void loadBoth(const std::shared_ptr<const std::vector<uint8_t>>& bytes) {
    esv::fuzz::loadInBothModes(bytes, "fuzz.pof", [](const esv::LoadResult& r) {
        if (!r.scene) return;
        check(r.problems.empty());  // POF keeps no scene from a file with problems
        if (r.scene->format != "pof") return;
        check(r.scene->pof != nullptr);
        check(r.scene->pof->subobjects.size() == r.scene->nodes.size());
        esv::fuzz::evaluateRestPose(*r.scene);
    });
}

std::shared_ptr<const std::vector<uint8_t>> withHeader(const uint8_t* data, size_t size, int32_t version) {
    std::vector<uint8_t> file = {'P', 'S', 'P', 'O'};
    for (int i = 0; i < 4; ++i)
        file.push_back(static_cast<uint8_t>(static_cast<uint32_t>(version) >> (8 * i)));
    file.insert(file.end(), data, data + size);
    return std::make_shared<const std::vector<uint8_t>>(std::move(file));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    loadBoth(std::make_shared<const std::vector<uint8_t>>(data, data + size));
    // Inputs that already are POF files (the seeds) are also tried as chunk lists of the other era.
    if (size >= 8 && std::memcmp(data, "PSPO", 4) == 0) {
        loadBoth(withHeader(data + 8, size - 8, 2117));
        loadBoth(withHeader(data + 8, size - 8, 2301));
    }
    return 0;
}
