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

#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"

namespace {

void check(bool ok) {
    if (!ok) __builtin_trap();
}

void loadBoth(const std::shared_ptr<const std::vector<uint8_t>>& bytes) {
    for (bool collectAll : {false, true}) {
        esv::LoadOptions options;
        options.collectAll = collectAll;
        esv::LoadResult r = esv::loadSceneMemory(bytes, "fuzz.pof", options);
        if (!r.scene) {
            check(!r.problems.empty());  // the contract: a scene or problems
            for (const esv::Problem& p : r.problems) check(!p.message.empty());
            continue;
        }
        check(r.problems.empty());
        if (r.scene->format != "pof") continue;
        check(r.scene->pof != nullptr);
        check(r.scene->pof->subobjects.size() == r.scene->nodes.size());
        // A scene that loads is safe to use: every stream and index is in range.
        esv::Pose pose;
        esv::evaluatePose(*r.scene, -1, 0.0f, pose);
        volatile bool valid = esv::sceneBounds(*r.scene, pose).valid();
        (void)valid;
    }
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
