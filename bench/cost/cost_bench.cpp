// The cost report (`esview cost`) against the load of the same file, both measured in this run: for
// the largest shared sample of each format, the time of loadSceneFile plus reading its textures,
// and the time of analyzeCost on the loaded scene for a device. The ratio says what the report adds
// to opening the file (its meshoptimizer passes, the preparation for the device, the texture plans).
//
// Usage: bench_cost [benchmark flags]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "cost/cost_report.h"
#include "loaders/format_table.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"

namespace {

namespace fs = std::filesystem;

std::map<std::string, double> g_ms;  // benchmark name -> mean wall ms per iteration

void load(benchmark::State& state, const std::string& file) {
    for (auto _ : state) {
        esv::LoadResult r = esv::loadSceneFile(file);
        if (!r.scene) {
            state.SkipWithError("cannot load");
            return;
        }
        esv::readSceneTextures(*r.scene);
        benchmark::DoNotOptimize(r.scene->meshes.size());
    }
}

void cost(benchmark::State& state, const std::string& file) {
    esv::LoadResult r = esv::loadSceneFile(file);
    if (!r.scene) {
        state.SkipWithError("cannot load");
        return;
    }
    esv::readSceneTextures(*r.scene);
    const esv::DeviceProfile& device = *esv::findDevice("sgx544mp");
    for (auto _ : state) {
        const esv::CostReport report = esv::analyzeCost(*r.scene, device);
        benchmark::DoNotOptimize(report.totals.triangles);
    }
}

class Collector : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs)
            if (run.run_type == Run::RT_Iteration && run.iterations > 0)
                g_ms[run.run_name.function_name] =
                    run.GetAdjustedRealTime() * 1e3 / benchmark::GetTimeUnitMultiplier(run.time_unit);
        ConsoleReporter::ReportRuns(runs);
    }
};

}  // namespace

int main(int argc, char** argv) {
    const fs::path models = fs::path(ESVIEW_SHARED_DIR) / "models";
    std::vector<std::pair<std::string, std::string>> files;  // format key, largest file
    for (const esv::FormatInfo& f : esv::formats()) {
        const fs::path dir = models / f.key;
        if (!fs::is_directory(dir)) continue;
        fs::path largest;
        for (const auto& entry : fs::recursive_directory_iterator(dir))
            if (entry.is_regular_file() && esv::formatForExtension(entry.path().string()) == &f &&
                (largest.empty() || entry.file_size() > fs::file_size(largest)))
                largest = entry.path();
        if (!largest.empty()) files.emplace_back(f.key, largest.string());
    }
    if (files.empty()) {
        std::printf("bench_cost: no shared sample models beside the repository; skipped\n");
        return 0;
    }
    for (const auto& [key, file] : files) {
        benchmark::RegisterBenchmark(("load/" + key).c_str(), load, file)->Unit(benchmark::kMillisecond)->UseRealTime();
        benchmark::RegisterBenchmark(("cost/" + key).c_str(), cost, file)->Unit(benchmark::kMillisecond)->UseRealTime();
    }
    benchmark::Initialize(&argc, argv);
    Collector reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    for (const auto& [key, file] : files) {
        const double loaded = g_ms["load/" + key], costed = g_ms["cost/" + key];
        if (loaded > 0.0 && costed > 0.0)
            std::printf("%s: cost report %.2f ms = %.2f x the load and texture read (%.2f ms) of %s\n", key.c_str(),
                        costed, costed / loaded, loaded, fs::path(file).filename().string().c_str());
    }
    benchmark::Shutdown();
    return 0;
}
