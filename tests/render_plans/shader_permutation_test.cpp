// Every shader permutation the renderer can request compiles for GLSL ES 1.00 and 3.00, checked
// with glslangValidator (no GL context needed), so a new define cannot break a variant nobody ran.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "target/binding_plan.h"
#include "renderer/shader_program.h"
#include "target/strict_profile.h"

namespace {

// Runs glslangValidator once over many files (the stage comes from each file's extension).
int validateAll(const std::vector<std::string>& paths, const std::filesystem::path& logPath, std::string& log) {
    std::string cmd = std::string(GLSLANG_VALIDATOR);
    for (const std::string& p : paths) cmd += " '" + p + "'";
    cmd += " > '" + logPath.string() + "' 2>&1";
    int status = std::system(cmd.c_str());
    std::ifstream in(logPath);
    log.assign(std::istreambuf_iterator<char>(in), {});
    return status;
}

TEST(ShaderPermutations, EveryPermutationCompilesForBothVersions) {
    if (std::string(GLSLANG_VALIDATOR).empty() || std::string(GLSLANG_VALIDATOR).find("NOTFOUND") != std::string::npos)
        ESVIEW_SKIP_UNLESS_REQUIRED() << "glslangValidator not installed (Debian package glslang-tools)";
    // The ES2 palette is the largest array an ES2 program may hold; larger ES3 palettes only change a size.
    const int es2Palette = esv::paletteCapacity(128, 16);
    // Permutations with equal keys must be the same program; each distinct stage source is compiled once.
    std::map<uint64_t, std::string> programs;
    std::set<std::string> sources;
    const auto dir = esv::test::outputDir() / "shaders";
    std::filesystem::create_directories(dir);
    std::vector<std::string> paths;
    size_t permutations = 0;
    for (const esv::ShaderFeatures& f : esv::allShaderPermutations(es2Palette)) {
        ++permutations;
        for (esv::GlslVersion version : {esv::GlslVersion::Es100, esv::GlslVersion::Es300}) {
            const std::string vs = esv::assembleVertexShader(f, version), fs = esv::assembleFragmentShader(f, version);
            if (version == esv::GlslVersion::Es300) {
                auto [it, fresh] = programs.emplace(f.key(), vs + fs);
                EXPECT_TRUE(fresh || it->second == vs + fs) << "two different programs share cache key " << f.key();
            }
            for (const std::string* source : {&vs, &fs}) {
                if (!sources.insert(*source).second) continue;
                const std::string ext = source == &vs ? ".vert" : ".frag";
                paths.push_back((dir / ("s" + std::to_string(sources.size()) + ext)).string());
                std::ofstream(paths.back()) << *source;
            }
        }
    }
    for (esv::GlslVersion version : {esv::GlslVersion::Es100, esv::GlslVersion::Es300}) {
        const std::string name = std::string("overlay") + (version == esv::GlslVersion::Es100 ? "_100" : "_300");
        paths.push_back((dir / (name + ".vert")).string());
        std::ofstream(paths.back()) << esv::assembleOverlayShader(true, version);
        paths.push_back((dir / (name + ".frag")).string());
        std::ofstream(paths.back()) << esv::assembleOverlayShader(false, version);
    }
    // Batches keep each command line well under the system's argument limit.
    constexpr size_t kBatch = 400;
    for (size_t first = 0; first < paths.size(); first += kBatch) {
        const std::vector<std::string> batch(paths.begin() + first, paths.begin() + std::min(paths.size(), first + kBatch));
        std::string log;
        EXPECT_EQ(validateAll(batch, dir / "glslang.log", log), 0) << log.substr(0, 4000);
    }
    // Every stage source the renderer can assemble (both GLSL versions) was compiled above.
    EXPECT_GT(permutations, 900u);
    EXPECT_GT(paths.size(), 1200u);
}

// The strict ES2 profile (RendererOptions::gles2Strict): every fragment source as it assembles it,
// mediump outright (as on a driver without GL_FRAGMENT_PRECISION_HIGH, which glslangValidator
// defines), compiles as GLSL ES 1.00, and its active uniforms, counted from glslangValidator's
// reflection with the renderer's own rule (uniformVectors), fit kStrictLimits.fragmentUniformVectors
// once the renderer's rule (lightsWithinBudget) has taken lights away where they do not.
TEST(ShaderPermutations, StrictProfileFragmentSourcesAreMediumpAndFitTheUniformBudget) {
    if (std::string(GLSLANG_VALIDATOR).empty() ||
        std::string(GLSLANG_VALIDATOR).find("NOTFOUND") != std::string::npos)
        ESVIEW_SKIP_UNLESS_REQUIRED() << "glslangValidator not installed (Debian package glslang-tools)";
    const auto dir = esv::test::outputDir() / "shaders_strict";
    std::filesystem::create_directories(dir);
    int files = 0;
    // Compiles one fragment source and returns its uniform vectors (-1 when it does not compile).
    const auto vectorsOf = [&](const std::string& fs, std::string& path) {
        path = (dir / ("f" + std::to_string(++files) + ".frag")).string();
        std::ofstream(path) << fs;
        const std::string logPath = path + ".log";
        const std::string cmd =
            std::string(GLSLANG_VALIDATOR) + " -l -q '" + path + "' > '" + logPath + "' 2>&1";
        const int status = std::system(cmd.c_str());
        std::ifstream in(logPath);
        const std::string log((std::istreambuf_iterator<char>(in)), {});
        const size_t begin = log.find("Uniform reflection:");
        if (status != 0 || begin == std::string::npos) {
            ADD_FAILURE() << path << "\n" << log.substr(0, 3000);
            return -1;
        }
        // "name: offset -1, type 8b52, size 8, ..." lines up to the next section.
        int vectors = 0;
        std::istringstream lines(log.substr(begin, log.find("Uniform block reflection:") - begin));
        for (std::string line; std::getline(lines, line);) {
            const size_t type = line.find(", type ");
            const size_t size = line.find(", size ");
            if (type == std::string::npos || size == std::string::npos) continue;
            vectors += esv::uniformVectors(unsigned(std::stoul(line.substr(type + 7), nullptr, 16)),
                                           std::stoi(line.substr(size + 7)));
        }
        return vectors;
    };
    const int limit = esv::kStrictLimits.fragmentUniformVectors;
    std::set<std::string> sources;
    std::map<int, int> histogram;  // vectors (with every light) -> sources
    std::map<int, int> reduced;    // lights kept -> sources that keep fewer than all
    for (esv::ShaderFeatures f : esv::allShaderPermutations(esv::paletteCapacity(128, 16))) {
        const std::string fs =
            esv::assembleFragmentShader(f, esv::GlslVersion::Es100, /*fragmentHighp=*/false);
        if (!sources.insert(fs).second) continue;
        ASSERT_NE(fs.find("precision mediump float;"), std::string::npos);
        ASSERT_EQ(fs.find("highp"), std::string::npos) << "a highp qualifier in a strict fragment source";
        std::string path;
        const int vectors = vectorsOf(fs, path);
        ++histogram[vectors];
        const int lights = esv::lightsWithinBudget(vectors, esv::kMaxShaderLights, limit);
        if (lights == esv::kMaxShaderLights) continue;
        ++reduced[lights];
        f.maxLights = uint8_t(lights);
        const int fewer = vectorsOf(esv::assembleFragmentShader(f, esv::GlslVersion::Es100, false), path);
        EXPECT_LE(fewer, limit) << path << " with " << lights << " lights";
        EXPECT_GE(lights, 6) << path
                             << ": the light rig (the file's four, key, fill, rim) loses more than two";
    }
    std::string table;
    for (const auto& [vectors, count] : histogram)
        table += " " + std::to_string(vectors) + ":" + std::to_string(count);
    std::string fewer;
    for (const auto& [lights, count] : reduced)
        fewer += " " + std::to_string(lights) + ":" + std::to_string(count);
    std::printf(
        "strict fragment sources by uniform vectors with 8 lights (vectors:sources):%s\n"
        "sources over %d vectors, by the lights they keep (lights:sources):%s\n",
        table.c_str(), limit, fewer.c_str());
    EXPECT_GT(sources.size(), 100u);
}

}  // namespace
