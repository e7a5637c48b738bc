// Synthetic binary glTF writer for bench_gltf (see large_glb.h). Written the way exporters write
// the same content: JSON chunk, then one BIN chunk holding every buffer view 4-byte aligned.
#include "bench/gltf/large_glb.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

namespace esv::bench {
namespace {

using nlohmann::json;

constexpr double kPi = 3.14159265358979323846;
constexpr uint32_t kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr uint32_t kFloat = 5126, kUnsignedByte = 5121, kUnsignedShort = 5123;

// Deterministic noise in [-1, 1] from an integer.
float noise(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return float(double(x) / 2147483647.5 - 1.0);
}

class Glb {
public:
    // Appends `size` bytes from `data` as a new buffer view (4-byte aligned); returns its index.
    uint32_t view(const void* data, size_t size, uint32_t stride, uint32_t target) {
        while (m_bin.size() % 4) m_bin.push_back(0);
        json v = {{"buffer", 0}, {"byteOffset", m_bin.size()}, {"byteLength", size}};
        if (stride) v["byteStride"] = stride;
        if (target) v["target"] = target;
        const auto* bytes = static_cast<const uint8_t*>(data);
        m_bin.insert(m_bin.end(), bytes, bytes + size);
        m_doc["bufferViews"].push_back(std::move(v));
        return uint32_t(m_doc["bufferViews"].size() - 1);
    }
    uint32_t accessor(uint32_t view, size_t offset, uint32_t componentType, size_t count, const char* type,
                      bool normalized = false) {
        json a = {{"bufferView", view}, {"componentType", componentType}, {"count", count}, {"type", type}};
        if (offset) a["byteOffset"] = offset;
        if (normalized) a["normalized"] = true;
        m_doc["accessors"].push_back(std::move(a));
        return uint32_t(m_doc["accessors"].size() - 1);
    }
    json& doc() { return m_doc; }
    json& lastAccessor() { return m_doc["accessors"].back(); }

    bool write(const std::string& path, LargeGlbStats& stats, std::string& error) {
        while (m_bin.size() % 4) m_bin.push_back(0);
        m_doc["buffers"] = json::array({{{"byteLength", m_bin.size()}}});
        std::string text = m_doc.dump();
        while (text.size() % 4) text.push_back(' ');
        const uint32_t total = uint32_t(12 + 8 + text.size() + 8 + m_bin.size());
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) {
            error = "cannot create " + path;
            return false;
        }
        const uint32_t header[3] = {0x46546C67u, 2u, total};
        const uint32_t jsonChunk[2] = {uint32_t(text.size()), 0x4E4F534Au};
        const uint32_t binChunk[2] = {uint32_t(m_bin.size()), 0x004E4942u};
        bool ok = std::fwrite(header, 1, 12, f) == 12 && std::fwrite(jsonChunk, 1, 8, f) == 8 &&
                  std::fwrite(text.data(), 1, text.size(), f) == text.size() &&
                  std::fwrite(binChunk, 1, 8, f) == 8 && std::fwrite(m_bin.data(), 1, m_bin.size(), f) == m_bin.size();
        ok = std::fclose(f) == 0 && ok;
        if (!ok) error = "cannot write " + path;
        stats.bytes = total;
        stats.jsonBytes = uint32_t(text.size());
        return ok;
    }

private:
    json m_doc = {{"asset", {{"version", "2.0"}, {"generator", "esview bench_gltf"}}}, {"scene", 0}};
    std::vector<uint8_t> m_bin;
};

struct Vertex {
    float position[3];
    float normal[3];
    float uv[2];
    uint8_t joints[4];
    float weights[4];
};
static_assert(sizeof(Vertex) == 52, "interleaved vertex layout");

std::vector<Vertex> gridVertices(const LargeGlbShape& shape, uint32_t mesh, float min[3], float max[3]) {
    const uint32_t n = shape.gridSide;
    std::vector<Vertex> v(size_t(n) * n);
    for (int k = 0; k < 3; ++k) min[k] = 1e30f, max[k] = -1e30f;
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
            Vertex& x = v[size_t(j) * n + i];
            const float u = float(i) / float(n - 1), w = float(j) / float(n - 1);
            x.position[0] = u;
            x.position[1] = 0.02f * noise(mesh * 131071u + j * n + i);
            x.position[2] = w;
            x.normal[0] = 0, x.normal[1] = 1, x.normal[2] = 0;
            x.uv[0] = u, x.uv[1] = w;
            const uint32_t first = uint32_t(u * float(shape.joints - 1));
            x.joints[0] = uint8_t(first);
            x.joints[1] = uint8_t((first + 1) % shape.joints);
            x.joints[2] = x.joints[3] = 0;
            x.weights[0] = 0.75f, x.weights[1] = 0.25f, x.weights[2] = x.weights[3] = 0;
            for (int k = 0; k < 3; ++k) min[k] = std::fmin(min[k], x.position[k]), max[k] = std::fmax(max[k], x.position[k]);
        }
    return v;
}

std::vector<uint16_t> gridIndices(uint32_t n) {
    std::vector<uint16_t> idx;
    idx.reserve(size_t(n - 1) * (n - 1) * 6);
    for (uint32_t j = 0; j + 1 < n; ++j)
        for (uint32_t i = 0; i + 1 < n; ++i) {
            const uint16_t a = uint16_t(j * n + i), b = uint16_t(a + 1), c = uint16_t(a + n), d = uint16_t(c + 1);
            idx.insert(idx.end(), {a, c, b, b, c, d});
        }
    return idx;
}

// Copies one member of every vertex into a tightly packed array (the one-view-per-attribute layout).
template <class T, size_t N>
std::vector<T> column(const std::vector<Vertex>& v, const T (Vertex::*member)[N]) {
    std::vector<T> out;
    out.reserve(v.size() * N);
    for (const Vertex& x : v) out.insert(out.end(), (x.*member), (x.*member) + N);
    return out;
}

json meshAttributes(Glb& glb, const std::vector<Vertex>& v, bool interleaved, const float min[3], const float max[3]) {
    uint32_t pos, nrm, uv, jnt, wgt;
    if (interleaved) {
        const uint32_t view = glb.view(v.data(), v.size() * sizeof(Vertex), sizeof(Vertex), kArrayBuffer);
        pos = glb.accessor(view, offsetof(Vertex, position), kFloat, v.size(), "VEC3");
        glb.lastAccessor()["min"] = {min[0], min[1], min[2]};
        glb.lastAccessor()["max"] = {max[0], max[1], max[2]};
        nrm = glb.accessor(view, offsetof(Vertex, normal), kFloat, v.size(), "VEC3");
        uv = glb.accessor(view, offsetof(Vertex, uv), kFloat, v.size(), "VEC2");
        jnt = glb.accessor(view, offsetof(Vertex, joints), kUnsignedByte, v.size(), "VEC4");
        wgt = glb.accessor(view, offsetof(Vertex, weights), kFloat, v.size(), "VEC4");
    } else {
        const auto add = [&](const auto& values, uint32_t componentType, const char* type) {
            const uint32_t view = glb.view(values.data(), values.size() * sizeof(values[0]), 0, kArrayBuffer);
            return glb.accessor(view, 0, componentType, v.size(), type);
        };
        pos = add(column(v, &Vertex::position), kFloat, "VEC3");
        glb.lastAccessor()["min"] = {min[0], min[1], min[2]};
        glb.lastAccessor()["max"] = {max[0], max[1], max[2]};
        nrm = add(column(v, &Vertex::normal), kFloat, "VEC3");
        uv = add(column(v, &Vertex::uv), kFloat, "VEC2");
        jnt = add(column(v, &Vertex::joints), kUnsignedByte, "VEC4");
        wgt = add(column(v, &Vertex::weights), kFloat, "VEC4");
    }
    return {{"POSITION", pos}, {"NORMAL", nrm}, {"TEXCOORD_0", uv}, {"JOINTS_0", jnt}, {"WEIGHTS_0", wgt}};
}

// Joint k's parent is (k - 1) / 2; joint k sits 1/joints along x from its parent's start.
void addSkinAndAnimation(Glb& glb, const LargeGlbShape& shape, uint32_t firstJointNode) {
    json& doc = glb.doc();
    std::vector<float> inverseBind;
    std::vector<float> worldX(shape.joints);
    for (uint32_t k = 0; k < shape.joints; ++k) {
        const float x = float(k) / float(shape.joints);
        worldX[k] = x;
        const float parentX = k ? worldX[(k - 1) / 2] : 0.0f;
        json node = {{"name", "joint" + std::to_string(k)}, {"translation", {x - parentX, 0.0, 0.0}}};
        doc["nodes"].push_back(node);
        const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, 0, 0, 1};
        inverseBind.insert(inverseBind.end(), m, m + 16);
    }
    for (uint32_t k = 1; k < shape.joints; ++k)
        doc["nodes"][firstJointNode + (k - 1) / 2]["children"].push_back(firstJointNode + k);
    const uint32_t ibm = glb.accessor(glb.view(inverseBind.data(), inverseBind.size() * 4, 0, 0), 0, kFloat,
                                      shape.joints, "MAT4");
    json joints = json::array();
    for (uint32_t k = 0; k < shape.joints; ++k) joints.push_back(firstJointNode + k);
    doc["skins"] = json::array({{{"joints", joints}, {"inverseBindMatrices", ibm}, {"skeleton", firstJointNode}}});

    std::vector<float> times(shape.keys);
    for (uint32_t i = 0; i < shape.keys; ++i) times[i] = float(i) / 30.0f;
    const uint32_t input = glb.accessor(glb.view(times.data(), times.size() * 4, 0, 0), 0, kFloat, shape.keys, "SCALAR");
    glb.lastAccessor()["min"] = {times.front()};
    glb.lastAccessor()["max"] = {times.back()};
    json animation = {{"name", "wave"}, {"channels", json::array()}, {"samplers", json::array()}};
    for (uint32_t k = 0; k < shape.joints; ++k) {
        std::vector<float> q;
        q.reserve(size_t(shape.keys) * 4);
        for (uint32_t i = 0; i < shape.keys; ++i) {
            const double angle = 0.3 * std::sin(2 * kPi * times[i] + k);
            q.insert(q.end(), {0.0f, float(std::sin(angle / 2)), 0.0f, float(std::cos(angle / 2))});
        }
        const uint32_t output = glb.accessor(glb.view(q.data(), q.size() * 4, 0, 0), 0, kFloat, shape.keys, "VEC4");
        animation["samplers"].push_back({{"input", input}, {"output", output}, {"interpolation", "LINEAR"}});
        animation["channels"].push_back({{"sampler", k}, {"target", {{"node", firstJointNode + k}, {"path", "rotation"}}}});
    }
    doc["animations"] = json::array({animation});
}

}  // namespace

bool writeLargeGlb(const std::string& path, const LargeGlbShape& shape, LargeGlbStats& stats, std::string& error) {
    if (shape.gridSide < 2 || shape.gridSide > 256 || shape.joints < 1 || shape.joints > 255 || shape.keys < 2) {
        error = "unsupported shape";
        return false;
    }
    Glb glb;
    json& doc = glb.doc();
    doc["nodes"] = json::array();
    doc["meshes"] = json::array();
    json roots = json::array();
    const std::vector<uint16_t> indices = gridIndices(shape.gridSide);
    const uint32_t side = uint32_t(std::ceil(std::sqrt(double(shape.meshes))));
    for (uint32_t m = 0; m < shape.meshes; ++m) {
        float min[3], max[3];
        const std::vector<Vertex> v = gridVertices(shape, m, min, max);
        const json attributes = meshAttributes(glb, v, m % 2 == 0, min, max);
        const uint32_t idxView = glb.view(indices.data(), indices.size() * 2, 0, kElementArrayBuffer);
        const uint32_t idx = glb.accessor(idxView, 0, kUnsignedShort, indices.size(), "SCALAR");
        doc["meshes"].push_back({{"name", "grid" + std::to_string(m)},
                                 {"primitives", json::array({{{"attributes", attributes}, {"indices", idx}, {"mode", 4}}})}});
        doc["nodes"].push_back({{"name", "grid" + std::to_string(m)},
                                {"mesh", m},
                                {"skin", 0},
                                {"translation", {1.1 * (m % side), 0.0, 1.1 * (m / side)}}});
        roots.push_back(m);
        stats.vertices += v.size();
        stats.triangles += indices.size() / 3;
    }
    roots.push_back(shape.meshes);
    addSkinAndAnimation(glb, shape, shape.meshes);
    doc["scenes"] = json::array({{{"nodes", roots}}});
    return glb.write(path, stats, error);
}

}  // namespace esv::bench
