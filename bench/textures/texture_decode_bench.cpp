// Software texture decoders in MPixel/s, each next to two baselines measured in the same run over the same
// output byte count (RGBA8, 4 bytes per pixel): memcpy, and zlib inflate of that very output compressed at
// the default level. Workloads:
//  - PVRTC1 4bpp, every level of the PowerVR SDK's Marble.pvr (1024x1024, 11 levels); skipped when the shared
//    sample folder is absent. Goal: well under a second, aiming at tens of milliseconds for the chain.
//  - ETC2 RGBA, a synthetic 1024x1024 surface of pseudo-random blocks (every colour mode occurs) with EAC
//  alpha.
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "loaders/textures/decode.h"

namespace esv {
namespace {

struct Level {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> bytes;
};

struct Workload {
    std::string name;
    PixelFormat format = PixelFormat::Rgba8;
    std::vector<Level> levels;
    size_t pixels = 0;
    std::vector<uint8_t>
        decoded;  // every level's RGBA8, concatenated (the byte count all three runs produce)
    std::vector<uint8_t> compressed;  // `decoded` deflated, for the inflate baseline
};

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

void decodeLevel(const Workload& w, const Level& level, uint8_t* out) {
    if (w.format == PixelFormat::Pvrtc1_4bpp_Rgba)
        decodePvrtc1(level.bytes.data(), level.width, level.height, false, out);
    else
        decodeEtc(w.format, level.bytes.data(), level.width, level.height, out);
}

void decodeAll(const Workload& w, uint8_t* out) {
    for (const Level& level : w.levels) {
        decodeLevel(w, level, out);
        out += size_t(level.width) * level.height * 4;
    }
}

void finish(Workload& w) {
    for (const Level& level : w.levels) w.pixels += size_t(level.width) * level.height;
    w.decoded.resize(w.pixels * 4);
    decodeAll(w, w.decoded.data());
    uLongf size = compressBound(uLong(w.decoded.size()));
    w.compressed.resize(size);
    if (compress2(w.compressed.data(), &size, w.decoded.data(), uLong(w.decoded.size()),
                  Z_DEFAULT_COMPRESSION) != Z_OK) {
        std::fprintf(stderr, "zlib could not compress the %s output\n", w.name.c_str());
        std::exit(1);
    }
    w.compressed.resize(size);
}

// The few PVR v3 header fields needed: pixel format 3 (PVRTC 4bpp RGBA), height, width, mip count and
// metadata size; levels follow the header and metadata, largest first.
bool loadMarble(Workload& w) {
    const std::filesystem::path path =
        std::filesystem::path(ESVIEW_SHARED_DIR) / "models/pod/nsdk/Marble.pvr";
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 52 || le32(&bytes[0]) != 0x03525650u || le32(&bytes[8]) != 3 || le32(&bytes[12]) != 0)
        return false;
    const uint32_t height = le32(&bytes[24]), width = le32(&bytes[28]), levels = le32(&bytes[44]);
    size_t offset = 52 + size_t(le32(&bytes[48]));
    w.name = "PVRTC1 4bpp, Marble.pvr, " + std::to_string(width) + "x" + std::to_string(height) + ", " +
             std::to_string(levels) + " levels";
    w.format = PixelFormat::Pvrtc1_4bpp_Rgba;
    for (uint32_t i = 0; i < levels; ++i) {
        Level level;
        level.width = std::max(width >> i, 1u);
        level.height = std::max(height >> i, 1u);
        const size_t size = surfaceSize(w.format, level.width, level.height);
        if (offset > bytes.size() || bytes.size() - offset < size) return false;
        level.bytes.assign(bytes.begin() + long(offset), bytes.begin() + long(offset + size));
        offset += size;
        w.levels.push_back(std::move(level));
    }
    finish(w);
    return true;
}

Workload makeEtc2Rgba() {
    Workload w;
    w.name = "ETC2 RGBA, synthetic 1024x1024, 1 level";
    w.format = PixelFormat::Etc2_Rgba;
    Level level;
    level.width = level.height = 1024;
    level.bytes.resize(surfaceSize(w.format, 1024, 1024));
    std::mt19937 rng(5);
    for (uint8_t& b : level.bytes) b = uint8_t(rng());
    w.levels.push_back(std::move(level));
    finish(w);
    return w;
}

std::map<std::string, double> g_bytesPerSecond;
std::map<std::string, double> g_itemsPerSecond;

void runDecode(benchmark::State& state, const Workload* w) {
    std::vector<uint8_t> out(w->decoded.size(), 1);
    for (auto _ : state) {
        decodeAll(*w, out.data());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(out.size()));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(w->pixels));
}

void runMemcpy(benchmark::State& state, const Workload* w) {
    std::vector<uint8_t> out(w->decoded.size(), 1);  // pages faulted in before timing
    for (auto _ : state) {
        std::memcpy(out.data(), w->decoded.data(), out.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(out.size()));
}

void runInflate(benchmark::State& state, const Workload* w) {
    std::vector<uint8_t> out(w->decoded.size(), 1);
    for (auto _ : state) {
        uLongf size = uLongf(out.size());
        if (uncompress(out.data(), &size, w->compressed.data(), uLong(w->compressed.size())) != Z_OK ||
            size != out.size())
            state.SkipWithError("zlib inflate failed");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(out.size()));
}

// Captures each benchmark's throughput so that main can print the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            auto bytes = run.counters.find("bytes_per_second");
            if (bytes != run.counters.end()) g_bytesPerSecond[run.benchmark_name()] = bytes->second;
            auto items = run.counters.find("items_per_second");
            if (items != run.counters.end()) g_itemsPerSecond[run.benchmark_name()] = items->second;
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

// Throughputs come from CPU time: everything here runs on one thread, and the machines that build this
// project are shared, so wall time would also count other processes' turns on the core.
void registerWorkload(const std::string& tag, const Workload* w) {
    benchmark::RegisterBenchmark(("BM_Decode/" + tag).c_str(), runDecode, w)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Memcpy/" + tag).c_str(), runMemcpy, w)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Inflate/" + tag).c_str(), runInflate, w)->Unit(benchmark::kMillisecond);
}

// The throughput recorded for benchmark `name` (also when Google Benchmark appended a suffix such as
// "/real_time"), or 0 when it did not run.
double lookup(const std::map<std::string, double>& values, const std::string& name) {
    for (const auto& [key, value] : values)
        if (key == name || key.rfind(name + "/", 0) == 0) return value;
    return 0;
}

void printSummary(const std::string& tag, const Workload& w) {
    const double decode = lookup(g_bytesPerSecond, "BM_Decode/" + tag);
    const double copy = lookup(g_bytesPerSecond, "BM_Memcpy/" + tag);
    const double inflate = lookup(g_bytesPerSecond, "BM_Inflate/" + tag);
    const double pixels = lookup(g_itemsPerSecond, "BM_Decode/" + tag);
    if (decode <= 0 || copy <= 0 || inflate <= 0) return;  // filtered out
    std::printf("%s: %zu pixels, %.1f MB of RGBA8 out\n", w.name.c_str(), w.pixels, w.decoded.size() / 1e6);
    std::printf("  decode %.1f MPixel/s (%.2f ms for all levels), %.2f GB/s out\n", pixels / 1e6,
                1e3 * double(w.pixels) / pixels, decode / 1e9);
    std::printf("  memcpy %.2f GB/s: decode/memcpy %.3f\n", copy / 1e9, decode / copy);
    std::printf("  zlib inflate %.2f GB/s (the same output, %.1f:1 compressed): decode/inflate %.2f\n",
                inflate / 1e9, double(w.decoded.size()) / double(w.compressed.size()), decode / inflate);
}

}  // namespace
}  // namespace esv

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    esv::Workload marble;
    const bool haveMarble = esv::loadMarble(marble);
    if (haveMarble)
        esv::registerWorkload("pvrtc4_marble", &marble);
    else
        std::printf("Marble.pvr not found under %s/models/pod/nsdk: PVRTC file benchmark skipped\n",
                    ESVIEW_SHARED_DIR);
    const esv::Workload etc = esv::makeEtc2Rgba();
    esv::registerWorkload("etc2_rgba_1024", &etc);

    esv::RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    if (haveMarble) esv::printSummary("pvrtc4_marble", marble);
    esv::printSummary("etc2_rgba_1024", etc);
    return 0;
}
