// glTF load time on a synthetic binary glTF of about 100 MB (skinned grids, interleaved and
// separate vertex views, one animated skin; see large_glb.h), written to a temporary folder at
// start-up, and on the largest shared sample converted by esview to .glb when ../shared is there.
// Next to it, measured in the same run on the same file:
//   read+json  fopen + fread into a fresh buffer + the GLB header and nlohmann::json::parse of the
//              JSON chunk: the least any glTF loader pays for the same bytes;
//   esview     esv::loadSceneFile: read, parse, check every accessor and build and validate the scene;
//   assimp     Assimp::Importer::ReadFile with no post-processing (Debian's assimp 5.2).
// Goals (issue 35): esview within 1.5x the time of read+json, at least 10x faster than assimp, and a
// peak heap of one load within 1.5x the file (counted through the global operator new/delete, which
// nlohmann's and assimp's allocations pass through too).
//
// Usage: bench_gltf [benchmark flags], e.g. --benchmark_min_time=1
#include <malloc.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "bench/common/heap_tracking.h"
#include "bench/gltf/large_glb.h"
#include "loaders/load.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
constexpr double kMiB = 1024.0 * 1024.0;

struct Workload {
    std::string tag;
    std::string path;
    uint64_t bytes = 0;
};

std::map<std::string, double> g_seconds;  // benchmark name -> seconds per iteration (median)
std::map<std::string, std::string> g_errors;

// Reads the file into a fresh buffer and parses the JSON of a .glb (or the whole .gltf).
std::string readAndParse(const Workload& w) {
    std::FILE* f = std::fopen(w.path.c_str(), "rb");
    if (!f) return "cannot open the file";
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[w.bytes]);
    const size_t got = std::fread(buffer.get(), 1, w.bytes, f);
    std::fclose(f);
    if (got != w.bytes) return "short read";
    const uint8_t* json = buffer.get();
    size_t jsonSize = w.bytes;
    if (w.bytes >= 20 && std::memcmp(buffer.get(), "glTF", 4) == 0) {
        uint32_t chunk = 0;
        std::memcpy(&chunk, buffer.get() + 12, 4);
        if (chunk > w.bytes - 20) return "bad JSON chunk";
        json = buffer.get() + 20;
        jsonSize = chunk;
    }
    const nlohmann::json doc = nlohmann::json::parse(json, json + jsonSize, nullptr, false);
    if (doc.is_discarded()) return "the JSON does not parse";
    benchmark::DoNotOptimize(doc.size());
    return {};
}

std::string loadEsview(const Workload& w) {
    LoadResult r = loadSceneFile(w.path);
    if (!r.scene) return r.problems.empty() ? std::string("failed") : r.problems[0].format();
    if (r.scene->meshes.empty()) return "the scene has no meshes";
    benchmark::DoNotOptimize(r.scene.get());
    return {};
}

std::string loadAssimp(const Workload& w) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(w.path, 0);
    if (!scene) return std::string("assimp failed: ") + importer.GetErrorString();
    if (scene->mNumMeshes == 0) return "assimp imported no meshes";
    return {};
}

using Contender = std::string (*)(const Workload&);

void run(benchmark::State& state, const Workload* w, Contender contender) {
    for (auto _ : state) {
        const std::string failure = contender(*w);
        if (!failure.empty()) {
            state.SkipWithError(failure.c_str());
            break;
        }
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bytes));
}

const std::pair<const char*, Contender> kContenders[] = {
    {"read+json", readAndParse}, {"esview", loadEsview}, {"assimp", loadAssimp}};

class SecondsReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
            const std::string name = r.run_name.str();
            if (r.error_occurred) g_errors[name] = r.error_message;
            else if (r.iterations > 0) g_seconds[name] = r.real_accumulated_time / double(r.iterations);
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

template <class T>
const T* lookup(const std::map<std::string, T>& values, const std::string& name) {
    for (const auto& [key, value] : values)
        if (key == name || key.rfind(name + "/", 0) == 0) return &value;
    return nullptr;
}

void printSummary(const Workload& w) {
    std::printf("%s (%.1f MB):\n", w.tag.c_str(), double(w.bytes) / 1e6);
    const double* t[3] = {};
    for (int i = 0; i < 3; ++i) {
        const std::string name = std::string(kContenders[i].first) + "/" + w.tag;
        t[i] = lookup(g_seconds, name);
        if (const std::string* e = lookup(g_errors, name)) std::printf("  %-10s skipped: %s\n", kContenders[i].first, e->c_str());
        else if (t[i]) std::printf("  %-10s %8.1f ms  %8.1f MB/s\n", kContenders[i].first, *t[i] * 1e3, double(w.bytes) / *t[i] / 1e6);
    }
    if (t[0] && t[1])
        std::printf("  esview/read+json time ratio %.2f (goal <= 1.5): %s\n", *t[1] / *t[0], *t[1] / *t[0] <= 1.5 ? "met" : "NOT met");
    if (t[1] && t[2])
        std::printf("  assimp/esview time ratio %.1f (goal >= 10): %s\n", *t[2] / *t[1], *t[2] / *t[1] >= 10 ? "met" : "NOT met");
}

size_t peakHeap(Contender contender, const Workload& w, std::string& failure) {
    const size_t before = bench::heapCurrent();
    bench::resetHeapPeak();
    failure = contender(w);
    return bench::heapPeak() - before;
}

}  // namespace
}  // namespace esv

int main(int argc, char** argv) {
    // Warm heap for the timed runs (see bench_opengex): freed memory stays in the arena.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    benchmark::Initialize(&argc, argv);
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string tmpl = (fs::temp_directory_path(ec) / "esview-bench-gltf-XXXXXX").string();
    if (ec || !mkdtemp(tmpl.data())) {
        std::fprintf(stderr, "cannot create a temporary folder\n");
        return 1;
    }
    const fs::path dir = tmpl;
    const esv::bench::LargeGlbShape shape;
    esv::bench::LargeGlbStats stats;
    esv::Workload synthetic{"synthetic", (dir / "synthetic.glb").string(), 0};
    std::string error;
    if (!esv::bench::writeLargeGlb(synthetic.path, shape, stats, error)) {
        std::fprintf(stderr, "the synthetic glTF could not be written: %s\n", error.c_str());
        fs::remove_all(dir);
        return 1;
    }
    synthetic.bytes = stats.bytes;
    std::printf("synthetic glTF: %.1f MB (JSON %.1f KB): %u skinned meshes, %llu vertices, %llu triangles, %u joints x %u keys\n",
                double(stats.bytes) / 1e6, stats.jsonBytes / 1e3, shape.meshes, (unsigned long long)stats.vertices,
                (unsigned long long)stats.triangles, shape.joints, shape.keys);
    std::vector<esv::Workload> workloads{synthetic};
    for (const esv::Workload& w : workloads)
        for (const auto& [name, contender] : esv::kContenders)
            benchmark::RegisterBenchmark((std::string(name) + "/" + w.tag).c_str(), esv::run, &w, contender)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();

    std::printf("peak heap during one load of the synthetic file (%.1f MiB):\n", double(stats.bytes) / esv::kMiB);
    for (const auto& [name, contender] : esv::kContenders) {
        std::string failure;
        const size_t peak = esv::peakHeap(contender, synthetic, failure);
        std::printf("  %-10s %7.1f MiB (%.2f x file)%s%s\n", name, peak / esv::kMiB, double(peak) / double(stats.bytes),
                    failure.empty() ? "" : "  failed: ", failure.c_str());
        if (std::strcmp(name, "esview") == 0 && failure.empty())
            std::printf("  esview peak heap goal <= 1.5 x file: %s\n", double(peak) <= 1.5 * double(stats.bytes) ? "met" : "NOT met");
    }
    esv::SecondsReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    std::printf("\n");
    for (const esv::Workload& w : workloads) esv::printSummary(w);
    fs::remove_all(dir);
    return 0;
}
