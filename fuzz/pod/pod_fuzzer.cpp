// libFuzzer entry point: any bytes through loadSceneMemory as a POD file, in load and check mode.
// A finding is a crash, a sanitizer report, a leak, a timeout or an allocation over -rss_limit_mb.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "loaders/load.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    for (bool check : {false, true}) {
        esv::LoadOptions options;
        options.collectAll = check;
        esv::LoadResult r = esv::loadSceneMemory(bytes, "fuzz.pod", options);
        // A loaded scene must be consistent: touch the first and last byte of every view.
        if (r.scene) {
            volatile uint32_t sum = 0;
            for (const esv::Mesh& m : r.scene->meshes) {
                for (const esv::VertexStream& s : m.streams)
                    if (s.bytes.size) sum = sum + s.bytes.data[0] + s.bytes.data[s.bytes.size - 1];
                if (m.indices.bytes.size) sum = sum + m.indices.bytes.data[0] + m.indices.bytes.data[m.indices.bytes.size - 1];
            }
        } else if (r.problems.empty()) {
            __builtin_trap();  // the contract: a scene or problems
        }
    }
    return 0;
}
