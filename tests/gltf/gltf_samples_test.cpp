// Every shared sample (POD, AWD, OpenGEX, POF) written by esview's glTF writer as .glb and as .gltf
// (with its .bin beside it), then read back by the glTF reader: the drawn triangles, the bounds at
// rest and at times of each clip (against the source scene's CPU reference, within 1e-3 of the
// diagonal), the clips and their durations, and the side the model faces.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "convert/gltf/gltf_writer.h"
#include "loaders/format_table.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/up_axis.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sourceSamples() {
    std::vector<fs::path> out;
    for (const FormatInfo& f : formats()) {
        const fs::path dir = test::modelsDir() / f.key;
        if (f.id == FileFormat::Gltf || !fs::is_directory(dir)) continue;
        for (const auto& e : fs::recursive_directory_iterator(dir))
            if (e.is_regular_file() && formatForExtension(e.path().string()) == &f) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

uint64_t drawnTriangles(const Scene& scene, const Pose& pose) {
    uint64_t total = 0;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& n = scene.nodes[i];
        if (n.kind != NodeKind::Mesh || n.object < 0 || (i < pose.visible.size() && !pose.visible[i]))
            continue;
        total += triangleCount(scene.meshes[size_t(n.object)]);
    }
    return total;
}

Bounds boundsAt(const Scene& scene, int clip, float seconds) {
    Pose pose;
    evaluatePose(scene, clip, seconds, pose);
    return sceneBounds(scene, pose);
}

void expectNear(const Bounds& a, const Bounds& b, float tolerance, const std::string& what) {
    ASSERT_EQ(a.valid(), b.valid()) << what;
    if (!a.valid()) return;
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(a.min[k], b.min[k], tolerance) << what << " min " << k;
        EXPECT_NEAR(a.max[k], b.max[k], tolerance) << what << " max " << k;
    }
}

// The written file read back agrees with the scene written.
void compare(const Scene& source, const Scene& back, const std::string& what) {
    Pose restSource, restBack;
    evaluatePose(source, -1, 0.0f, restSource);
    evaluatePose(back, -1, 0.0f, restBack);
    EXPECT_EQ(drawnTriangles(back, restBack), drawnTriangles(source, restSource)) << what;
    // The side the model faces, which its first view looks at (AWD's -Z, OpenGEX's metric).
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(back.front[k], source.front[k], 1e-6f) << what << " front " << k;
    const Bounds rest = sceneBounds(source, restSource);
    const float diagonal = rest.valid() ? glm::length(rest.max - rest.min) : 1.0f;
    const float tolerance = 1e-3f * std::max(diagonal, 1e-6f);
    expectNear(sceneBounds(source, restSource), sceneBounds(back, restBack), tolerance, what + " at rest");
    // Clips the writer kept, matched by name; times on the writer's resampling grid (30 per second).
    for (size_t c = 0; c < back.animation.clips.size() && c < 6; ++c) {
        const Clip& got = back.animation.clips[c];
        int sourceClip = -1;
        for (size_t s = 0; s < source.animation.clips.size(); ++s)
            if (source.animation.clips[s].name == got.name && sourceClip < 0) sourceClip = int(s);
        if (sourceClip < 0) continue;
        const Clip& want = source.animation.clips[size_t(sourceClip)];
        EXPECT_LE(got.duration(), want.duration() + 1e-4f) << what << " clip " << got.name;
        const int frames = int(std::floor(got.duration() * 30.0f + 1e-3f));
        for (int k : {0, frames / 3, frames / 2, frames}) {
            const float t = float(k) / 30.0f;
            expectNear(boundsAt(source, sourceClip, want.start + t), boundsAt(back, int(c), t), tolerance,
                       what + " clip '" + got.name + "' at " + std::to_string(t) + " s");
        }
    }
}

TEST(GltfSamples, EverySampleWrittenReadsBackAlike) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path dir = test::outputDir() / "gltf_samples";
    fs::create_directories(dir);
    size_t compared = 0;
    for (const fs::path& path : sourceSamples()) {
        LoadResult source = loadSceneFile(path.string());
        if (!source.scene) continue;
        turnSceneToYUp(*source.scene);  // as `esview convert` writes glTF
        for (bool binary : {true, false}) {
            const std::string what = path.filename().string() + (binary ? " .glb" : " .gltf");
            SCOPED_TRACE(what);
            const fs::path out = dir / (path.filename().string() + (binary ? ".glb" : ".gltf"));
            GltfWriteOptions options;
            options.binary = binary;
            GltfWriteReport report;
            std::string error;
            if (!writeGltf(*source.scene, out.string(), options, report, error))
                continue;  // refused: nothing to read
            LoadOptions check;
            check.collectAll = true;
            const LoadResult back = loadSceneFile(out.string(), check);
            ASSERT_TRUE(back.problems.empty()) << back.problems[0].format();
            ASSERT_NE(back.scene, nullptr);
            EXPECT_EQ(back.scene->format, "gltf");
            EXPECT_EQ(back.scene->animation.clips.size(), report.animations);
            size_t fileNodes = 0, fileMeshes = 0;
            for (const Node& n : back.scene->nodes) fileNodes += n.viewerAdded ? 0 : 1;
            for (const Mesh& m : back.scene->meshes) fileMeshes += m.partOf < 0 ? 1 : 0;
            EXPECT_EQ(fileNodes, report.nodes);
            EXPECT_EQ(fileMeshes, report.meshes);
            compare(*source.scene, *back.scene, what);
            ++compared;
        }
    }
    EXPECT_GE(compared, 40u);
    RecordProperty("compared", int(compared));
    std::printf("%zu written files read back and compared\n", compared);
}

// Written samples cut at every length (spread over the file, all of the first 512 bytes) and with
// bytes flipped or overwritten by absurd counts: each load gives a scene or problems, in load and
// check mode, under the sanitizers without a report. Small samples keep it within seconds.
TEST(GltfSamples, CutAndCorruptedWrittenFilesLoadOrFail) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path dir = test::outputDir() / "gltf_sweep";
    fs::create_directories(dir);
    size_t files = 0;
    for (const char* name : {"ogex/assimp_animation_example.ogex", "awd/PolarBear_Vertex_ABexport.awd",
                             "ogex/squareys_Geometry.ogex"}) {
        LoadResult source = loadSceneFile((test::modelsDir() / name).string());
        if (!source.scene) continue;
        const fs::path out = dir / (fs::path(name).filename().string() + ".glb");
        GltfWriteOptions options;
        options.binary = true;
        GltfWriteReport report;
        std::string error;
        ASSERT_TRUE(writeGltf(*source.scene, out.string(), options, report, error)) << error;
        std::string readError;
        const auto bytes = readWholeFile(out.string(), readError);
        ASSERT_NE(bytes, nullptr);
        const std::vector<uint8_t>& file = *bytes;
        auto load = [&](std::vector<uint8_t> b, const std::string& what) {
            for (bool check : {false, true}) {
                LoadOptions o;
                o.collectAll = check;
                const LoadResult r =
                    loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(b), "sweep.glb", o);
                EXPECT_TRUE(r.scene != nullptr || !r.problems.empty()) << what;
            }
        };
        const size_t step = std::max<size_t>(1, file.size() / 600);
        for (size_t n = 0; n < file.size(); n += n < 512 ? 1 : step)
            load(std::vector<uint8_t>(file.begin(), file.begin() + long(n)), "cut at " + std::to_string(n));
        uint32_t seed = 12345;
        for (int k = 0; k < 600; ++k) {
            seed = seed * 1664525u + 1013904223u;
            std::vector<uint8_t> b = file;
            const size_t at = seed % b.size();
            const uint32_t values[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0, 0x10000u};
            if (k % 2 == 0 || at + 4 > b.size()) {
                b[at] ^= uint8_t(1u << (seed >> 29));
            } else {
                const uint32_t v = values[(seed >> 8) % 4];
                for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
            }
            load(std::move(b), "corrupted at " + std::to_string(at));
        }
        ++files;
    }
    EXPECT_EQ(files, 3u);
}

// gltfpack (meshoptimizer's packer, not esview) quantises the written .glb (KHR_mesh_quantization:
// 14-bit positions, 8-bit normals, 12-bit texture coordinates), with -cc also compresses it
// (EXT_meshopt_compression, filters included), and may merge meshes and resample animation: read back, the
// drawn triangles are the same and the rest bounds agree within the quantisation error (1e-3 of the
// diagonal).
TEST(GltfSamples, GltfpackQuantisedOutputsReadBackAlike) {
    ESVIEW_REQUIRE_MODELS("");
    if (std::string(ESVIEW_GLTFPACK).empty()) GTEST_SKIP() << "gltfpack is not installed";
    const fs::path dir = test::outputDir() / "gltf_gltfpack";
    fs::create_directories(dir);
    size_t compared = 0;
    for (const fs::path& path : sourceSamples()) {
        LoadResult source = loadSceneFile(path.string());
        if (!source.scene) continue;
        turnSceneToYUp(*source.scene);
        const std::string what = path.filename().string();
        SCOPED_TRACE(what);
        const fs::path written = dir / (what + ".glb"), packed = dir / (what + ".packed.glb");
        GltfWriteOptions options;
        options.binary = true;
        GltfWriteReport report;
        std::string error;
        if (!writeGltf(*source.scene, written.string(), options, report, error)) continue;
        // gltfpack merges the meshes of every scene into the default one (POF detail levels and
        // debris are scenes of their own): those files no longer draw what the source draws.
        if (report.scenes > 1) continue;
        // Quantised, then also compressed (EXT_meshopt_compression, decoded where the build links
        // meshoptimizer: always on Linux).
        for (const char* flags : {"", " -cc"}) {
            fs::remove(packed);
            const std::string command = std::string(ESVIEW_GLTFPACK) + flags + " -i '" + written.string() +
                                        "' -o '" + packed.string() + "' >/dev/null 2>&1";
            if (std::system(command.c_str()) != 0 || !fs::exists(packed)) continue;  // gltfpack declined it
            SCOPED_TRACE(std::string("gltfpack") + flags);
            LoadOptions check;
            check.collectAll = true;
            const LoadResult back = loadSceneFile(packed.string(), check);
            ASSERT_TRUE(back.problems.empty()) << back.problems[0].format();
            Pose restSource, restBack;
            evaluatePose(*source.scene, -1, 0.0f, restSource);
            evaluatePose(*back.scene, -1, 0.0f, restBack);
            EXPECT_EQ(drawnTriangles(*back.scene, restBack), drawnTriangles(*source.scene, restSource));
            const Bounds rest = sceneBounds(*source.scene, restSource);
            const float diagonal = rest.valid() ? glm::length(rest.max - rest.min) : 1.0f;
            expectNear(rest, sceneBounds(*back.scene, restBack), 1e-3f * std::max(diagonal, 1e-6f),
                       what + " packed");
            ++compared;
        }
    }
    std::printf("%zu gltfpack outputs read back and compared\n", compared);
    EXPECT_GE(compared, 30u);
}

}  // namespace
}  // namespace esv
