// A file manager runs `esview thumbnail` on whatever it finds: a broken file must give no picture
// and exit 1, or a picture and exit 0, never hang it. Corrupted copies of the shared samples, made
// as the formats' robustness sweeps make them (tests/<format>/*robustness*_test.cpp): prefixes cut
// at several fractions and copies with bytes flipped (fixed seed), for samples of every format.
// Each run ends within its time cap. Then the caps themselves: a tiny --timeout or a --memory below
// what the work needs, on a big sample, stops it quickly with one line that names the option. Their
// bounds come from baselines measured in the same run (the time every run pays, the memory the
// sample's drawing uses), not from one machine's numbers.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "archive/vp_writer.h"
#include "common/shared_samples.h"
#include "thumbnail_run.h"

namespace {

namespace fs = std::filesystem;
using esv::test::shellQuoted;
using esv::test::ThumbnailRun;

// The cap the sweep runs under, and what the wall clock may add to it (starting the process,
// killing the child and waiting for it).
constexpr double kTimeout = 10.0;
constexpr double kSlack = 2.0;

fs::path outputFolder(const std::string& name) {
    const fs::path dir = esv::test::outputDir() / ("thumbnail_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Up to `count` samples of `folder`, spread over its sorted files (the smallest and largest kinds
// of file both get in).
std::vector<fs::path> samplesOf(const std::string& folder, size_t count) {
    std::vector<fs::path> all;
    for (const fs::path& p : esv::test::sharedModelFiles())
        if (p.lexically_relative(esv::test::modelsDir()).begin()->string() == folder) all.push_back(p);
    std::sort(all.begin(), all.end(),
              [](const fs::path& a, const fs::path& b) { return fs::file_size(a) < fs::file_size(b); });
    std::vector<fs::path> picked;
    for (size_t i = 0; i < count && !all.empty(); ++i) {
        const fs::path& p = all[(all.size() - 1) * (i + 1) / count];
        if (std::find(picked.begin(), picked.end(), p) == picked.end()) picked.push_back(p);
    }
    return picked;
}

// The corrupted copies of `source`, written into `dir`: cut at 5%, 30%, 55% and 80% of its size,
// and two copies with 4 bytes each set to random values (fixed seeds).
std::vector<fs::path> corruptedCopies(const fs::path& source, const fs::path& dir) {
    const std::vector<uint8_t> bytes = esv::vptest::readFile(source);
    std::vector<fs::path> written;
    const std::string stem = source.stem().string(), ext = source.extension().string();
    for (int percent : {5, 30, 55, 80}) {
        const std::vector<uint8_t> cut(bytes.begin(),
                                       bytes.begin() + std::ptrdiff_t(bytes.size() * percent / 100));
        written.push_back(dir / (stem + "_cut" + std::to_string(percent) + ext));
        esv::vptest::writeFile(written.back(), cut);
    }
    for (unsigned seed : {1u, 2u}) {
        std::vector<uint8_t> flipped = bytes;
        std::mt19937 rng(seed * 7919u + unsigned(bytes.size()));
        for (int i = 0; i < 4 && !flipped.empty(); ++i)
            flipped[std::uniform_int_distribution<size_t>(0, flipped.size() - 1)(rng)] = uint8_t(rng());
        written.push_back(dir / (stem + "_flip" + std::to_string(seed) + ext));
        esv::vptest::writeFile(written.back(), flipped);
    }
    return written;
}

TEST(ThumbnailRobustness, CorruptedCopiesEndWithinTheCap) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path in = outputFolder("corrupt_in"), out = outputFolder("corrupt_out");
    std::vector<fs::path> inputs;
    for (const char* folder : {"pod", "awd", "ogex", "pof"})
        for (const fs::path& sample : samplesOf(folder, 3)) {
            const std::vector<fs::path> copies = corruptedCopies(sample, in);
            inputs.insert(inputs.end(), copies.begin(), copies.end());
        }
    // A broken VP archive too: a copy whose directory is cut off, and one with its header flipped.
    {
        const std::vector<uint8_t> pof = esv::vptest::readFile(samplesOf("pof", 1).front());
        std::vector<uint8_t> vp = esv::vptest::archiveOf({{"data/models/a.pof", pof}});
        esv::vptest::writeFile(in / "cut.vp", std::vector<uint8_t>(vp.begin(), vp.end() - 20));
        vp[9] ^= 0x7f;
        esv::vptest::writeFile(in / "header.vp", vp);
        inputs.push_back(in / "cut.vp");
        inputs.push_back(in / "header.vp");
    }
    ASSERT_GE(inputs.size(), 50u);
    std::vector<ThumbnailRun> runs(inputs.size());
    esv::test::forEachParallel(inputs.size(), [&](size_t i) {
        const fs::path png = out / (inputs[i].filename().string() + ".png");
        runs[i] = esv::test::runThumbnail(shellQuoted(inputs[i]) + " " + shellQuoted(png) +
                                              " --size 64 --timeout " + std::to_string(kTimeout),
                                          "corrupt");
    });
    size_t refused = 0, drawn = 0;
    double slowest = 0.0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        SCOPED_TRACE(inputs[i].filename().string());
        const ThumbnailRun& r = runs[i];
        const fs::path png = out / (inputs[i].filename().string() + ".png");
        slowest = std::max(slowest, r.seconds);
        EXPECT_LT(r.seconds, kTimeout + kSlack);
        if (r.exitCode == 0) {
            ++drawn;
            EXPECT_TRUE(fs::exists(png));
        } else {
            ++refused;
            EXPECT_EQ(r.exitCode, 1) << r.err;
            EXPECT_FALSE(fs::exists(png));
            EXPECT_FALSE(r.err.empty()) << "a refusal says why";
            EXPECT_EQ(r.err.find("signal"), std::string::npos) << r.err;
        }
    }
    // No temporary file is left behind by any run.
    size_t entries = 0;
    for (const auto& e : fs::directory_iterator(out)) {
        EXPECT_EQ(e.path().extension(), ".png") << e.path();
        ++entries;
    }
    EXPECT_EQ(entries, drawn);
    EXPECT_GT(refused, inputs.size() / 3) << "the copies are broken enough to be refused";
    std::printf("%zu corrupted copies: %zu refused, %zu drawn; slowest %.2f s\n", inputs.size(), refused,
                drawn, slowest);
}

// The biggest sample: the one that takes longest to read and the most memory.
fs::path biggestSample() {
    fs::path biggest;
    for (const fs::path& p : esv::test::sharedModelFiles())
        if (biggest.empty() || fs::file_size(p) > fs::file_size(biggest)) biggest = p;
    return biggest;
}

size_t lineCount(const std::string& text) {
    return size_t(std::count(text.begin(), text.end(), '\n'));
}

// What every run pays besides the drawing (starting the command, forking the process that draws,
// reaping it, leaving), measured on a file the drawing process refuses at once: the slowest of three
// runs, so that a busy moment of the machine counts.
double startAndExitSeconds(const fs::path& dir) {
    const fs::path empty = dir / "empty.awd";
    esv::vptest::writeFile(empty, {});
    double slowest = 0.0;
    for (int i = 0; i < 3; ++i) {
        const ThumbnailRun r =
            esv::test::runThumbnail(shellQuoted(empty) + " " + shellQuoted(dir / "e.png"), "baseline");
        EXPECT_EQ(r.exitCode, 1) << r.err;
        slowest = std::max(slowest, r.seconds);
    }
    fs::remove(empty);
    return slowest;
}

// The cap on the biggest sample, far below what drawing it takes. The run must end within what a
// run refused at once takes (measured here) and the cap, three times over: room for killing and
// reaping a child in the middle of making its context, and for a busier moment than the measured.
TEST(ThumbnailRobustness, TimeCapStopsItQuickly) {
    ESVIEW_REQUIRE_MODELS("");
    constexpr double kCap = 0.05;
    const double start = startAndExitSeconds(outputFolder("timeout_baseline"));
    const double bound = 3.0 * (start + kCap);
    const fs::path dir = outputFolder("timeout");
    const fs::path sample = biggestSample();
    const ThumbnailRun r = esv::test::runThumbnail(
        shellQuoted(sample) + " " + shellQuoted(dir / "t.png") + " --timeout " + std::to_string(kCap), "timeout");
    std::printf("start and exit %.3f s (slowest of 3 refused runs); --timeout %.2f of %s took %.3f s "
                "(bound %.3f s)\n",
                start, kCap, sample.filename().string().c_str(), r.seconds, bound);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_GE(r.seconds, kCap);
    EXPECT_LT(r.seconds, bound);
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--timeout"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_empty(dir)) << "no picture and no temporary file";
}

// One `esview thumbnail` run and the memory its drawing process used: its peak address space
// (VmPeak, what --memory caps), read from /proc every millisecond while it runs, and its peak
// resident memory, which the kernel keeps exactly (the rusage of a waited child includes the
// processes it waited for).
struct Footprint {
    int exitCode = -1;
    double seconds = 0.0;
    long addressSpaceMiB = 0, residentMiB = 0;
};

long peakAddressSpaceKiB(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    long kib = 0;
    for (std::string line; std::getline(status, line);)
        if (std::sscanf(line.c_str(), "VmPeak: %ld kB", &kib) == 1) break;
    return kib;
}

Footprint measureThumbnail(const std::string& args) {
    Footprint f;
    const std::string command = "exec '" ESVIEW_BINARY "' thumbnail " + args + " >/dev/null 2>&1";
    char* argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>(command.c_str()),
                    nullptr};
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ) != 0) return f;
    const std::string children = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
    long peakKiB = 0;
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, WNOHANG, &usage) == 0) {
        std::ifstream list(children);
        for (pid_t child; list >> child;) peakKiB = std::max(peakKiB, peakAddressSpaceKiB(child));
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    f.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    f.addressSpaceMiB = (peakKiB + 1023) / 1024;
    f.residentMiB = usage.ru_maxrss / 1024;  // KiB on Linux
    return f;
}

// The biggest sample drawn under the default cap, measured: its drawing process's peak address
// space and resident memory. Every page the drawing touched had to be mapped, so a cap below the
// resident peak is below what the work needs however little the driver reserves under a cap: half
// of it and three quarters of it must fail, within the time the whole drawing took and half again,
// with one line naming --memory. A quarter more than the peak address space and 64 MB must draw.
TEST(ThumbnailRobustness, MemoryCapStopsItQuickly) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP()
        << "AddressSanitizer builds set no memory cap (its shadow memory needs terabytes of address space)";
#endif
    ESVIEW_REQUIRE_MODELS("");
    const fs::path dir = outputFolder("memory");
    const fs::path sample = biggestSample();
    const Footprint base = measureThumbnail(shellQuoted(sample) + " " + shellQuoted(dir / "base.png"));
    ASSERT_EQ(base.exitCode, 0) << "the sample draws under the default cap";
    ASSERT_GT(base.addressSpaceMiB, 0) << "the drawing process's /proc/PID/status was read";
    ASSERT_GT(base.residentMiB, 0);
    fs::remove(dir / "base.png");
    const int below[] = {std::max(64, int(base.residentMiB / 2)), std::max(64, int(base.residentMiB * 3 / 4))};
    const int above = int(base.addressSpaceMiB * 5 / 4) + 64;
    const double bound = 1.5 * base.seconds;
    std::printf("%s under the default cap: %.2f s, peak address space %ld MB, resident %ld MB; caps that "
                "must fail: %d and %d MB (within %.2f s), one that must draw: %d MB\n",
                sample.filename().string().c_str(), base.seconds, base.addressSpaceMiB, base.residentMiB,
                below[0], below[1], bound, above);
    for (int megabytes : below) {
        SCOPED_TRACE(megabytes);
        const ThumbnailRun r = esv::test::runThumbnail(
            shellQuoted(sample) + " " + shellQuoted(dir / "m.png") + " --memory " + std::to_string(megabytes),
            "memory");
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_LT(r.seconds, bound);
        EXPECT_EQ(lineCount(r.err), 1u) << r.err;
        EXPECT_NE(r.err.find("--memory"), std::string::npos) << r.err;
        EXPECT_TRUE(fs::is_empty(dir)) << "no picture and no temporary file";
    }
    const ThumbnailRun r = esv::test::runThumbnail(
        shellQuoted(sample) + " " + shellQuoted(dir / "m.png") + " --memory " + std::to_string(above), "memory");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "m.png"));
}

}  // namespace

namespace {

// A file manager that gives up sends SIGTERM: the drawing process goes too, and neither the
// picture nor the temporary file stays. The signal is sent once the temporary file exists (the
// command is then drawing, its handler set), however slowly it starts (a sanitizer build). Should
// the sample be drawn before the signal arrives, the picture is whole and nothing else is left.
TEST(ThumbnailRobustness, TerminatedLeavesNothingBehind) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path dir = outputFolder("terminated");
    const fs::path png = dir / "t.png";
    const std::string command =
        "'" ESVIEW_BINARY "' thumbnail " + shellQuoted(biggestSample()) + " " + shellQuoted(png) +
        " 2>/dev/null & pid=$!; for i in $(seq 2000); do ls " + shellQuoted(png.string() + ".") +
        "* >/dev/null 2>&1 && break; sleep 0.005; done; kill -TERM $pid 2>/dev/null; wait $pid";
    const int status = std::system(command.c_str());
    const int exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
    if (exitCode == 0) {
        EXPECT_TRUE(fs::exists(png));
        EXPECT_EQ(entries, 1u);
    } else {
        EXPECT_EQ(exitCode, 1);
        EXPECT_EQ(entries, 0u) << "no picture and no temporary file";
    }
    // No drawing process outlives it (they would still be writing into the folder).
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
    EXPECT_EQ(entries, exitCode == 0 ? 1u : 0u);
}

}  // namespace
