// glTF files written by tools that are not esview (tests/gltf_writers/fixtures/README.md), read through
// the command line: `esview info --json` against the writers' own facts (Blender's data, what gltfpack
// and assimp wrote or printed), and `esview render` through the file's camera against Blender's
// Workbench silhouettes. Then every shared sample converted to .glb by esview and read back.
//
// Every test skips while esview cannot open glTF (`info` exits 1 with "unknown file format"), and fails
// once it opens a file but gets a fact wrong.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;
using nlohmann::json;

const fs::path kFixtures = GLTF_FIXTURES_DIR;

// Blender's scenes run at 24 frames a second; a clip's duration may differ by one frame (gltfpack
// resamples at 30 fps and ends a clip on its own frame).
constexpr double kFrame = 1.0 / 24.0;

RunResult run(const std::string& args) {
    return esv::test::runEsview(ESVIEW_BINARY, args, "gltf_writers");
}

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

// esview without a glTF reader: the file is not a format it knows.
bool readerAbsent(const RunResult& r) {
    return r.exitCode == 1 && r.err.find("unknown file format") != std::string::npos;
}

// A reader that does not decode EXT_meshopt_compression (gltfpack -cc) refuses the file naming it: as an
// extension it does not support, or (a build without meshoptimizer) one it has nothing to decode with.
bool meshoptAbsent(const RunResult& r) {
    const auto has = [&](const char* text) { return r.err.find(text) != std::string::npos; };
    return r.exitCode == 1 && has("EXT_meshopt_compression") &&
           (has("not supported") || has("no meshoptimizer"));
}

#define SKIP_WITHOUT_GLTF_READER(result)                                                                     \
    do {                                                                                                     \
        if (readerAbsent(result))                                                                            \
            GTEST_SKIP() << "esview cannot open glTF yet: " << firstLine((result).err);                      \
        if (meshoptAbsent(result))                                                                           \
            GTEST_SKIP() << "esview does not read EXT_meshopt_compression yet: " << firstLine((result).err); \
    } while (0)

json readJson(const fs::path& p) {
    return json::parse(esv::test::readText(p));
}

struct Box {
    double min[3], max[3];
};

Box box(const json& j) {
    Box b{};
    for (int i = 0; i < 3; ++i) {
        b.min[i] = j.at("min").at(i).get<double>();
        b.max[i] = j.at("max").at(i).get<double>();
    }
    return b;
}

double diagonal(const Box& b) {
    double d = 0.0;
    for (int i = 0; i < 3; ++i) d += (b.max[i] - b.min[i]) * (b.max[i] - b.min[i]);
    return std::sqrt(d);
}

double worstCorner(const Box& actual, const Box& expected) {
    double worst = 0.0;
    for (int i = 0; i < 3; ++i)
        worst = std::max(
            {worst, std::fabs(actual.min[i] - expected.min[i]), std::fabs(actual.max[i] - expected.max[i])});
    return worst;
}

// The largest distance between the corners of two boxes, per coordinate ("" when within `tolerance`).
std::string boxDifference(const Box& actual, const Box& expected, double tolerance) {
    const double worst = worstCorner(actual, expected);
    if (worst <= tolerance) return "";
    char text[400];
    std::snprintf(text, sizeof text,
                  "box (%.5g %.5g %.5g)-(%.5g %.5g %.5g), expected (%.5g %.5g %.5g)-(%.5g %.5g %.5g): "
                  "off by %.3g, allowed %.3g",
                  actual.min[0], actual.min[1], actual.min[2], actual.max[0], actual.max[1], actual.max[2],
                  expected.min[0], expected.min[1], expected.min[2], expected.max[0], expected.max[1],
                  expected.max[2], worst, tolerance);
    return text;
}

// ----------------------------------------------------------------------------- Blender's scenes

// One scene as one writer's file: Blender's .glb and .gltf, gltfpack's quantised and compressed .glb.
struct Variant {
    const char* scene;
    const char* kind;  // glb, gltf, q (gltfpack), qc (gltfpack -cc)
};

struct Expected {
    fs::path file;
    json facts;    // Blender's facts about the scene
    json written;  // what this file's writer wrote (counts from its JSON)
    bool quantized = false;
    // Box tolerances, fractions of the box's diagonal: 1e-3 (Blender's files hold its float positions and
    // its animation sampled at every frame; measured: at most 3.1e-7), plus for gltfpack's files its
    // quantisation: positions in 14 bits over each mesh's box (at most 1/16383 of it, 6.1e-5) and rotations
    // in 12 bits per component (an angle error of about 1/4096, 2.4e-4, over a lever no longer than the
    // diagonal); measured: at most 4.1e-5 quantised, 2.3e-4 compressed (-cc's meshopt filters round further).
    // gltfpack also resamples clips at 30 fps, exact here because every key and sampled time is on a multiple
    // of 1/6 s (fixtures/README.md).
    double restTolerance = 1e-3, clipTolerance = 1e-3;
};

Expected expected(const Variant& v) {
    Expected e;
    const std::string scene = v.scene, kind = v.kind;
    e.facts = readJson(kFixtures / "blender" / (scene + ".facts.json"));
    if (kind == "glb" || kind == "gltf") {
        e.file =
            kFixtures / "blender" / (kind == "glb" ? scene + ".glb" : scene + "_gltf/" + scene + ".gltf");
        e.written = e.facts["written"];
    } else {
        const std::string stem = scene + (kind == "q" ? "_q" : "_qc");
        e.file = kFixtures / "gltfpack" / (stem + ".glb");
        e.written = readJson(kFixtures / "gltfpack" / (stem + ".facts.json"))["written"];
        e.quantized = true;
        e.restTolerance = e.clipTolerance = 1e-3 + 1.0 / 16383 + 1.0 / 4096;
    }
    return e;
}

void PrintTo(const Variant& v, std::ostream* os) {
    *os << v.scene << " (" << v.kind << ")";
}

class BlenderScene : public ::testing::TestWithParam<Variant> {};

std::string variantName(const ::testing::TestParamInfo<Variant>& p) {
    return std::string(p.param.scene) + "_" + p.param.kind;
}

// Every scene's four files, or one scene's. The specular scene only by name: its plate is dark, so that
// its specular reflection shows, which the unlit silhouettes cannot tell from the background.
std::vector<Variant> variants(const char* only = nullptr) {
    std::vector<Variant> out;
    // The specular and uvsets scenes have tests of their own; uvsets was not put through gltfpack.
    for (const char* scene : {"skinned", "shapekeys", "textured", "lights", "specular", "uvsets"})
        for (const char* kind : {"glb", "gltf", "q", "qc"})
            if (only ? std::string(only) == scene && (std::string(scene) != "uvsets" || kind[0] == 'g')
                     : std::string(scene) != "specular" && std::string(scene) != "uvsets")
                out.push_back({scene, kind});
    return out;
}

// Counts: meshes and their triangles (Blender's loop triangles), vertices (as the writer wrote them),
// instances, nodes, skins, morph targets, cameras, light types, clips, textured materials.
TEST_P(BlenderScene, InfoHasTheWritersCounts) {
    const Expected e = expected(GetParam());
    const RunResult r = run("info " + quoted(e.file) + " --json");
    SKIP_WITHOUT_GLTF_READER(r);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json info = json::parse(r.out);
    const json& facts = e.facts;

    ASSERT_EQ(info["meshes"].size(), e.written["meshes"].size()) << info["meshes"].dump();
    EXPECT_EQ(info["meshes"].size(), facts["meshes"].size());
    std::multiset<int> triangles, expectedTriangles;
    std::multiset<std::pair<int, int>> sizes, writtenSizes;  // (vertices, triangles)
    int skinned = 0, morphTargets = 0, totalTriangles = 0;
    std::set<std::string> names;
    for (const auto& m : info["meshes"]) {
        triangles.insert(m["triangles"].get<int>());
        sizes.insert({m["vertices"].get<int>(), m["triangles"].get<int>()});
        skinned += m["skinned"].get<bool>();
        morphTargets += m["morph_targets"].get<int>();
        totalTriangles += m["triangles"].get<int>();
        names.insert(m["name"].get<std::string>());
    }
    int expectedSkinned = 0, expectedMorphTargets = 0;
    std::set<std::string> expectedNames;
    for (const auto& m : facts["meshes"]) {
        expectedTriangles.insert(m["triangles"].get<int>());
        expectedSkinned += m["skinned"].get<bool>();
        expectedMorphTargets += m["morph_targets"].get<int>();
        expectedNames.insert(m["name"].get<std::string>());
    }
    for (const auto& m : e.written["meshes"]) {
        // Blender's read-back counts indices; gltfpack's facts count triangles.
        const int t = m.contains("triangles") ? m["triangles"].get<int>() : m["indices"].get<int>() / 3;
        writtenSizes.insert({m["vertices"].get<int>(), t});
    }
    EXPECT_EQ(totalTriangles, facts["triangles"].get<int>());
    EXPECT_EQ(triangles, expectedTriangles) << "triangles per mesh (Blender's loop triangles)";
    EXPECT_EQ(sizes, writtenSizes) << "(vertices, triangles) per mesh as the writer wrote them";
    if (!e.quantized) {
        EXPECT_EQ(names, expectedNames) << "mesh names (Blender's mesh data names)";
    }
    EXPECT_EQ(skinned, expectedSkinned);
    EXPECT_EQ(morphTargets, expectedMorphTargets);
    EXPECT_EQ(info["mesh_instances"].get<int>(), facts["mesh_instances"].get<int>());
    EXPECT_EQ(info["nodes"].get<int>(), e.written["nodes"].get<int>()) << "the file's nodes";

    EXPECT_EQ(info["cameras"].get<int>(), facts["cameras"].get<int>());
    std::vector<std::string> lights;
    for (const auto& l : info["lights"]) lights.push_back(l["type"].get<std::string>());
    std::sort(lights.begin(), lights.end());
    EXPECT_EQ(lights, facts["lights"].get<std::vector<std::string>>());

    std::map<std::string, double> clips;
    for (const auto& c : info["animation"]["clips"])
        clips[c["name"].get<std::string>()] = c["duration_s"].get<double>();
    ASSERT_EQ(clips.size(), facts["clips"].size()) << info["animation"].dump();
    for (const auto& c : facts["clips"]) {
        const std::string name = c["name"].get<std::string>();
        ASSERT_TRUE(clips.count(name)) << "no clip '" << name << "': " << info["animation"].dump();
        EXPECT_NEAR(clips[name], c["duration_s"].get<double>(), kFrame + 1e-4) << name;
    }

    // Each material's metallic and roughness factors are Blender's (by name; gltfpack keeps the one
    // material of each scene, as the counts show).
    for (const auto& m : facts["materials"]) {
        const json* found = nullptr;
        for (const auto& im : info["materials"])
            if (im["name"] == m["name"] ||
                (e.quantized && info["materials"].size() == 1 && facts["materials"].size() == 1))
                found = &im;
        ASSERT_NE(found, nullptr) << "no material " << m["name"] << ": " << info["materials"].dump();
        ASSERT_TRUE(found->contains("metallic") && found->contains("roughness")) << found->dump();
        EXPECT_NEAR((*found)["metallic"].get<double>(), m["metallic"].get<double>(), 1e-3) << m["name"];
        EXPECT_NEAR((*found)["roughness"].get<double>(), m["roughness"].get<double>(), 1e-3) << m["name"];
    }

    // Every image the writer stored is found: in the .glb, or beside the .gltf.
    for (const auto& t : info["texture_files"]) EXPECT_FALSE(t["missing"].get<bool>()) << t.dump();

    // A material Blender gave an image has a texture (by name where the writer kept material names).
    for (const auto& m : facts["materials"]) {
        if (m["images"].empty()) continue;
        EXPECT_GE(info["textures"].size(), m["images"].size()) << info["textures"].dump();
        bool textured = false;
        for (const auto& im : info["materials"])
            if ((e.quantized || im["name"] == m["name"]) && !im["textures"].empty()) textured = true;
        EXPECT_TRUE(textured) << "material " << m["name"] << ": " << info["materials"].dump();
    }
}

// World-space bounds at rest and inside each clip, against Blender's evaluated meshes.
TEST_P(BlenderScene, BoundsAtRestAndInsideClipsAreBlenders) {
    const Expected e = expected(GetParam());
    const RunResult rest = run("info " + quoted(e.file) + " --json");
    SKIP_WITHOUT_GLTF_READER(rest);
    ASSERT_EQ(rest.exitCode, 0) << rest.err;
    const Box restBox = box(e.facts["bounds_rest"]);
    const double diag = diagonal(restBox);
    const Box restActual = box(json::parse(rest.out)["bounds"]);
    std::printf("%s (%s) at rest: box off by %.2e of the diagonal\n", GetParam().scene, GetParam().kind,
                worstCorner(restActual, restBox) / diag);
    EXPECT_EQ(boxDifference(restActual, restBox, e.restTolerance * diag), "") << "at rest";
    for (const auto& sample : e.facts["bounds_at"]) {
        const std::string clip = sample["clip"].get<std::string>();
        char time[32];
        std::snprintf(time, sizeof time, "%.6f", sample["time_s"].get<double>());
        const RunResult r =
            run("info " + quoted(e.file) + " --json --time " + time + " --clip '" + clip + "'");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const Box expectedBox = box(sample["bounds"]), actualBox = box(json::parse(r.out)["bounds"]);
        std::printf("%s (%s) %s at %s s: box off by %.2e of the diagonal\n", GetParam().scene,
                    GetParam().kind, clip.c_str(), time,
                    worstCorner(actualBox, expectedBox) / std::max(diag, diagonal(expectedBox)));
        EXPECT_EQ(
            boxDifference(actualBox, expectedBox, e.clipTolerance * std::max(diag, diagonal(expectedBox))),
            "")
            << clip << " at " << time << " s";
    }
}

// A silhouette: Blender's pictures are white on black (no anti-aliasing); esview's are the model drawn
// unlit over its clear colour, and a pixel belongs to the model when a channel differs from the corners'
// background by more than 100 levels: about half coverage for these materials (white, and a checker of
// (255, 217, 51) and (51, 153, 255), 199 levels or more from the background), which is what Blender's
// pixel-centre sampling draws.
std::vector<bool> esviewMask(const esv::test::Image& image) {
    const esv::test::Rgb bg = esv::test::cornerBackground(image);
    std::vector<bool> mask(size_t(image.width) * image.height);
    for (size_t p = 0; p < mask.size(); ++p) {
        int worst = 0;
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(int(image.rgba[p * 4 + c]) - int(bg[c])));
        mask[p] = worst > 100;
    }
    return mask;
}

std::vector<bool> blenderMask(const esv::test::Image& image) {
    std::vector<bool> mask(size_t(image.width) * image.height);
    for (size_t p = 0; p < mask.size(); ++p) mask[p] = image.rgba[p * 4] > 127;
    return mask;
}

double intersectionOverUnion(const std::vector<bool>& a, const std::vector<bool>& b) {
    size_t both = 0, either = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        both += a[i] && b[i];
        either += a[i] || b[i];
    }
    return either ? double(both) / double(either) : 1.0;
}

// Writes a picture of where the two silhouettes differ: both white, only esview's red, only Blender's blue.
void writeMaskDiff(const fs::path& path, const std::vector<bool>& mine, const std::vector<bool>& blender,
                   int w, int h) {
    esv::test::Image out;
    out.width = w;
    out.height = h;
    out.rgba.resize(size_t(w) * h * 4);
    for (size_t p = 0; p < mine.size(); ++p) {
        const uint8_t r = mine[p] ? 255 : 0, b = blender[p] ? 255 : 0, g = mine[p] && blender[p] ? 255 : 0;
        out.rgba[p * 4] = r, out.rgba[p * 4 + 1] = g, out.rgba[p * 4 + 2] = b, out.rgba[p * 4 + 3] = 255;
    }
    esv::test::savePng(path.string(), out);
}

TEST_P(BlenderScene, SilhouetteThroughTheFilesCameraIsBlenders) {
    const Expected e = expected(GetParam());
    const RunResult probe = run("info " + quoted(e.file) + " --json");
    SKIP_WITHOUT_GLTF_READER(probe);
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    ASSERT_TRUE(e.facts.contains("pictures")) << "the fixtures were made without pictures";
    for (const auto& picture : e.facts["pictures"]) {
        const std::string file = picture["file"].get<std::string>();
        const fs::path out =
            esv::test::outputDir() / (std::string("gltf_writers_") + GetParam().kind + "_" + file);
        std::string args =
            "render " + quoted(e.file) + " --camera 0 --size 320x240 --mode unlit -o " + quoted(out);
        if (!picture["clip"].is_null()) {
            char time[32];
            std::snprintf(time, sizeof time, "%.6f", picture["time_s"].get<double>());
            args += " --clip '" + picture["clip"].get<std::string>() + "' --time " + time;
        }
        const RunResult r = run(args);
        ASSERT_EQ(r.exitCode, 0) << args << "\n" << r.err;
        esv::test::Image mine, theirs;
        ASSERT_TRUE(esv::test::loadPng(out.string(), mine)) << out;
        ASSERT_TRUE(esv::test::loadPng((kFixtures / "blender" / file).string(), theirs)) << file;
        ASSERT_EQ(mine.width, theirs.width);
        ASSERT_EQ(mine.height, theirs.height);
        const std::vector<bool> a = esviewMask(mine), b = blenderMask(theirs);
        const double iou = intersectionOverUnion(a, b);
        std::printf("%s (%s): silhouette intersection over union %.4f\n", file.c_str(), GetParam().kind, iou);
        if (iou < 0.97) {
            const fs::path diff = fs::path(out).replace_extension(".silhouettes.png");
            writeMaskDiff(diff, a, b, mine.width, mine.height);
            ADD_FAILURE() << file << ": silhouette intersection over union " << iou
                          << " (want >= 0.97); esview's " << out
                          << ", the two compared (esview red, Blender blue, both white) " << diff;
        }
    }
}

// The textured scene in its texture's colours (Workbench, flat, no anti-aliasing) against esview's unlit
// render: over the pixels both draw, nearly all within 48 levels on every channel. Only the edges between
// the checker's squares may differ (both filter the 32x32 image linearly, a pixel apart at most); a
// flipped V swaps the checker's two colours everywhere.
class BlenderTexture : public BlenderScene {};

TEST_P(BlenderTexture, ColoursAreBlenders) {
    const Expected e = expected(GetParam());
    ASSERT_TRUE(e.facts.contains("texture_pictures")) << "the fixtures were made without the texture picture";
    const RunResult probe = run("info " + quoted(e.file) + " --json");
    SKIP_WITHOUT_GLTF_READER(probe);
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    for (const auto& picture : e.facts["texture_pictures"]) {
        const std::string file = picture["file"].get<std::string>();
        const fs::path out =
            esv::test::outputDir() / (std::string("gltf_writers_") + GetParam().kind + "_" + file);
        const RunResult r =
            run("render " + quoted(e.file) + " --camera 0 --size 320x240 --mode unlit -o " + quoted(out));
        ASSERT_EQ(r.exitCode, 0) << r.err;
        esv::test::Image mine, theirs;
        ASSERT_TRUE(esv::test::loadPng(out.string(), mine)) << out;
        ASSERT_TRUE(esv::test::loadPng((kFixtures / "blender" / file).string(), theirs)) << file;
        ASSERT_EQ(mine.rgba.size(), theirs.rgba.size());
        const std::vector<bool> a = esviewMask(mine);
        size_t both = 0, alike = 0;
        for (size_t p = 0; p < a.size(); ++p) {
            const uint8_t* t = &theirs.rgba[p * 4];
            if (!a[p] || std::max({t[0], t[1], t[2]}) <= 24) continue;  // Blender's world is black
            ++both;
            int worst = 0;
            for (int c = 0; c < 3; ++c)
                worst = std::max(worst, std::abs(int(mine.rgba[p * 4 + c]) - int(t[c])));
            alike += worst <= 48;
        }
        ASSERT_GT(both, 1000u) << "the textured box is hardly drawn";
        const double fraction = double(alike) / double(both);
        std::printf("%s (%s): %.4f of %zu pixels within 48 levels of Blender's colours\n", file.c_str(),
                    GetParam().kind, fraction, both);
        EXPECT_GE(fraction, 0.95) << file << ": esview's " << out;
    }
}

// The largest channel difference between two 48x48 pictures over the left (x 4..19) or right (x 28..43)
// half, rows 4..43.
int halfDifference(const esv::test::Image& a, const esv::test::Image& b, bool right) {
    if (a.width != 48 || b.width != 48 || a.height != 48 || b.height != 48) return 256;
    int most = 0;
    for (int y = 4; y < 44; ++y)
        for (int x = right ? 28 : 4; x < (right ? 44 : 20); ++x)
            for (int c = 0; c < 3; ++c) {
                const size_t at = size_t(y * 48 + x) * 4 + size_t(c);
                most = std::max(most, std::abs(int(a.rgba[at]) - int(b.rgba[at])));
            }
    return most;
}

// The specular scene: Blender bakes the Principled BSDF's Specular input (an image black on the left,
// white on the right) into KHR_materials_specular's specularColorTexture with a colour factor of 2.37
// (and gltfpack puts a KHR_texture_transform on it for its quantised texture coordinates). esview reads
// it into the specular colour slot and draws it: through the file's camera, the left half is the
// material with a colour factor of 0 and no map, the right half the factor alone (ES 3).
class BlenderSpecular : public BlenderScene {};

TEST_P(BlenderSpecular, ColourMapIsDrawnAsBlenderBakedIt) {
    const Expected e = expected(GetParam());
    const RunResult info = run("info " + quoted(e.file) + " --json");
    SKIP_WITHOUT_GLTF_READER(info);
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const json parsed = json::parse(info.out);
    ASSERT_EQ(parsed["meshes"].size(), 1u);
    EXPECT_EQ(parsed["meshes"][0]["triangles"], e.facts["meshes"][0]["triangles"]);
    const json material = parsed["materials"][0];
    EXPECT_TRUE(material["textures"].contains("specular_tint")) << material.dump();
    EXPECT_FLOAT_EQ(material["specular_color_factor"][0].get<float>(), 2.3713577f);
    EXPECT_FLOAT_EQ(material.value("ior", 0.0f), 1.45f) << "KHR_materials_ior, which Blender writes beside it";
    // The references: the .gltf without the map, its colour factor 0 or as written.
    const fs::path dir = esv::test::outputDir() / "gltf_writers_specular";
    fs::create_directories(dir);
    const fs::path source = kFixtures / "blender" / "specular_gltf";
    fs::copy_file(source / "specular.bin", dir / "specular.bin", fs::copy_options::overwrite_existing);
    json doc = readJson(source / "specular.gltf");
    json& specular = doc["materials"][0]["extensions"]["KHR_materials_specular"];
    ASSERT_TRUE(specular.contains("specularColorTexture")) << specular.dump();
    specular.erase("specularColorTexture");
    auto render = [&](const fs::path& file, const std::string& name) {
        const fs::path png = dir / (name + ".png");
        const RunResult r = run("render " + quoted(file) + " --camera 0 --size 48x48 -o " + quoted(png));
        EXPECT_EQ(r.exitCode, 0) << r.err;
        esv::test::Image picture;
        EXPECT_TRUE(esv::test::loadPng(png.string(), picture)) << png;
        return picture;
    };
    const fs::path white = dir / "factor_only.gltf", black = dir / "factor_zero.gltf";
    std::ofstream(white) << doc.dump();
    specular["specularColorFactor"] = {0, 0, 0};
    std::ofstream(black) << doc.dump();
    const esv::test::Image factor = render(white, "factor_only"), zero = render(black, "factor_zero");
    const esv::test::Image drawn = render(e.file, std::string("specular_") + GetParam().kind);
    EXPECT_GE(halfDifference(factor, zero, false), 6) << "the colour factor draws";
    EXPECT_LE(halfDifference(drawn, zero, false), 2) << "left: the map's black";
    EXPECT_LE(halfDifference(drawn, factor, true), 2) << "right: the map's white";
}

// The uvsets scene: a plate whose base colour image (red on the left half, blue on the right) Blender
// reads through a UV Map node naming its second UV map, the first mirrored left to right; the exporter
// writes TEXCOORD_1 and texCoord 1. esview reads set 1 into the reference and draws the map from it:
// through the file's camera the left half is blue and the right half red (set 0 would swap them).
class BlenderUvSets : public BlenderScene {};

TEST_P(BlenderUvSets, BaseColourMapIsDrawnFromTheSecondUvMap) {
    const Expected e = expected(GetParam());
    const RunResult info = run("info " + quoted(e.file) + " --json");
    SKIP_WITHOUT_GLTF_READER(info);
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const json material = json::parse(info.out)["materials"][0];
    EXPECT_EQ(material["texture_refs"]["diffuse"]["uv_set"], 1) << material.dump();
    const fs::path png = esv::test::outputDir() / (std::string("gltf_writers_uvsets_") + GetParam().kind + ".png");
    const RunResult r = run("render " + quoted(e.file) + " --camera 0 --size 48x48 --mode unlit -o " + quoted(png));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    esv::test::Image picture;
    ASSERT_TRUE(esv::test::loadPng(png.string(), picture)) << png;
    ASSERT_EQ(picture.width, 48);
    const int blue[3] = {0, 0, 255}, red[3] = {255, 0, 0};
    // The plate covers about x 11..36 and y 6..42 of the picture; the halves meet at x 24.
    for (int y = 10; y < 38; ++y)
        for (int x = 13; x < 35; ++x) {
            if (x >= 22 && x < 26) continue;
            const int* want = x < 24 ? blue : red;
            for (int c = 0; c < 3; ++c)
                ASSERT_NEAR(picture.rgba[size_t(y * 48 + x) * 4 + size_t(c)], want[c], 2) << x << "," << y;
        }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BlenderScene, ::testing::ValuesIn(variants()), variantName);
INSTANTIATE_TEST_SUITE_P(Fixtures, BlenderTexture, ::testing::ValuesIn(variants("textured")), variantName);
INSTANTIATE_TEST_SUITE_P(Fixtures, BlenderSpecular, ::testing::ValuesIn(variants("specular")), variantName);
INSTANTIATE_TEST_SUITE_P(Fixtures, BlenderUvSets, ::testing::ValuesIn(variants("uvsets")), variantName);

// ------------------------------------------------------------------------- assimp's exports

class AssimpExport : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> assimpExports() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(kFixtures / "assimp"))
        if (entry.path().extension() == ".glb") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Meshes, vertices and faces as `assimp info` printed them for its own export, and the box as esview
// reads the OpenGEX source (assimp keeps the source's axes: fixtures/README.md).
TEST_P(AssimpExport, InfoHasAssimpsCountsAndTheSourcesBounds) {
    const json facts = readJson(kFixtures / "assimp" / (GetParam() + ".facts.json"));
    const fs::path file = kFixtures / "assimp" / (GetParam() + ".glb");
    const RunResult r = run("info " + quoted(file) + " --json");
    SKIP_WITHOUT_GLTF_READER(r);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json info = json::parse(r.out);
    // The file as assimp wrote it (its JSON: nodes, meshes, cameras, lights).
    const json& written = facts["written"];
    EXPECT_EQ(info["nodes"].get<int>(), written["nodes"].get<int>());
    EXPECT_EQ(info["meshes"].size(), written["meshes"].size());
    EXPECT_EQ(info["mesh_instances"].get<int>(), written["mesh_instances"].get<int>());
    EXPECT_EQ(info["cameras"].get<int>(), written["cameras"].get<int>());
    EXPECT_EQ(info["lights"].size(), written["lights"].size());
    // assimp reads its export back only when it has a mesh (its validation wants one).
    const json& printed = facts["assimp_info_export"];
    if (!printed.is_object()) {
        EXPECT_TRUE(written["meshes"].empty()) << "assimp could not read back an export with meshes";
        return;
    }
    EXPECT_EQ(info["meshes"].size(), size_t(printed["meshes"].get<int>()));
    int vertices = 0, triangles = 0;
    for (const auto& m : info["meshes"]) {
        vertices += m["vertices"].get<int>();
        triangles += m["triangles"].get<int>();
    }
    EXPECT_EQ(vertices, printed["vertices"].get<int>());
    EXPECT_EQ(triangles, printed["faces"].get<int>()) << "assimp's faces are triangles here";
    EXPECT_EQ(info["cameras"].get<int>(), printed["cameras"].get<int>());
    EXPECT_EQ(info["lights"].size(), size_t(printed["lights"].get<int>()));
    if (printed["meshes"].get<int>() == 0) return;

    ASSERT_TRUE(printed.contains("bounds"));
    const Box assimpBox = box(printed["bounds"]);
    const double diag = diagonal(assimpBox);
    EXPECT_EQ(boxDifference(box(info["bounds"]), assimpBox, 1e-3 * diag), "")
        << "against assimp's printed box";

    ESVIEW_REQUIRE_MODELS("ogex");
    const fs::path source = esv::test::modelsDir() / facts["source"].get<std::string>();
    const RunResult s = run("info " + quoted(source) + " --json");
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const json sourceInfo = json::parse(s.out);
    int sourceTriangles = 0;
    for (const auto& m : sourceInfo["meshes"]) sourceTriangles += m["triangles"].get<int>();
    EXPECT_EQ(triangles, sourceTriangles) << "the source's triangles as esview reads them";
    EXPECT_EQ(boxDifference(box(info["bounds"]), box(sourceInfo["bounds"]), 1e-3 * diag), "")
        << "against the source's box as esview reads it";
}

INSTANTIATE_TEST_SUITE_P(Fixtures, AssimpExport, ::testing::ValuesIn(assimpExports()));

// ---------------------------------------------------------------- esview's own .glb, read back

// A box in the source's axes as the converter writes it: a Z-up scene is turned to Y up,
// (x, y, z) -> (x, z, -y) (convert says so in a note).
Box turnedToYUp(const Box& b) {
    return Box{{b.min[0], b.min[2], -b.max[1]}, {b.max[0], b.max[2], -b.min[1]}};
}

// A POF box as `info` gives it (the file's left-handed axes) in the scene's right-handed ones, which the
// glTF holds: (x, y, z) -> (x, y, -z).
Box mirroredZ(const Box& b) {
    return Box{{b.min[0], b.min[1], -b.max[2]}, {b.max[0], b.max[1], -b.min[2]}};
}

long meshTriangles(const json& info) {
    long n = 0;
    for (const auto& m : info["meshes"]) n += m["triangles"].get<long>();
    return n;
}

// The triangles `render` draws at rest (instances counted, hidden detail levels not): the file's mesh
// list may differ (a converted AWD primitive used by many instances is written once per instance).
long drawnTriangles(const fs::path& file, const fs::path& png, std::string& error) {
    const RunResult r = run("render " + quoted(file) + " --size 64x48 -o " + quoted(png));
    const size_t at = r.out.find(" draw calls, ");
    if (r.exitCode != 0 || at == std::string::npos) {
        error = r.err + r.out;
        return -1;
    }
    return std::stol(r.out.substr(at + 13));
}

// Every shared sample through `esview convert X out.glb` and `esview info out.glb`: the source's
// triangles as drawn, clip count and box at rest and in the middle of its first clip, within 1e-3
// of the box's diagonal. One test per sample, so ctest spreads them over its jobs. A sample the converter
// refuses is other tests' business (tests/convert_gltf).
class GltfRoundTrip : public ::testing::TestWithParam<std::string> {};  // under the models folder
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GltfRoundTrip);

TEST_P(GltfRoundTrip, ConvertedGlbKeepsTrianglesClipsAndBounds) {
    const fs::path source = esv::test::modelsDir() / GetParam();
    const std::string what = GetParam();
    const fs::path dir = esv::test::outputDir() / "gltf_round_trip";
    fs::create_directories(dir);
    std::string stem = what;
    for (char& ch : stem)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    const fs::path out = dir / (stem + ".glb");
    const RunResult c = run("convert " + quoted(source) + " " + quoted(out));
    if (c.exitCode != 0) GTEST_SKIP() << "the converter refuses " << what << ": " << firstLine(c.err);
    const bool turned = (c.out + c.err).find("turned to glTF's Y up") != std::string::npos;
    const bool pof = source.extension() == ".pof";
    const RunResult a = run("info " + quoted(source) + " --json"), b = run("info " + quoted(out) + " --json");
    SKIP_WITHOUT_GLTF_READER(b);
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << out << ": " << b.err;
    const json src = json::parse(a.out), glb = json::parse(b.out);
    // The files' mesh lists usually hold the same triangles; where not, the drawn ones must agree (a render
    // each: the slow part, so only then).
    if (meshTriangles(glb) != meshTriangles(src)) {
        std::string error;
        const long sourceTriangles = drawnTriangles(source, dir / (stem + ".source.png"), error);
        ASSERT_GE(sourceTriangles, 0) << error;
        EXPECT_EQ(drawnTriangles(out, dir / (stem + ".glb.png"), error), sourceTriangles)
            << "drawn triangles (the meshes hold " << meshTriangles(glb) << ", the source's "
            << meshTriangles(src) << ") " << error;
    }
    const auto& clips = src["animation"]["clips"];
    EXPECT_EQ(glb["animation"]["clips"].size(), clips.size());
    if (!src["bounds"].is_object() || !glb["bounds"].is_object()) {
        EXPECT_EQ(src["bounds"].is_object(), glb["bounds"].is_object())
            << src["bounds"] << " vs " << glb["bounds"];
        return;
    }
    auto expectedBox = [&](const json& info) {
        const Box written = box(info["bounds"]);
        return turned ? turnedToYUp(written) : pof ? mirroredZ(written) : written;
    };
    const Box rest = expectedBox(src);
    const double diag = diagonal(rest);
    EXPECT_EQ(boxDifference(box(glb["bounds"]), rest, 1e-3 * diag), "") << "at rest";
    for (size_t k = 0; k < clips.size() && k < 1 && k < glb["animation"]["clips"].size(); ++k) {
        char time[32];
        std::snprintf(time, sizeof time, "%.6f", clips[k]["duration_s"].get<double>() / 2);
        const std::string at = " --json --clip " + std::to_string(k) + " --time " + time;
        const RunResult sa = run("info " + quoted(source) + at), sb = run("info " + quoted(out) + at);
        ASSERT_EQ(sa.exitCode, 0) << sa.err;
        ASSERT_EQ(sb.exitCode, 0) << sb.err;
        const json sj = json::parse(sa.out), gj = json::parse(sb.out);
        if (!sj["bounds"].is_object()) continue;
        const Box expectedAt = expectedBox(sj);
        EXPECT_EQ(boxDifference(box(gj["bounds"]), expectedAt, 1e-3 * std::max(diag, diagonal(expectedAt))),
                  "")
            << "clip " << k << " at " << time << " s";
    }
}

std::vector<std::string> sharedSamples() {
    std::vector<std::string> names;
    for (const fs::path& p : esv::test::sharedModelFiles())
        names.push_back(fs::relative(p, esv::test::modelsDir()).string());
    return names;
}

std::string sampleName(const ::testing::TestParamInfo<std::string>& p) {
    std::string name = p.param;
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(SharedSamples, GltfRoundTrip, ::testing::ValuesIn(sharedSamples()), sampleName);

// The round trip above has one test per shared sample, and none without them: say so here.
TEST(GltfRoundTripSamples, ArePresent) {
    ESVIEW_REQUIRE_MODELS("");
    EXPECT_FALSE(esv::test::sharedModelFiles().empty());
}

}  // namespace
