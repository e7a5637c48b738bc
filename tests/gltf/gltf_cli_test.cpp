// The command line on glTF files, through the format table with nothing glTF-specific in app/: a
// shared sample converted to .glb and .gltf by `esview convert`, then `info --json` (the file's
// counts, a mesh split by primitive counted once), `check --json` and `render`; a bad file's line
// names its JSON pointer and exits 1.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/test_paths.h"
#include "gltf/gltf_fixtures.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using test::RunResult;

RunResult run(const std::string& args) {
    return test::runEsview(ESVIEW_BINARY, args, "gltf_cli");
}

TEST(GltfCli, ConvertedSampleInfoCheckAndRender) {
    const fs::path source = test::modelsDir() / "ogex" / "assimp_animation_example.ogex";
    if (!fs::exists(source)) ESVIEW_SKIP_UNLESS_REQUIRED() << source << " not found";
    const fs::path dir = test::outputDir() / "gltf_cli";
    fs::create_directories(dir);
    for (const char* ext : {".glb", ".gltf"}) {
        SCOPED_TRACE(ext);
        const fs::path out = dir / (std::string("anim") + ext);
        ASSERT_EQ(run("convert '" + source.string() + "' '" + out.string() + "'").exitCode, 0);
        const RunResult info = run("info '" + out.string() + "' --json");
        ASSERT_EQ(info.exitCode, 0) << info.err;
        const nlohmann::json j = nlohmann::json::parse(info.out);
        EXPECT_EQ(j["format"], "gltf");
        EXPECT_EQ(j["meshes"].size(), 2u);
        EXPECT_EQ(j["triangles_total"], 64u);
        EXPECT_EQ(j["animation"]["clips"].size(), 1u);
        EXPECT_EQ(j["lights"].size(), 1u);
        const RunResult check = run("check '" + out.string() + "' --json");
        EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
        const fs::path png = dir / (std::string("anim") + ext + ".png");
        const RunResult render =
            run("render '" + out.string() + "' -o '" + png.string() + "' --size 64x48 --time 1");
        EXPECT_EQ(render.exitCode, 0) << render.err;
        EXPECT_TRUE(fs::exists(png));
    }
}

TEST(GltfCli, MeshSplitByPrimitiveCountsOnce) {
    test::Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    const std::string json = test::withBuffer(R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "bufferViews":[{"buffer":0,"byteLength":36}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},
                  {"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
     "meshes":[{"name":"two","primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":1}}]}],
     "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})",
                                              b);
    const fs::path file = test::outputDir() / "gltf_cli_split.gltf";
    std::ofstream(file) << json;
    const RunResult info = run("info '" + file.string() + "' --json");
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["nodes"], 1u);
    ASSERT_EQ(j["meshes"].size(), 1u);
    EXPECT_EQ(j["meshes"][0]["vertices"], 6u);
    EXPECT_EQ(j["meshes"][0]["triangles"], 2u);
    EXPECT_EQ(j["mesh_instances"], 1u);
}

TEST(GltfCli, BadFileNamesItsPointerAndExitsOne) {
    const fs::path file = test::outputDir() / "gltf_cli_bad.gltf";
    std::ofstream(file) << R"({"asset":{"version":"2.0"},"nodes":[{"mesh":3}],"scenes":[{"nodes":[0]}]})";
    const RunResult check = run("check '" + file.string() + "'");
    EXPECT_EQ(check.exitCode, 1);
    EXPECT_NE((check.out + check.err)
                  .find(file.string() + ": /nodes/0/mesh: mesh 3 does not exist (the file has 0)"),
              std::string::npos)
        << check.out << check.err;
}

}  // namespace
}  // namespace esv

namespace esv {
namespace {

// A quad facing a camera whose view it fills (normal +Z, texture coordinates over [0, 1]), with
// the material `material` (a JSON object), `images` (a JSON list of file names) and one texture per image (each with sampler i
// when `samplers` holds that many). `secondSet`: the mesh also has TEXCOORD_1, set 0 mirrored left to
// right.
std::string quad(const std::string& material, const std::string& images, const std::string& samplers = "[]",
                 bool secondSet = false) {
    test::Bin b;
    b.put<float>({-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0});  // positions
    b.put<float>({0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1});      // normals
    b.put<float>({0, 1, 1, 1, 1, 0, 0, 0});                  // texture coordinates
    b.put<uint16_t>({0, 1, 2, 0, 2, 3});
    if (secondSet) b.put<float>({1, 1, 0, 1, 0, 0, 1, 0});  // TEXCOORD_1 at byte 140
    const nlohmann::json imageList = nlohmann::json::parse(images), samplerList = nlohmann::json::parse(samplers);
    nlohmann::json textures = nlohmann::json::array(), imageObjects = nlohmann::json::array();
    for (size_t i = 0; i < imageList.size(); ++i) {
        imageObjects.push_back({{"uri", imageList[i]}});
        nlohmann::json t = {{"source", i}};
        if (i < samplerList.size()) t["sampler"] = i;
        textures.push_back(t);
    }
    std::string json = test::withBuffer(R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
     "extensionsUsed":["KHR_materials_unlit","KHR_materials_specular"],
     "bufferViews":[{"buffer":0,"byteLength":48},{"buffer":0,"byteOffset":48,"byteLength":48},
                    {"buffer":0,"byteOffset":96,"byteLength":32},{"buffer":0,"byteOffset":128,"byteLength":12}],
     "accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[-1,-1,0],"max":[1,1,0]},
                  {"bufferView":1,"componentType":5126,"count":4,"type":"VEC3"},
                  {"bufferView":2,"componentType":5126,"count":4,"type":"VEC2"},
                  {"bufferView":3,"componentType":5123,"count":6,"type":"SCALAR"}],
     "images":@IMAGES@,"samplers":@SAMPLERS@,"textures":@TEXTURES@,"materials":[@MATERIAL@],
     "meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2},"indices":3,"material":0}]}],
     "cameras":[{"type":"perspective","perspective":{"yfov":0.9,"znear":0.1,"zfar":10}}],
     "nodes":[{"mesh":0},{"camera":0,"translation":[0,0,2.2]}],"scenes":[{"nodes":[0,1]}],"scene":0})",
                                        b);
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"@IMAGES@", imageObjects.dump()},
                                     {"@SAMPLERS@", samplerList.dump()},
                                     {"@TEXTURES@", textures.dump()},
                                     {"@MATERIAL@", material}})
        json.replace(json.find(key), key.size(), value);
    if (secondSet)
        for (const auto& [after, add] :
             {std::pair<std::string, std::string>{R"("byteOffset":128,"byteLength":12})",
                                                  R"(,{"buffer":0,"byteOffset":140,"byteLength":32})"},
              {R"("count":6,"type":"SCALAR"})", R"(,{"bufferView":4,"componentType":5126,"count":4,"type":"VEC2"})"},
              {R"("TEXCOORD_0":2)", R"(,"TEXCOORD_1":4)"}})
            json.insert(json.find(after) + after.size(), add);
    return json;
}

// Writes `json` as NAME.gltf in `dir`, renders it through its camera (`extra` options added) and
// loads the picture.
test::Image renderQuad(const fs::path& dir, const std::string& name, const std::string& json,
                       const std::string& extra = "") {
    const fs::path file = dir / (name + ".gltf"), png = dir / (name + ".png");
    std::ofstream(file) << json;
    const RunResult r =
        run("render '" + file.string() + "' --camera 0 --size 48x48 " + extra + " -o '" + png.string() + "'");
    EXPECT_EQ(r.exitCode, 0) << name << ": " << r.err;
    test::Image picture;
    EXPECT_TRUE(test::loadPng(png.string(), picture)) << name;
    return picture;
}

const uint8_t* pixel(const test::Image& image, int x, int y) {
    return &image.rgba[size_t(y * image.width + x) * 4];
}

// The largest difference of any colour channel between two pictures of one size (256 when the
// sizes differ).
int largestDifference(const test::Image& a, const test::Image& b) {
    if (a.width != b.width || a.height != b.height || a.rgba.size() != b.rgba.size()) return 256;
    int most = 0;
    for (size_t i = 0; i < a.rgba.size(); ++i)
        if (i % 4 != 3) most = std::max(most, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
    return most;
}

// The mean of the colour channels over the picture.
double meanLevel(const test::Image& image) {
    double sum = 0.0;
    for (size_t i = 0; i < image.rgba.size(); ++i)
        if (i % 4 != 3) sum += image.rgba[i];
    return sum / double(image.rgba.size() / 4 * 3);
}

// Writes a 1x1 PNG of one colour (or a 2x2 one of four).
void writeImage(const fs::path& path, int size, std::vector<uint8_t> rgba) {
    test::Image image;
    image.width = image.height = size;
    image.rgba = std::move(rgba);
    ASSERT_TRUE(test::savePng(path.string(), image));
}

const char* kChecker = R"(["checker2x2.png"])";
// The 2x2 image (red, green / blue, white) as its colour (drawn with --mode unlit).
std::string unlitChecker() {
    return R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},"extensions":{"KHR_materials_unlit":{}}})";
}

// The sampler's filters reach the GPU: NEAREST magnification draws the 2x2 texture as four flat
// blocks of its texels' colours, LINEAR blends them (the middle of the view is their mean).
TEST(GltfCli, SamplerFiltersAreDrawn) {
    const fs::path dir = test::outputDir() / "gltf_filters";
    fs::create_directories(dir);
    writeImage(dir / "checker2x2.png", 2, {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255});
    const test::Image nearest =
        renderQuad(dir, "nearest", quad(unlitChecker(), kChecker, R"([{"magFilter":9728,"minFilter":9728}])"),
                   "--mode unlit");
    const test::Image linear =
        renderQuad(dir, "linear", quad(unlitChecker(), kChecker, R"([{"magFilter":9729,"minFilter":9729}])"),
                   "--mode unlit");
    ASSERT_EQ(nearest.width, 48);
    ASSERT_EQ(linear.width, 48);
    // The quad fills the view: texel (0, 0) top left is red, (1, 0) green, (0, 1) blue, (1, 1) white.
    const uint8_t kTexels[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
    std::set<uint32_t> linearColours;
    for (int y = 4; y < 44; ++y)
        for (int x = 4; x < 44; ++x) {
            if (x >= 22 && x <= 25) continue;  // the texel edges: rasterisation may round either way
            if (y >= 22 && y <= 25) continue;
            const uint8_t* want = kTexels[(y >= 24 ? 2 : 0) + (x >= 24 ? 1 : 0)];
            const uint8_t* got = pixel(nearest, x, y);
            for (int c = 0; c < 3; ++c) ASSERT_NEAR(got[c], want[c], 1) << "NEAREST at " << x << "," << y;
            const uint8_t* l = pixel(linear, x, y);
            linearColours.insert(uint32_t(l[0]) << 16 | uint32_t(l[1]) << 8 | l[2]);
        }
    // Across the middle NEAREST steps from one texel to the next in one pixel; LINEAR passes
    // through their mean.
    EXPECT_GE(std::abs(int(pixel(nearest, 21, 10)[0]) - int(pixel(nearest, 26, 10)[0])), 250);
    const uint8_t* middle = pixel(linear, 24, 24);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(middle[c], 128, 30) << c;
    EXPECT_GE(linearColours.size(), 200u) << "LINEAR: blends between the texels";
}

// `info --json` shows each texture reference's filters (minification, magnification) and a
// metal/rough material's glTF terms, as the file gives them.
TEST(GltfCli, InfoShowsFiltersAndMaterialTerms) {
    const fs::path dir = test::outputDir() / "gltf_filters";
    fs::create_directories(dir);
    const fs::path file = dir / "terms.gltf";
    std::ofstream(file) << quad(R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},
                                    "normalTexture":{"index":0,"scale":0.5},"occlusionTexture":{"index":0,"strength":0.25},
                                    "extensions":{"KHR_materials_specular":{"specularFactor":0.75,"specularColorFactor":[1,0.5,0.25]}}})",
                                kChecker, R"([{"magFilter":9728,"minFilter":9985}])");
    const RunResult r = run("info '" + file.string() + "' --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(r.out)["materials"][0];
    EXPECT_EQ(m["texture_refs"]["diffuse"]["filter"], nlohmann::json::array({"linear_mipmap_nearest", "nearest"}));
    EXPECT_FLOAT_EQ(m["normal_scale"].get<float>(), 0.5f);
    EXPECT_FLOAT_EQ(m["occlusion_strength"].get<float>(), 0.25f);
    EXPECT_FLOAT_EQ(m["specular_factor"].get<float>(), 0.75f);
    EXPECT_EQ(m["specular_color_factor"], nlohmann::json::array({1.0, 0.5, 0.25}));
}

// A mipmap minification filter on a texture without mip levels (ES2: a non-power-of-two texture
// gets none) samples its base level instead of drawing black (GLES's incomplete texture).
TEST(GltfCli, MipmapFilterOnATextureWithoutLevelsIsNotBlack) {
    const fs::path dir = test::outputDir() / "gltf_filters";
    fs::create_directories(dir);
    std::vector<uint8_t> grey;
    for (int i = 0; i < 9; ++i) grey.insert(grey.end(), {200, 200, 200, 255});
    writeImage(dir / "grey3x3.png", 3, grey);
    const std::string json = quad(R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},
                                      "extensions":{"KHR_materials_unlit":{}}})",
                                  R"(["grey3x3.png"])", R"([{"magFilter":9728,"minFilter":9987}])");
    for (const char* profile : {"", "--gles2"}) {
        SCOPED_TRACE(profile);
        const test::Image picture = renderQuad(dir, std::string("npot") + (*profile ? "_es2" : ""), json,
                                               std::string("--mode unlit ") + profile);
        ASSERT_EQ(picture.width, 48);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(pixel(picture, 24, 24)[c], 200, 2);
    }
}

// glTF's normal scale, occlusion strength and KHR_materials_specular factor are drawn: each at 0
// draws as the material without the term (a tilted normal map at scale 0, a black occlusion map at
// strength 0, specular factor 1 as no extension), and the other end draws otherwise: the normal map
// tilts the shading, full occlusion darkens the ambient light, no specular darkens the reflections.
TEST(GltfCli, NormalScaleOcclusionStrengthAndSpecularAreDrawn) {
    const fs::path dir = test::outputDir() / "gltf_factors";
    fs::create_directories(dir);
    writeImage(dir / "tilted.png", 1, {230, 128, 180, 255});  // a normal leaning along the tangent
    writeImage(dir / "black.png", 1, {0, 0, 0, 255});
    const std::string images = R"(["tilted.png","black.png"])";
    // Grey, dielectric, fairly smooth; `base` its grey level.
    auto material = [](const std::string& extra, const char* base = "0.6") {
        return std::string(R"({"pbrMetallicRoughness":{"baseColorFactor":[)") + base + "," + base + "," + base +
               R"(,1],"metallicFactor":0,"roughnessFactor":0.3})" + extra + "}";
    };
    auto specular = [&](const char* json) {
        return material(std::string(R"(,"extensions":{"KHR_materials_specular":)") + json + "}", "0.05");
    };
    struct Case {
        const char* name;
        std::string plain, neutral, other;
        int difference;  // the least largest difference between `other` and `plain`
        int direction;   // -1: `other` is darker on the whole, 1: brighter, 0: either
    };
    const Case cases[] = {
        {"normal", material(""), material(R"(,"normalTexture":{"index":0,"scale":0})"),
         material(R"(,"normalTexture":{"index":0,"scale":1})"), 20, 0},
        {"occlusion", material(""), material(R"(,"occlusionTexture":{"index":1,"strength":0})"),
         material(R"(,"occlusionTexture":{"index":1,"strength":1})"), 20, -1},
        // A dark surface, so the reflections stand out: factor 1 is the plain material, 0 has no
        // specular reflection, and a colour factor of 25 makes F0 1 (a mirror).
        {"specular", material("", "0.05"), specular(R"({"specularFactor":1,"specularColorFactor":[1,1,1]})"),
         specular(R"({"specularFactor":0})"), 8, -1},
        {"specular_colour", material("", "0.05"), specular(R"({"specularFactor":1})"),
         specular(R"({"specularColorFactor":[25,25,25]})"), 40, 1},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const test::Image plain = renderQuad(dir, std::string(c.name) + "_plain", quad(c.plain, images));
        const test::Image neutral = renderQuad(dir, std::string(c.name) + "_neutral", quad(c.neutral, images));
        const test::Image other = renderQuad(dir, std::string(c.name) + "_other", quad(c.other, images));
        EXPECT_LE(largestDifference(plain, neutral), 2) << "the neutral value draws as the plain material";
        EXPECT_GE(largestDifference(plain, other), c.difference) << "the other end draws otherwise";
        if (c.direction < 0) {
            EXPECT_LT(meanLevel(other), meanLevel(plain) - 1.0) << "less light reaches the eye";
        } else if (c.direction > 0) {
            EXPECT_GT(meanLevel(other), meanLevel(plain) + 10.0) << "more light reaches the eye";
        }
    }
    // ES2 (GLSL ES 1.00, the occlusion map on unit 5) draws the three as ES3 does.
    const std::string all = material(
        R"(,"normalTexture":{"index":0,"scale":0.5},"occlusionTexture":{"index":1,"strength":0.5},
            "extensions":{"KHR_materials_specular":{"specularFactor":0.5,"specularColorFactor":[1,0.5,0.5]}})");
    const test::Image es3 = renderQuad(dir, "all_es3", quad(all, images));
    const test::Image es2 = renderQuad(dir, "all_es2", quad(all, images), "--gles2");
    EXPECT_LE(largestDifference(es3, es2), 3);
}

// KHR_materials_ior sets the dielectric F0, ((ior - 1) / (ior + 1))^2: 1.5 draws as the material
// without the extension (0.04), 1.0 as no specular colour at all (F0 0), and 2.5 as a specular colour
// factor of f0(2.5) / 0.04 = 4.59 (F0 0.184), the same on ES 2. `info` shows the index, the glTF
// writer keeps it, and an index below 1 (and not 0) is one line naming its pointer.
TEST(GltfCli, IndexOfRefractionSetsTheDielectricF0) {
    const fs::path dir = test::outputDir() / "gltf_ior";
    fs::create_directories(dir);
    writeImage(dir / "black.png", 1, {0, 0, 0, 255});
    const std::string images = R"(["black.png"])";
    auto material = [](const std::string& extensions) {
        return std::string(R"({"pbrMetallicRoughness":{"baseColorFactor":[0.05,0.05,0.05,1],"metallicFactor":0,)"
                           R"("roughnessFactor":0.3})") +
               (extensions.empty() ? "" : R"(,"extensions":{)" + extensions + "}") + "}";
    };
    auto ior = [&](const char* value) {
        return material(std::string(R"("KHR_materials_ior":{"ior":)") + value + "}");
    };
    const test::Image plain = renderQuad(dir, "plain", quad(material(""), images));
    const test::Image ior15 = renderQuad(dir, "ior15", quad(ior("1.5"), images));
    const test::Image ior10 = renderQuad(dir, "ior10", quad(ior("1.0"), images));
    const test::Image ior25 = renderQuad(dir, "ior25", quad(ior("2.5"), images));
    const test::Image black = renderQuad(
        dir, "no_colour", quad(material(R"("KHR_materials_specular":{"specularColorFactor":[0,0,0]})"), images));
    const float k = (1.5f / 3.5f) * (1.5f / 3.5f) / 0.04f;
    const std::string factor = std::to_string(k);
    const test::Image scaled = renderQuad(
        dir, "scaled_colour",
        quad(material(R"("KHR_materials_specular":{"specularColorFactor":[)" + factor + "," + factor + "," + factor +
                      "]}"),
             images));
    EXPECT_LE(largestDifference(plain, ior15), 1) << "1.5 is glTF's own index";
    EXPECT_LE(largestDifference(ior10, black), 1) << "1.0: F0 0";
    EXPECT_LT(meanLevel(ior10), meanLevel(plain) - 1.0);
    EXPECT_LE(largestDifference(ior25, scaled), 2) << "2.5: F0 0.184";
    EXPECT_GT(meanLevel(ior25), meanLevel(plain) + 5.0);
    const test::Image es2 = renderQuad(dir, "ior25_es2", quad(ior("2.5"), images), "--gles2");
    EXPECT_LE(largestDifference(ior25, es2), 3);

    const fs::path file = dir / "ior25.gltf", written = dir / "ior25_written.glb";
    auto iorOf = [&](const fs::path& path) {
        const RunResult r = run("info '" + path.string() + "' --json");
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return r.exitCode == 0 ? nlohmann::json::parse(r.out)["materials"][0].value("ior", 0.0f) : 0.0f;
    };
    EXPECT_FLOAT_EQ(iorOf(file), 2.5f);
    ASSERT_EQ(run("convert '" + file.string() + "' '" + written.string() + "'").exitCode, 0);
    EXPECT_FLOAT_EQ(iorOf(written), 2.5f);

    const fs::path bad = dir / "ior_bad.gltf";
    std::ofstream(bad) << quad(ior("0.5"), images);
    const RunResult r = run("info '" + bad.string() + "'");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("ior_bad.gltf: /materials/0/extensions/KHR_materials_ior/ior: index of refraction 0.5 is "
                         "below 1 and not 0"),
              std::string::npos)
        << r.err;
}

// The largest channel difference between two pictures over the left (x 4..19) or right (x 28..43)
// half of the view, rows 4..43 (the middle columns, where the 2x1 maps change texel, left out).
int largestDifferenceInHalf(const test::Image& a, const test::Image& b, bool right) {
    if (a.width != 48 || b.width != 48 || a.height != 48 || b.height != 48) return 256;
    int most = 0;
    for (int y = 4; y < 44; ++y)
        for (int x = right ? 28 : 4; x < (right ? 44 : 20); ++x)
            for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(int(pixel(a, x, y)[c]) - int(pixel(b, x, y)[c])));
    return most;
}

// Writes a 2x1 PNG: the left texel, then the right one (RGBA each).
void writeHalves(const fs::path& path, std::vector<uint8_t> rgba) {
    test::Image image;
    image.width = 2;
    image.height = 1;
    image.rgba = std::move(rgba);
    ASSERT_TRUE(test::savePng(path.string(), image));
}

// KHR_materials_specular's maps are drawn (ES 3): a specularTexture whose alpha is 0 on the left
// half and 1 on the right draws the left half as specularFactor 0 draws it (no specular reflection)
// and the right half as the material without the extension (the other way round when its
// KHR_texture_transform shifts it by half); a specularColorTexture red on the left
// and half blue on the right (sampled as stored, as the base colour map is) draws each half as the
// colour factor times that texel. On ES 2 (8 texture units, all taken) the maps are left out: the
// picture is the factors' alone, and the strict profile says why.
TEST(GltfCli, SpecularMapsAreDrawnOnEs3) {
    const fs::path dir = test::outputDir() / "gltf_specular_maps";
    fs::create_directories(dir);
    // (Not named as a picture rendered here: renderQuad writes NAME.png beside NAME.gltf.)
    writeHalves(dir / "strength_map.png", {255, 255, 255, 0, 255, 255, 255, 255});
    writeHalves(dir / "tint_map.png", {255, 0, 0, 255, 0, 0, 128, 255});
    const std::string images = R"(["strength_map.png","tint_map.png"])", nearest = R"([{"magFilter":9728,"minFilter":9728},
                                                                               {"magFilter":9728,"minFilter":9728}])";
    // Dark, dielectric and fairly smooth, so the specular reflection shows.
    auto material = [](const std::string& specular) {
        std::string m = R"({"pbrMetallicRoughness":{"baseColorFactor":[0.05,0.05,0.05,1],"metallicFactor":0,"roughnessFactor":0.3})";
        if (!specular.empty()) m += R"(,"extensions":{"KHR_materials_specular":)" + specular + "}";
        return m + "}";
    };
    auto render = [&](const char* name, const std::string& m, const std::string& extra = "") {
        return renderQuad(dir, name, quad(m, images, nearest), extra);
    };
    // A colour factor of 25 makes F0 1 (a mirror), so the specular reflection is plain to see.
    const std::string mirror = R"("specularColorFactor":[25,25,25])";
    const std::string strengthMap = material("{" + mirror + R"(,"specularTexture":{"index":0}})");
    const test::Image strength = render("strength", strengthMap);
    const test::Image plain = render("plain", material("{" + mirror + "}"));
    const test::Image none = render("factor0", material("{" + mirror + R"(,"specularFactor":0})"));
    EXPECT_GE(largestDifferenceInHalf(plain, none, false), 40) << "specular factor 0 draws otherwise";
    EXPECT_LE(largestDifferenceInHalf(strength, none, false), 2) << "alpha 0: no specular reflection";
    EXPECT_LE(largestDifferenceInHalf(strength, plain, true), 2) << "alpha 1: as without the map";
    EXPECT_GE(largestDifferenceInHalf(strength, plain, false), 40);
    // Through KHR_texture_transform, as every map: shifted by half, repeating, the halves swap.
    const test::Image shifted = render(
        "strength_shifted",
        material("{" + mirror +
                 R"(,"specularTexture":{"index":0,"extensions":{"KHR_texture_transform":{"offset":[0.5,0]}}}})"));
    EXPECT_LE(largestDifferenceInHalf(shifted, plain, false), 2) << "shifted: alpha 1 on the left";
    EXPECT_LE(largestDifferenceInHalf(shifted, none, true), 2) << "shifted: alpha 0 on the right";

    // F0 = min(0.04 x 25 x texel, 1): (1, 0, 0) on the left, (0, 0, 0.5) on the right.
    const test::Image tint = render("tint", material(R"({"specularColorFactor":[25,25,25],"specularColorTexture":{"index":1}})"));
    const test::Image red = render("red", material(R"({"specularColorFactor":[25,0,0]})"));
    const test::Image blue = render("blue", material(R"({"specularColorFactor":[0,0,12.55]})"));
    EXPECT_GE(largestDifferenceInHalf(red, blue, false), 40) << "the two colours draw apart";
    EXPECT_LE(largestDifferenceInHalf(tint, red, false), 2) << "the red texel";
    EXPECT_LE(largestDifferenceInHalf(tint, blue, true), 2) << "the half blue texel, as stored";

    // ES 2: the map is not sampled; the picture is the factors' alone.
    const test::Image es2 = render("strength_es2", strengthMap, "--gles2");
    const test::Image plainEs2 = render("plain_es2", material("{" + mirror + "}"), "--gles2");
    EXPECT_LE(largestDifference(es2, plainEs2), 2) << "ES 2 draws the factors alone";
    EXPECT_GE(largestDifferenceInHalf(es2, strength, false), 40);
    const fs::path file = dir / "strength.gltf", png = dir / "strength_strict.png";
    const RunResult strict =
        run("render '" + file.string() + "' --camera 0 --size 48x48 --gles2-strict -o '" + png.string() + "'");
    EXPECT_EQ(strict.exitCode, 0) << strict.err;
    EXPECT_NE(strict.err.find("strength.gltf: note: material '': KHR_materials_specular's specularTexture is not "
                              "drawn on ES 2 (no texture unit left: the other maps take all 8); its factors are"),
              std::string::npos)
        << strict.err;
    const RunResult es3 = run("render '" + file.string() + "' --camera 0 --size 48x48 -o '" + png.string() + "'");
    EXPECT_EQ(es3.err.find("not drawn"), std::string::npos) << es3.err;
}

// KHR_materials_unlit in the shaded view: the base colour times the texture, as the unlit view
// draws it, whatever the lights; the same material without the extension is lit (and differs).
TEST(GltfCli, UnlitMaterialIsItsBaseColourInTheShadedView) {
    const fs::path dir = test::outputDir() / "gltf_unlit";
    fs::create_directories(dir);
    writeImage(dir / "checker2x2.png", 2, {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255});
    const std::string lit = R"({"pbrMetallicRoughness":{"baseColorFactor":[0.5,0.75,1,1],"baseColorTexture":{"index":0}}})";
    std::string unlit = lit;
    unlit.insert(unlit.size() - 1, R"(,"extensions":{"KHR_materials_unlit":{}})");
    const std::string nearest = R"([{"magFilter":9728,"minFilter":9728}])";
    const test::Image shaded = renderQuad(dir, "unlit_shaded", quad(unlit, kChecker, nearest));
    const test::Image flat = renderQuad(dir, "unlit_flat", quad(unlit, kChecker, nearest), "--mode unlit");
    const test::Image litShaded = renderQuad(dir, "lit_shaded", quad(lit, kChecker, nearest));
    ASSERT_EQ(shaded.width, 48);
    ASSERT_EQ(flat.width, 48);
    EXPECT_EQ(largestDifference(shaded, flat), 0);
    // Texel (0, 0), red, times the factor's red: half of 255.
    const uint8_t* red = pixel(shaded, 10, 10);
    EXPECT_NEAR(red[0], 128, 2);
    EXPECT_LE(red[1], 1);
    EXPECT_LE(red[2], 1);
    // Texel (1, 1), white: the factor itself.
    const uint8_t* white = pixel(shaded, 38, 38);
    EXPECT_NEAR(white[0], 128, 2);
    EXPECT_NEAR(white[1], 191, 2);
    EXPECT_NEAR(white[2], 255, 1);
    EXPECT_GT(largestDifference(litShaded, shaded), 10) << "the lit material is lit";
}


// Every pixel of the left (x 4..19) or right (x 28..43) half of a 48x48 picture, rows 4..43, within
// `tolerance` of `rgb`.
void expectHalf(const test::Image& image, bool right, std::vector<int> rgb, int tolerance, const std::string& what) {
    ASSERT_EQ(image.width, 48) << what;
    int most = 0;
    for (int y = 4; y < 44; ++y)
        for (int x = right ? 28 : 4; x < (right ? 44 : 20); ++x)
            for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(int(pixel(image, x, y)[c]) - rgb[size_t(c)]));
    EXPECT_LE(most, tolerance) << what << (right ? ": the right half" : ": the left half");
}

// Maps sample the texture coordinate set they name. The quad's TEXCOORD_1 is TEXCOORD_0 mirrored
// left to right and the map is red on the left, blue on the right: a base colour map on set 0 draws
// red on the left, on set 1 blue; through KHR_texture_transform (shifted by half, repeating) the
// transform applies to set 1 and the halves swap back. The same on ES 2 and in the strict ES 2
// profile (8 attributes: a_uv1 takes the morph range's first). An emissive map on set 1 swaps its
// halves too. A map on set 1 of a mesh without it, or on set 2, is drawn from set 0 with a note.
TEST(GltfCli, MapsSampleTheTextureCoordinateSetTheyName) {
    const fs::path dir = test::outputDir() / "gltf_uv_sets";
    fs::create_directories(dir);
    writeHalves(dir / "halves.png", {255, 0, 0, 255, 0, 0, 255, 255});
    const std::string images = R"(["halves.png"])", nearest = R"([{"magFilter":9728,"minFilter":9728}])";
    const std::vector<int> red = {255, 0, 0}, blue = {0, 0, 255};
    auto baseColour = [](const std::string& info) {
        return R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":0)" + info + "}}}";
    };
    auto render = [&](const std::string& name, const std::string& material, bool secondSet,
                      const std::string& extra = "--mode unlit") {
        return renderQuad(dir, name, quad(material, images, nearest, secondSet), extra);
    };
    const test::Image set0 = render("set0", baseColour(R"(,"texCoord":0)"), true);
    expectHalf(set0, false, red, 1, "set 0");
    expectHalf(set0, true, blue, 1, "set 0");
    const test::Image set1 = render("set1", baseColour(R"(,"texCoord":1)"), true);
    expectHalf(set1, false, blue, 1, "set 1");
    expectHalf(set1, true, red, 1, "set 1");
    const std::string shift = R"(,"extensions":{"KHR_texture_transform":{"offset":[0.5,0]}})";
    const test::Image shifted0 = render("set0_shifted", baseColour(R"(,"texCoord":0)" + shift), true);
    expectHalf(shifted0, false, blue, 1, "set 0 shifted");
    expectHalf(shifted0, true, red, 1, "set 0 shifted");
    const test::Image shifted1 = render("set1_shifted", baseColour(R"(,"texCoord":1)" + shift), true);
    expectHalf(shifted1, false, red, 1, "set 1 shifted");
    expectHalf(shifted1, true, blue, 1, "set 1 shifted");
    for (const char* profile : {"--gles2", "--gles2-strict"}) {
        const test::Image es2 = render(std::string("set1") + (profile + 1), baseColour(R"(,"texCoord":1)"), true,
                                       std::string("--mode unlit ") + profile);
        EXPECT_LE(largestDifference(es2, set1), 1) << profile;
        const test::Image es2Shifted = render(std::string("set1_shifted") + (profile + 1),
                                              baseColour(R"(,"texCoord":1)" + shift), true,
                                              std::string("--mode unlit ") + profile);
        EXPECT_LE(largestDifference(es2Shifted, shifted1), 1) << profile;
    }

    // Emissive (shaded view): black, rough, lit by its map alone.
    auto emissive = [](int set) {
        return R"({"pbrMetallicRoughness":{"baseColorFactor":[0,0,0,1],"metallicFactor":0,"roughnessFactor":1},
                   "emissiveFactor":[1,1,1],"emissiveTexture":{"index":0,"texCoord":)" +
               std::to_string(set) + "}}";
    };
    const test::Image glow0 = render("emissive0", emissive(0), true, "");
    const test::Image glow1 = render("emissive1", emissive(1), true, "");
    for (const auto& [image, leftBlue] : {std::pair<const test::Image*, bool>{&glow0, false}, {&glow1, true}}) {
        const uint8_t* left = pixel(*image, 10, 24);
        const uint8_t* right = pixel(*image, 38, 24);
        EXPECT_GE(leftBlue ? left[2] - left[0] : left[0] - left[2], 200) << "emissive set " << leftBlue;
        EXPECT_GE(leftBlue ? right[0] - right[2] : right[2] - right[0], 200) << "emissive set " << leftBlue;
    }

    // Drawn from set 0, with a line in the preparation report (which a device profile prints): set 1
    // on a mesh without it, and set 2.
    const test::Image missing = render("set1_missing", baseColour(R"(,"texCoord":1)"), false);
    EXPECT_LE(largestDifference(missing, set0), 1);
    const RunResult missingRun = run("render '" + (dir / "set1_missing.gltf").string() +
                                     "' --camera 0 --size 48x48 --gles2-strict -o '" + (dir / "missing_again.png").string() + "'");
    EXPECT_NE(missingRun.err.find("note: material '': diffuse map on texture coordinate set 1, which mesh '"),
              std::string::npos)
        << missingRun.err;
    EXPECT_NE(missingRun.err.find("' lacks; drawn from set 0"), std::string::npos) << missingRun.err;
    const test::Image set2 = render("set2", baseColour(R"(,"texCoord":2)"), true);
    EXPECT_LE(largestDifference(set2, set0), 1);
    const RunResult set2Run = run("render '" + (dir / "set2.gltf").string() + "' --camera 0 --size 48x48 --gles2-strict -o '" +
                                  (dir / "set2_again.png").string() + "'");
    EXPECT_NE(set2Run.err.find("note: material '': diffuse map on texture coordinate set 2; drawn from set 0"),
              std::string::npos)
        << set2Run.err;
    const RunResult set1Run = run("render '" + (dir / "set1.gltf").string() + "' --camera 0 --size 48x48 --gles2-strict -o '" +
                                  (dir / "set1_again.png").string() + "'");
    EXPECT_EQ(set1Run.exitCode, 0) << set1Run.err;
    EXPECT_EQ(set1Run.err.find("drawn from set 0"), std::string::npos) << set1Run.err;
}

}  // namespace
}  // namespace esv
