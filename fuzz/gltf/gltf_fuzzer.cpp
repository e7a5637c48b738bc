// libFuzzer entry point for the glTF reader. Each input is loaded three ways, in load and check mode:
// as it is (a .glb when it starts with the magic, else .gltf text); as the JSON chunk of a .glb
// whose BIN chunk is a fixed 256-byte ramp (so that mutated documents reach accessors, sparse
// values, animations and skins with bytes to read); and as that JSON in a .gltf. External URIs
// name files that do not exist beside the input, so only data URIs and the BIN chunk are read.
// A finding is a crash, a sanitizer report, a leak, a timeout, an allocation over -rss_limit_mb,
// or a broken invariant below (trap).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/load.h"

namespace {

using esv::fuzz::check;

void loadBoth(const std::shared_ptr<const std::vector<uint8_t>>& bytes, const char* name) {
    esv::fuzz::loadInBothModes(bytes, name, [](const esv::LoadResult& r) {
        if (!r.scene) return;
        check(r.problems.empty());  // the glTF reader keeps no scene from a file with problems
        esv::fuzz::evaluateRestPose(*r.scene);
        for (const esv::Mesh& m : r.scene->meshes)
            for (const esv::VertexStream& s : m.streams) check(s.bytes.size == 0 || s.bytes.data != nullptr);
    });
}

std::shared_ptr<const std::vector<uint8_t>> asGlb(const uint8_t* data, size_t size) {
    std::vector<uint8_t> file;
    const size_t json = (size + 3) / 4 * 4;
    const uint32_t total = uint32_t(12 + 8 + json + 8 + 256);
    auto u32 = [&](uint32_t v) {
        for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(v >> (8 * i)));
    };
    for (char c : std::string("glTF")) file.push_back(uint8_t(c));
    u32(2);
    u32(total);
    u32(uint32_t(json));
    u32(0x4E4F534A);
    file.insert(file.end(), data, data + size);
    file.resize(20 + json, ' ');
    u32(256);
    u32(0x004E4942);
    for (int i = 0; i < 256; ++i) file.push_back(static_cast<uint8_t>(i));
    return std::make_shared<const std::vector<uint8_t>>(std::move(file));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto whole = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    loadBoth(whole, "fuzz.glb");
    loadBoth(whole, "fuzz.gltf");
    if (size < (1u << 20)) loadBoth(asGlb(data, size), "fuzz-bin.glb");
    return 0;
}
