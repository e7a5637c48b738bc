// libFuzzer entry point: any bytes through loadSceneMemory as a POD file, in load and check mode.
// A finding is a crash, a sanitizer report, a leak, a timeout, an allocation over -rss_limit_mb,
// or a broken contract (fuzz/fuzz_contract.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/load.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    esv::fuzz::loadInBothModes(bytes, "fuzz.pod", [](const esv::LoadResult& r) {
        if (r.scene) esv::fuzz::touchViews(*r.scene);
    });
    return 0;
}
