// AWD robustness: cut and corrupted versions of every sample (and of its body decompressed and
// written back uncompressed, so that corruption reaches the blocks instead of only the zlib
// stream) load to a scene or to problems, in load and check mode, never crash, hang or allocate
// without bound. The cut points and corruptions are spread over each file, fewer for larger files,
// so that the whole test stays within seconds under AddressSanitizer.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/awd/awd_format.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

std::vector<std::filesystem::path> samples() {
    std::vector<std::filesystem::path> out;
    const auto dir = test::modelsDir() / "awd";
    if (!std::filesystem::exists(dir)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::string ext = entry.path().extension().string();
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".awd") out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
    std::string error;
    auto bytes = readWholeFile(path.string(), error);
    return bytes ? *bytes : std::vector<uint8_t>{};
}

// The file with its body decompressed and the header saying so.
std::vector<uint8_t> uncompressed(const std::vector<uint8_t>& file) {
    if (file.size() < awd::kHeaderSize || file[7] == 0) return file;
    std::vector<uint8_t> body;
    std::string error;
    size_t trailing = 0;
    const uint8_t* data = file.data() + awd::kHeaderSize;
    const size_t size = file.size() - awd::kHeaderSize;
    const bool ok = file[7] == 1 ? awd::inflateZlib(data, size, awd::kMaxDecompressedBytes, body, trailing, error)
                                 : awd::inflateLzma(data, size, awd::kMaxDecompressedBytes, body, error);
    EXPECT_TRUE(ok) << error;
    std::vector<uint8_t> out(file.begin(), file.begin() + awd::kHeaderSize);
    out[7] = 0;
    for (int i = 0; i < 4; ++i) out[8 + i] = static_cast<uint8_t>(body.size() >> (8 * i));
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

// The largest offset a problem in `bytes` may name: the end of the file, or for a compressed body
// the end of the body decompressed as if it followed the 12-byte header uncompressed (the README:
// offsets in compressed files count in the decompressed body).
int64_t offsetLimit(const std::vector<uint8_t>& bytes) {
    size_t limit = bytes.size();
    if (bytes.size() > awd::kHeaderSize && (bytes[7] == 1 || bytes[7] == 2)) {
        std::vector<uint8_t> body;
        std::string error;
        size_t trailing = 0;
        const uint8_t* data = bytes.data() + awd::kHeaderSize;
        const size_t size = bytes.size() - awd::kHeaderSize;
        const uint64_t cap = awd::decompressionLimit(size);
        if (bytes[7] == 1)
            awd::inflateZlib(data, size, cap, body, trailing, error);
        else
            awd::inflateLzma(data, size, cap, body, error);
        limit = std::max(limit, awd::kHeaderSize + body.size());
    }
    return static_cast<int64_t>(limit);
}

// Loads in both modes and checks the contract: a scene or problems, every problem worded and at an
// offset inside the file; a scene that loads is usable (pose, bounds, every triangle read).
void loadBoth(const std::vector<uint8_t>& bytes, const std::string& what, bool bothModes = true) {
    auto shared = std::make_shared<const std::vector<uint8_t>>(bytes);
    for (bool check : {false, true}) {
        if (check && !bothModes) break;
        LoadOptions options;
        options.collectAll = check;
        LoadResult r = loadSceneMemory(shared, "fuzz.awd", options);
        if (!r.scene) {
            ASSERT_FALSE(r.problems.empty()) << what;
        } else if (!check) {
            Pose pose;
            evaluatePose(*r.scene, -1, 0.0f, pose);
            (void)sceneBounds(*r.scene, pose);
        }
        int64_t limit = -1;  // worked out on the first offset past the raw bytes (it inflates the body)
        for (const Problem& p : r.problems) {
            ASSERT_FALSE(p.message.empty()) << what;
            ASSERT_GE(p.offset, -1) << what << ": " << p.format();
            if (p.offset <= int64_t(bytes.size())) continue;
            if (limit < 0) limit = offsetLimit(bytes);
            ASSERT_LE(p.offset, limit) << what << ": " << p.format();
        }
    }
}

// Offsets of every block header in an uncompressed body (the walk stops where it cannot go on).
std::vector<size_t> blockHeaders(const std::vector<uint8_t>& file) {
    std::vector<size_t> out;
    size_t at = awd::kHeaderSize;
    while (at + awd::kBlockHeaderSize <= file.size()) {
        out.push_back(at);
        const uint32_t length = uint32_t(file[at + 7]) | uint32_t(file[at + 8]) << 8 | uint32_t(file[at + 9]) << 16 |
                                uint32_t(file[at + 10]) << 24;
        if (length > file.size() - at - awd::kBlockHeaderSize) break;
        at += awd::kBlockHeaderSize + length;
    }
    return out;
}

// How many variants a file of `size` bytes gets: all of them for small files, fewer for large.
size_t budget(size_t size, size_t small, size_t large) { return size < 20000 ? small : size < 300000 ? (small + large) / 2 : large; }

TEST(AwdRobustness, CutPrefixes) {
    ESVIEW_REQUIRE_MODELS("awd");
    for (const auto& path : samples()) {
        const std::vector<uint8_t> file = readFile(path);
        for (const std::vector<uint8_t>& variant : {file, uncompressed(file)}) {
            const size_t n = variant.size();
            std::vector<size_t> cuts;
            for (size_t i = 0; i <= std::min<size_t>(n, 80); ++i) cuts.push_back(i);  // the header and first block
            const size_t spread = budget(n, 300, 40);
            for (size_t k = 1; k < spread; ++k) cuts.push_back(n * k / spread);
            for (size_t h : blockHeaders(variant))  // just inside and after each block header
                for (size_t d : {size_t(1), size_t(10), size_t(12)})
                    if (h + d < n && cuts.size() < 4 * spread + 200) cuts.push_back(h + d);
            cuts.push_back(n - 1);
            for (size_t cut : cuts) {
                if (cut > n) continue;
                std::vector<uint8_t> prefix(variant.begin(), variant.begin() + cut);
                loadBoth(prefix, path.filename().string() + " cut at " + std::to_string(cut));
                // The same cut with the body length made to match, so the blocks themselves are cut.
                if (cut >= awd::kHeaderSize && variant[7] == 0) {
                    const uint32_t length = static_cast<uint32_t>(cut - awd::kHeaderSize);
                    for (int i = 0; i < 4; ++i) prefix[8 + i] = static_cast<uint8_t>(length >> (8 * i));
                    loadBoth(prefix, path.filename().string() + " cut (length fixed) at " + std::to_string(cut));
                }
            }
        }
    }
}

TEST(AwdRobustness, CorruptedBytes) {
    ESVIEW_REQUIRE_MODELS("awd");
    std::mt19937 random(20240917u);
    for (const auto& path : samples()) {
        const std::vector<uint8_t> file = readFile(path);
        const bool compressed = file.size() > 7 && file[7] != 0;
        for (const std::vector<uint8_t>& variant : {file, uncompressed(file)}) {
            const size_t n = variant.size();
            // A compressed body mostly exercises zlib: its header and a few bytes are enough. The
            // decompressed body gets the block headers (and the fields after them) and spots all
            // over, fewer for large files (each load reads the whole file).
            const bool blocks = variant[7] == 0;
            const size_t limit = !blocks ? 16 : n < 20000 ? 160 : n < 300000 ? 120 : 50;
            std::vector<size_t> spots;
            for (size_t i = 0; i < std::min<size_t>(n, blocks && !compressed ? 48 : 14); ++i) spots.push_back(i);
            if (blocks)
                for (size_t h : blockHeaders(variant))
                    for (size_t d = 0; d < 24 && h + d < n; ++d) spots.push_back(h + d);
            std::shuffle(spots.begin() + std::min<size_t>(spots.size(), 14), spots.end(), random);
            if (spots.size() > limit * 2 / 3) spots.resize(limit * 2 / 3);
            while (spots.size() < limit) spots.push_back(random() % n);
            std::vector<uint8_t> bytes = variant;
            for (size_t at : spots) {
                const uint8_t saved = bytes[at];
                const uint8_t values[] = {uint8_t(saved ^ 0x80), 0xFF, 0x00, uint8_t(saved + 1)};
                const size_t tries = n < 20000 ? 4 : blocks ? 2 : 1;
                for (size_t t = 0; t < tries; ++t) {
                    if (values[t] == saved) continue;
                    bytes[at] = values[t];
                    loadBoth(bytes, path.filename().string() + " byte " + std::to_string(at) + " = " + std::to_string(values[t]),
                             blocks || n < 20000);
                }
                bytes[at] = saved;
            }
        }
    }
}

TEST(AwdRobustness, AbsurdLengthsIdsAndTypesInBlockHeaders) {
    ESVIEW_REQUIRE_MODELS("awd");
    for (const auto& path : samples()) {
        std::vector<uint8_t> bytes = uncompressed(readFile(path));
        const std::vector<size_t> headers = blockHeaders(bytes);
        const size_t step = std::max<size_t>(1, headers.size() / 10);
        for (size_t i = 0; i < headers.size(); i += step) {
            const size_t h = headers[i];
            auto put32 = [&](size_t at, uint32_t v) {
                for (int k = 0; k < 4; ++k) bytes[at + k] = static_cast<uint8_t>(v >> (8 * k));
            };
            const std::vector<uint8_t> saved(bytes.begin() + h, bytes.begin() + h + awd::kBlockHeaderSize);
            for (uint32_t length : {0u, 1u, 0xFFFFFFFFu, 0x7FFFFFFFu}) {
                put32(h + 7, length);
                loadBoth(bytes, path.filename().string() + " block length");
            }
            std::copy(saved.begin(), saved.end(), bytes.begin() + h);
            for (uint32_t id : {0u, 0xFFFFFFFFu, 2u}) {
                put32(h, id);
                loadBoth(bytes, path.filename().string() + " block id");
            }
            std::copy(saved.begin(), saved.end(), bytes.begin() + h);
            for (uint8_t flags : {uint8_t(0x08), uint8_t(0x18), uint8_t(0xFF)}) {
                bytes[h + 6] = flags;
                loadBoth(bytes, path.filename().string() + " block flags");
            }
            std::copy(saved.begin(), saved.end(), bytes.begin() + h);
            for (uint8_t type : {uint8_t(1), uint8_t(23), uint8_t(81), uint8_t(253)}) {
                bytes[h + 5] = type;
                loadBoth(bytes, path.filename().string() + " block type");
            }
            std::copy(saved.begin(), saved.end(), bytes.begin() + h);
        }
    }
}

TEST(AwdRobustness, HeaderFlagsAndCompressionSwapped) {
    ESVIEW_REQUIRE_MODELS("awd");
    for (const auto& path : samples()) {
        const std::vector<uint8_t> file = readFile(path);
        for (uint16_t flags : {0x0001, 0x0002, 0x0004, 0x0008, 0x000E, 0xFFFF}) {
            std::vector<uint8_t> bytes = uncompressed(file);
            bytes[5] = static_cast<uint8_t>(flags);
            bytes[6] = static_cast<uint8_t>(flags >> 8);
            loadBoth(bytes, path.filename().string() + " flags");
        }
        for (uint8_t compression : {0, 1, 2, 3}) {
            std::vector<uint8_t> bytes = file;
            bytes[7] = compression;
            loadBoth(bytes, path.filename().string() + " compression");
        }
        std::vector<uint8_t> bytes = file;
        bytes[4] = 0;  // AWD 2.0 reading of a 2.1 file and the reverse
        loadBoth(bytes, path.filename().string() + " version");
        bytes[4] = 1;
        loadBoth(bytes, path.filename().string() + " version");
        bytes = file;
        bytes.insert(bytes.end(), 100, 0xAB);  // trailing bytes
        loadBoth(bytes, path.filename().string() + " trailing");
    }
}

}  // namespace
}  // namespace esv
