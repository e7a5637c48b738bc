// `esview check` agrees with the Khronos glTF-Validator (node, from the tool cache setup.sh fills)
// on which small documents hold errors: a valid triangle, and one variant per kind of error the
// reader names (an accessor past its view, an index past the vertices, a missing accessor, a view
// past its buffer, a bad component type, a node loop, a bad data URI, a sparse count past the
// accessor's, a bad primitive mode), and an unknown sampler wrap, which both take as a warning.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/test_paths.h"
#include "gltf/gltf_fixtures.h"
#include "loaders/load.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using test::Bin;
using test::withBuffer;

const char* kValid = R"({"asset":{"version":"2.0"},"buffers":[@BUFFER@],
 "bufferViews":[{"buffer":0,"byteLength":36,"target":34962},{"buffer":0,"byteOffset":36,"byteLength":6,"target":34963}],
 "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,2,0]},
              {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
 "samplers":[{"wrapS":10497}],
 "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1,"mode":4}]}],
 "nodes":[{"mesh":0,"children":[1]},{}],"scenes":[{"nodes":[0]}],"scene":0})";

Bin triangle(uint16_t secondIndex) {
    Bin b;
    b.put<float>({0, 0, 0, 1, 0, 0, 0, 2, 0});
    b.put<uint16_t>({0, secondIndex, 2});
    return b;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// name -> document; the first is valid, every other holds one error.
std::map<std::string, std::string> documents() {
    const std::string valid = withBuffer(kValid, triangle(1));
    std::map<std::string, std::string> d;
    d["valid"] = valid;
    d["accessor_past_view"] = replaced(valid, R"("count":3,"type":"VEC3")", R"("count":4,"type":"VEC3")");
    d["index_past_vertices"] = withBuffer(kValid, triangle(5));
    d["missing_accessor"] = replaced(valid, R"({"POSITION":0})", R"({"POSITION":7})");
    d["view_past_buffer"] =
        replaced(valid, R"("byteOffset":36,"byteLength":6)", R"("byteOffset":36,"byteLength":60)");
    d["bad_component_type"] = replaced(valid, R"("componentType":5123)", R"("componentType":5124)");
    d["node_loop"] = replaced(valid, R"("nodes":[{"mesh":0,"children":[1]},{}])",
                              R"("nodes":[{"mesh":0,"children":[1]},{"children":[0]}])");
    d["bad_base64"] = replaced(valid, "base64,", "base64,#");
    d["sparse_past_count"] = replaced(
        valid, R"("count":3,"type":"SCALAR"})",
        R"("count":3,"type":"SCALAR","sparse":{"count":4,"indices":{"bufferView":1,"componentType":5123},"values":{"bufferView":1}}})");
    d["bad_mode"] = replaced(valid, R"("mode":4)", R"("mode":9)");
    d["unknown_wrap"] = replaced(valid, R"("wrapS":10497)", R"("wrapS":10498)");
    return d;
}

TEST(GltfValidator, CheckAgreesOnWhichDocumentsHoldErrors) {
    const std::string node = ESVIEW_NODE;
    if (node.empty() || node.find("NOTFOUND") != std::string::npos || !fs::exists(node))
        GTEST_SKIP() << "node is not installed";
    if (!fs::exists(fs::path(ESVIEW_GLTF_VALIDATOR_MODULES) / "gltf-validator" / "package.json"))
        ESVIEW_SKIP_UNLESS_REQUIRED()
            << "gltf-validator is not installed at " << ESVIEW_GLTF_VALIDATOR_MODULES;
    const fs::path dir = test::outputDir() / "gltf_validator";
    fs::create_directories(dir);
    std::string command =
        "'" + node + "' '" + ESVIEW_GLTF_VALIDATE_SCRIPT + "' '" + ESVIEW_GLTF_VALIDATOR_MODULES + "'";
    std::map<std::string, bool> ours;
    for (const auto& [name, json] : documents()) {
        const fs::path file = dir / (name + ".gltf");
        std::ofstream(file, std::ios::binary) << json;
        command += " '" + file.string() + "'";
        LoadOptions check;
        check.collectAll = true;
        const LoadResult r = loadSceneFile(file.string(), check);
        ours[file.string()] = !r.problems.empty();
    }
    std::FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
    ::pclose(pipe);
    size_t reports = 0;
    for (size_t start = 0; start < output.size();) {
        size_t end = output.find('\n', start);
        if (end == std::string::npos) end = output.size();
        const nlohmann::json j = nlohmann::json::parse(output.substr(start, end - start), nullptr, false);
        start = end + 1;
        if (j.is_discarded() || !j.contains("file")) continue;
        const std::string file = j["file"].get<std::string>();
        ASSERT_TRUE(ours.count(file)) << file;
        const bool theirs = j.value("errors", 0) > 0;
        EXPECT_EQ(ours[file], theirs) << file << ": the validator says " << j.dump();
        // An unknown wrap code is a warning for both (the reader samples with repeat).
        const std::string stem = fs::path(file).stem().string();
        EXPECT_EQ(theirs, stem != "valid" && stem != "unknown_wrap") << file;
        ++reports;
    }
    EXPECT_EQ(reports, ours.size()) << output;
}

}  // namespace
}  // namespace esv
