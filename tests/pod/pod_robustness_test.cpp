// Robustness sweep over the sample PODs: every truncated prefix (all of them below 64 KiB, at
// least 2,000 evenly spread cut points above), and copies with random bytes changed (fixed seed).
// Each must load or report problems: never crash, hang or read outside the buffer (run under
// ASan/UBSan with -DESVIEW_SANITIZE=ON).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "pod_bytes.h"

namespace esv {
namespace {

std::vector<std::filesystem::path> samples() {
    std::vector<std::filesystem::path> files;
    const auto dir = test::modelsDir() / "pod";
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.path().extension() == ".pod") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<uint8_t> readAll(const std::filesystem::path& path) {
    std::string error;
    auto bytes = readWholeFile(path.string(), error);
    EXPECT_TRUE(bytes) << error;
    return bytes ? *bytes : std::vector<uint8_t>{};
}

// Loads `bytes` and checks the outcome is a scene or problems, each problem at an offset inside
// the file (a problem may point at the end of the file only when it says the file ends there);
// touches every view of a scene so that ASan sees any view that leaves its buffer.
uint64_t loadAndTouch(std::vector<uint8_t> bytes, bool check) {
    LoadOptions options;
    options.collectAll = check;
    const int64_t size = static_cast<int64_t>(bytes.size());
    LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(std::move(bytes)), "sweep.pod", options);
    EXPECT_TRUE(r.scene || !r.problems.empty());
    for (const Problem& p : r.problems) {
        if (p.offset == -1) continue;  // "further problems are not listed"
        EXPECT_GE(p.offset, 0) << p.format();
        const bool saysEnd = p.message.find("end") != std::string::npos;
        if (saysEnd)
            EXPECT_LE(p.offset, size) << p.format();
        else
            EXPECT_LT(p.offset, size) << p.format();
    }
    // volatile: the reads happen even though nothing uses the sum.
    volatile uint64_t sum = 0;
    if (!r.scene) return sum;
    for (const Mesh& m : r.scene->meshes) {
        for (const VertexStream& s : m.streams)
            if (s.bytes.size > 0) sum += s.bytes.data[0] + s.bytes.data[s.bytes.size - 1];
        if (m.indices.bytes.size > 0) sum += m.indices.bytes.data[0] + m.indices.bytes.data[m.indices.bytes.size - 1];
    }
    return sum;
}

TEST(PodRobustness, EveryTruncatedPrefix) {
    ESVIEW_REQUIRE_MODELS("pod");
    size_t loads = 0;
    for (const auto& path : samples()) {
        SCOPED_TRACE(path.filename().string());
        const std::vector<uint8_t> full = readAll(path);
        std::vector<size_t> cuts;
        if (full.size() < 64 * 1024) {
            for (size_t n = 0; n <= full.size(); ++n) cuts.push_back(n);
        } else {
            const size_t points = 2000;
            for (size_t i = 0; i <= points; ++i) cuts.push_back(full.size() * i / points);
        }
        for (size_t n : cuts) {
            loadAndTouch(std::vector<uint8_t>(full.begin(), full.begin() + n), false);
            loadAndTouch(std::vector<uint8_t>(full.begin(), full.begin() + n), true);  // check mode
            loads += 2;
            if (::testing::Test::HasFailure()) {
                ADD_FAILURE() << "first failing prefix: " << n << " bytes";
                return;
            }
        }
        // The whole file loads.
        LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(full), path.string(), {});
        EXPECT_TRUE(r.scene);
    }
    RecordProperty("loads", static_cast<int>(loads));
    std::printf("[ sweep    ] %zu loads of truncated prefixes (load and check mode)\n", loads);
}

TEST(PodRobustness, RandomByteChanges) {
    ESVIEW_REQUIRE_MODELS("pod");
    std::mt19937 rng(20240611u);
    for (const auto& path : samples()) {
        SCOPED_TRACE(path.filename().string());
        const std::vector<uint8_t> full = readAll(path);
        if (full.empty()) continue;
        std::uniform_int_distribution<size_t> where(0, full.size() - 1);
        for (int copy = 0; copy < 300; ++copy) {
            std::vector<uint8_t> bytes = full;
            const int changes = 1 + copy % 8;
            for (int c = 0; c < changes; ++c) {
                size_t at = where(rng);
                switch (rng() % 4) {
                    case 0: bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
                    case 1: bytes[at] = static_cast<uint8_t>(rng()); break;
                    case 2: bytes[at] = 0xFF; break;  // absurd counts and lengths
                    default: bytes[at] = 0x00; break;
                }
            }
            loadAndTouch(bytes, copy % 2 == 1);
            if (::testing::Test::HasFailure()) {
                ADD_FAILURE() << "copy " << copy << " of " << path.filename();
                return;
            }
        }
    }
}

// Every 32-bit value of the file's tags and small blocks set to extreme values, one at a time.
TEST(PodRobustness, AbsurdValuesInEveryWordOfASmallFile) {
    ESVIEW_REQUIRE_MODELS("pod");
    const std::vector<uint8_t> full = readAll(test::modelsDir() / "pod/nsdk/nsdk_pointlight.pod");
    ASSERT_FALSE(full.empty());
    const uint32_t extremes[] = {0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0u, 1u, 0x10000u};
    for (size_t at = 0; at + 4 <= full.size(); at += 4) {
        for (uint32_t v : extremes) {
            std::vector<uint8_t> bytes = full;
            for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
            loadAndTouch(std::move(bytes), (at / 4) % 2 == 0);
        }
        if (::testing::Test::HasFailure()) {
            ADD_FAILURE() << "word at " << at;
            return;
        }
    }
}

TEST(PodRobustness, TinyAndEmptyInputs) {
    for (size_t n = 0; n < 32; ++n) {
        std::vector<uint8_t> bytes(n, 0);
        if (n >= 4) bytes[0] = 0xE8, bytes[1] = 0x03;  // looks like a version tag
        loadAndTouch(bytes, false);
        loadAndTouch(bytes, true);
    }
}

}  // namespace
}  // namespace esv
