// `esview check` and the Khronos glTF-Validator agree on which glTF files have errors: a valid
// triangle (as .gltf with a data URI, and as .glb) and copies of it each broken in one way the
// specification forbids (sizes, offsets, alignment, references, types, loops, versions, animation
// times, index ranges, bounds that are not the data's, sparse counts, primitive modes, data URIs,
// the GLB container), and an unknown sampler wrap, which both take as a warning. Each file is written here from a JSON patch of the valid
// one; the validator's verdict is printed beside esview's for every file.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string base64(const std::vector<uint8_t>& bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const uint32_t n = uint32_t(bytes[i]) << 16 | (i + 1 < bytes.size() ? uint32_t(bytes[i + 1]) << 8 : 0) |
                           (i + 2 < bytes.size() ? bytes[i + 2] : 0);
        out += digits[n >> 18 & 63];
        out += digits[n >> 12 & 63];
        out += i + 1 < bytes.size() ? digits[n >> 6 & 63] : '=';
        out += i + 2 < bytes.size() ? digits[n & 63] : '=';
    }
    return out;
}

template <class T>
void append(std::vector<uint8_t>& bytes, const std::vector<T>& values) {
    const size_t at = bytes.size();
    bytes.resize(at + values.size() * sizeof(T));
    std::memcpy(bytes.data() + at, values.data(), values.size() * sizeof(T));
}

// The buffer of the valid file: three positions (36 bytes), then indices 0 1 2 (6 bytes, 2 of padding),
// then two animation times 0 and 1 (8 bytes) and two translations (24 bytes).
std::vector<uint8_t> validBuffer(std::vector<uint16_t> indices = {0, 1, 2}, std::vector<float> times = {0, 1}) {
    std::vector<uint8_t> b;
    append(b, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
    indices.push_back(0);
    append(b, indices);
    append(b, times);
    append(b, std::vector<float>{0, 0, 0, 0, 1, 0});
    return b;
}

json validDocument(const std::vector<uint8_t>& buffer) {
    json doc = json::parse(R"({
      "asset": {"version": "2.0", "generator": "esview test_gltf_check"},
      "scene": 0,
      "scenes": [{"nodes": [0]}],
      "nodes": [{"mesh": 0, "name": "triangle"}],
      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
      "bufferViews": [
        {"buffer": 0, "byteOffset": 0, "byteLength": 36, "target": 34962},
        {"buffer": 0, "byteOffset": 36, "byteLength": 6, "target": 34963},
        {"buffer": 0, "byteOffset": 44, "byteLength": 32}
      ],
      "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
        {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
        {"bufferView": 2, "byteOffset": 8, "componentType": 5126, "count": 2, "type": "VEC3"}
      ],
      "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                      "samplers": [{"input": 2, "output": 3}]}]
    })");
    doc["buffers"] = json::array({{{"byteLength", buffer.size()}, {"uri", "data:application/octet-stream;base64," + base64(buffer)}}});
    return doc;
}

std::vector<uint8_t> glb(json doc, const std::vector<uint8_t>& bin) {
    doc["buffers"][0].erase("uri");
    std::string text = doc.dump();
    while (text.size() % 4) text += ' ';
    std::vector<uint8_t> padded = bin;
    while (padded.size() % 4) padded.push_back(0);
    std::vector<uint8_t> out;
    const uint32_t header[5] = {0x46546C67u, 2u, uint32_t(12 + 8 + text.size() + 8 + padded.size()),
                                uint32_t(text.size()), 0x4E4F534Au};
    append(out, std::vector<uint32_t>(header, header + 5));
    out.insert(out.end(), text.begin(), text.end());
    append(out, std::vector<uint32_t>{uint32_t(padded.size()), 0x004E4942u});
    out.insert(out.end(), padded.begin(), padded.end());
    return out;
}

struct Case {
    std::string name;       // file name
    std::vector<uint8_t> bytes;
    bool broken;            // what the specification says
};

std::vector<uint8_t> text(const json& doc) {
    const std::string s = doc.dump(1);
    return std::vector<uint8_t>(s.begin(), s.end());
}

std::vector<Case> cases() {
    const std::vector<uint8_t> buffer = validBuffer();
    const json valid = validDocument(buffer);
    std::vector<Case> out;
    const auto patched = [&](const std::string& name, const json& patch) {
        out.push_back({name + ".gltf", text(valid.patch(patch)), true});
    };
    out.push_back({"valid.gltf", text(valid), false});
    out.push_back({"valid.glb", glb(valid, buffer), false});
    // An unused accessor is a warning, not an error.
    out.push_back({"valid-unused-accessor.gltf",
                   text(valid.patch(json::parse(R"([{"op": "add", "path": "/accessors/-", "value":
                        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}}])"))),
                   false});
    // An unknown sampler wrap code is a warning for both (esview samples with repeat).
    out.push_back({"valid-unknown-wrap.gltf",
                   text(valid.patch(json::parse(R"([{"op": "add", "path": "/samplers", "value": [{"wrapS": 10498}]}])"))),
                   false});
    patched("accessor-past-its-view", json::parse(R"([{"op": "replace", "path": "/accessors/0/count", "value": 4}])"));
    patched("view-past-its-buffer", json::parse(R"([{"op": "replace", "path": "/bufferViews/0/byteLength", "value": 80}])"));
    patched("accessor-misaligned", json::parse(R"([{"op": "add", "path": "/accessors/0/byteOffset", "value": 2},
                                                 {"op": "replace", "path": "/accessors/0/count", "value": 2}])"));
    patched("accessor-no-component-type", json::parse(R"([{"op": "remove", "path": "/accessors/0/componentType"}])"));
    patched("accessor-unknown-type", json::parse(R"([{"op": "replace", "path": "/accessors/0/type", "value": "VEC5"}])"));
    patched("position-vec2", json::parse(R"([{"op": "replace", "path": "/accessors/0/type", "value": "VEC2"},
                                           {"op": "remove", "path": "/accessors/0/min"},
                                           {"op": "remove", "path": "/accessors/0/max"}])"));
    patched("indices-float", json::parse(R"([{"op": "replace", "path": "/meshes/0/primitives/0/indices", "value": 2}])"));
    patched("scene-names-missing-node", json::parse(R"([{"op": "replace", "path": "/scenes/0/nodes/0", "value": 3}])"));
    patched("mesh-missing", json::parse(R"([{"op": "replace", "path": "/nodes/0/mesh", "value": 2}])"));
    patched("view-missing", json::parse(R"([{"op": "replace", "path": "/accessors/1/bufferView", "value": 9}])"));
    patched("node-loop", json::parse(R"([{"op": "add", "path": "/nodes/-", "value": {"children": [2]}},
                                       {"op": "add", "path": "/nodes/-", "value": {"children": [1]}}])"));
    patched("node-two-parents", json::parse(R"([{"op": "add", "path": "/nodes/-", "value": {"children": [3]}},
                                              {"op": "add", "path": "/nodes/-", "value": {"children": [3]}},
                                              {"op": "add", "path": "/nodes/-", "value": {}}])"));
    patched("asset-version-3", json::parse(R"([{"op": "replace", "path": "/asset/version", "value": "3.0"}])"));
    patched("stride-under-element", json::parse(R"([{"op": "add", "path": "/bufferViews/0/byteStride", "value": 8},
                                                  {"op": "replace", "path": "/accessors/0/count", "value": 2}])"));
    patched("animation-target-missing", json::parse(R"([{"op": "replace", "path": "/animations/0/channels/0/target/node", "value": 7}])"));
    patched("animation-output-short", json::parse(R"([{"op": "replace", "path": "/accessors/3/count", "value": 1}])"));
    patched("position-max-wrong", json::parse(R"([{"op": "replace", "path": "/accessors/0/max/0", "value": 2}])"));
    patched("component-type-int32", json::parse(R"([{"op": "replace", "path": "/accessors/1/componentType", "value": 5124}])"));
    patched("primitive-mode-9", json::parse(R"([{"op": "add", "path": "/meshes/0/primitives/0/mode", "value": 9}])"));
    patched("sparse-past-count", json::parse(R"([{"op": "add", "path": "/accessors/1/sparse", "value":
        {"count": 4, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 1}}}])"));
    {
        json d = valid;
        std::string uri = d["buffers"][0]["uri"];
        uri.insert(uri.find(',') + 1, "#");
        d["buffers"][0]["uri"] = uri;
        out.push_back({"data-uri-not-base64.gltf", text(d), true});
    }
    patched("negative-count", json::parse(R"([{"op": "replace", "path": "/accessors/1/count", "value": -3}])"));
    {
        const std::vector<uint8_t> b = validBuffer({0, 1, 5});
        out.push_back({"index-out-of-range.gltf", text(validDocument(b)), true});
    }
    {
        const std::vector<uint8_t> b = validBuffer({0, 1, 2}, {1, 0});
        out.push_back({"times-decreasing.gltf", text(validDocument(b)), true});
    }
    {
        std::string s = valid.dump();
        s.resize(s.size() / 2);
        out.push_back({"json-cut.gltf", std::vector<uint8_t>(s.begin(), s.end()), true});
    }
    {
        std::vector<uint8_t> g = glb(valid, buffer);
        g[12] += 4;  // the JSON chunk's length now runs into the BIN chunk's header
        out.push_back({"glb-json-chunk-long.glb", g, true});
        g = glb(valid, buffer);
        g.resize(g.size() - 8);  // the BIN chunk ends early
        out.push_back({"glb-cut.glb", g, true});
        g = glb(valid, buffer);
        g[4] = 1;  // container version 1
        out.push_back({"glb-version-1.glb", g, true});
    }
    return out;
}

bool validatorAvailable(std::string& why) {
    if (std::string(ESVIEW_NODE).empty() || std::string(ESVIEW_NODE).find("NOTFOUND") != std::string::npos) {
        why = "node is not installed";
        return false;
    }
    if (!fs::exists(fs::path(ESVIEW_GLTF_VALIDATOR_MODULES) / "gltf-validator" / "package.json")) {
        why = "gltf-validator is not installed at " + std::string(ESVIEW_GLTF_VALIDATOR_MODULES);
        return false;
    }
    return true;
}

TEST(GltfCheck, AgreesWithTheKhronosValidatorOnWhichFilesHaveErrors) {
    std::string why;
    if (!validatorAvailable(why)) ESVIEW_SKIP_UNLESS_REQUIRED() << "glTF-Validator: " << why;
    const fs::path dir = test::outputDir() / "gltf_check";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::vector<Case> all = cases();
    std::string files;
    for (const Case& c : all) {
        std::ofstream(dir / c.name, std::ios::binary).write(reinterpret_cast<const char*>(c.bytes.data()),
                                                             std::streamsize(c.bytes.size()));
        files += " '" + (dir / c.name).string() + "'";
    }
    // Without a glTF reader esview says the format is unknown: nothing to compare yet.
    const test::RunResult probe = test::runEsview(ESVIEW_BINARY, "check '" + (dir / "valid.gltf").string() + "'", "gltf_check");
    if (probe.err.find("unknown file format") != std::string::npos) GTEST_SKIP() << "this esview reads no glTF";

    const std::string command = std::string("'") + ESVIEW_NODE + "' '" + ESVIEW_GLTF_VALIDATE_SCRIPT + "' '" +
                                ESVIEW_GLTF_VALIDATOR_MODULES + "'" + files;
    std::FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::map<std::string, json> reports;
    char line[65536];
    while (std::fgets(line, sizeof(line), pipe)) {
        const json r = json::parse(line, nullptr, false);
        if (!r.is_discarded()) reports[fs::path(r.value("file", "")).filename().string()] = r;
    }
    pclose(pipe);

    for (const Case& c : all) {
        SCOPED_TRACE(c.name);
        ASSERT_TRUE(reports.count(c.name)) << "no validator report";
        const json& report = reports[c.name];
        const bool validatorErrors = report.value("errors", 0) > 0;
        const test::RunResult r = test::runEsview(ESVIEW_BINARY, "check '" + (dir / c.name).string() + "'", "gltf_check");
        const bool esviewErrors = r.exitCode != 0;
        std::printf("%-32s validator %-6s esview %-6s %s\n", c.name.c_str(), validatorErrors ? "errors" : "ok",
                    esviewErrors ? "errors" : "ok", esviewErrors ? r.err.substr(0, r.err.find('\n')).c_str() : "");
        EXPECT_EQ(validatorErrors, c.broken) << "the case is not what the validator says: " << report.dump();
        EXPECT_EQ(esviewErrors, validatorErrors) << "esview check says:\n" << r.out << r.err;
        if (esviewErrors) {
            EXPECT_EQ(r.exitCode, 1);
            EXPECT_NE(r.err.find(c.name), std::string::npos) << "every problem names the file: " << r.err;
        }
    }
}

}  // namespace
}  // namespace esv
