// `esview convert IN OUT.pod` on every shared OpenGEX, AWD and POF sample (there are no VP archives
// among them), with default options and with full quantisation: esview reads each output back
// (`info --json`) with bounds at rest and at two frame-aligned clip times equal to the source's
// within the error the conversion reported, and the skinned samples render as their sources do
// within the golden tolerance. Where a sample holds something POD cannot hold, the refusal is
// asserted and then exactly the option it names is passed (kOptions below, with the reasons). The
// shared POD samples are reshaped the same way.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;
using nlohmann::json;

RunResult run(const std::string& args) {
    return esv::test::runEsview(ESVIEW_BINARY, args, "convert_pod");
}

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

// The options each sample needs, in the order its refusals name them, and why. Every other
// sample converts with none: AWD's default wrap mode is clamp, but where a material's texture
// coordinates stay within 0..1 clamp draws as repeat does and is written without a refusal.
const std::map<std::string, std::vector<std::string>> kOptions = {
    // An AWD material that clamps a texture its coordinates leave: POD has no wrap modes.
    {"awd/001.awd", {"--wrap-repeat"}},
    // Several animation clips: POD holds one.
    {"awd/PolarBear.awd", {"--clip Breathe"}},
    {"awd/avatar.awd", {"--clip Walk"}},
    {"awd/MaxAWDWorkflow.awd", {"--clip Breathe"}},
    {"awd/PolarBear_Skeleton_ABexport.awd", {"--clip Breathe"}},
    // ... and morph targets (vertex animation): POD has none.
    {"awd/PolarBear_Vertex_ABexport.awd", {"--clip Run", "--drop-morphs"}},
    // FreeSpace detail levels hidden behind the first: POD has no visibility.
    {"pof/oih_Fighter2T-01-2.pof", {"--drop-hidden"}},
    {"pof/oih_ShivWorm.pof", {"--drop-hidden"}},
    {"pof/oih_Yali.pof", {"--drop-hidden"}},
    // A skin bound elsewhere than the rest pose (kRestIsBindPose).
    {"ogex/assimp_animation_example.ogex", {"--bind-pose-rest"}},
};

// Samples whose rest pose POD cannot keep: the skin's bind pose differs from the rest pose by a
// different transform per bone, and POD binds skins at its rest pose (frame 0); with
// --bind-pose-rest frame 0 holds the bind pose, so only the clip times are compared.
const std::vector<std::string> kRestIsBindPose = {"ogex/assimp_animation_example.ogex"};

std::vector<std::string> samples() {
    std::vector<std::string> out;
    // The acceptance asks for OpenGEX, AWD and POF; POD samples, reshaped, come too.
    for (const char* dir : {"ogex", "awd", "pof", "pod"}) {
        const fs::path d = esv::test::modelsDir() / dir;
        if (!fs::exists(d)) continue;
        for (const auto& e : fs::recursive_directory_iterator(d)) {
            if (!e.is_regular_file()) continue;
            std::string ext = e.path().extension().string();
            std::transform(ext.begin(), ext.end(), ext.begin(),
                           [](unsigned char c) { return char(std::tolower(c)); });
            if (ext == ".ogex" || ext == ".awd" || ext == ".pof" || ext == ".pod")
                out.push_back(fs::relative(e.path(), esv::test::modelsDir()).generic_string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

json info(const fs::path& file, const std::string& extra = "") {
    const RunResult r = run("info " + quoted(file) + " --json " + extra);
    EXPECT_EQ(r.exitCode, 0) << file << " " << extra << ": " << r.err;
    json j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out;
    return j;
}

double reported(const std::string& out, const std::string& group) {
    const std::regex re("quantized " + group + "=[a-z0-9]+: largest error ([0-9.e+-]+)");
    std::smatch m;
    return std::regex_search(out, m, re) ? std::stod(m[1]) : 0.0;
}

struct Box {
    bool valid = false;
    double min[3] = {0, 0, 0}, max[3] = {0, 0, 0};
};

// The source's box in the output's axes: POF bounds are reported in the file's left-handed axes
// (z negated for display and in the POD), and a Z-up scene is turned Y-up ((x, y, z) -> (x, z, -y)).
Box box(const json& j, bool pof, bool turned) {
    Box b;
    if (!j.contains("bounds") || j["bounds"].is_null()) return b;
    b.valid = true;
    double lo[3], hi[3];
    for (int c = 0; c < 3; ++c) lo[c] = j["bounds"]["min"][c], hi[c] = j["bounds"]["max"][c];
    if (pof) std::swap(lo[2], hi[2]), lo[2] = -lo[2], hi[2] = -hi[2];
    if (turned) {
        const double y0 = lo[1], y1 = hi[1];
        lo[1] = lo[2], hi[1] = hi[2];
        lo[2] = -y1, hi[2] = -y0;
    }
    for (int c = 0; c < 3; ++c) b.min[c] = lo[c], b.max[c] = hi[c];
    return b;
}

void expectSameBox(const Box& src, const Box& out, double tolerance, const std::string& what) {
    ASSERT_EQ(src.valid, out.valid) << what;
    for (int c = 0; c < 3 && src.valid; ++c) {
        EXPECT_NEAR(out.min[c], src.min[c], tolerance) << what << " min[" << c << "]";
        EXPECT_NEAR(out.max[c], src.max[c], tolerance) << what << " max[" << c << "]";
    }
}

std::string joined(const std::vector<std::string>& options) {
    std::string s;
    for (const std::string& o : options) s += " " + o;
    return s;
}

fs::path outDir() {
    const fs::path d = esv::test::outputDir() / "convert_pod";
    fs::create_directories(d);
    return d;
}

// Converts `sample` with `mode` (extra options), first proving that one run without options lists
// every refusal kOptions expects, each naming its option, then a line counting them. Returns the run
// that succeeded (with the options).
RunResult convert(const std::string& sample, const std::string& mode, const fs::path& out) {
    const fs::path in = esv::test::modelsDir() / sample;
    const auto it = kOptions.find(sample);
    const std::vector<std::string> needed = it == kOptions.end() ? std::vector<std::string>{} : it->second;
    fs::remove(out);
    if (!needed.empty()) {
        const RunResult r = run("convert " + quoted(in) + " " + quoted(out) + mode);
        EXPECT_EQ(r.exitCode, 1) << sample << mode << ": " << r.out;
        for (const std::string& option : needed) {
            const std::string flag = option.substr(0, option.find(' '));
            EXPECT_NE(r.err.find("(" + flag), std::string::npos)
                << sample << ": no refusal names " << flag << ": " << r.err;
        }
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), long(needed.size()) + 1) << r.err;
        size_t line = 0;
        while (line < r.err.size()) {
            EXPECT_EQ(r.err.compare(line, in.string().size() + 2, in.string() + ": "), 0) << r.err;
            line = r.err.find('\n', line);
            if (line == std::string::npos) break;
            ++line;
        }
        EXPECT_FALSE(fs::exists(out)) << "a refusal left " << out;
    }
    return run("convert " + quoted(in) + " " + quoted(out) + joined(needed) + mode);
}

// Notes are summaries: no two note lines say the same thing of different objects ("mesh 3 'A':
// triangles expanded ..." 65 times is one line counting 65 meshes).
void expectSummarisedNotes(const std::string& out, const std::string& what) {
    const std::regex subject(R"(^note: (mesh|node|material|light|camera|skin|texture|clip) ([0-9]+ ?)?(['"][^\n]*?['"])?: (.*)$)");
    std::map<std::string, int> seen;
    size_t start = 0;
    while (start < out.size()) {
        size_t end = out.find('\n', start);
        if (end == std::string::npos) end = out.size();
        const std::string line = out.substr(start, end - start);
        start = end + 1;
        std::smatch m;
        if (!std::regex_match(line, m, subject)) continue;
        EXPECT_EQ(++seen[m[1].str() + ": " + m[4].str()], 1) << what << ": " << line;
    }
}

class ConvertPodSample : public ::testing::TestWithParam<std::string> {};

TEST_P(ConvertPodSample, ReadsBackWithTheSourceBoundsAtRestAndTwoClipTimes) {
    ESVIEW_REQUIRE_MODELS("");
    const std::string sample = GetParam();
    const fs::path in = esv::test::modelsDir() / sample;
    if (!fs::exists(in)) GTEST_SKIP() << in << " is gone";
    std::string stem = sample;
    std::replace(stem.begin(), stem.end(), '/', '_');
    const bool restIsBindPose =
        std::find(kRestIsBindPose.begin(), kRestIsBindPose.end(), sample) != kRestIsBindPose.end();
    const std::string kModes[] = {"", " --quantize all", " --quantize all --optimize --strips"};
    for (size_t modeIndex = 0; modeIndex < 3; ++modeIndex) {
        const std::string& mode = kModes[modeIndex];
        const fs::path out = outDir() / (stem + "_" + std::to_string(modeIndex) + ".pod");
        const RunResult r = convert(sample, mode, out);
        ASSERT_EQ(r.exitCode, 0) << sample << mode << ": " << r.err;
        expectSummarisedNotes(r.out, sample + mode);
        ASSERT_TRUE(fs::exists(out));
        fs::path part = out;
        part += ".part";
        EXPECT_FALSE(fs::exists(part));
        const json src = info(in), pod = info(out);
        ASSERT_EQ(pod["format"], "pod");
        // Quantisation reports the largest error it introduced, per attribute, on stdout.
        uint64_t vertices = 0;
        for (const auto& mesh : pod["meshes"]) vertices += mesh["vertices"].get<uint64_t>();
        if (!mode.empty() && vertices > 0) {
            EXPECT_NE(r.out.find("quantized positions=int16: largest error "), std::string::npos) << r.out;
        } else if (mode.empty()) {
            EXPECT_EQ(r.out.find("quantized "), std::string::npos) << r.out;
        }
        const bool pof = src["format"] == "pof";
        const bool turned = r.out.find("turned to POD's Y up") != std::string::npos;
        // Tolerance: float rounding of the box's size, plus what quantisation reported (a position
        // error, and a weight error moving a vertex by at most that fraction of the box).
        const Box rest = box(src, pof, turned);
        double size = 0.0;
        for (int c = 0; c < 3 && rest.valid; ++c) size = std::max(size, rest.max[c] - rest.min[c]);
        const double tolerance =
            1e-5 + 2e-5 * size + 2.0 * reported(r.out, "positions") + 2.0 * reported(r.out, "weights") * size;
        if (!restIsBindPose)
            expectSameBox(rest, box(pod, false, false), tolerance, sample + mode + " at rest");

        // Two frame-aligned times of the clip written (the output holds it alone). Where the writer
        // made frame 0 the rest pose, its mark starts the clip at frame 1 when esview reads it back:
        // the clip's frame k is the source's, either way.
        const auto& clips = src["animation"]["clips"];
        if (clips.empty() || !pod["animation"]["clips"].size()) continue;
        std::string clip = clips[0]["name"];
        const std::regex named("--clip ([^ ]+)");
        std::smatch m;
        const std::string options =
            joined(kOptions.count(sample) ? kOptions.at(sample) : std::vector<std::string>{});
        if (std::regex_search(options, m, named)) clip = m[1];
        double duration = 0.0;
        for (const auto& c : clips)
            if (c["name"] == clip) duration = c["duration_s"];
        const double fps = pod["animation"]["fps"];
        const int frames = static_cast<int>(std::floor(duration * fps + 1e-3));
        for (int k : {frames / 3, (2 * frames) / 3}) {
            char time[64];
            std::snprintf(time, sizeof time, "%.9g", k / fps);
            const json s = info(in, "--clip '" + clip + "' --time " + time);
            const json p = info(out, "--frame " + std::to_string(k));
            expectSameBox(box(s, pof, turned), box(p, false, false), tolerance,
                          sample + mode + " at frame " + std::to_string(k));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Samples, ConvertPodSample, ::testing::ValuesIn(samples()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                             std::string n = i.param;
                             for (char& c : n)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

// A picture of `model` at rest from one absolute orbit (the viewer's first view depends on the
// format's front direction, which POD does not store), through the viewer under Xvfb.
bool shot(const fs::path& model, const fs::path& png, const std::string& extra) {
    const fs::path script = png.string() + ".txt";
    std::ofstream(script) << "clip rest\norbit 150 20\nfit scene\nscreenshot " << png.string()
                          << " 320x240\nquit\n";
    const fs::path config = outDir() / "config";
    fs::create_directories(config);
    fs::remove(png);
    const RunResult r = esv::test::runEsview(
        ESVIEW_BINARY, quoted(model) + extra + " --script " + quoted(script), "convert_pod",
        "ESVIEW_CONFIG_DIR=" + quoted(config) + " " + std::string(XVFB_RUN) +
            " -a -s '-screen 0 1280x720x24'");
    EXPECT_EQ(r.exitCode, 0) << model << ": " << r.err;
    return fs::exists(png);
}

// The skinned samples draw at rest as their sources do within the golden tolerance, converted with
// default options, fully quantised, and quantised, optimised and stripped (--optimize and --strips
// reorder triangles, which changes which of two coincident ones wins the depth test: not with
// MaxAWDWorkflow, whose belt has such triangles). The viewer frames a scene from
// points it gathers per format (a POF's first detail level, an AWD's animated poses), so only where
// those agree (`vsSource`) is the source the reference; elsewhere the quantised output is compared
// with the default output, whose bounds the sample test has matched to the source's.
TEST(ConvertPodImages, SkinnedSamplesDrawAsTheirSources) {
    ESVIEW_REQUIRE_MODELS("awd");
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed";
    // `reorder`: also with --optimize --strips; not where coincident triangles make the order seen.
    const struct {
        const char* sample;
        bool vsSource, reorder;
    } kCases[] = {{"awd/PolarBear.awd", true, true},
                  {"awd/PolarBear_Skeleton_ABexport.awd", true, true},
                  {"awd/avatar.awd", false, true},
                  {"awd/MaxAWDWorkflow.awd", false, false},
                  {"pof/air_F-14.pof", false, true}};
    for (const auto& c : kCases) {
        const std::string sample = c.sample;
        const fs::path in = esv::test::modelsDir() / sample;
        if (!fs::exists(in)) continue;
        std::string stem = sample;
        std::replace(stem.begin(), stem.end(), '/', '_');
        esv::test::Image want;
        if (c.vsSource) {
            const fs::path expected = outDir() / (stem + ".source.png");
            ASSERT_TRUE(shot(in, expected, ""));
            ASSERT_TRUE(esv::test::loadPng(expected.string(), want));
        }
        for (const std::string mode : {"", " --quantize all", " --quantize all --optimize --strips"}) {
            if (!c.reorder && mode.find("--optimize") != std::string::npos) continue;
            const fs::path out = outDir() / (stem + "_img" + std::to_string(mode.size()) + ".pod");
            const RunResult r = convert(sample, mode, out);
            ASSERT_EQ(r.exitCode, 0) << r.err;
            const fs::path png = outDir() / (stem + "_" + std::to_string(mode.size()) + ".png");
            ASSERT_TRUE(shot(out, png, " --texture-path " + quoted(in.parent_path())));
            esv::test::Image got;
            ASSERT_TRUE(esv::test::loadPng(png.string(), got));
            if (want.rgba.empty()) {
                want = got;  // the default output is the quantised one's reference
                continue;
            }
            const auto result = esv::test::compareImages(got, want, esv::test::GoldenRule{}.tolerance);
            ASSERT_TRUE(result.sameSize);
            EXPECT_GT(result.modelPixels, 1000u) << sample;
            EXPECT_EQ(esv::test::brokenRules(result, esv::test::GoldenRule{}), "") << sample << mode;
        }
    }
}

// Options: a bad --quantize is a usage error; the default bone budget is the renderer's ES 2.0 one;
// --max-bones re-batches; --separate, --optimize,
// --strips and --fixed-point give files that read back with the same bounds.
// --lossy alone converts every shared sample to POD and to glTF, with a note for each drop that the
// sample would otherwise be refused for.
TEST(ConvertPodOptions, LossyConvertsEverySampleWithANotePerDrop) {
    ESVIEW_REQUIRE_MODELS("");
    for (const std::string& sample : samples()) {
        const fs::path in = esv::test::modelsDir() / sample;
        std::string stem = sample;
        std::replace(stem.begin(), stem.end(), '/', '_');
        for (const char* ext : {".pod", ".glb"}) {
            const fs::path out = outDir() / ("lossy_" + stem + ext);
            fs::remove(out);
            const RunResult r = run("convert " + quoted(in) + " " + quoted(out) + " --lossy");
            ASSERT_EQ(r.exitCode, 0) << sample << ext << ": " << r.err;
            EXPECT_TRUE(fs::exists(out)) << out;
            if (std::string(ext) != ".pod" || !kOptions.count(sample)) continue;
            expectSummarisedNotes(r.out, sample + " --lossy");
            for (const std::string& option : kOptions.at(sample)) {
                const std::string flag = option.substr(0, option.find(' '));
                EXPECT_NE(r.out.find(flag + ")"), std::string::npos)
                    << sample << ": no note for the drop of " << flag << ":\n" << r.out;
            }
        }
    }
}

TEST(ConvertPodOptions, ShapingOptionsReadBack) {
    ESVIEW_REQUIRE_MODELS("awd");
    const fs::path in = esv::test::modelsDir() / "awd/PolarBear.awd";
    const fs::path out = outDir() / "options.pod";
    EXPECT_EQ(run("convert " + quoted(in) + " " + quoted(out) + " --quantize positions=half").exitCode, 2);
    // The built-in demo: its morph target is refused, then left out on request.
    const RunResult demo = run("convert demo " + quoted(out));
    EXPECT_EQ(demo.exitCode, 1);
    EXPECT_NE(demo.err.find("(--drop-morphs"), std::string::npos) << demo.err;
    EXPECT_EQ(run("convert demo " + quoted(out) + " --drop-morphs --quantize all --strips").exitCode, 0);
    // The default budget is the renderer's strict ES 2.0 palette: the source needs re-batching
    // there, the converted file does not.
    const fs::path png = outDir() / "options_strict.png";
    const RunResult before =
        run("render " + quoted(in) + " -o " + quoted(png) + " --size 64x64 --gles2-strict");
    ASSERT_EQ(before.exitCode, 0) << before.err;
    EXPECT_NE(before.err.find("re-batched for 28 bones"), std::string::npos) << before.err;
    ASSERT_EQ(run("convert " + quoted(in) + " " + quoted(out) + " --clip Breathe").exitCode, 0);
    const RunResult after =
        run("render " + quoted(out) + " -o " + quoted(png) + " --size 64x64 --gles2-strict");
    ASSERT_EQ(after.exitCode, 0) << after.err;
    EXPECT_EQ(after.err.find("re-batched"), std::string::npos) << after.err;
    const json src = info(in);
    for (const std::string o :
         {" --max-bones 12", " --separate", " --optimize", " --strips", " --optimize --strips",
          " --fixed-point", " --quantize normals=byte,uvs=float,weights=ubyte --strips"}) {
        const RunResult r = run("convert " + quoted(in) + " " + quoted(out) + " --clip Breathe" + o);
        ASSERT_EQ(r.exitCode, 0) << o << ": " << r.err;
        const json pod = info(out);
        const Box a = box(src, false, false), b = box(pod, false, false);
        double size = 0.0;
        for (int c = 0; c < 3; ++c) size = std::max(size, a.max[c] - a.min[c]);
        expectSameBox(a, b, 1e-5 + 2e-5 * size + 2.0 * reported(r.out, "weights") * size, o);
        for (const auto& mesh : pod["meshes"]) {
            if (!mesh["skinned"]) continue;
            EXPECT_LE(mesh["max_bones_per_batch"].get<int>(), o == " --max-bones 12" ? 12 : 28) << o;
            if (o.find("--strips") != std::string::npos) {
                EXPECT_EQ(mesh["primitive"], "triangle_strip") << o;
            }
        }
    }
}

}  // namespace
