// POF robustness: cut and corrupted versions of every sample load to a scene or to problems, in
// load and check mode, and never crash, hang or allocate without bound. Cuts are made both as they
// are (the last chunk then runs past the end) and with the cut chunk's length set to what is left,
// so that the chunk readers and the BSP decoder see their fields end early. Corruptions hit the
// chunk headers, the first fields of every chunk (counts, sizes, string lengths, subobject
// numbers, parents) and random bytes, with values that make counts absurd. The variants are spread
// over each file, fewer for larger files, so the test stays within seconds under AddressSanitizer.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

std::vector<std::filesystem::path> samples() {
    std::vector<std::filesystem::path> out;
    const auto dir = test::modelsDir() / "pof";
    if (!std::filesystem::exists(dir)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".pof") out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
    std::string error;
    auto bytes = readWholeFile(path.string(), error);
    return bytes ? *bytes : std::vector<uint8_t>{};
}

uint32_t u32At(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void putU32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Offsets of every chunk header (the walk stops where it cannot go on).
std::vector<size_t> chunkHeaders(const std::vector<uint8_t>& file) {
    std::vector<size_t> out;
    size_t at = 8;
    while (at + 8 <= file.size()) {
        out.push_back(at);
        const uint32_t length = u32At(file, at + 4);
        if (length > file.size() - at - 8) break;
        at += 8 + length;
    }
    return out;
}

// Loads in both modes and checks the contract: a scene or problems, every problem worded; a scene
// that loads is usable (pose, bounds over every drawn triangle).
void loadBoth(const std::vector<uint8_t>& bytes, const std::string& what) {
    auto shared = std::make_shared<const std::vector<uint8_t>>(bytes);
    for (bool check : {false, true}) {
        LoadOptions options;
        options.collectAll = check;
        LoadResult r = loadSceneMemory(shared, "robust.pof", options);
        if (!r.scene) {
            ASSERT_FALSE(r.problems.empty()) << what;
        } else {
            ASSERT_TRUE(r.problems.empty()) << what;
            ASSERT_TRUE(r.scene->pof) << what;
            if (!check) {
                Pose pose;
                evaluatePose(*r.scene, -1, 0.0f, pose);
                (void)sceneBounds(*r.scene, pose);
            }
        }
        for (const Problem& p : r.problems) {
            ASSERT_FALSE(p.message.empty()) << what;
            ASSERT_LE(p.offset, int64_t(bytes.size())) << what << ": " << p.format();
        }
    }
}

// At most `most` of the chunk headers, spread over the file (ShivWorm has 113 chunks).
std::vector<size_t> someChunks(const std::vector<size_t>& headers, size_t most) {
    if (headers.size() <= most) return headers;
    std::vector<size_t> out;
    for (size_t k = 0; k < most; ++k) out.push_back(headers[k * (headers.size() - 1) / (most - 1)]);
    return out;
}

size_t budget(size_t size, size_t small, size_t large) {
    return size < 20000 ? small : size < 300000 ? (small + large) / 2 : large;
}

TEST(PofRobustness, CutPrefixes) {
    ESVIEW_REQUIRE_MODELS("pof");
    for (const auto& path : samples()) {
        const std::vector<uint8_t> file = readFile(path);
        const size_t n = file.size();
        const std::vector<size_t> headers = chunkHeaders(file);
        std::vector<size_t> cuts;
        for (size_t i = 0; i <= std::min<size_t>(n, 24); ++i) cuts.push_back(i);
        const size_t spread = budget(n, 200, 30);
        for (size_t k = 1; k < spread; ++k) cuts.push_back(n * k / spread);
        for (size_t h : someChunks(headers, 16))  // inside chunk headers and their first fields
            for (size_t d : {size_t(3), size_t(8), size_t(12), size_t(20), size_t(64), size_t(120)})
                if (h + d < n) cuts.push_back(h + d);
        cuts.push_back(n - 1);
        for (size_t cut : cuts) {
            if (cut > n) continue;
            std::vector<uint8_t> prefix(file.begin(), file.begin() + cut);
            loadBoth(prefix, path.filename().string() + " cut at " + std::to_string(cut));
            // The cut chunk's length made to end at the cut: its fields end early.
            size_t last = 0;
            for (size_t h : headers)
                if (h + 8 <= cut) last = h;
            if (last == 0) continue;
            putU32(prefix, last + 4, static_cast<uint32_t>(cut - last - 8));
            loadBoth(prefix, path.filename().string() + " cut (length fixed) at " + std::to_string(cut));
        }
    }
}

TEST(PofRobustness, CorruptedBytes) {
    ESVIEW_REQUIRE_MODELS("pof");
    std::mt19937 random(20261125u);
    const uint32_t absurd[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x10000000u, 65536u, 1000u, 0u, 1u};
    for (const auto& path : samples()) {
        const std::vector<uint8_t> file = readFile(path);
        const size_t n = file.size();
        const std::string name = path.filename().string();
        // Every chunk header, and the first fields of each chunk, with absurd values.
        for (size_t h : someChunks(chunkHeaders(file), 16)) {
            for (size_t field = 0; field < 28 && h + field + 4 <= n; field += 4) {
                const uint32_t value = absurd[(h / 4 + field) % (sizeof absurd / sizeof absurd[0])];
                std::vector<uint8_t> v = file;
                putU32(v, h + field, value);
                loadBoth(v, name + " chunk at " + std::to_string(h) + " field +" + std::to_string(field));
            }
        }
        // Inside the subobject chunks' BSP data and everywhere else: random positions.
        const size_t count = budget(n, 300, 60);
        std::uniform_int_distribution<size_t> at(8, n - 1);
        for (size_t k = 0; k < count; ++k) {
            std::vector<uint8_t> v = file;
            const size_t p = at(random);
            if (k % 2 == 0 && p + 4 <= n) {
                putU32(v, p & ~size_t(3), absurd[k / 2 % (sizeof absurd / sizeof absurd[0])]);
            } else {
                for (int b = 0; b < 4 && p + b < n; ++b) v[p + b] = static_cast<uint8_t>(random());
            }
            loadBoth(v, name + " corrupted at " + std::to_string(p));
        }
    }
}

// Trailing bytes after the last chunk, and chunks with lengths that overflow when added.
TEST(PofRobustness, TrailingBytesAndHugeLengths) {
    ESVIEW_REQUIRE_MODELS("pof");
    const std::vector<uint8_t> file = readFile(test::modelsDir() / "pof" / "ls_dup.pof");
    ASSERT_FALSE(file.empty());
    for (size_t extra : {size_t(1), size_t(7), size_t(8), size_t(9)}) {
        std::vector<uint8_t> v = file;
        v.insert(v.end(), extra, 0xAB);
        LoadOptions options;
        options.collectAll = true;
        LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(v), "t.pof", options);
        EXPECT_FALSE(r.problems.empty()) << extra;
    }
    for (size_t h : chunkHeaders(file))
        for (uint32_t length : {0xFFFFFFF8u, 0x7FFFFFFFu}) {
            std::vector<uint8_t> v = file;
            putU32(v, h + 4, length);
            loadBoth(v, "length at " + std::to_string(h));
        }
}

}  // namespace
}  // namespace esv
