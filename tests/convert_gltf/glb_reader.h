// A small glTF reader for tests: a .glb's JSON and binary chunk, its accessors as floats, and the
// world-space box of what its default scene draws at rest or at a time of one animation (node
// transforms, morph weights, skins), evaluated as the glTF 2.0 specification says. Independent of
// the writer: it reads only the file.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "convert/gltf/gltf_curves.h"
#include "scene/cpu_reference.h"

namespace esv::test {

struct Glb {
    nlohmann::json doc;
    std::vector<uint8_t> bin;
};

// Reads a .glb, or a .gltf with its first buffer from the file its URI names beside it.
inline bool readGlb(const std::string& path, Glb& out) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto u32 = [&](size_t at) {
        uint32_t v = 0;
        std::memcpy(&v, &bytes[at], 4);
        return v;
    };
    if (bytes.size() >= 4 && u32(0) != 0x46546C67) {
        out.doc = nlohmann::json::parse(bytes.begin(), bytes.end());
        if (out.doc.contains("buffers")) {
            const std::string uri = out.doc["buffers"][0]["uri"];
            const std::string dir = path.substr(0, path.find_last_of('/') + 1);
            std::ifstream bin(dir + uri, std::ios::binary);
            out.bin.assign(std::istreambuf_iterator<char>(bin), std::istreambuf_iterator<char>());
        }
        return true;
    }
    if (bytes.size() < 20) return false;
    const uint32_t jsonLength = u32(12);
    out.doc = nlohmann::json::parse(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
    const size_t binAt = 20 + jsonLength;
    if (bytes.size() >= binAt + 8) {
        const uint32_t binLength = u32(binAt);
        out.bin.assign(bytes.begin() + long(binAt + 8), bytes.begin() + long(binAt + 8 + binLength));
    }
    return true;
}

// Accessor `index` as floats, normalised integers mapped as glTF says (3.11).
inline std::vector<float> readAccessor(const Glb& glb, int index, int* components = nullptr) {
    const nlohmann::json& a = glb.doc["accessors"][index];
    const nlohmann::json& view = glb.doc["bufferViews"][a["bufferView"].get<int>()];
    const std::string type = a["type"];
    const int comps = type == "SCALAR" ? 1
                      : type == "VEC2" ? 2
                      : type == "VEC3" ? 3
                      : type == "VEC4" ? 4
                                       : 16;
    if (components) *components = comps;
    const int ct = a["componentType"];
    const size_t size = ct == 5126 || ct == 5125 ? 4 : ct == 5122 || ct == 5123 ? 2 : 1;
    const size_t stride = view.value("byteStride", size_t(comps) * size);
    const size_t base = view.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
    const bool normalized = a.value("normalized", false);
    const size_t count = a["count"];
    std::vector<float> out(count * comps);
    for (size_t e = 0; e < count; ++e)
        for (int c = 0; c < comps; ++c) {
            const uint8_t* p = &glb.bin[base + e * stride + c * size];
            float v = 0.0f;
            switch (ct) {
                case 5126:
                    std::memcpy(&v, p, 4);
                    break;
                case 5120:
                    v = normalized ? std::max(int8_t(*p) / 127.0f, -1.0f) : float(int8_t(*p));
                    break;
                case 5121:
                    v = normalized ? *p / 255.0f : float(*p);
                    break;
                case 5122: {
                    int16_t i;
                    std::memcpy(&i, p, 2);
                    v = normalized ? std::max(i / 32767.0f, -1.0f) : float(i);
                    break;
                }
                case 5123: {
                    uint16_t i;
                    std::memcpy(&i, p, 2);
                    v = normalized ? i / 65535.0f : float(i);
                    break;
                }
                default: {
                    uint32_t i;
                    std::memcpy(&i, p, 4);
                    v = float(i);
                    break;
                }
            }
            out[e * comps + c] = v;
        }
    return out;
}

struct NodeState {
    Transform local;
    std::vector<float> weights;
};

inline NodeState restState(const nlohmann::json& node, const nlohmann::json& doc) {
    NodeState state;
    if (node.contains("matrix")) {
        state.local.useMatrix = true;
        for (int i = 0; i < 16; ++i) state.local.matrix[i / 4][i % 4] = node["matrix"][i];
    }
    if (node.contains("translation"))
        state.local.translation = {node["translation"][0], node["translation"][1], node["translation"][2]};
    if (node.contains("rotation"))
        state.local.rotation =
            glm::quat(node["rotation"][3], node["rotation"][0], node["rotation"][1], node["rotation"][2]);
    if (node.contains("scale")) state.local.scale = {node["scale"][0], node["scale"][1], node["scale"][2]};
    if (node.contains("mesh"))
        state.weights = node.value(
            "weights", doc["meshes"][node["mesh"].get<int>()].value("weights", std::vector<float>()));
    return state;
}

// Applies animation `index` at `seconds` to `states` (glTF 2.0 specification, 3.11 and appendix C).
inline void applyAnimation(const Glb& glb, int index, float seconds, std::vector<NodeState>& states) {
    const nlohmann::json& animation = glb.doc["animations"][index];
    for (const nlohmann::json& channel : animation["channels"]) {
        const nlohmann::json& sampler = animation["samplers"][channel["sampler"].get<int>()];
        const std::vector<float> input = readAccessor(glb, sampler["input"]);
        const std::vector<float> output = readAccessor(glb, sampler["output"]);
        const std::string interpolation = sampler.value("interpolation", "LINEAR");
        const std::string path = channel["target"]["path"];
        const int node = channel["target"]["node"];
        const bool cubic = interpolation == "CUBICSPLINE";
        const size_t n = input.size();
        const size_t comps = output.size() / n / (cubic ? 3 : 1);
        std::vector<float> value(comps);
        if (cubic) {
            gltf::evaluateCubicSpline(input, output, uint32_t(comps), seconds, value.data());
        } else {
            size_t k = 0;
            float u = 0.0f;
            if (seconds >= input[n - 1]) {
                k = n - 1;
            } else if (seconds > input[0]) {
                k = size_t(std::upper_bound(input.begin(), input.end(), seconds) - input.begin()) - 1;
                u = (seconds - input[k]) / (input[k + 1] - input[k]);
            }
            const float* a = &output[k * comps];
            const float* b = k + 1 < n ? &output[(k + 1) * comps] : a;
            if (interpolation == "STEP") u = 0.0f;
            if (path == "rotation") {
                const glm::quat q =
                    glm::slerp(glm::quat(a[3], a[0], a[1], a[2]), glm::quat(b[3], b[0], b[1], b[2]), u);
                value = {q.x, q.y, q.z, q.w};
            } else {
                for (size_t c = 0; c < comps; ++c) value[c] = a[c] + (b[c] - a[c]) * u;
            }
        }
        NodeState& state = states[node];
        if (path == "translation") state.local.translation = {value[0], value[1], value[2]};
        if (path == "rotation")
            state.local.rotation = glm::normalize(glm::quat(value[3], value[0], value[1], value[2]));
        if (path == "scale") state.local.scale = {value[0], value[1], value[2]};
        if (path == "weights") state.weights = value;
    }
}

// World matrices of every node of the default scene (identity for others) and the nodes' states,
// with animation `animation` (-1: none) at `seconds`.
inline std::vector<glm::mat4> glbWorld(const Glb& glb, int animation, float seconds,
                                       std::vector<NodeState>& states, std::vector<int>* order = nullptr) {
    const nlohmann::json& doc = glb.doc;
    const nlohmann::json nodes = doc.value("nodes", nlohmann::json::array());
    states.clear();
    for (const nlohmann::json& node : nodes) states.push_back(restState(node, doc));
    if (animation >= 0) applyAnimation(glb, animation, seconds, states);
    std::vector<glm::mat4> world(nodes.size(), glm::mat4(1.0f));
    std::function<void(int, const glm::mat4&)> walk = [&](int n, const glm::mat4& parent) {
        world[n] = parent * states[n].local.toMatrix();
        if (order) order->push_back(n);
        for (int c : nodes[n].value("children", std::vector<int>())) walk(c, world[n]);
    };
    const int sceneIndex = doc.value("scene", 0);
    for (int r : doc["scenes"][sceneIndex].value("nodes", std::vector<int>())) walk(r, glm::mat4(1.0f));
    return world;
}

// The world-space box of what the default scene draws with animation `animation` (-1: none) at
// `seconds`: nodes' transforms, morph weights, skins.
inline Bounds glbBounds(const Glb& glb, int animation = -1, float seconds = 0.0f) {
    const nlohmann::json& doc = glb.doc;
    const nlohmann::json nodes = doc.value("nodes", nlohmann::json::array());
    std::vector<NodeState> states;
    std::vector<int> order;
    const std::vector<glm::mat4> world = glbWorld(glb, animation, seconds, states, &order);
    Bounds bounds;
    for (int n : order) {
        const nlohmann::json& node = nodes[n];
        if (!node.contains("mesh")) continue;
        const nlohmann::json& mesh = doc["meshes"][node["mesh"].get<int>()];
        const std::vector<float>& weights = states[n].weights;
        std::vector<glm::mat4> palette;
        if (node.contains("skin")) {
            const nlohmann::json& skin = doc["skins"][node["skin"].get<int>()];
            const std::vector<float> ibm = readAccessor(glb, skin["inverseBindMatrices"]);
            const std::vector<int> joints = skin["joints"];
            for (size_t j = 0; j < joints.size(); ++j) {
                glm::mat4 m;
                std::memcpy(&m[0][0], &ibm[j * 16], 64);
                palette.push_back(world[joints[j]] * m);
            }
        }
        for (const nlohmann::json& prim : mesh["primitives"]) {
            std::vector<float> pos = readAccessor(glb, prim["attributes"]["POSITION"]);
            const auto targets = prim.value("targets", nlohmann::json::array());
            for (size_t t = 0; t < targets.size() && t < weights.size(); ++t) {
                if (weights[t] == 0.0f) continue;
                const std::vector<float> d = readAccessor(glb, targets[t]["POSITION"]);
                for (size_t i = 0; i < pos.size(); ++i) pos[i] += weights[t] * d[i];
            }
            std::vector<float> joints, jointWeights;
            if (!palette.empty()) {
                joints = readAccessor(glb, prim["attributes"]["JOINTS_0"]);
                jointWeights = readAccessor(glb, prim["attributes"]["WEIGHTS_0"]);
            }
            for (float index : readAccessor(glb, prim["indices"])) {
                const size_t v = size_t(index);
                const glm::vec4 p(pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2], 1.0f);
                glm::mat4 m = world[n];
                if (!palette.empty()) {
                    m = glm::mat4(0.0f);
                    for (int k = 0; k < 4; ++k)
                        if (jointWeights[v * 4 + k] != 0.0f)
                            m += jointWeights[v * 4 + k] * palette[size_t(joints[v * 4 + k])];
                }
                bounds.add(glm::vec3(m * p));
            }
        }
    }
    return bounds;
}

}  // namespace esv::test
