// Every shader permutation the renderer can request compiles for GLSL ES 1.00 and 3.00, checked
// with glslangValidator (no GL context needed), so a new define cannot break a variant nobody ran.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "renderer/binding_plan.h"
#include "renderer/shader_program.h"

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

}  // namespace
