// Writes the built-in demo scene (scene/demo_scene.h) as assets/demo.pod with the POD writer.
//
//   esview_write_assets [ASSETS_DIR]     (default: the source tree's assets/ folder)
//
// POD has no morph targets, so the blob's "bulge" target and its weight track are left out; the
// demo's rest pose differs from the start of its clip, so the rest pose is frame 0 and the clip
// follows from frame 1 (POD binds skins at frame 0). Exit code 0 on success, 1 on failure.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "loaders/pod/pod_writer.h"
#include "scene/demo_scene.h"

int main(int argc, char** argv) {
    if (argc > 2) {
        std::fprintf(stderr, "usage: %s [ASSETS_DIR]\n", argv[0]);
        return 2;
    }
    const std::filesystem::path dir =
        argc == 2 ? std::filesystem::path(argv[1]) : std::filesystem::path(ESVIEW_ASSETS_DIR);
    esv::PodWriteOptions options;
    options.dropMorphTargets = true;  // tests/pod/pod_writer_test.cpp checks the asset with the same options
    std::vector<uint8_t> bytes;
    std::string error;
    std::vector<std::string> notes;
    if (!esv::writePod(esv::makeDemoScene(), options, bytes, error, &notes)) {
        std::fprintf(stderr, "demo.pod: %s\n", error.c_str());
        return 1;
    }
    const std::filesystem::path path = dir / "demo.pod";
    std::FILE* f = std::fopen(path.string().c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "%s: cannot write the file\n", path.string().c_str());
        return 1;
    }
    std::printf("%s: %zu bytes\n", path.string().c_str(), bytes.size());
    for (const std::string& n : notes) std::printf("  %s\n", n.c_str());
    return 0;
}
