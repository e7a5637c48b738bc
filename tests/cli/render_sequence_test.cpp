// `esview render --turntable N` and `--frames A:B[:STEP]` with an output pattern, and `--video`:
// the same bytes on every run, picture 0 and frame k as `render` draws them, file names and counts,
// patterns checked, ffmpeg used when it is on PATH and said to be missing when it is not.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;

RunResult esview(const std::string& args, const std::string& prefix = "") {
    return esv::test::runEsview(ESVIEW_BINARY, args, "render_sequence", prefix);
}

std::string quoted(const fs::path& path) {
    return "'" + path.string() + "'";
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = esv::test::outputDir() / "render_sequence" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string bytes(const fs::path& path) {
    return esv::test::readText(path);
}

std::vector<std::string> fileNames(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The built-in demo (a 2 s clip at 30 frames a second) at a small size.
const std::string kScene = "demo --size 160x120";

TEST(RenderSequence, TurntableIsTheSameOnEveryRunAndStartsAtTheFirstView) {
    const fs::path one = freshDir("turntable_1"), two = freshDir("turntable_2");
    for (const fs::path& dir : {one, two}) {
        const RunResult r = esview("render " + kScene + " --turntable 4 -o " + quoted(dir / "t_%02d.png"));
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    const std::vector<std::string> expected = {"t_00.png", "t_01.png", "t_02.png", "t_03.png"};
    ASSERT_EQ(fileNames(one), expected);
    for (const std::string& name : expected) EXPECT_EQ(bytes(one / name), bytes(two / name)) << name;

    const RunResult render = esview("render " + kScene + " -o " + quoted(one / "first.png"));
    ASSERT_EQ(render.exitCode, 0) << render.err;
    EXPECT_EQ(bytes(one / "first.png"), bytes(one / "t_00.png"));
    // Each picture turned a quarter from the one before: the golden rule tells them apart.
    for (size_t k = 0; k + 1 < expected.size(); ++k) {
        esv::test::Image a, b;
        ASSERT_TRUE(esv::test::loadPng((one / expected[k]).string(), a));
        ASSERT_TRUE(esv::test::loadPng((one / expected[k + 1]).string(), b));
        EXPECT_NE(esv::test::brokenRules(esv::test::compareImages(b, a, 10), {}), "") << expected[k];
    }
}

// A cube centred on the origin (OpenGEX, Z up), the same seen from every quarter turn about Z.
void writeCube(const fs::path& path) {
    std::string positions, normals, indices;
    const int axes[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}};
    int vertex = 0;
    for (const auto& axis : axes)
        for (int sign : {-1, 1}) {
            const int n = axis[0], u = axis[1], v = axis[2];
            const int corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            for (const auto& c : corners) {
                int p[3], q[3] = {0, 0, 0};
                p[n] = sign, p[u] = c[0], p[v] = c[1] * sign;  // counter-clockwise seen from outside
                q[n] = sign;
                positions += std::string(vertex ? ", " : "") + "{" + std::to_string(p[0]) + ", " +
                             std::to_string(p[1]) + ", " + std::to_string(p[2]) + "}";
                normals += std::string(vertex ? ", " : "") + "{" + std::to_string(q[0]) + ", " +
                           std::to_string(q[1]) + ", " + std::to_string(q[2]) + "}";
                ++vertex;
            }
            const int b = vertex - 4;
            indices += std::string(b ? ", " : "") + "{" + std::to_string(b) + ", " + std::to_string(b + 1) +
                       ", " + std::to_string(b + 2) + "}, {" + std::to_string(b) + ", " +
                       std::to_string(b + 2) + ", " + std::to_string(b + 3) + "}";
        }
    std::ofstream(path) << "GeometryNode {Name {string {\"Cube\"}} ObjectRef {ref {$cube}}}\n"
                           "GeometryObject $cube\n{\n\tMesh (primitive = \"triangles\")\n\t{\n"
                           "\t\tVertexArray (attrib = \"position\") {float[3] {" +
                               positions +
                               "}}\n"
                               "\t\tVertexArray (attrib = \"normal\") {float[3] {" +
                               normals +
                               "}}\n"
                               "\t\tIndexArray {uint32[3] {" +
                               indices + "}}\n\t}\n}\n";
}

bool alike(const fs::path& a, const fs::path& b) {
    esv::test::Image x, y;
    if (!esv::test::loadPng(a.string(), x) || !esv::test::loadPng(b.string(), y)) return false;
    return esv::test::brokenRules(esv::test::compareImages(y, x, 10), {}).empty();
}

// The steps are 360/N degrees: a turntable of 4 sees the cube alike in every picture, one of 8 sees
// it corner-on in every other.
TEST(RenderSequence, TurntableStepsAreAnEqualShareOfATurn) {
    const fs::path dir = freshDir("cube");
    writeCube(dir / "cube.ogex");
    const std::string scene = quoted(dir / "cube.ogex") + " --size 160x120";
    ASSERT_EQ(esview("render " + scene + " --turntable 4 -o " + quoted(dir / "q_%d.png")).exitCode, 0);
    ASSERT_EQ(esview("render " + scene + " --turntable 8 -o " + quoted(dir / "e_%d.png")).exitCode, 0);
    for (int k = 1; k < 4; ++k)
        EXPECT_TRUE(alike(dir / "q_0.png", dir / ("q_" + std::to_string(k) + ".png"))) << k;
    EXPECT_TRUE(alike(dir / "e_0.png", dir / "e_2.png"));
    EXPECT_FALSE(alike(dir / "e_0.png", dir / "e_1.png"));
}

TEST(RenderSequence, FramesAreNamedByFrameAndDrawnAsRenderFrame) {
    const fs::path dir = freshDir("frames");
    const RunResult r = esview("render " + kScene + " --frames 3:13:5 -o " + quoted(dir / "f_%04d.png"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> expected = {"f_0003.png", "f_0008.png", "f_0013.png"};
    ASSERT_EQ(fileNames(dir), expected);
    for (int frame : {3, 8, 13}) {
        const fs::path single = dir.parent_path() / ("frame_" + std::to_string(frame) + ".png");
        const RunResult one =
            esview("render " + kScene + " --frame " + std::to_string(frame) + " -o " + quoted(single));
        ASSERT_EQ(one.exitCode, 0) << one.err;
        char name[32];
        std::snprintf(name, sizeof name, "f_%04d.png", frame);
        EXPECT_EQ(bytes(single), bytes(dir / name)) << frame;
    }
    // Frames 3 and 8 of the waving demo differ.
    EXPECT_NE(bytes(dir / expected[0]), bytes(dir / expected[1]));

    // The range A:B alone steps by one; a literal %% stays.
    const fs::path plain = freshDir("frames_plain");
    ASSERT_EQ(esview("render " + kScene + " --frames 0:2 -o " + quoted(plain / "p%%%d.png")).exitCode, 0);
    EXPECT_EQ(fileNames(plain), (std::vector<std::string>{"p%0.png", "p%1.png", "p%2.png"}));
}

TEST(RenderSequence, BadPatternsAndRangesAreUsageErrors) {
    const fs::path dir = freshDir("bad");
    for (const char* pattern :
         {"out.png", "o_%d_%d.png", "o_%s.png", "o_%5.2f.png", "o_%.png", "o_%", "o_%%.png", "o_%ld.png"}) {
        const RunResult r = esview("render " + kScene + " --turntable 2 -o " + quoted(dir / pattern));
        EXPECT_EQ(r.exitCode, 2) << pattern << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    for (const char* args : {"--frames 5:2", "--frames 1:2:0", "--frames a:b", "--frames 1", "--turntable 0",
                             "--turntable 2 --frames 0:1", "--frames 0:1 --frame 3",
                             "--turntable 2 --camera 0", "--video v.mp4"}) {
        const RunResult r = esview("render " + kScene + " " + args + " -o " + quoted(dir / "o_%02d.png"));
        EXPECT_EQ(r.exitCode, 2) << args << ": " << r.err;
    }
    EXPECT_TRUE(fileNames(dir).empty());
}

TEST(RenderSequence, VideoWithoutFfmpegSaysSo) {
    const fs::path dir = freshDir("no_ffmpeg");
    // A PATH with no ffmpeg on it (the binary is started by its full path).
    const RunResult r = esview("render " + kScene + " --turntable 2 -o " + quoted(dir / "t_%d.png") +
                                   " --video " + quoted(dir / "t.mp4"),
                               "PATH=" + dir.string());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("ffmpeg"), std::string::npos) << r.err;
    EXPECT_TRUE(fileNames(dir).empty());
}

TEST(RenderSequence, VideoIsTheSameOnEveryRun) {
    if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0)
        ESVIEW_SKIP_UNLESS_REQUIRED() << "ffmpeg is not on PATH (Debian package ffmpeg)";
    const fs::path dir = freshDir("video");
    for (const char* name : {"a.mp4", "b.mp4"}) {
        // An odd width: ffmpeg's 4:2:0 needs even sizes, which the encoding pads to.
        const RunResult r = esview("render demo --size 121x90 --frames 0:20:4 -o " +
                                   quoted(dir / "f_%02d.png") + " --video " + quoted(dir / name));
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    const std::string a = bytes(dir / "a.mp4");
    ASSERT_GT(a.size(), 100u);
    EXPECT_EQ(a.substr(4, 4), "ftyp");
    EXPECT_EQ(a, bytes(dir / "b.mp4"));
    EXPECT_EQ(fileNames(dir).size(), 2u + 6u);  // the six pictures are written too

    // ffmpeg failing (a folder that does not exist) is exit status 1 with esview's line, not a crash.
    const RunResult r = esview("render demo --size 64x48 --turntable 3 -o " + quoted(dir / "t_%d.png") +
                               " --video " + quoted(dir / "missing" / "t.mp4"));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("ffmpeg could not encode"), std::string::npos) << r.err;
}

}  // namespace
