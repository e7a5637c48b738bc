// Loads a large synthetic POD (many skinned, interleaved meshes; >= 100 MB) from memory and
// prints the load throughput next to memcpy of the same bytes, measured in the same run, plus the
// peak heap in use during one load. The reader keeps vertex payloads in the file buffer, so the
// goal is a load at no less than half the memcpy throughput and a peak under 1.2 x file + 16 MiB.
//
// The file is built as a scene and written with the POD writer (loaders/pod/pod_writer.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/common/heap_tracking.h"
#include "loaders/load.h"
#include "loaders/pod/pod_writer.h"
#include "scene/sampler.h"

namespace esv {
namespace {

constexpr uint32_t kMeshes = 84;
constexpr uint32_t kVerticesPerMesh = 20000;  // stride 52: ~1 MB of vertices per mesh
constexpr uint32_t kTrianglesPerMesh = 36000;
constexpr uint32_t kBonesPerBatch = 8;
constexpr uint32_t kBatches = 4;
constexpr uint32_t kBones = 24;   // bone nodes, shared by all meshes
constexpr uint32_t kFrames = 60;  // every bone animates T, R, S

template <typename T>
ByteView bytesOf(const std::vector<T>& items) {
    std::vector<uint8_t> bytes(items.size() * sizeof(T));
    std::memcpy(bytes.data(), items.data(), bytes.size());
    return makeOwnedBytes(std::move(bytes));
}

// Many skinned meshes, interleaved position/normal/uv/bone indices (UByte x4)/weights (float x4),
// sharing one vertex and one index buffer in memory (the file holds a copy per mesh).
Scene makeLargeScene() {
    Scene scene;
    const uint32_t stride = 12 + 12 + 8 + 4 + 16;
    std::vector<uint8_t> inter(size_t(kVerticesPerMesh) * stride);
    for (uint32_t v = 0; v < kVerticesPerMesh; ++v) {
        uint8_t* p = inter.data() + size_t(v) * stride;
        const float values[8] = {float(v % 200),          float(v / 200),         float(v % 7), 0, 0, 1,
                                 float(v % 200) / 200.0f, float(v / 200) / 100.0f};
        std::memcpy(p, values, 32);
        const uint8_t bones[4] = {uint8_t(v % kBonesPerBatch), uint8_t((v + 1) % kBonesPerBatch), 0, 0};
        std::memcpy(p + 32, bones, 4);
        const float weights[4] = {0.75f, 0.25f, 0, 0};
        std::memcpy(p + 36, weights, 16);
    }
    std::vector<uint16_t> indices(size_t(kTrianglesPerMesh) * 3);
    for (uint32_t i = 0; i < kTrianglesPerMesh * 3; ++i)
        indices[i] = static_cast<uint16_t>((i / 3 + i % 3) % kVerticesPerMesh);

    Mesh mesh;
    VertexStream stream;
    stream.bytes = bytesOf(inter);
    stream.stride = stride;
    stream.count = kVerticesPerMesh;
    stream.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0},
        {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 12},
        {Semantic::TexCoord, 0, ComponentType::Float32, 2, false, Swizzle::Identity, 24},
        {Semantic::BoneIndices, 0, ComponentType::UInt8, 4, false, Swizzle::Identity, 32},
        {Semantic::BoneWeights, 0, ComponentType::Float32, 4, false, Swizzle::Identity, 36},
    };
    mesh.streams.push_back(stream);
    mesh.vertexCount = kVerticesPerMesh;
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = kTrianglesPerMesh * 3;
    mesh.indices.bytes = bytesOf(indices);
    Submesh sub;
    sub.indexCount = mesh.indices.count;
    mesh.submeshes.push_back(sub);
    // Batch b uses bones (5b + k) % 24; the skin's joints are the distinct bones in that order.
    Skin skin;
    std::vector<int32_t> jointOf(kBones, -1);
    for (uint32_t b = 0; b < kBatches; ++b) {
        BoneBatch batch;
        for (uint32_t k = 0; k < kBonesPerBatch; ++k) {
            const uint32_t bone = (b * 5 + k) % kBones;
            if (jointOf[bone] < 0) {
                jointOf[bone] = static_cast<int32_t>(skin.joints.size());
                skin.joints.push_back(static_cast<int32_t>(kMeshes + bone));
            }
            batch.bones.push_back(jointOf[bone]);
        }
        batch.firstTriangle = b * (kTrianglesPerMesh / kBatches);
        batch.triangleCount = kTrianglesPerMesh / kBatches;
        mesh.boneBatches.push_back(batch);
    }
    mesh.boneIndicesBatchLocal = true;
    mesh.maxBonesPerBatch = kBonesPerBatch;
    scene.meshes.assign(kMeshes, mesh);

    for (uint32_t m = 0; m < kMeshes; ++m) {
        Node n;
        n.name = "mesh " + std::to_string(m);
        n.kind = NodeKind::Mesh;
        n.object = static_cast<int32_t>(m);
        n.materials = {-1};
        n.skin = static_cast<int32_t>(m);
        n.local.translation = {float(m), 0.0f, 0.0f};
        scene.nodes.push_back(n);
    }
    for (uint32_t k = 0; k < kBones; ++k) {
        Node n;
        n.name = "bone " + std::to_string(k);
        n.kind = NodeKind::Bone;
        n.parent = k == 0 ? -1 : static_cast<int32_t>(kMeshes + k - 1);
        n.local.translation = {0.0f, 1.0f, 0.0f};
        scene.nodes.push_back(n);
    }
    // POD binds skins at frame 0: inverse binds from the rest pose, one skin per mesh node.
    Pose rest;
    evaluatePose(scene, -1, 0.0f, rest);
    for (uint32_t m = 0; m < kMeshes; ++m) {
        Skin s = skin;
        for (int32_t j : s.joints) s.inverseBind.push_back(glm::inverse(rest.world[j]) * rest.world[m]);
        scene.skins.push_back(std::move(s));
    }
    Clip clip;
    clip.name = "Take 001";
    clip.end = float(kFrames - 1) / 30.0f;
    for (uint32_t k = 0; k < kBones; ++k) {
        Track t, r, s;
        t.node = r.node = s.node = static_cast<int32_t>(kMeshes + k);
        t.channel = Channel::Translation;
        r.channel = Channel::Rotation;
        r.components = 4;
        s.channel = Channel::Scale;
        for (uint32_t f = 0; f < kFrames; ++f) {
            const float time = float(f) / 30.0f;
            t.times.push_back(time), r.times.push_back(time), s.times.push_back(time);
            t.values.insert(t.values.end(), {0.0f, 1.0f, float(f) * 0.01f});
            r.values.insert(r.values.end(), {0.0f, 0.0f, 0.0f, 1.0f});
            s.values.insert(s.values.end(), {1.0f, 1.0f, 1.0f});
        }
        clip.tracks.push_back(std::move(t));
        clip.tracks.push_back(std::move(r));
        clip.tracks.push_back(std::move(s));
    }
    scene.animation.clips.push_back(std::move(clip));
    scene.animation.frames = kFrames;
    return scene;
}

std::shared_ptr<const std::vector<uint8_t>> makeLargePod() {
    std::vector<uint8_t> bytes;
    std::string error;
    if (!writePod(makeLargeScene(), PodWriteOptions{}, bytes, error)) {
        std::fprintf(stderr, "the synthetic scene could not be written: %s\n", error.c_str());
        std::exit(1);
    }
    return std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

const std::shared_ptr<const std::vector<uint8_t>>& largePod() {
    static const auto bytes = makeLargePod();
    return bytes;
}

std::map<std::string, double> g_bytesPerSecond;

void BM_Memcpy(benchmark::State& state) {
    const auto& src = largePod();
    std::vector<uint8_t> dst(src->size());
    std::memset(dst.data(), 1, dst.size());  // fault the pages in before timing
    for (auto _ : state) {
        std::memcpy(dst.data(), src->data(), src->size());
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(src->size()));
}
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LoadPod(benchmark::State& state) {
    const auto& src = largePod();
    for (auto _ : state) {
        LoadResult r = loadSceneMemory(src, "large.pod", {});
        if (!r.scene) state.SkipWithError("the synthetic POD did not load");
        benchmark::DoNotOptimize(r.scene.get());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(src->size()));
}
BENCHMARK(BM_LoadPod)->Unit(benchmark::kMillisecond)->UseRealTime();

// Captures each benchmark's bytes per second so that main can print the ratio.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            auto it = run.counters.find("bytes_per_second");
            if (it != run.counters.end()) g_bytesPerSecond[run.benchmark_name()] = it->second;
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

}  // namespace
}  // namespace esv

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    const size_t fileBytes = esv::largePod()->size();
    std::printf("synthetic POD: %.1f MB, %u skinned interleaved meshes of %u vertices\n", fileBytes / 1e6,
                esv::kMeshes, esv::kVerticesPerMesh);

    // Peak heap of one load, the file buffer (already resident) included.
    const size_t before = esv::bench::heapCurrent();
    esv::bench::resetHeapPeak();
    {
        esv::LoadResult r = esv::loadSceneMemory(esv::largePod(), "large.pod", {});
        if (!r.scene) {
            std::fprintf(stderr, "the synthetic POD did not load: %s\n",
                         r.problems.empty() ? "?" : r.problems[0].format().c_str());
            return 1;
        }
    }
    const size_t peakDuringLoad = esv::bench::heapPeak() - before + fileBytes;

    esv::RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    double copy = 0, load = 0;
    for (const auto& [name, bps] : esv::g_bytesPerSecond) {
        if (name.rfind("BM_Memcpy", 0) == 0) copy = bps;
        if (name.rfind("BM_LoadPod", 0) == 0) load = bps;
    }
    if (copy > 0 && load > 0)
        std::printf("load throughput %.2f GB/s, memcpy %.2f GB/s: ratio %.2f (goal >= 0.5)\n", load / 1e9,
                    copy / 1e9, load / copy);
    const double mib = 1024.0 * 1024.0;
    std::printf(
        "peak heap during load (file buffer included): %.1f MiB = file + %.1f MiB (goal: under 1.2 x file + "
        "16 MiB = %.1f MiB)\n",
        peakDuringLoad / mib, (double(peakDuringLoad) - double(fileBytes)) / mib,
        (1.2 * fileBytes + 16 * mib) / mib);
    return 0;
}
