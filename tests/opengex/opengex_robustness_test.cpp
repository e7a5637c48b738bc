// Robustness sweep of the OpenGEX reader and its OpenDDL parser (meshoptimizer style): every sample
// file in ../shared/models/ogex and every fixture in tests/opengex/fixtures cut short (at every
// length up to 2 KiB; larger files at 1,100 to 2,300 lengths chosen by cutPoints), bytes replaced
// by the characters that mean something in OpenDDL, lines deleted, duplicated and swapped, and
// hand-made hostile inputs: nesting far beyond the depth cap, very long inputs, absurd subarray
// sizes and property values, numbers that overflow their types, indices at 2^32 - 1, odd
// references. Each input is loaded in both modes (load and check) and must give a scene or
// problems located by line: never a crash, a hang, unbounded memory or undefined behaviour (run
// under ASan/UBSan with -DESVIEW_SANITIZE=ON). Every scene that loads is sampled at rest and
// inside its clips, and its box and triangles are computed.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/child_process.h"
#include "common/test_paths.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    if (!std::filesystem::is_directory(dir)) return files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".ogex") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::filesystem::path> samples() {
    return filesIn(test::modelsDir() / "ogex");
}
std::vector<std::filesystem::path> fixtures() {
    return filesIn(test::sourceDir() / "tests/opengex/fixtures");
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A short, printable excerpt of an input for failure messages.
std::string excerpt(const std::string& text, size_t at = 0) {
    const size_t from = at > 60 ? at - 60 : 0;
    std::string out = text.substr(from, 160);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n') c = '?';
    return (from ? "..." : "") + out + (from + 160 < text.size() ? "..." : "");
}

// Samples a scene that loaded the way the viewer and `info` do: rest pose, then each clip (a few)
// at its start, middle, end and past it; boxes after skinning and morphing; triangle lists.
void exercise(const Scene& s) {
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    Bounds box = sceneBounds(s, pose);
    const size_t clips = std::min<size_t>(s.animation.clips.size(), 3);
    for (size_t c = 0; c < clips; ++c) {
        const Clip& clip = s.animation.clips[c];
        for (float t : {clip.start, clip.start + 0.5f * clip.duration(), clip.end, clip.end + 1.0f}) {
            evaluatePose(s, static_cast<int>(c), t, pose);
            box.add(sceneBounds(s, pose));
        }
    }
    std::vector<uint32_t> triangles;
    for (const Mesh& m : s.meshes) expandTriangles(m, triangles);
}

struct Sweep {
    size_t loads = 0, scenes = 0;
    double slowest = 0.0;  // seconds
    std::string slowestLabel;

    // Loads `text` in load mode and in check mode. Returns false (after a failure) when an
    // outcome is neither a scene nor problems located by line.
    bool load(const std::string& text, const std::string& label) {
        for (bool check : {false, true}) {
            const auto start = Clock::now();
            LoadOptions options;
            options.collectAll = check;
            LoadResult r =
                loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end()),
                                "sweep.ogex", options);
            ++loads;
            if (r.scene) {
                ++scenes;
                EXPECT_TRUE(r.problems.empty());
                exercise(*r.scene);
            } else if (r.problems.empty()) {
                ADD_FAILURE() << label << (check ? " (check mode)" : "") << ": no scene and no problem";
                return false;
            } else if (!text.empty()) {
                for (const Problem& p : r.problems)
                    if (p.line <= 0) {
                        ADD_FAILURE() << label << (check ? " (check mode)" : "")
                                      << ": a problem without a line: " << p.format();
                        return false;
                    }
            }
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            if (seconds > slowest) {
                slowest = seconds;
                slowestLabel = label;
            }
        }
        return true;
    }

    void print(const char* what) const {
        std::printf("[ sweep    ] %s: %zu loads, %zu scenes; slowest %.3f s (%s)\n", what, loads, scenes,
                    slowest, slowestLabel.c_str());
    }
};

// Expects `text` to fail in both modes with a problem on a line, whose message mentions `words`.
void expectRejected(const std::string& text, const std::string& label, const std::string& words = "") {
    for (bool check : {false, true}) {
        LoadOptions options;
        options.collectAll = check;
        LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end()),
                                       "hostile.ogex", options);
        EXPECT_FALSE(r.scene) << label;
        ASSERT_FALSE(r.problems.empty()) << label;
        EXPECT_GT(r.problems[0].line, 0) << label << ": " << r.problems[0].format();
        if (!words.empty()) {
            EXPECT_NE(r.problems[0].message.find(words), std::string::npos)
                << label << ": " << r.problems[0].format();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sweeps over real files

// Where to cut a file: every length of a small file; for larger ones the lengths that matter
// most (every one inside the Metric and first structures, and the start, middle and end of each
// line that opens a structure rather than holding numbers; one point per such line in files over
// 64 KiB) plus 600 (60 over 64 KiB) evenly spread ones: 1,100 to 2,300 cuts, so that the cost,
// the sum of the cut lengths, stays bounded for files of a megabyte (the whole binary takes about
// 20 s of CPU under ASan/UBSan).
std::vector<size_t> cutPoints(const std::string& text) {
    const size_t size = text.size();
    std::vector<size_t> cuts;
    if (size <= 2 * 1024) {
        for (size_t n = 0; n <= size; ++n) cuts.push_back(n);
        return cuts;
    }
    const bool big = size > 64 * 1024;
    const size_t head = big ? 2048 : 512;
    for (size_t n = 0; n < head; ++n) cuts.push_back(n);
    const size_t spread = big ? 60 : 600;
    for (size_t i = 0; i <= spread; ++i) cuts.push_back(size * i / spread);
    for (size_t begin = 0; begin < size;) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = size;
        size_t first = begin;
        while (first < end && (text[first] == ' ' || text[first] == '\t')) ++first;
        if (first < end && std::isalpha(static_cast<unsigned char>(text[first]))) {
            if (big) {
                cuts.push_back(first + 1);
            } else {
                cuts.insert(cuts.end(), {begin, first + 1, (first + end) / 2, end - 1, end});
            }
        }
        begin = end + 1;
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    while (!cuts.empty() && cuts.back() > size) cuts.pop_back();
    return cuts;
}

void sweepPrefixes(const std::vector<std::filesystem::path>& files, Sweep& sweep) {
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        const std::string full = readText(path);
        const std::vector<size_t> cuts = cutPoints(full);
        std::printf("[ cuts     ] %s: %zu bytes, %zu cuts\n", path.filename().string().c_str(), full.size(),
                    cuts.size());
        for (size_t n : cuts)
            if (!sweep.load(full.substr(0, n), path.filename().string() + " cut at " + std::to_string(n)))
                return;
    }
}

TEST(OpenGexRobustness, EveryTruncatedPrefixOfTheSamples) {
    ESVIEW_REQUIRE_MODELS("ogex");
    Sweep sweep;
    sweepPrefixes(samples(), sweep);
    sweep.print("sample prefixes");
}

TEST(OpenGexRobustness, EveryTruncatedPrefixOfTheFixtures) {
    const auto files = fixtures();
    // The fixtures are committed: none found is a broken checkout, never a reason to skip.
    ASSERT_FALSE(files.empty()) << "no fixtures in " << test::sourceDir() / "tests/opengex/fixtures";
    Sweep sweep;
    sweepPrefixes(files, sweep);
    sweep.print("fixture prefixes");
}

// Characters that change how OpenDDL reads a file: structure and subarray brackets, property
// lists, separators, string and character quotes, names, comments, and the characters of numbers.
constexpr char kSyntax[] = {'{', '}', '[', ']', '(', ')', ',', '=', '"', '\'',
                            '$', '%', '/', '*', '0', '9', '-', '.', 'e', 'x'};

// `copies` copies of each file with 1..3 bytes replaced (syntax characters, flipped bits, NUL,
// 0xFF) or a syntax character inserted, at random positions (fixed seed).
void sweepCorruptions(const std::vector<std::filesystem::path>& files, size_t copiesSmall, size_t copiesBig,
                      uint32_t seed, Sweep& sweep) {
    std::mt19937 rng(seed);
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        const std::string full = readText(path);
        if (full.empty()) continue;
        const size_t copies = full.size() > 64 * 1024 ? copiesBig : copiesSmall;
        for (size_t copy = 0; copy < copies; ++copy) {
            std::string text = full;
            std::string label = path.filename().string();
            const int changes = 1 + static_cast<int>(copy % 3);
            for (int c = 0; c < changes; ++c) {
                const size_t at = rng() % text.size();
                const char ch = kSyntax[rng() % sizeof(kSyntax)];
                switch (rng() % 6) {
                    case 0:
                        text[at] = static_cast<char>(text[at] ^ (1u << (rng() % 8)));
                        break;
                    case 1:
                        text[at] = '\0';
                        break;
                    case 2:
                        text[at] = static_cast<char>(0xFF);
                        break;
                    case 3:
                        text.insert(at, 1, ch);
                        break;
                    default:
                        text[at] = ch;
                        break;
                }
                label += " @" + std::to_string(at);
            }
            if (!sweep.load(text, label)) return;
        }
    }
}

TEST(OpenGexRobustness, ByteCorruptions) {
    ESVIEW_REQUIRE_MODELS("ogex");
    Sweep sweep;
    sweepCorruptions(samples(), 400, 16, 20240611u, sweep);
    sweepCorruptions(fixtures(), 80, 16, 20240612u, sweep);
    sweep.print("byte corruptions");
}

// Every position of a small file replaced by syntax characters, one at a time: half of them at
// even positions, the other half at odd ones (each character still lands in every structure).
TEST(OpenGexRobustness, SyntaxCharactersAtEveryPositionOfASmallFile) {
    ESVIEW_REQUIRE_MODELS("ogex");
    const std::string full = readText(test::modelsDir() / "ogex/magnum_mesh.ogex");
    ASSERT_FALSE(full.empty());
    Sweep sweep;
    for (size_t at = 0; at < full.size(); ++at)
        for (size_t c = at % 2; c < sizeof(kSyntax); c += 2) {
            std::string text = full;
            text[at] = kSyntax[c];
            if (!sweep.load(text, "magnum_mesh.ogex with '" + std::string(1, kSyntax[c]) + "' at " +
                                      std::to_string(at)))
                return;
        }
    sweep.print("syntax characters at every position");
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size() - 1;
        lines.push_back(text.substr(begin, end + 1 - begin));
        begin = end + 1;
    }
    return lines;
}

// Copies with random lines deleted, duplicated or swapped with the next (names become duplicate
// or dangling, braces unbalanced, arrays change length).
void sweepLineEdits(const std::vector<std::filesystem::path>& files, size_t copiesSmall, size_t copiesBig,
                    uint32_t seed, Sweep& sweep) {
    std::mt19937 rng(seed);
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        const std::vector<std::string> lines = splitLines(readText(path));
        if (lines.size() < 2) continue;
        const size_t bytes = std::filesystem::file_size(path);
        const size_t copies = bytes > 64 * 1024 ? copiesBig : copiesSmall;
        for (size_t copy = 0; copy < copies; ++copy) {
            std::vector<std::string> edited = lines;
            std::string label = path.filename().string();
            const int edits = 1 + static_cast<int>(copy % 2);
            for (int e = 0; e < edits && edited.size() >= 2; ++e) {
                const size_t at = rng() % (edited.size() - 1);
                switch (rng() % 3) {
                    case 0:
                        edited.erase(edited.begin() + static_cast<std::ptrdiff_t>(at));
                        label += " -line " + std::to_string(at + 1);
                        break;
                    case 1:
                        edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at), edited[at]);
                        label += " +line " + std::to_string(at + 1);
                        break;
                    default:
                        std::swap(edited[at], edited[at + 1]);
                        label += " ~line " + std::to_string(at + 1);
                        break;
                }
            }
            std::string text;
            for (const std::string& l : edited) text += l;
            if (!sweep.load(text, label)) return;
        }
    }
}

TEST(OpenGexRobustness, LinesDeletedDuplicatedSwapped) {
    ESVIEW_REQUIRE_MODELS("ogex");
    Sweep sweep;
    sweepLineEdits(samples(), 200, 10, 7u, sweep);
    sweepLineEdits(fixtures(), 60, 10, 8u, sweep);
    sweep.print("line edits");
}

// ---------------------------------------------------------------------------------------------
// Hostile inputs made by hand

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

TEST(OpenGexRobustness, DeepNestingIsADepthErrorNotAStackOverflow) {
    const size_t depth = 100000;
    expectRejected(repeat("Node {", depth), "100000 unclosed Node {", "nesting");
    expectRejected(repeat("Node {\n", depth) + repeat("}\n", depth), "100000 nested Nodes", "nesting");
    expectRejected(repeat("Node{GeometryNode{", depth / 2) + repeat("}", depth), "alternating node kinds",
                   "nesting");
    expectRejected("Node {" + repeat("Extension {", depth) + repeat("}", depth) + "}",
                   "nested unknown structures", "nesting");
    expectRejected(repeat("Node {", depth) + "float {1}" + repeat("}", depth), "nested data", "nesting");
    expectRejected("float[2] " + repeat("{", depth), "subarray braces");
    expectRejected("Metric (key = " + repeat("(", depth) + ") {}", "parentheses in a property list");
    // Just under the cap: a chain of 100 nodes loads and samples.
    Sweep sweep;
    EXPECT_TRUE(sweep.load(repeat("Node { Translation { float[3] {{1, 0, 0}} }\n", 100) + repeat("}", 100),
                           "100 deep"));
    EXPECT_EQ(sweep.scenes, 2u);
}

// Sizes that scale with the input and must stay linear in time and memory.
// They run in a child process, whose peak memory is measured on its own.
TEST(OpenGexRobustness, VeryLongInputs) {
    const test::ChildRun run = test::runInChild([] {
        Sweep sweep;
        auto timed = [&](const std::string& text, const std::string& label) {
            const auto start = Clock::now();
            EXPECT_TRUE(sweep.load(text, label));
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            EXPECT_LT(seconds, 20.0) << label << " (" << text.size() << " bytes)";
            std::printf("[ long     ] %-44s %9zu bytes  %.2f s\n", label.c_str(), text.size(), seconds);
        };
        timed(repeat("Node {}\n", 50000), "50000 nodes");
        timed(repeat("Node $n {}\n", 50000), "50000 duplicate global names");
        timed(repeat("Node {Name {string {\"a\"}}}\n", 20000), "20000 named nodes");
        timed("Node {" + repeat("Node %n {}", 50000) + "}", "50000 duplicate local names");
        {
            std::string v =
                "GeometryNode {ObjectRef {ref {$o}}}\nGeometryObject $o {Mesh {VertexArray (attrib = "
                "\"position\") "
                "{float[3] {";
            for (int i = 0; i < 150000; ++i) v += (i ? ",{" : "{") + std::to_string(i % 97) + ",1.5,-2e3}";
            v += "}}}}\n";
            timed(v, "150000 vertices");
            timed(v.substr(0, v.size() - 5), "150000 vertices, unclosed");
        }
        {
            std::string idx =
                "GeometryNode {ObjectRef {ref {$o}}}\nGeometryObject $o {Mesh (primitive = "
                "\"triangle_strip\") "
                "{VertexArray (attrib = \"position\") {float[3] {{0,0,0},{1,0,0},{0,1,0}}} IndexArray "
                "(restart = "
                "4294967295) {uint32 {";
            for (int i = 0; i < 300000; ++i)
                idx += (i ? "," : "") + std::string(i % 5 == 4 ? "4294967295" : std::to_string(i % 3));
            idx += "}}}}\n";
            timed(idx, "300000 strip indices with restarts");
        }
        {
            std::string anim =
                "Node {Translation %t {float[3] {{0,0,0}}} Animation {Track (target = %t) {Time {Key {float "
                "{";
            const int keys = 100000;
            for (int i = 0; i < keys; ++i) anim += (i ? "," : "") + std::to_string(i);
            anim += "}}} Value {Key {float[3] {";
            for (int i = 0; i < keys; ++i) anim += (i ? ",{" : "{") + std::to_string(i % 7) + ",0,1}";
            anim += "}}}}}}\n";
            timed(anim, "100000 animation keys");
        }
        timed("Node {Name {string {\"" + std::string(4 << 20, 'a') + "\"}}}", "4 MiB string");
        timed("Node {Name {string {" + repeat("\"ab\" ", 200000) + "}}}", "200000 adjacent strings");
        timed("Node $" + std::string(1 << 20, 'n') + " {}", "1 MiB name");
        timed(std::string(1 << 20, 'N') + " {}", "1 MiB identifier");
        timed("/*" + std::string(8 << 20, '*') + "*/ Node {}", "8 MiB comment");
        timed("/*" + std::string(8 << 20, '*'), "8 MiB unterminated comment");
        timed(repeat("// comment\n", 500000), "500000 line comments");
        timed("Node (" + repeat("a = 1, ", 50000) + "b = 2) {}", "50000 properties");
        timed("Node {" + repeat("Translation {float[3] {{1, 2, 3}}}", 30000) + "}",
              "30000 transform elements");
        timed(std::string(4 << 20, ' ') + "Node {}", "4 MiB of spaces");
        timed(std::string(1 << 20, '\n') + "Node {", "1 MiB of newlines, then an error");
        timed("float {" + repeat("1.0e+0001,", 250000) + "}", "250000 floats at the top level");
        timed("ref {" + repeat("$a%b%c%d%e, ", 50000) + "}", "50000 reference paths");
        timed("Node {ObjectRef {ref {$" + repeat("x", 1000) + repeat("%y", 100000) + "}}}",
              "a 100000-name reference");
    });
    EXPECT_TRUE(run.passed) << run.outcome;
    std::printf("[ long     ] peak RSS grew by %zu MiB\n", run.peakGrowthMiB);
    EXPECT_LT(run.peakGrowthMiB, 2048u);
}

// A small valid scene to plant odd values into: a GeometryNode with a material, a skinned mesh
// and an animated bone.
const std::string kScene = R"(Metric (key = "distance") {float {1}}
Metric (key = "time") {float {1}}
Node $root
{
    Transform %t {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}
    BoneNode $b0
    {
        Translation %t {float[3] {{0, 0, 0}}}
        Animation (clip = 0) {Track (target = %t) {Time {Key {float {0, 1, 2}}} Value {Key {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}}}}}
        BoneNode $b1 {Rotation %r (kind = "z") {float {0.5}}}
    }
}
GeometryNode $g
{
    ObjectRef {ref {$o}}
    MaterialRef (index = 0) {ref {$m}}
}
GeometryObject $o
{
    Mesh (lod = 0, primitive = "triangles")
    {
        VertexArray (attrib = "position", index = 0) {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}}
        VertexArray (attrib = "normal") {float[3] {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}}}
        IndexArray (material = 0) {uint32[3] {{0, 1, 2}, {2, 1, 3}}}
        Skin
        {
            Skeleton
            {
                BoneRefArray {ref {$b0, $b1}}
                Transform {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}
            }
            BoneCountArray {uint8 {1, 2, 1, 1}}
            BoneIndexArray {uint8 {0, 0, 1, 1, 1}}
            BoneWeightArray {float {1, 0.5, 0.5, 1, 1}}
        }
    }
}
Material $m {Name {string {"m"}} Color (attrib = "diffuse") {float[3] {{1, 0, 0}}}}
)";

const std::string kTriangleIndices = "IndexArray (material = 0) {uint32[3] {{0, 1, 2}, {2, 1, 3}}}";

// kScene with the first occurrence of `from` replaced by `to`.
std::string plant(const std::string& from, const std::string& to) {
    std::string text = kScene;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

struct Plant {
    std::string from, to;
    std::string from2 = "", to2 = "";  // an optional second replacement
};

void sweepPlants(const std::vector<Plant>& plants, Sweep& sweep) {
    for (const Plant& p : plants) {
        std::string text = plant(p.from, p.to);
        if (!p.from2.empty()) {
            const size_t at = text.find(p.from2);
            EXPECT_NE(at, std::string::npos) << p.from2;
            if (at != std::string::npos) text.replace(at, p.from2.size(), p.to2);
        }
        const std::string label = "kScene with " + p.from.substr(0, 60) + " -> " + p.to.substr(0, 100) +
                                  (p.from2.empty() ? "" : " and " + p.to2.substr(0, 100));
        if (!sweep.load(text, label)) return;
    }
}

TEST(OpenGexRobustness, TheBaseSceneLoads) {
    LoadResult r = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(kScene.begin(), kScene.end()),
                                   "base.ogex", LoadOptions{true});
    ASSERT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems[0].format());
    EXPECT_EQ(r.scene->nodes.size(), 4u);
    EXPECT_EQ(r.scene->skins.size(), 1u);
    EXPECT_EQ(r.scene->animation.clips.size(), 1u);
    exercise(*r.scene);
}

TEST(OpenGexRobustness, HugeDeclaredSizes) {
    const test::ChildRun run = test::runInChild([] {
        Sweep sweep;
        for (const char* data :
             {"float[4000000000] {}", "float[4000000000] {{1}}", "float[4294967295] {{1, 2}}",
              "float[4294967296] {}", "float[18446744073709551615] {}", "float[99999999999999999999] {}",
              "float[0] {}", "float[0] {{}}", "float[-1] {}", "float[0x7FFFFFFF] {}", "uint8[65536]* {}",
              "string[4000000000] {{\"a\"}}", "ref[4000000000] {{null}}", "base64[4000000000] {}"}) {
            if (!sweep.load(data, data)) return;
            if (!sweep.load(std::string("Node {") + data + "}", data)) return;
        }
        sweepPlants({{"float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}",
                      "float[4000000000] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}"},
                     {"float[3] {{0, 0, 1}", "float[4294967295] {{0, 0, 1}"},
                     {"uint32[3]", "uint32[4000000000]"},
                     {"uint32[3]", "uint32[2147483648]"},
                     {"float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {",
                      "float[4000000000] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {"},
                     {"float[3] {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}", "float[4000000000] {}"},
                     {"float {0, 1, 2}", "float[4000000000] {}"},
                     {"float {0.5}", "float[4000000000] {{0.5}}"}},
                    sweep);
        sweep.print("huge sizes");
    });
    EXPECT_TRUE(run.passed) << run.outcome;
    std::printf("[ huge     ] peak RSS grew by %zu MiB\n", run.peakGrowthMiB);
    EXPECT_LT(run.peakGrowthMiB, 256u);
}

TEST(OpenGexRobustness, HugePropertyValues) {
    Sweep sweep;
    sweepPlants(
        {{"lod = 0", "lod = 18446744073709551615"},
         {"lod = 0", "lod = 18446744073709551616"},
         {"lod = 0", "lod = 4294967296"},
         {"lod = 0", "lod = -1"},
         {"lod = 0", "lod = 1e400"},
         {"lod = 0", "lod = 0x1FFFFFFFFFFFFFFFF"},
         {"(material = 0)", "(material = 4294967296)"},
         {"(material = 0)", "(material = 18446744073709551615)"},
         {"(material = 0)", "(restart = 99999999999999999999)"},
         {"(material = 0)", "(restart = 18446744073709551615)"},
         {"(material = 0)", "(restart = 4294967295)"},
         {"(material = 0)", "(restart = -1)"},
         {"(material = 0)", "(front = \"sideways\", material = 1)"},
         {"\"position\", index = 0", "\"position\", index = 4294967296"},
         {"\"position\", index = 0", "\"position\", index = 4294967295"},
         {"\"position\", index = 0", "\"position\", index = 99999999999999999999999999"},
         {"\"position\", index = 0", "\"position\", morph = 4294967296"},
         {"\"position\", index = 0", "\"position\", morph = 4294967295"},
         {"\"position\", index = 0", "\"position\", index = 0, morph = 18446744073709551615"},
         {"MaterialRef (index = 0)", "MaterialRef (index = 18446744073709551615)"},
         {"MaterialRef (index = 0)", "MaterialRef (index = 4294967296)"},
         {"Animation (clip = 0)", "Animation (clip = 18446744073709551615)"},
         {"Animation (clip = 0)", "Animation (clip = 0, begin = 1e39, end = -1e39)"},
         {"Animation (clip = 0)", "Animation (clip = 0, begin = -3.4e38, end = 3.4e38)"},
         {"Animation (clip = 0)", "Animation (clip = 0, begin = 0x7FC00000, end = 0x7F800000)"},
         {"Animation (clip = 0)", "Animation (clip = 0, begin = 1e-45, end = 2e-45)"},
         {"Animation (clip = 0)", "Animation (clip = 1e400)"},
         {"(kind = \"z\")", "(kind = \"zz\")"},
         {"(kind = \"z\")", "(kind = 4294967296)"},
         {"primitive = \"triangles\"", "primitive = \"" + std::string(100000, 't') + "\""},
         {"attrib = \"position\"", "attrib = \"position[99999999999999999999]\""},
         {"attrib = \"position\"", "attrib = \"texcoord[4294967296]\""},
         {"Metric (key = \"distance\") {float {1}}", "Metric (key = \"distance\") {float {0}}"},
         {"Metric (key = \"distance\") {float {1}}", "Metric (key = \"distance\") {float {1e38}}"},
         {"Metric (key = \"time\") {float {1}}", "Metric (key = \"time\") {float {1e-45}}"},
         {"Metric (key = \"time\") {float {1}}", "Metric (key = \"time\") {float {3e38}}"},
         {"Metric (key = \"time\") {float {1}}", "Metric (key = \"time\") {float {0x7F800000}}"},
         {"Metric (key = \"time\") {float {1}}", "Metric (key = \"angle\") {float {1e30}}"},
         {"Metric (key = \"time\") {float {1}}", "Metric (key = \"red\") {float[2] {{1e-40, 1e-40}}}"},
         {"Metric (key = \"time\") {float {1}}", "Metric (key = \"white\") {float[2] {{0.3, 0}}}"},
         {"Material $m {",
          "Clip (index = 18446744073709551615) {Param (attrib = \"rate\") {float {1e-30}}}\nMaterial $m {"},
         {"Material $m {",
          "Clip (index = 0) {Param (attrib = \"rate\") {float {0x7FC00000}}}\nMaterial $m {"},
         {"Color (attrib = \"diffuse\")",
          "Spectrum (attrib = \"diffuse\", min = 0, max = 18446744073709551615)"},
         {"Color (attrib = \"diffuse\") {float[3] {{1, 0, 0}}}",
          "Spectrum (attrib = \"diffuse\", min = 18446744073709551614, max = 18446744073709551615) {float "
          "{1, 2}}"},
         {"Color (attrib = \"diffuse\") {float[3] {{1, 0, 0}}}",
          "Spectrum (attrib = \"diffuse\", min = 360, max = 361) {float {1e38, 1e38, 1e38}}"},
         {"Color (attrib = \"diffuse\") {float[3] {{1, 0, 0}}}",
          "Texture (attrib = \"diffuse\", texcoord = 18446744073709551615) {string {\"t.png\"}}"}},
        sweep);
    sweep.print("huge property values");
}

// Integer literals must fit their type (spec, A.3.2: digits "that don't cause the underlying
// integer type to overflow"); one that does not is an error at its line.
TEST(OpenGexRobustness, OverflowingIntegersAreErrors) {
    for (const char* data :
         {"uint8 {256}", "uint8 {0x100}", "uint8 {-1}", "int8 {128}", "int8 {-129}", "int8 {0xFF}",
          "uint16 {65536}", "int16 {-32769}", "uint32 {4294967296}", "int32 {-2147483649}",
          "uint64 {18446744073709551616}", "uint64 {0x10000000000000000}",
          "uint64 {0o2000000000000000000000}", "int64 {9223372036854775808}", "int64 {-9223372036854775809}",
          "int32 {'abcde'}", "uint16 {'abc'}"}) {
        expectRejected(std::string("\n\nNode {") + data + "}", data, "does not fit");
    }
    // Bit patterns longer than the float type, and a subarray shorter than its declared size.
    expectRejected("float {0x1FFFFFFFF}", "float bit pattern", "does not fit");
    expectRejected("half {0x10000}", "half bit pattern", "does not fit");
    expectRejected("float[4000000000] {{1}}", "subarray of 4000000000");
}

TEST(OpenGexRobustness, NumbersThatOverflowTheirTypes) {
    Sweep sweep;
    const std::vector<std::string> kData = {"uint8 {256}",
                                            "uint8 {0x100}",
                                            "uint8 {-1}",
                                            "int8 {128}",
                                            "int8 {-129}",
                                            "int8 {0x80}",
                                            "uint16 {65536}",
                                            "int16 {-32769}",
                                            "uint32 {4294967296}",
                                            "int32 {2147483648}",
                                            "int32 {-2147483649}",
                                            "uint64 {18446744073709551616}",
                                            "uint64 {0x10000000000000000}",
                                            "uint64 {0o2000000000000000000000}",
                                            "uint64 {0b" + std::string(65, '1') + "}",
                                            "int64 {9223372036854775808}",
                                            "int64 {-9223372036854775809}",
                                            "uint64 {" + std::string(5000, '9') + "}",
                                            "int32 {'abcde'}",
                                            "uint16 {'abc'}",
                                            "uint8 {'\\x100'}",
                                            "float {1e39}",
                                            "float {-1e39}",
                                            "float {1e-46}",
                                            "double {1e309}",
                                            "double {1e-400}",
                                            "half {65520}",
                                            "half {1e10}",
                                            "float {0x1FFFFFFFF}",
                                            "half {0x10000}",
                                            "double {0x1" + std::string(16, '0') + "}",
                                            "float {1" + std::string(5000, '0') + "}",
                                            "float {0." + std::string(5000, '0') + "1}",
                                            "float {1e" + std::string(5000, '9') + "}",
                                            "float {1e-" + std::string(5000, '9') + "}",
                                            "float {1e}",
                                            "float {1e+}",
                                            "float {.}",
                                            "float {-}",
                                            "float {--1}",
                                            "float {1..2}",
                                            "float {0x}",
                                            "float {1_}",
                                            "float {1__0}",
                                            "uint8 {_1}",
                                            "bool {2}",
                                            "bool {-1}",
                                            "bool {0x1}",
                                            "float {nan}",
                                            "float {inf}",
                                            "uint32 {1.5}",
                                            "int8 {1e2}"};
    for (const std::string& text : kData) {
        if (!sweep.load(text, text.substr(0, 60))) return;
        if (!sweep.load("Node {" + text + "}", text.substr(0, 60))) return;
    }
    // In the places where the reader reads the values.
    sweepPlants(
        {{"uint32[3] {{0, 1, 2}", "uint32[3] {{0, 1, 4294967296}"},
         {"uint32[3] {{0, 1, 2}", "uint8[3] {{0, 1, 256}"},
         {"uint32[3] {{0, 1, 2}", "int32[3] {{0, 1, -2}"},
         {"uint32[3] {{0, 1, 2}", "int64[3] {{0, 1, -9223372036854775808}"},
         {"uint32[3] {{0, 1, 2}", "float[3] {{0, 1, 2}"},
         {"uint8 {1, 2, 1, 1}", "uint8 {1, 2, 1, 256}"},
         {"uint8 {1, 2, 1, 1}", "int8 {1, 2, 1, -1}"},
         {"uint8 {0, 0, 1, 1, 1}", "int16 {0, 0, 1, 1, -32768}"},
         {"float {1, 0.5, 0.5, 1, 1}", "float {1e39, 0.5, 0.5, 1, 1}"},
         {"float {1, 0.5, 0.5, 1, 1}", "half {65520, 0.5, 0.5, 1, 1}"},
         {"float {1, 0.5, 0.5, 1, 1}", "double {1e309, -1e309, 1e-400, 1, 1}"},
         {"float {1, 0.5, 0.5, 1, 1}", "float {0x7FC00000, 0x7F800000, 0xFF800000, 0x80000000, 1}"},
         {"float {0, 1, 2}", "float {0, 1e39, 2e39}"},
         {"float {0, 1, 2}", "double {0, 1e300, 2e300}"},
         {"float {0, 1, 2}", "float {-3.4e38, 0, 3.4e38}"},
         {"float {0, 1, 2}", "float {0x7FC00000, 0x7F800000, 1}"},
         {"float {0.5}", "float {1e39}"},
         {"float {0.5}", "double {1e309}"},
         {"float {0.5}", "float {0x7FC00000}"},
         {"{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}", "{{1e38, 1e38, 1e38}, {-1e38, 1e38, 0}, {0x7FC00000, 0, 0}}"},
         {"{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}",
          "{{1e39, 0, 0}, {1, 0x7F800000, 0}, {0, 1, 0x7FC00000}, {3.4e38, 3.4e38, 3.4e38}}"},
         {"{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}\n    BoneNode",
          "{1e38, 0, 0, 0, 0, 1e38, 0, 0, 0, 0, 1e38, 0, 1e38, 1e38, 1e38, 1}}}\n    BoneNode"}},
        sweep);
    sweep.print("overflowing numbers");
}

TEST(OpenGexRobustness, IndicesAtTheTopOfTheirTypes) {
    Sweep sweep;
    sweepPlants(
        {{"{{0, 1, 2}, {2, 1, 3}}", "{{0, 1, 4294967295}, {2, 1, 3}}"},
         {"uint32[3] {{0, 1, 2}, {2, 1, 3}}", "uint64[3] {{0, 1, 18446744073709551615}, {2, 1, 3}}"},
         {"uint32[3] {{0, 1, 2}, {2, 1, 3}}", "uint64[3] {{0, 1, 4294967296}, {2, 1, 3}}"},
         {"uint32[3] {{0, 1, 2}, {2, 1, 3}}", "uint16[3] {{0, 1, 65535}, {2, 1, 3}}"},
         {"uint32[3] {{0, 1, 2}, {2, 1, 3}}", "uint8[3] {{0, 1, 255}, {2, 1, 3}}"},
         {"(material = 0) {uint32[3] {{0, 1, 2}, {2, 1, 3}}}",
          "(restart = 4294967295) {uint32[3] {{0, 1, 4294967295}, {2, 1, 3}}}"},
         {"primitive = \"triangles\"", "primitive = \"triangle_strip\""},
         {"primitive = \"triangles\"", "primitive = \"quads\""},
         {"primitive = \"triangles\"", "primitive = \"lines\""},
         {"primitive = \"triangles\"", "primitive = \"points\""},
         {"primitive = \"triangles\"", "primitive = \"line_strip\""},
         {"primitive = \"triangles\"", "primitive = \"polygons\""},
         // Strips made only of restarts, restarts at both ends, a restart value that is a real
         // index, and a single index.
         {"primitive = \"triangles\"", "primitive = \"triangle_strip\"", kTriangleIndices,
          "IndexArray (restart = 4294967295) {uint32 {4294967295, 4294967295, 0, 1, 4294967295, 2}}"},
         {"primitive = \"triangles\"", "primitive = \"triangle_strip\"", kTriangleIndices,
          "IndexArray (restart = 4294967295) {uint32 {4294967295, 4294967295, 4294967295}}"},
         {"primitive = \"triangles\"", "primitive = \"triangle_strip\"", kTriangleIndices,
          "IndexArray (restart = 0) {uint32 {0, 0, 0, 1, 2, 3, 0}}"},
         {"primitive = \"triangles\"", "primitive = \"triangle_strip\"", kTriangleIndices,
          "IndexArray (restart = 1) {uint8 {1}}"},
         {"primitive = \"triangles\"", "primitive = \"triangle_strip\"", kTriangleIndices,
          "IndexArray (restart = 255) {uint8 {0, 1, 2, 255, 3, 2, 1, 255, 255}}"},
         {"primitive = \"triangles\"", "primitive = \"line_strip\"", kTriangleIndices,
          "IndexArray (restart = 65535) {uint16 {65535, 0, 1, 65535, 2, 3, 65535}}"},
         {"primitive = \"triangles\"", "primitive = \"quads\"", kTriangleIndices,
          "IndexArray {uint32[4] {{0, 1, 3, 2}, {3, 2, 1, 4294967295}}}"},
         {"primitive = \"triangles\"", "primitive = \"quads\"", kTriangleIndices,
          "IndexArray {uint32[4] {}}"},
         {"uint8 {0, 0, 1, 1, 1}", "uint32 {0, 0, 1, 1, 4294967295}"},
         {"uint8 {0, 0, 1, 1, 1}", "uint64 {0, 0, 1, 1, 18446744073709551615}"},
         {"uint8 {0, 0, 1, 1, 1}", "uint8 {0, 0, 1, 1, 2}"},
         {"uint8 {1, 2, 1, 1}", "uint32 {1, 2, 1, 4294967295}"},
         {"uint8 {1, 2, 1, 1}", "uint64 {1, 2, 1, 18446744073709551615}"},
         {"uint8 {1, 2, 1, 1}", "uint64 {9223372036854775808, 9223372036854775808, 1, 1}"},
         {"uint8 {1, 2, 1, 1}", "uint64 {18446744073709551615, 1, 1, 1}"},
         {"uint8 {1, 2, 1, 1}", "uint32 {4294967297, 1, 1, 1}"},
         {"uint8 {1, 2, 1, 1}", "uint8 {0, 0, 0, 0}"},
         {"uint8 {1, 2, 1, 1}", "uint8 {255, 255, 255, 255}"},
         {"MaterialRef (index = 0)", "MorphWeight (index = 4294967295) {float {1}} MaterialRef (index = 0)"},
         {"MaterialRef (index = 0)",
          "MorphWeight (index = 18446744073709551615) {float {1}} MaterialRef (index = 0)"},
         {"VertexArray (attrib = \"normal\")",
          "VertexArray (attrib = \"position\", morph = 4294967295) {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, "
          "0}, {1, 1, 0}}} VertexArray (attrib = \"normal\")"},
         {"Mesh (lod = 0",
          "Morph (index = 4294967295, base = 4294967295) {Name {string {\"x\"}}} Mesh (lod = 0"},
         {"Mesh (lod = 0", "Morph (index = 1, base = 18446744073709551615) {} Mesh (lod = 0"}},
        sweep);
    sweep.print("indices at the top of their types");
}

// References and structure placements that make cycles, point at the wrong kinds of structure,
// or leave things unresolved.
TEST(OpenGexRobustness, OddReferencesAndPlacements) {
    Sweep sweep;
    sweepPlants(
        {{"ref {$b0, $b1}", "ref {$g, $root}"},
         {"ref {$b0, $b1}", "ref {$o, $m}"},
         {"ref {$b0, $b1}", "ref {null, null}"},
         {"ref {$b0, $b1}", "ref {$b0, $b0}"},
         {"ref {$b0, $b1}", "ref {$b1%r, $b0%t}"},
         {"ref {$b0, $b1}", "ref {$nothing, %nothing}"},
         {"ref {$b0, $b1}", "ref {}"},
         {"ref {$o}", "ref {$g}"},
         {"ref {$o}", "ref {$root}"},
         {"ref {$o}", "ref {$m}"},
         {"ref {$o}", "ref {null}"},
         {"ref {$o}", "ref {$o, $o}"},
         {"ref {$o}", "ref {$o%a%b%c}"},
         {"ref {$m}", "ref {$o}"},
         {"ref {$m}", "ref {$g}"},
         {"target = %t", "target = $g"},
         {"target = %t", "target = $root%t"},
         {"target = %t", "target = $b1%r"},
         {"target = %t", "target = null"},
         {"target = %t", "target = \"t\""},
         {"target = %t", "target = %nothing"},
         {"Animation (clip = 0)", "Animation (clip = 0) {} Animation (clip = 0)"},
         {"BoneNode $b1", "GeometryNode $b1 {ObjectRef {ref {$o}}} BoneNode $b2"},
         {"BoneNode $b1", "LightNode $b1 {ObjectRef {ref {$o}}} BoneNode $b2"},
         {"BoneNode $b1", "CameraNode $b1 {ObjectRef {ref {$m}}} BoneNode $b2"},
         {"GeometryNode $g", "GeometryNode $b0"},
         {"GeometryObject $o", "GeometryObject $g"},
         {"Skin", "Skin {} Skin"},
         {"Skeleton", "Skeleton {} Skeleton"},
         {"BoneCountArray", "BoneCountArray {uint8 {1}} BoneCountArray"},
         {"Transform {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {",
          "Transform {float[16] {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {"},
         {"Transform {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {",
          "Transform {float[4] {{1, 0, 0, 1}, {"},
         {"Transform {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {",
          "Transform {float[3] {{1, 0, 0}, {"},
         {"Translation %t {float[3] {{0, 0, 0}}}", "Translation %t (kind = \"x\") {float {0}}"},
         {"Translation %t {float[3] {{0, 0, 0}}}",
          "Rotation %t (kind = \"quaternion\") {float[4] {{0, 0, 0, 0}}}"},
         {"Translation %t {float[3] {{0, 0, 0}}}", "Rotation %t (kind = \"axis\") {float[4] {{1, 0, 0, 0}}}"},
         {"Translation %t {float[3] {{0, 0, 0}}}", "Scale %t {float[3] {{0, 0, 0}}}"},
         {"Translation %t {float[3] {{0, 0, 0}}}",
          "Transform %t {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}"},
         {"Translation %t {float[3] {{0, 0, 0}}}", "Transform %t {float[6] {{1, 0, 0, 1, 0, 0}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time (curve = \"bezier\") {Key {float {0, 1, 2}}}"},
         {"Time {Key {float {0, 1, 2}}}",
          "Time (curve = \"bezier\") {Key {float {0, 1, 2}} Key (kind = \"-control\") {float {5, -5, 0}} Key "
          "(kind = \"+control\") {float {-5, 5, 0x7FC00000}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time {Key {float {2, 1, 0}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time {Key {float {0, 0, 0}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time {Key {float {0x7FC00000, 1, 2}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time {Key {float {0, 1}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time {Key {float {}}}"},
         {"Time {Key {float {0, 1, 2}}}", "Time {}"},
         {"Value {Key {",
          "Value (curve = \"tcb\") {Key (kind = \"tension\") {float {1e30, 0, 0}} Key (kind = "
          "\"continuity\") {float {0x7FC00000, 0, 0}} Key (kind = \"bias\") {float {-1e30, 1, 1}} Key {"},
         {"Value {Key {",
          "Value (curve = \"bezier\") {Key (kind = \"-control\") {float[3] {{1e38, 0, 0}, {0, 0, 0}, {0, 0, "
          "0}}} Key (kind = \"+control\") {float[3] {{0, 0, 0}, {0, 0, 0}, {0, 0, -1e38}}} Key {"},
         {"Value {Key {", "Value (curve = \"constant\") {Key {"},
         {"Value {Key {", "Value (curve = \"wobbly\") {Key {"},
         {"float[3] {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}",
          "float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, "
          "0, 0, 0, 1}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}"},
         {"float[3] {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}", "float {0, 1, 2}"},
         {"float[3] {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}", "float[3] {{0, 0, 0}}"},
         {"Metric (key = \"distance\") {float {1}}", "Metric (key = \"up\") {string {\"w\"}}"},
         {"Metric (key = \"distance\") {float {1}}", "Metric (key = \"distance\") {string {\"1\"}}"},
         {"Metric (key = \"distance\") {float {1}}", "Metric {float {1}}"},
         {"Metric (key = \"distance\") {float {1}}", "Metric (key = \"distance\") {}"},
         {"Metric (key = \"distance\") {float {1}}", "Metric (key = \"distance\") {float {1} float {2}}"},
         {"Name {string {\"m\"}}", "Name {string {}}"},
         {"Name {string {\"m\"}}", "Name {float {1}}"},
         {"Name {string {\"m\"}}", "Name {string {\"\\u0000\\U10FFFF\\x00\"}}"},
         {"Material $m {", "VertexArray {} IndexArray {} Key {} Material $m {"},
         {"Material $m {",
          "LightObject $l (type = \"spot\") {Atten (kind = \"angle\", curve = \"smooth\") {Param (attrib = "
          "\"begin\") {float {1e38}} Param (attrib = \"end\") {float {0x7FC00000}}} Atten (curve = "
          "\"inverse\") {Param (attrib = \"scale\") {float {0}}}}\nLightNode {ObjectRef {ref "
          "{$l}}}\nMaterial $m {"},
         {"Material $m {",
          "CameraObject $c {Param (attrib = \"fov\") {float {1e38}} Param (attrib = \"near\") {float "
          "{0x7FC00000}} Param (attrib = \"far\") {float {-1}}}\nCameraNode {ObjectRef {ref {$c}}}\nMaterial "
          "$m {"}},
        sweep);
    sweep.print("odd references and placements");
}

// A Skeleton bone reference that names no node (null, an object, a material, an unknown name)
// breaks the spec (Skeleton: "references to the full set of bone nodes"): check mode reports it
// at its line, and a load drops the skin rather than keeping a joint that the validator would
// then reject without a line (as the reader did before).
TEST(OpenGexRobustness, BoneReferenceToANonNode) {
    for (const char* refs : {"ref {$o, $b1}", "ref {null, $b1}", "ref {$b0, $nothing}", "ref {$m, $m}"}) {
        const std::string text = plant("ref {$b0, $b1}", refs);
        for (bool check : {false, true}) {
            LoadOptions options;
            options.collectAll = check;
            LoadResult r =
                loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end()),
                                "bones.ogex", options);
            if (r.scene) {
                EXPECT_TRUE(r.scene->skins.empty()) << refs;
                continue;
            }
            ASSERT_FALSE(r.problems.empty()) << refs;
            for (const Problem& p : r.problems)
                EXPECT_GT(p.line, 0) << refs << (check ? " (check mode): " : ": ") << p.format();
        }
    }
}

// Restart indices may start or end a strip's index array or follow each other: each only "starts a
// new strip with the next index" (spec, IndexArray), and strips of fewer than three indices draw
// nothing. Such files load in both modes (the reader once listed a zero-length strip for every
// short run and the validator then rejected the mesh without a line).
TEST(OpenGexRobustness, StripRestartAtEitherEnd) {
    const struct {
        const char* indices;
        uint32_t triangles;
    } kCases[] = {{"0, 1, 2, 4294967295", 1},
                  {"4294967295, 0, 1, 2", 1},
                  {"0, 1, 2, 4294967295, 4294967295, 3, 2, 1", 2},
                  {"4294967295, 4294967295, 0, 1, 4294967295, 2", 0},
                  {"0, 1, 2, 3, 4294967295, 0", 2}};
    for (const auto& c : kCases) {
        const std::string text =
            "GeometryNode {ObjectRef {ref {$o}}}\nGeometryObject $o {Mesh (primitive = \"triangle_strip\") "
            "{\n"
            "VertexArray (attrib = \"position\") {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}}\n"
            "IndexArray (restart = 4294967295) {uint32 {" +
            std::string(c.indices) + "}}}}\n";
        for (bool check : {false, true}) {
            LoadOptions options;
            options.collectAll = check;
            LoadResult r =
                loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end()),
                                "strip.ogex", options);
            std::string problems;
            for (const Problem& p : r.problems) problems += p.format() + "\n";
            EXPECT_TRUE(r.scene) << c.indices << (check ? " (check mode)\n" : "\n") << problems;
            if (!r.scene) continue;
            EXPECT_EQ(triangleCount(r.scene->meshes.at(0)), c.triangles) << c.indices;
            std::vector<uint32_t> triangles;
            expandTriangles(r.scene->meshes[0], triangles);
            EXPECT_EQ(triangles.size(), c.triangles * 3u) << c.indices;
            exercise(*r.scene);
        }
    }
}

// Text the scanner must reject cleanly: unterminated literals, bad escapes, stray bytes.
TEST(OpenGexRobustness, MalformedTokens) {
    Sweep sweep;
    for (const std::string& text : {std::string(""),
                                    std::string("{"),
                                    std::string("}"),
                                    std::string("$"),
                                    std::string("%"),
                                    std::string("Node"),
                                    std::string("Node {"),
                                    std::string("Node }"),
                                    std::string("Node $"),
                                    std::string("Node $ {}"),
                                    std::string("Node ("),
                                    std::string("Node (a"),
                                    std::string("Node (a ="),
                                    std::string("Node (a = ) {}"),
                                    std::string("Node (= 1) {}"),
                                    std::string("Node (a = 1,) {}"),
                                    std::string("float"),
                                    std::string("float["),
                                    std::string("float[3"),
                                    std::string("float[3]"),
                                    std::string("float[3] {"),
                                    std::string("float[3] {{"),
                                    std::string("float[3] {{1, 2"),
                                    std::string("float[3]* {A"),
                                    std::string("float[3]* {A{1,2,3},B"),
                                    std::string("float {1,}"),
                                    std::string("float {,1}"),
                                    std::string("float {1 2}"),
                                    std::string("string {\""),
                                    std::string("string {\"\\"),
                                    std::string("string {\"\\x"),
                                    std::string("string {\"\\xZZ\"}"),
                                    std::string("string {\"\\u12\"}"),
                                    std::string("string {\"\\U110000\"}"),
                                    std::string("string {\"\\q\"}"),
                                    std::string("string {\"a\nb\"}"),
                                    std::string("string {\"\xFF\xFE\"}"),
                                    std::string("string {\"\xC0\x80\"}"),
                                    std::string("string {\"\xED\xA0\x80\"}"),
                                    std::string("uint8 {'"),
                                    std::string("uint8 {''}"),
                                    std::string("uint8 {'\\"),
                                    std::string("ref {$}"),
                                    std::string("ref {%a%}"),
                                    std::string("ref {$a$b}"),
                                    std::string("ref {nul}"),
                                    std::string("type {float, flot}"),
                                    std::string("base64 {====}"),
                                    std::string("base64 {A}"),
                                    std::string("z {AB=C}"),
                                    std::string("/*"),
                                    std::string("/* */ /"),
                                    std::string("Node {} /"),
                                    std::string("Node {} */"),
                                    std::string("1Node {}"),
                                    std::string("Node\0{}", 7),
                                    std::string("\xEF\xBB\xBFNode {}"),
                                    std::string("Node {}\x1A"),
                                    std::string("Node\r{\r}\r"),
                                    std::string("Node {\tfloat\v{1}}"),
                                    std::string(2, '\0')}) {
        if (!sweep.load(text, "'" + excerpt(text) + "'")) return;
    }
    sweep.print("malformed tokens");
}

// The reader files what it finds through loaders/diagnostics.h like the binary readers: at most 200
// problems in check mode, then one line; at most 200 warnings when loading, then one line.
TEST(OpenGexRobustness, ManyProblemsStopAtTheCaps) {
    std::string text;
    for (int i = 0; i < 300; ++i) text += "Mesh {}\n";  // each a violation: not a top-level structure
    const auto bytes = std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end());

    LoadOptions check;
    check.collectAll = true;
    const LoadResult checked = loadSceneMemory(bytes, "many.ogex", check);
    ASSERT_EQ(checked.problems.size(), 201u);
    EXPECT_EQ(checked.problems[0].format(),
              "many.ogex: line 1, column 1: Mesh: a Mesh cannot be a top-level structure");
    EXPECT_EQ(checked.problems[199].format(),
              "many.ogex: line 200, column 1: Mesh: a Mesh cannot be a top-level structure");
    EXPECT_EQ(checked.problems[200].format(), "many.ogex: further problems are not listed");

    const LoadResult loaded = loadSceneMemory(bytes, "many.ogex");
    ASSERT_TRUE(loaded.ok());
    std::vector<std::string> warnings;
    for (const ReportLine& line : loaded.scene->report)
        if (line.severity == Severity::Warning) warnings.push_back(line.text);
    ASSERT_EQ(warnings.size(), 201u);
    EXPECT_EQ(warnings[0], "line 1: Mesh: a Mesh cannot be a top-level structure");
    EXPECT_EQ(warnings[199], "line 200: Mesh: a Mesh cannot be a top-level structure");
    EXPECT_EQ(warnings[200], "further warnings are not listed");
}

}  // namespace
}  // namespace esv
