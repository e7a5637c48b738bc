// OpenGEX load throughput (MB/s of file text) on a synthetic scene of at least 50 MB (many skinned
// meshes with long float arrays, an animated bone tree; see large_ogex.h), written to a temporary
// folder at start-up, and on the largest sample in ../shared/models/ogex. Next to it, measured in
// the same run on the same file:
//   scan     fopen + fread into a fresh buffer + one pass counting newlines and digits: the least
//            any loader pays for the same bytes;
//   openddl  esv::ddl::Document::parse of the bytes already in memory (the tree only), lent a
//            thread for long numeric arrays as the OpenGEX reader lends one;
//   esview   esv::loadSceneFile: map, parse (long numeric arrays converted on a second thread),
//            build and validate the scene;
//   assimp   Assimp::Importer::ReadFile with no post-processing (Debian's assimp 5.2).
// Goals: esview at least 5x faster than assimp and within 4x of the scan, in wall time (what a
// person waits); CPU time over all threads is printed beside it. The timed runs reuse a warm heap
// (see main); the first load in a fresh process, page faults included, is printed too.
// Also printed: the peak heap during one load (counted through the global operator new/delete, as
// bench_pod does; assimp's allocations pass through them too) and, as a cross-check that also sees
// malloc and mmap, the peak resident-set growth of one load in a forked child.
//
// Usage: bench_opengex [benchmark flags], e.g. --benchmark_filter=synthetic --benchmark_min_time=1
#include <fcntl.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include "bench/opengex/large_ogex.h"
#include "bench/common/heap_tracking.h"
#include "loaders/load.h"
#include "loaders/opengex/openddl/openddl.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

constexpr double kMiB = 1024.0 * 1024.0;

struct Workload {
    std::string tag;  // benchmark name suffix
    std::string path;
    std::shared_ptr<const std::vector<uint8_t>> bytes;  // the file, for the in-memory OpenDDL parse
};

std::map<std::string, double> g_bytesPerSecond;     // benchmark name -> throughput, wall time
std::map<std::string, double> g_cpuBytesPerSecond;  // benchmark name -> throughput, process CPU time
std::map<std::string, std::string> g_errors;     // benchmark name -> why it was skipped

// --- the four contenders ------------------------------------------------------------------------

// Reads the file into a fresh buffer, as every loader needs one, and counts newlines and digits:
// a byte loop the compiler vectorises but cannot drop. Empty on success, else why it failed.
std::string scanOnce(const Workload& w) {
    const size_t size = w.bytes->size();
    std::FILE* f = std::fopen(w.path.c_str(), "rb");
    if (!f) return "cannot open the file";
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[size]);
    const size_t got = std::fread(buffer.get(), 1, size, f);
    std::fclose(f);
    if (got != size) return "short read";
    uint32_t lines = 0, digits = 0;
    for (size_t i = 0; i < size; ++i) {
        lines += buffer[i] == '\n';
        digits += uint8_t(buffer[i] - '0') < 10;
    }
    benchmark::DoNotOptimize(lines);
    benchmark::DoNotOptimize(digits);
    return {};
}

void runScan(benchmark::State& state, const Workload* w) {
    for (auto _ : state) {
        const std::string failure = scanOnce(*w);
        if (!failure.empty()) {
            state.SkipWithError(failure.c_str());
            break;
        }
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bytes->size()));
}

void runOpenDdl(benchmark::State& state, const Workload* w) {
    for (auto _ : state) {
        ddl::Document doc;
        ddl::ParseError error;
        ddl::ThreadWorker thread;  // the second thread the OpenGEX reader lends its parse too
        ddl::ParseOptions options;
        options.worker = &thread;
        if (!doc.parse(w->bytes, error, options)) {
            const std::string why =
                "OpenDDL parse failed at line " + std::to_string(error.line) + ": " + error.message;
            state.SkipWithError(why.c_str());
            break;
        }
        if (doc.roots().empty()) {
            state.SkipWithError("the OpenDDL parser built no structures");
            break;
        }
        benchmark::DoNotOptimize(doc.roots().data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bytes->size()));
}

void runEsview(benchmark::State& state, const Workload* w) {
    for (auto _ : state) {
        LoadResult r = loadSceneFile(w->path);
        if (!r.scene || r.scene->meshes.empty()) {
            const std::string why =
                r.scene ? std::string("the scene has no meshes")
                        : "load failed: " + (r.problems.empty() ? std::string("?") : r.problems[0].format());
            state.SkipWithError(why.c_str());
            break;
        }
        benchmark::DoNotOptimize(r.scene.get());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bytes->size()));
}

void runAssimp(benchmark::State& state, const Workload* w) {
    for (auto _ : state) {
        Assimp::Importer importer;
        const aiScene* scene = importer.ReadFile(w->path, 0);
        if (!scene || scene->mNumMeshes == 0) {
            const std::string why = scene ? std::string("assimp imported no meshes")
                                          : std::string("assimp failed: ") + importer.GetErrorString();
            state.SkipWithError(why.c_str());
            break;
        }
        benchmark::DoNotOptimize(scene);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(w->bytes->size()));
}

// Throughput from wall time (esview converts long arrays on a second thread, so a load takes less
// time than the CPU time it uses), and next to it from the process's CPU time (user + system, all
// threads): the total work, which other processes on a shared machine do not inflate.
void registerWorkload(const Workload& w) {
    const std::pair<const char*, void (*)(benchmark::State&, const Workload*)> contenders[] = {
        {"scan/", runScan}, {"openddl/", runOpenDdl}, {"esview/", runEsview}, {"assimp/", runAssimp}};
    for (const auto& [prefix, run] : contenders)
        benchmark::RegisterBenchmark((prefix + w.tag).c_str(), run, &w)
            ->Unit(benchmark::kMillisecond)
            ->MeasureProcessCPUTime()
            ->UseRealTime();
}

// Captures each benchmark's throughput, or why it was skipped, so that main can print the ratios.
// With --benchmark_repetitions the median wins (it is reported after the repetitions).
class RatioReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
            const std::string name = run.run_name.str();
            if (run.error_occurred) g_errors[name] = run.error_message;
            auto it = run.counters.find("bytes_per_second");
            if (it != run.counters.end()) {
                g_bytesPerSecond[name] = it->second;
                if (run.cpu_accumulated_time > 0)
                    g_cpuBytesPerSecond[name] = it->second * run.real_accumulated_time / run.cpu_accumulated_time;
            }
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

// The entry recorded for benchmark `name` (also when Google Benchmark appended "/process_time/real_time").
template <class T>
const T* lookup(const std::map<std::string, T>& values, const std::string& name) {
    for (const auto& [key, value] : values)
        if (key == name || key.rfind(name + "/", 0) == 0) return &value;
    return nullptr;
}

// --- memory -------------------------------------------------------------------------------------

struct Peak {
    size_t heap = 0;      // bytes, peak of operator new minus delete above the state before
    long rssKiB = -1;     // peak resident-set growth in a forked child; -1 when not measured
    double coldMs = -1;   // CPU time of the load in that child, on a heap with no free pages
    double coldWallMs = -1;  // its wall time
    std::string failure;  // empty when the load succeeded
};

long statusKiB(const char* field) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long value = -1;
    const size_t n = std::strlen(field);
    while (std::fgets(line, sizeof(line), f))
        if (std::strncmp(line, field, n) == 0) value = std::atol(line + n);
    std::fclose(f);
    return value;
}

double wallMs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double processCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Runs `load` (returns an empty string on success, else why it failed) once in this process for the
// heap peak, and before that once in a forked child whose heap has handed its free pages back to
// the kernel: the child's resident-set growth and CPU time are what a first load in a fresh
// process pays, page faults included.
template <class Load>
Peak measurePeak(Load&& load) {
    Peak peak;
    int fds[2];
    if (pipe(fds) == 0) {
        std::fflush(nullptr);
        const pid_t child = fork();
        if (child == 0) {
            close(fds[0]);
            malloc_trim(0);
            // Reset VmHWM to the current resident set (Linux 4.0+); without it the growth is an upper bound.
            const int clear = open("/proc/self/clear_refs", O_WRONLY);
            if (clear >= 0) {
                const bool reset = write(clear, "5", 1) == 1;
                (void)reset;
                close(clear);
            }
            const long before = statusKiB("VmRSS:");
            const double start = processCpuMs();
            const double wallStart = wallMs();
            load();
            const double result[3] = {double(statusKiB("VmHWM:") - before), processCpuMs() - start, wallMs() - wallStart};
            const bool sent = write(fds[1], result, sizeof(result)) == ssize_t(sizeof(result));
            _exit(sent ? 0 : 1);
        }
        close(fds[1]);
        if (child > 0) {
            double result[3];
            if (read(fds[0], result, sizeof(result)) == ssize_t(sizeof(result))) {
                peak.rssKiB = long(result[0]);
                peak.coldMs = result[1];
                peak.coldWallMs = result[2];
            }
            waitpid(child, nullptr, 0);
        }
        close(fds[0]);
    }
    const size_t before = bench::heapCurrent();
    bench::resetHeapPeak();
    peak.failure = load();
    peak.heap = bench::heapPeak() - before;
    return peak;
}

std::string loadEsview(const Workload& w, std::string* facts = nullptr) {
    LoadResult r = loadSceneFile(w.path);
    if (!r.scene) return r.problems.empty() ? std::string("failed") : r.problems[0].format();
    if (facts) {
        const Scene& s = *r.scene;
        *facts = std::to_string(s.meshes.size()) + " meshes, " + std::to_string(s.nodes.size()) + " nodes, " +
                 std::to_string(s.skins.size()) + " skins, " + std::to_string(s.materials.size()) +
                 " materials, " + std::to_string(s.animation.clips.size()) + " clips";
    }
    return {};
}

std::string loadAssimp(const Workload& w) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(w.path, 0);
    if (!scene) return importer.GetErrorString();
    return {};
}

std::string parseOpenDdl(const Workload& w) {
    ddl::Document doc;
    ddl::ParseError error;
    if (!doc.parse(w.bytes, error)) return "line " + std::to_string(error.line) + ": " + error.message;
    return {};
}

void printPeak(const char* who, const Peak& p, size_t fileBytes, const char* file) {
    std::printf("  %-8s heap %7.1f MiB (%.2f x file, %s)", who, p.heap / kMiB,
                double(p.heap) / double(fileBytes), file);
    if (p.rssKiB >= 0) std::printf(", resident-set growth %7.1f MiB", p.rssKiB / 1024.0);
    if (!p.failure.empty()) std::printf("  [load failed: %s]", p.failure.c_str());
    std::printf("\n");
}

void printCold(const char* who, const Peak& p, size_t fileBytes) {
    if (!p.failure.empty() || p.coldMs <= 0)
        std::printf("  %-8s %s\n", who, p.failure.empty() ? "not measured" : "failed");
    else
        std::printf("  %-8s %9.1f MB/s wall (%.1f ms), %9.1f MB/s CPU (%.1f ms)\n", who,
                    double(fileBytes) / p.coldWallMs / 1e3, p.coldWallMs, double(fileBytes) / p.coldMs / 1e3, p.coldMs);
}

// --- summary ------------------------------------------------------------------------------------

void printSummary(const Workload& w, const std::map<std::string, double>& bytesPerSecond) {
    const double* scan = lookup(bytesPerSecond, "scan/" + w.tag);
    const double* ddl = lookup(bytesPerSecond, "openddl/" + w.tag);
    const double* esv = lookup(bytesPerSecond, "esview/" + w.tag);
    const double* ai = lookup(bytesPerSecond, "assimp/" + w.tag);
    std::printf("%s (%.1f MB):\n", w.tag.c_str(), w.bytes->size() / 1e6);
    const auto row = [&](const char* who, const double* bps) {
        const std::string name = std::string(who) + "/" + w.tag;
        if (const std::string* error = lookup(g_errors, name))
            std::printf("  %-8s skipped: %s\n", who, error->c_str());
        else if (bps && *bps > 0)
            std::printf("  %-8s %9.1f MB/s\n", who, *bps / 1e6);
        else
            std::printf("  %-8s not run\n", who);
    };
    row("scan", scan);
    row("openddl", ddl);
    row("esview", esv);
    row("assimp", ai);
    const auto ok = [&](const char* who, const double* bps) {
        return bps && *bps > 0 && !lookup(g_errors, std::string(who) + "/" + w.tag);
    };
    if (ok("scan", scan) && ok("openddl", ddl)) std::printf("  openddl/scan time ratio %.2f\n", *scan / *ddl);
    if (ok("scan", scan) && ok("esview", esv))
        std::printf("  esview/scan time ratio %.2f (goal <= 4): %s\n", *scan / *esv,
                    *scan / *esv <= 4.0 ? "met" : "NOT met");
    if (ok("esview", esv) && ok("assimp", ai))
        std::printf("  assimp/esview time ratio %.2f (goal >= 5): %s\n", *esv / *ai,
                    *esv / *ai >= 5.0 ? "met" : "NOT met");
}

bool readFile(Workload& w) {
    std::string error;
    w.bytes = readWholeFile(w.path, error);
    if (!w.bytes) std::fprintf(stderr, "cannot read %s: %s\n", w.path.c_str(), error.c_str());
    return w.bytes != nullptr;
}

// A private folder under the system temporary directory; empty on failure.
fs::path makeTempDir() {
    std::error_code ec;
    std::string tmpl = (fs::temp_directory_path(ec) / "esview-bench-opengex-XXXXXX").string();
    if (ec || !mkdtemp(tmpl.data())) return {};
    return tmpl;
}

}  // namespace
}  // namespace esv

int main(int argc, char** argv) {
    // Timed runs on a warm heap: every block comes from the arena and freed memory stays there, so an
    // iteration reuses the pages of the one before (as a viewer that reloads does) instead of paying
    // a page fault per 4 KiB, which on the virtual machines that run this costs ~10 us and would
    // swamp every contender. The first load in a fresh process is measured apart (printCold).
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    benchmark::Initialize(&argc, argv);
    namespace fs = std::filesystem;

    const fs::path dir = esv::makeTempDir();
    if (dir.empty()) {
        std::fprintf(stderr, "cannot create a temporary folder\n");
        return 1;
    }
    const esv::bench::LargeOgexShape shape;
    esv::bench::LargeOgexStats stats;
    esv::Workload synthetic{"synthetic", (dir / "synthetic.ogex").string(), nullptr};
    std::string error;
    if (!esv::bench::writeLargeOgex(synthetic.path, shape, stats, error) || !esv::readFile(synthetic)) {
        std::fprintf(stderr, "the synthetic OpenGEX file could not be written: %s\n", error.c_str());
        fs::remove_all(dir);
        return 1;
    }
    std::printf(
        "synthetic OpenGEX: %.1f MB (%s): %u skinned meshes, %llu vertices, %llu triangles, %llu bone "
        "influences, %u animated bones x %u keys\n",
        stats.bytes / 1e6, synthetic.path.c_str(), shape.meshes, (unsigned long long)stats.vertices,
        (unsigned long long)stats.triangles, (unsigned long long)stats.influences, shape.bones, shape.keys);

    std::vector<esv::Workload> workloads;
    workloads.push_back(synthetic);
    esv::Workload sample{"squareys_Geometry", ESVIEW_SHARED_DIR "/models/ogex/squareys_Geometry.ogex",
                         nullptr};
    if (!fs::exists(sample.path))
        std::printf("%s not found: the real-file case is skipped\n", sample.path.c_str());
    else if (esv::readFile(sample))
        workloads.push_back(sample);
    for (const esv::Workload& w : workloads) esv::registerWorkload(w);

    // Peak memory and first-load time of one load of the synthetic file, before the timed runs.
    std::string facts;
    const esv::Peak scanPeak = esv::measurePeak([&] { return esv::scanOnce(synthetic); });
    const esv::Peak ddlPeak = esv::measurePeak([&] { return esv::parseOpenDdl(synthetic); });
    const esv::Peak esvPeak = esv::measurePeak([&] { return esv::loadEsview(synthetic, &facts); });
    const esv::Peak aiPeak = esv::measurePeak([&] { return esv::loadAssimp(synthetic); });

    esv::RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    std::printf("\ntimed runs (wall time, warm heap; the goals are judged on these):\n");
    for (const esv::Workload& w : workloads) esv::printSummary(w, esv::g_bytesPerSecond);
    std::printf("\nthe same runs by process CPU time (all threads: the work done):\n");
    for (const esv::Workload& w : workloads) esv::printSummary(w, esv::g_cpuBytesPerSecond);
    if (!facts.empty()) std::printf("esview loaded the synthetic file as %s\n", facts.c_str());
    {
        // Which lists the block scanner read (the rest went element by element).
        esv::ddl::Document doc;
        esv::ddl::ParseError parseError;
        if (doc.parse(synthetic.bytes, parseError)) {
            size_t numeric = 0;
            std::vector<const esv::ddl::Structure*> stack(doc.roots().begin(), doc.roots().end());
            while (!stack.empty()) {
                const esv::ddl::Structure* st = stack.back();
                stack.pop_back();
                numeric += st->primitive && esv::ddl::elementSize(st->data.type) > 0 &&
                           st->data.type != esv::ddl::DataType::Bool && st->data.type != esv::ddl::DataType::Half;
                stack.insert(stack.end(), st->children.begin(), st->children.end());
            }
            std::printf("block scanner (%s) read %zu of the synthetic file's %zu numeric lists\n",
                        esv::ddl::blockScanInstructionSet(), doc.blockScannedLists(), numeric);
        }
    }
    std::printf(
        "first load of the synthetic file in a fresh process (forked child, page faults included):\n");
    esv::printCold("scan", scanPeak, stats.bytes);
    esv::printCold("openddl", ddlPeak, stats.bytes);
    esv::printCold("esview", esvPeak, stats.bytes);
    esv::printCold("assimp", aiPeak, stats.bytes);
    if (esvPeak.failure.empty() && scanPeak.coldMs > 0 && esvPeak.coldMs > 0 && aiPeak.coldMs > 0)
        std::printf("  wall: esview/scan time ratio %.2f, assimp/esview time ratio %.2f; CPU: %.2f and %.2f\n",
                    esvPeak.coldWallMs / scanPeak.coldWallMs, aiPeak.coldWallMs / esvPeak.coldWallMs,
                    esvPeak.coldMs / scanPeak.coldMs, aiPeak.coldMs / esvPeak.coldMs);
    std::printf("peak memory during one load of the synthetic file (%.1f MiB):\n", stats.bytes / esv::kMiB);
    esv::printPeak("openddl", ddlPeak, stats.bytes, "file already resident, not counted");
    esv::printPeak("esview", esvPeak, stats.bytes, "file mapped: in the resident set, not the heap");
    esv::printPeak("assimp", aiPeak, stats.bytes, "file buffer included");

    fs::remove_all(dir);
    return 0;
}
