// Loads a large synthetic POD (many skinned, interleaved meshes; >= 100 MB) from memory and
// prints the load throughput next to memcpy of the same bytes, measured in the same run, plus the
// peak heap in use during one load. The reader keeps vertex payloads in the file buffer, so the
// goal is a load at no less than half the memcpy throughput and a peak under 1.2 x file + 16 MiB.
//
// The file is generated in memory with the test fixture builder until the POD writer exists.
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "loaders/load.h"
#include "tests/pod/pod_bytes.h"

// --- heap accounting: current and peak bytes through the global allocation functions ----------
namespace {
std::atomic<size_t> g_current{0};
std::atomic<size_t> g_peak{0};
void noteAlloc(void* p) {
    if (!p) return;
    size_t now = g_current.fetch_add(malloc_usable_size(p)) + malloc_usable_size(p);
    size_t peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
}
void noteFree(void* p) {
    if (p) g_current.fetch_sub(malloc_usable_size(p));
}
}  // namespace

__attribute__((noinline)) void* operator new(size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    noteAlloc(p);
    return p;
}
void* operator new[](size_t n) { return operator new(n); }
// Not inlined: GCC would otherwise see free() paired with new at the call sites.
__attribute__((noinline)) void operator delete(void* p) noexcept {
    noteFree(p);
    std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }

namespace esv {
namespace {

using test::PodBytes;

constexpr uint32_t kMeshes = 84;
constexpr uint32_t kVerticesPerMesh = 20000;  // stride 52: ~1 MB of vertices per mesh
constexpr uint32_t kTrianglesPerMesh = 36000;
constexpr uint32_t kBonesPerBatch = 8;
constexpr uint32_t kBatches = 4;
constexpr uint32_t kBones = 24;   // bone nodes, shared by all meshes
constexpr uint32_t kFrames = 60;  // every bone animates T, R, S

// Many skinned meshes, interleaved position/normal/uv/bone indices (UByte x4)/weights (float x4).
std::shared_ptr<const std::vector<uint8_t>> makeLargePod() {
    PodBytes b;
    b.version().open(pod::Scene);
    b.counts(0, 0, kMeshes, kMeshes + kBones, kMeshes, 0, 0, kFrames).u32(pod::Fps, 30);
    const uint32_t stride = 12 + 12 + 8 + 4 + 16;
    std::vector<uint8_t> inter(size_t(kVerticesPerMesh) * stride);
    for (uint32_t v = 0; v < kVerticesPerMesh; ++v) {
        uint8_t* p = inter.data() + size_t(v) * stride;
        const float values[8] = {float(v % 200), float(v / 200), float(v % 7), 0, 0, 1, float(v % 200) / 200.0f, float(v / 200) / 100.0f};
        std::memcpy(p, values, 32);
        const uint8_t bones[4] = {uint8_t(v % kBonesPerBatch), uint8_t((v + 1) % kBonesPerBatch), 0, 0};
        std::memcpy(p + 32, bones, 4);
        const float weights[4] = {0.75f, 0.25f, 0, 0};
        std::memcpy(p + 36, weights, 16);
    }
    std::vector<uint8_t> indices(size_t(kTrianglesPerMesh) * 3 * 2);
    for (uint32_t i = 0; i < kTrianglesPerMesh * 3; ++i) {
        const uint16_t v = static_cast<uint16_t>((i / 3 + i % 3) % kVerticesPerMesh);
        indices[2 * i] = uint8_t(v);
        indices[2 * i + 1] = uint8_t(v >> 8);
    }
    std::vector<uint32_t> batchBones, batchCounts, batchOffsets;
    for (uint32_t bb = 0; bb < kBatches; ++bb) {
        for (uint32_t k = 0; k < kBonesPerBatch; ++k) batchBones.push_back(kMeshes + (bb * 5 + k) % kBones);
        batchCounts.push_back(kBonesPerBatch);
        batchOffsets.push_back(bb * (kTrianglesPerMesh / kBatches));
    }
    for (uint32_t m = 0; m < kMeshes; ++m) {
        b.open(pod::MeshBlock);
        b.u32(pod::NumVertices, kVerticesPerMesh).u32(pod::NumFaces, kTrianglesPerMesh).u32(pod::NumUvwChannels, 1).u32(pod::NumStrips, 0);
        b.leaf(pod::InterleavedDataList, inter.data(), inter.size());
        b.u32(pod::MaxNumBonesPerBatch, kBonesPerBatch).u32(pod::NumBoneBatches, kBatches);
        b.u32s(pod::BoneBatchIndexList, batchBones).u32s(pod::NumBoneIndicesPerBatch, batchCounts).u32s(pod::BoneOffsetPerBatch, batchOffsets);
        b.dataList(pod::VertexIndexList, 3, 1, 2, indices);
        b.dataList(pod::VertexList, 1, 3, stride, PodBytes::words({0}));
        b.dataList(pod::NormalList, 1, 3, stride, PodBytes::words({12}));
        b.dataList(pod::UvwList, 1, 2, stride, PodBytes::words({24}));
        b.dataList(pod::BoneIndexList, 10, 4, stride, PodBytes::words({32}));
        b.dataList(pod::BoneWeightList, 1, 4, stride, PodBytes::words({36}));
        b.close(pod::MeshBlock);
    }
    for (uint32_t m = 0; m < kMeshes; ++m) {
        b.open(pod::NodeBlock).i32(pod::NodeIndex, int32_t(m)).str(pod::NodeName, "mesh " + std::to_string(m));
        b.i32(pod::NodeMaterialIndex, -1).i32(pod::NodeParentIndex, -1).f32s(pod::AnimationPosition, {float(m), 0, 0});
        b.close(pod::NodeBlock);
    }
    std::vector<float> pos, rot, scale;
    for (uint32_t f = 0; f < kFrames; ++f) {
        pos.insert(pos.end(), {0, 1, float(f) * 0.01f});
        rot.insert(rot.end(), {0, 0, 0, 1});
        scale.insert(scale.end(), {1, 1, 1, 0, 0, 0, 0});
    }
    for (uint32_t k = 0; k < kBones; ++k) {
        b.open(pod::NodeBlock).i32(pod::NodeIndex, -1).str(pod::NodeName, "bone " + std::to_string(k));
        b.i32(pod::NodeParentIndex, k == 0 ? -1 : int32_t(kMeshes + k - 1));
        b.u32(pod::AnimationFlags, 7).f32s(pod::AnimationPosition, pos).f32s(pod::AnimationRotation, rot).f32s(pod::AnimationScale, scale);
        b.close(pod::NodeBlock);
    }
    b.close(pod::Scene);
    return b.shared();
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
    std::printf("synthetic POD: %.1f MB, %u skinned interleaved meshes of %u vertices\n", fileBytes / 1e6, esv::kMeshes,
                esv::kVerticesPerMesh);

    // Peak heap of one load, the file buffer (already resident) included.
    const size_t before = g_current.load();
    g_peak.store(before);
    {
        esv::LoadResult r = esv::loadSceneMemory(esv::largePod(), "large.pod", {});
        if (!r.scene) {
            std::fprintf(stderr, "the synthetic POD did not load: %s\n", r.problems.empty() ? "?" : r.problems[0].format().c_str());
            return 1;
        }
    }
    const size_t peakDuringLoad = g_peak.load() - before + fileBytes;

    esv::RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    double copy = 0, load = 0;
    for (const auto& [name, bps] : esv::g_bytesPerSecond) {
        if (name.rfind("BM_Memcpy", 0) == 0) copy = bps;
        if (name.rfind("BM_LoadPod", 0) == 0) load = bps;
    }
    if (copy > 0 && load > 0)
        std::printf("load throughput %.2f GB/s, memcpy %.2f GB/s: ratio %.2f (goal >= 0.5)\n", load / 1e9, copy / 1e9, load / copy);
    const double mib = 1024.0 * 1024.0;
    std::printf("peak heap during load (file buffer included): %.1f MiB = file + %.1f MiB (goal: under 1.2 x file + 16 MiB = %.1f MiB)\n",
                peakDuringLoad / mib, (double(peakDuringLoad) - double(fileBytes)) / mib, (1.2 * fileBytes + 16 * mib) / mib);
    return 0;
}
