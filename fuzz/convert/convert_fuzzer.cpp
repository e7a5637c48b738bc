// libFuzzer entry point for the writers behind `esview convert`: any bytes that load as a scene
// (by their magic, else as OpenGEX text) are shaped for POD and written by writePod, and written as
// glTF by writeGltf. A finding is a crash, a sanitizer report, a leak, a timeout, or a broken
// contract: each step either succeeds or says why in one sentence, and a POD the writer produced
// reads back as a valid scene (whatever the writer accepts, the reader takes). The last input byte
// picks the POD shaping (quantisation, vertex order, strips, layout), so the corpus covers them all.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "convert/gltf/gltf_writer.h"
#include "convert/pod/pod_shape.h"
#include "fuzz/fuzz_contract.h"
#include "loaders/load.h"
#include "loaders/pod/pod_writer.h"
#include "scene/up_axis.h"

namespace {

void convertToPod(const esv::Scene& loaded, uint8_t choice) {
    esv::Scene scene = loaded;
    esv::PodShapeOptions shape;
    shape.maxBones = (choice & 1) ? 8 : 28;
    if (choice & 2) {
        std::string error;
        esv::fuzz::check(esv::parsePodQuantize("all", shape.quantize, error));
    }
    shape.optimize = (choice & 4) != 0;
    shape.strips = (choice & 8) != 0;
    shape.clip = scene.animation.clips.empty() ? -1 : 0;
    shape.dropMorphs = shape.dropHidden = shape.dropVisibility = shape.dropUvAnimation = true;
    shape.bindPoseRest = shape.wrapRepeat = shape.plainTextures = true;
    shape.fps = 10.0f;  // few frames: a long clip must not make every run slow
    esv::PodShapeReport report;
    std::string error;
    if (!esv::shapeSceneForPod(scene, shape, report, error)) {
        esv::fuzz::check(!error.empty());
        return;
    }
    esv::PodWriteOptions write;
    write.interleave = (choice & 16) == 0;
    write.bakeAnimation = true;
    write.dropMorphTargets = true;
    std::vector<uint8_t> bytes;
    if (!esv::writePod(scene, write, bytes, error)) {
        esv::fuzz::check(!error.empty() && bytes.empty());
        return;
    }
    auto shared = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    const esv::LoadResult back = esv::loadSceneMemory(shared, "converted.pod");
    esv::fuzz::check(back.scene != nullptr);
    esv::fuzz::touchViews(*back.scene);
}

void convertToGltf(const esv::Scene& loaded) {
    // As `esview convert` does: a Z-up scene is turned to glTF's Y up first.
    esv::Scene turnedCopy;
    const esv::Scene* turned = &loaded;
    if (loaded.up == esv::UpAxis::Z) {
        turnedCopy = loaded;
        esv::fuzz::check(esv::turnSceneToYUp(turnedCopy) && turnedCopy.up == esv::UpAxis::Y);
        turned = &turnedCopy;
    }
    const esv::Scene& scene = *turned;
    static const std::string path =
        (std::filesystem::temp_directory_path() / ("esview-fuzz-" + std::to_string(getpid()) + ".glb")).string();
    esv::GltfWriteOptions options;
    options.binary = true;
    options.resampleFps = 10.0;
    esv::GltfWriteReport report;
    std::string error;
    if (esv::writeGltf(scene, path, options, report, error)) {
        std::error_code ec;
        esv::fuzz::check(std::filesystem::file_size(path, ec) > 12 && !ec);
        std::filesystem::remove(path, ec);
    } else {
        esv::fuzz::check(!error.empty());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    const esv::LoadResult r = esv::loadSceneMemory(bytes, "fuzz.ogex");
    esv::fuzz::checkLoadResult(r, size);
    if (!r.scene) return 0;
    convertToPod(*r.scene, size ? data[size - 1] : 0);
    convertToGltf(*r.scene);
    return 0;
}
