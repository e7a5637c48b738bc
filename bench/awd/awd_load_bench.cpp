// AWD load throughput next to plain zlib inflate of the same body, measured in the same run:
//   inflate  zlib's inflate of the file's compressed body into a buffer allocated once, outside the
//            timed loop (the least any reader of the file pays);
//   esview   esv::loadSceneMemory of the file's bytes: header, inflate (output grown as it
//            arrives), both passes over the blocks, streams kept as views into the body, skeletons,
//            joints, skins and clips built, the scene validated.
// Throughput is counted in bytes of the decompressed body. Goal: a load takes at most 1.5 x the
// inflate alone, on the largest sample in ../shared/models/awd and on a synthetic file written with
// the tests' AWD writer (tests/awd/awd_writer.h): many skinned meshes with positions, normals, UVs,
// four joint indices and weights per vertex, one skeleton with a long skeleton animation, zlib body.
// The timed runs reuse a warm heap (as bench_opengex: freed memory stays in the arena, so an
// iteration does not pay a page fault per 4 KiB again, as a viewer that reloads does not); the first
// load of each file in the process, page faults included, is printed too, with its peak heap
// (operator new/delete, the file buffer not included).
//
// Usage: bench_awd [benchmark flags], e.g. --benchmark_min_time=1
#include <zlib.h>

#include <malloc.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include "awd/awd_writer.h"
#include "bench/common/heap_tracking.h"
#include "loaders/load.h"

namespace esv {
namespace {

using awdtest::AwdWriter;

constexpr uint32_t kGeometries = 48;
constexpr uint32_t kGrid = 140;                        // kGrid x kGrid vertices per geometry
constexpr uint32_t kVertices = kGrid * kGrid;          // 19600
constexpr uint32_t kJoints = 32;
constexpr uint32_t kInfluences = 4;                    // joint indices and weights per vertex
constexpr uint32_t kFrames = 120;                      // skeleton poses, 33 ms each
constexpr double kMiB = 1024.0 * 1024.0;

struct Workload {
    std::string tag;
    std::shared_ptr<const std::vector<uint8_t>> file;
    size_t bodyBytes = 0;  // decompressed body
};

// A small hash: deterministic noise in the low bits, so that the streams compress about as well as
// exported meshes do (2-3 x) rather than to nothing.
float noise(uint32_t a, uint32_t b) {
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return float(h & 0xFFFF) / 65535.0f;
}

std::shared_ptr<const std::vector<uint8_t>> writeSyntheticAwd() {
    awdtest::WriterOptions options;
    options.compression = awdtest::Compression::Zlib;
    AwdWriter w(options);

    // A wavy grid per geometry, bent along the joint chain (joint j spans rows j * kGrid / kJoints on).
    std::vector<uint32_t> geometries;
    for (uint32_t g = 0; g < kGeometries; ++g) {
        std::vector<double> positions, normals, uvs, weights;
        std::vector<uint32_t> joints;
        positions.reserve(kVertices * 3);
        for (uint32_t y = 0; y < kGrid; ++y)
            for (uint32_t x = 0; x < kGrid; ++x) {
                const uint32_t v = y * kGrid + x;
                const float n = noise(g, v);
                positions.insert(positions.end(), {x * 0.1 + n * 0.01, y * 0.1, std::sin(x * 0.3) * 0.2 + n * 0.02});
                normals.insert(normals.end(), {-std::cos(x * 0.3) * 0.06, 0.0, 1.0 - n * 0.001});
                uvs.insert(uvs.end(), {double(x) / (kGrid - 1), double(y) / (kGrid - 1) + n * 1e-4});
                const uint32_t j = std::min(kJoints - 1, y * kJoints / kGrid);
                joints.insert(joints.end(), {j, std::min(kJoints - 1, j + 1), j > 0 ? j - 1 : 0, 0});
                const double w0 = 0.55 + 0.3 * n;
                weights.insert(weights.end(), {w0, (1.0 - w0) * 0.6, (1.0 - w0) * 0.4, 0.0});
            }
        std::vector<uint32_t> indices;
        indices.reserve((kGrid - 1) * (kGrid - 1) * 6);
        for (uint32_t y = 0; y + 1 < kGrid; ++y)
            for (uint32_t x = 0; x + 1 < kGrid; ++x) {
                const uint32_t a = y * kGrid + x, b = a + 1, c = a + kGrid, d = c + 1;
                indices.insert(indices.end(), {a, b, d, a, d, c});
            }
        AwdWriter::SubGeometry sub;
        sub.streams.push_back(w.floats(1, positions));
        sub.streams.push_back(AwdWriter::shorts(2, indices));
        sub.streams.push_back(w.floats(3, uvs));
        sub.streams.push_back(w.floats(4, normals));
        sub.streams.push_back(AwdWriter::shorts(6, joints));
        sub.streams.push_back(w.floats(7, weights));
        geometries.push_back(w.block(1, w.triangleGeometry("grid " + std::to_string(g), {sub})));
    }
    std::vector<uint32_t> instances;
    for (uint32_t g = 0; g < kGeometries; ++g)
        instances.push_back(w.block(23, w.meshInstance(0, glm::mat4(1.0f), "mesh " + std::to_string(g), geometries[g], {})));

    // A chain of joints up the grid; joint j is bound at y = j * kGrid * 0.1 / kJoints.
    std::vector<AwdWriter::Joint> skeleton;
    const float step = kGrid * 0.1f / kJoints;
    for (uint32_t j = 0; j < kJoints; ++j)
        skeleton.push_back({"joint " + std::to_string(j), int(j) - 1,
                            glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -step * float(j), 0.0f))});
    const uint32_t skeletonId = w.block(101, w.skeleton("rig", skeleton));
    std::vector<std::pair<uint32_t, uint16_t>> frames;
    for (uint32_t f = 0; f < kFrames; ++f) {
        std::vector<glm::mat4> locals;
        for (uint32_t j = 0; j < kJoints; ++j) {
            const glm::mat4 up = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, j == 0 ? 0.0f : step, 0.0f));
            locals.push_back(glm::rotate(up, 0.02f * std::sin(float(f) * 0.1f + float(j)), glm::vec3(1, 0, 0)));
        }
        frames.push_back({w.block(102, w.skeletonPose("pose " + std::to_string(f), locals)), uint16_t(33)});
    }
    const uint32_t clip = w.block(103, w.skeletonAnimation("Wave", frames));
    const uint32_t set = w.block(113, w.animationSet("set", {clip}));
    w.block(122, w.animator("animator", 1, skeletonId, set, instances));
    return std::make_shared<const std::vector<uint8_t>>(w.finish());
}

// Inflates the zlib body of an AWD file into `out` (sized beforehand); false if it is not one.
bool inflateBody(const std::vector<uint8_t>& file, std::vector<uint8_t>& out) {
    if (file.size() < 12 || file[7] != 1) return false;  // byte 7: compression, 1 = zlib
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return false;
    z.next_in = const_cast<Bytef*>(file.data() + 12);
    z.avail_in = static_cast<uInt>(file.size() - 12);
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_FINISH);
    const size_t produced = out.size() - z.avail_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return false;
    out.resize(produced);
    return true;
}

// The decompressed size: the body inflated once through a small buffer; 0 if it does not inflate.
size_t bodySize(const std::vector<uint8_t>& file) {
    if (file.size() < 12 || file[7] != 1) return 0;
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return 0;
    z.next_in = const_cast<Bytef*>(file.data() + 12);
    z.avail_in = static_cast<uInt>(file.size() - 12);
    std::vector<uint8_t> scratch(1 << 20);
    size_t total = 0;
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = scratch.data();
        z.avail_out = static_cast<uInt>(scratch.size());
        rc = inflate(&z, Z_NO_FLUSH);
        total += scratch.size() - z.avail_out;
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END ? total : 0;
}

std::map<std::string, double> g_seconds;  // benchmark name -> seconds per iteration (wall)

void runInflate(benchmark::State& state, const Workload* w) {
    std::vector<uint8_t> out(w->bodyBytes + 1);
    for (auto _ : state) {
        out.resize(w->bodyBytes + 1);
        if (!inflateBody(*w->file, out)) {
            state.SkipWithError("the body did not inflate");
            break;
        }
        benchmark::DoNotOptimize(out.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bodyBytes));
}

void runLoad(benchmark::State& state, const Workload* w) {
    for (auto _ : state) {
        LoadResult r = loadSceneMemory(w->file, w->tag + ".awd", {});
        if (!r.scene || r.scene->meshes.empty()) {
            state.SkipWithError(r.scene ? "the scene has no meshes" : r.problems[0].format().c_str());
            break;
        }
        benchmark::DoNotOptimize(r.scene.get());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bodyBytes));
}

class SecondsReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
            if (!run.error_occurred && run.iterations > 0)
                g_seconds[run.run_name.function_name] = run.real_accumulated_time / double(run.iterations);
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

bool addWorkload(std::vector<Workload>& workloads, const std::string& tag,
                 std::shared_ptr<const std::vector<uint8_t>> file) {
    Workload w{tag, std::move(file), 0};
    w.bodyBytes = bodySize(*w.file);
    if (w.bodyBytes == 0) {
        std::fprintf(stderr, "%s: not a zlib-compressed AWD file\n", tag.c_str());
        return false;
    }
    workloads.push_back(std::move(w));
    return true;
}

}  // namespace
}  // namespace esv

int main(int argc, char** argv) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    benchmark::Initialize(&argc, argv);
    std::vector<esv::Workload> workloads;
    workloads.reserve(2);
    if (!esv::addWorkload(workloads, "synthetic", esv::writeSyntheticAwd())) return 1;
    std::printf("synthetic AWD: %.1f MB file, %.1f MB body: %u skinned geometries of %u vertices (%u influences), "
                "%u joints, %u poses\n",
                workloads[0].file->size() / 1e6, workloads[0].bodyBytes / 1e6, esv::kGeometries, esv::kVertices,
                esv::kInfluences, esv::kJoints, esv::kFrames);

    // The largest zlib sample.
    namespace fs = std::filesystem;
    fs::path largest;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(ESVIEW_SHARED_DIR "/models/awd", ec)) {
        std::string ext = entry.path().extension().string();
        for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".awd" && (largest.empty() || entry.file_size() > fs::file_size(largest))) largest = entry.path();
    }
    if (largest.empty()) {
        std::printf("%s/models/awd not found: the real-file case is skipped\n", ESVIEW_SHARED_DIR);
    } else {
        std::string error;
        auto bytes = esv::readWholeFile(largest.string(), error);
        if (bytes && esv::addWorkload(workloads, largest.stem().string(), bytes))
            std::printf("%s: %.1f MB file, %.1f MB body\n", largest.filename().c_str(), bytes->size() / 1e6,
                        workloads.back().bodyBytes / 1e6);
    }

    // The first load of each file, on a heap that has not held it before.
    struct First {
        double ms = 0;
        size_t peak = 0, meshes = 0;
    };
    std::vector<First> first(workloads.size());
    for (size_t i = 0; i < workloads.size(); ++i) {
        const esv::Workload& w = workloads[i];
        const size_t before = esv::bench::heapCurrent();
        esv::bench::resetHeapPeak();
        const auto start = std::chrono::steady_clock::now();
        {
            esv::LoadResult r = esv::loadSceneMemory(w.file, w.tag + ".awd", {});
            first[i].ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            if (!r.scene) {
                std::fprintf(stderr, "%s did not load: %s\n", w.tag.c_str(),
                             r.problems.empty() ? "?" : r.problems[0].format().c_str());
                return 1;
            }
            first[i].meshes = r.scene->meshes.size();
        }
        first[i].peak = esv::bench::heapPeak() - before;
    }

    for (const esv::Workload& w : workloads) {
        benchmark::RegisterBenchmark(("inflate/" + w.tag).c_str(), esv::runInflate, &w)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
        benchmark::RegisterBenchmark(("esview/" + w.tag).c_str(), esv::runLoad, &w)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
    esv::SecondsReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    for (size_t i = 0; i < workloads.size(); ++i) {
        const esv::Workload& w = workloads[i];
        std::printf("%s (%zu meshes, %.1f MB body):\n", w.tag.c_str(), first[i].meshes, w.bodyBytes / 1e6);
        const auto inflate = esv::g_seconds.find("inflate/" + w.tag);
        const auto load = esv::g_seconds.find("esview/" + w.tag);
        if (inflate != esv::g_seconds.end() && load != esv::g_seconds.end()) {
            const double ratio = load->second / inflate->second;
            std::printf("  inflate %8.1f MB/s, esview %8.1f MB/s of body: load/inflate time ratio %.2f (goal <= 1.5): %s\n",
                        w.bodyBytes / inflate->second / 1e6, w.bodyBytes / load->second / 1e6, ratio,
                        ratio <= 1.5 ? "met" : "NOT met");
            std::printf("  first load in the process (page faults included) %.1f ms = %.2f x inflate\n", first[i].ms,
                        first[i].ms / 1e3 / inflate->second);
        } else {
            std::printf("  not measured (filtered out or failed); first load %.1f ms\n", first[i].ms);
        }
        std::printf("  peak heap of the first load %.1f MiB = %.2f x the body (file buffer not included)\n",
                    first[i].peak / esv::kMiB, double(first[i].peak) / double(w.bodyBytes));
    }
    return 0;
}
