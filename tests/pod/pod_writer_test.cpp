// POD writer tests: every sample file read -> written -> read back is the same scene (and writing
// it again gives the same bytes); synthetic scenes for what no sample holds (strips, packed and
// quantised vertex data, colours in every byte order, fixed point, bone batches, indexed
// animation, big-endian output, separate streams, folded object transforms); the demo scene; and
// the refusals, each with its sentence.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "loaders/pod/pod_format.h"
#include "loaders/pod/pod_writer.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace esv {
namespace {

// ---------------------------------------------------------------------------------------------
// Helpers

std::vector<uint8_t> writeOk(const Scene& scene, const PodWriteOptions& options = {},
                             std::vector<std::string>* notes = nullptr) {
    std::vector<uint8_t> out;
    std::string error;
    EXPECT_TRUE(writePod(scene, options, out, error, notes)) << error;
    return out;
}

LoadResult readPod(const std::vector<uint8_t>& bytes, bool check = false) {
    LoadOptions options;
    options.collectAll = check;
    return loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(bytes), "written.pod", options);
}

std::string problems(const LoadResult& r) {
    std::string s;
    for (const Problem& p : r.problems) s += p.format() + "\n";
    return s;
}

// Reads `bytes` and expects a clean load: no problems in check mode, no warnings.
std::unique_ptr<Scene> readClean(const std::vector<uint8_t>& bytes) {
    LoadResult checked = readPod(bytes, true);
    EXPECT_TRUE(checked.problems.empty()) << problems(checked);
    LoadResult r = readPod(bytes);
    EXPECT_TRUE(r.scene) << problems(r);
    if (r.scene) {
        for (const ReportLine& l : r.scene->report) EXPECT_EQ(l.severity, Severity::Info) << l.text;
    }
    return std::move(r.scene);
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

bool reportHas(const Scene& s, const std::string& text) {
    for (const ReportLine& l : s.report)
        if (l.text.find(text) != std::string::npos) return true;
    return false;
}

bool near(float a, float b, float tolerance) {
    return a == b || std::fabs(a - b) <= tolerance || (std::isnan(a) && std::isnan(b));
}

#define EXPECT_NEARLY(a, b, tol) EXPECT_PRED3(near, a, b, tol)

void expectNearVec(const float* a, const float* b, size_t n, float tolerance, const std::string& what) {
    for (size_t i = 0; i < n; ++i) EXPECT_NEARLY(a[i], b[i], tolerance) << what << " [" << i << "]";
}
void expectNear(const glm::vec3& a, const glm::vec3& b, float tol, const std::string& what) {
    expectNearVec(&a[0], &b[0], 3, tol, what);
}
void expectNear(const glm::vec4& a, const glm::vec4& b, float tol, const std::string& what) {
    expectNearVec(&a[0], &b[0], 4, tol, what);
}
void expectNear(const glm::mat4& a, const glm::mat4& b, float tol, const std::string& what) {
    expectNearVec(glm::value_ptr(a), glm::value_ptr(b), 16, tol, what);
}

std::vector<uint32_t> indexValues(const Mesh& m) {
    std::vector<uint32_t> out;
    const size_t size = componentSize(m.indices.type);
    for (uint32_t i = 0; i < m.indices.count; ++i) {
        const uint8_t* p = m.indices.bytes.data + i * size;
        uint32_t v = 0;
        for (size_t b = 0; b < size; ++b) v |= uint32_t(p[b]) << (8 * b);
        out.push_back(v);
    }
    return out;
}

// Every vertex of an attribute as floats (the CPU reference decode).
std::vector<float> attributeValues(const Mesh& m, Semantic semantic, uint8_t set) {
    const VertexStream* stream = nullptr;
    const VertexAttribute* a = findAttribute(m, semantic, set, &stream);
    std::vector<float> out;
    if (!a) return out;
    float v[4];
    for (uint32_t i = 0; i < m.vertexCount; ++i) {
        readAttribute(*stream, *a, i, v);
        out.insert(out.end(), v, v + 4);
    }
    return out;
}

Bounds boundsAt(const Scene& s, int clip, float seconds) {
    Pose pose;
    evaluatePose(s, clip, seconds, pose);
    return sceneBounds(s, pose);
}

void expectSameBounds(const Bounds& a, const Bounds& b, float relative, const std::string& what) {
    ASSERT_EQ(a.valid(), b.valid()) << what;
    if (!a.valid()) return;
    const float tolerance = relative * std::max(1.0f, glm::length(a.max - a.min));
    expectNear(a.min, b.min, tolerance, what + " min");
    expectNear(a.max, b.max, tolerance, what + " max");
}

// Field-by-field comparison of two scenes with the same node order. `objectNames`: compare mesh,
// light, camera and skin names too (POD stores none: they come from the nodes on reading).
void expectSameScene(const Scene& a, const Scene& b, float tol, bool objectNames = true) {
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    ASSERT_EQ(a.materials.size(), b.materials.size());
    ASSERT_EQ(a.textures.size(), b.textures.size());
    ASSERT_EQ(a.lights.size(), b.lights.size());
    ASSERT_EQ(a.cameras.size(), b.cameras.size());
    ASSERT_EQ(a.skins.size(), b.skins.size());
    expectNear(a.ambient, b.ambient, tol, "ambient");
    expectNear(a.clearColor, b.clearColor, tol, "clear colour");
    EXPECT_EQ(a.metersPerUnit, b.metersPerUnit);
    EXPECT_EQ(a.up, b.up);

    for (size_t i = 0; i < a.nodes.size(); ++i) {
        SCOPED_TRACE("node " + std::to_string(i));
        const Node &x = a.nodes[i], &y = b.nodes[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.parent, y.parent);
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.object, y.object);
        EXPECT_EQ(x.materials, y.materials);
        EXPECT_EQ(x.skin, y.skin);
        EXPECT_EQ(x.visible, y.visible);
        EXPECT_EQ(x.local.useMatrix, y.local.useMatrix);
        if (x.local.useMatrix) {
            expectNear(x.local.matrix, y.local.matrix, tol, "matrix");
        } else {
            expectNear(x.local.translation, y.local.translation, tol, "translation");
            expectNear(
                glm::vec4(x.local.rotation.x, x.local.rotation.y, x.local.rotation.z, x.local.rotation.w),
                glm::vec4(y.local.rotation.x, y.local.rotation.y, y.local.rotation.z, y.local.rotation.w),
                tol, "rotation");
            expectNear(x.local.scale, y.local.scale, tol, "scale");
        }
        expectNear(x.objectTransform, y.objectTransform, 1e-6f, "object transform");
    }

    for (size_t i = 0; i < a.meshes.size(); ++i) {
        SCOPED_TRACE("mesh " + std::to_string(i));
        const Mesh &x = a.meshes[i], &y = b.meshes[i];
        if (objectNames) {
            EXPECT_EQ(x.name, y.name);
        }
        EXPECT_EQ(x.vertexCount, y.vertexCount);
        size_t attributes = 0, attributesB = 0;
        for (const VertexStream& s : x.streams) attributes += s.attributes.size();
        for (const VertexStream& s : y.streams) attributesB += s.attributes.size();
        EXPECT_EQ(attributes, attributesB);
        for (const VertexStream& s : x.streams)
            for (const VertexAttribute& va : s.attributes) {
                const std::string what =
                    std::string(semanticName(va.semantic)) + " " + std::to_string(va.set);
                const VertexAttribute* vb = findAttribute(y, va.semantic, va.set, nullptr);
                ASSERT_NE(vb, nullptr) << what;
                EXPECT_EQ(va.type, vb->type) << what;
                EXPECT_EQ(va.components, vb->components) << what;
                EXPECT_EQ(va.normalized, vb->normalized) << what;
                EXPECT_EQ(va.swizzle, vb->swizzle) << what;
                const std::vector<float> va1 = attributeValues(x, va.semantic, va.set),
                                         vb1 = attributeValues(y, va.semantic, va.set);
                ASSERT_EQ(va1.size(), vb1.size()) << what;
                size_t differ = 0;
                for (size_t k = 0; k < va1.size(); ++k) differ += near(va1[k], vb1[k], 0.0f) ? 0 : 1;
                EXPECT_EQ(differ, 0u) << what << ": values differ";
            }
        EXPECT_EQ(x.indices.count, y.indices.count);
        EXPECT_EQ(x.indices.count > 0 ? x.indices.type : ComponentType::UInt16,
                  y.indices.count > 0 ? y.indices.type : ComponentType::UInt16);
        EXPECT_EQ(indexValues(x), indexValues(y));
        ASSERT_EQ(x.submeshes.size(), y.submeshes.size());
        for (size_t s = 0; s < x.submeshes.size(); ++s) {
            EXPECT_EQ(x.submeshes[s].primitive, y.submeshes[s].primitive);
            EXPECT_EQ(x.submeshes[s].firstIndex, y.submeshes[s].firstIndex);
            EXPECT_EQ(x.submeshes[s].indexCount, y.submeshes[s].indexCount);
            EXPECT_EQ(x.submeshes[s].stripLengths, y.submeshes[s].stripLengths);
        }
        expectNear(x.positionUnpack, y.positionUnpack, tol, "unpack matrix");
        ASSERT_EQ(x.boneBatches.size(), y.boneBatches.size());
        for (size_t k = 0; k < x.boneBatches.size(); ++k) {
            EXPECT_EQ(x.boneBatches[k].bones, y.boneBatches[k].bones) << "batch " << k;
            EXPECT_EQ(x.boneBatches[k].firstTriangle, y.boneBatches[k].firstTriangle) << "batch " << k;
            EXPECT_EQ(x.boneBatches[k].triangleCount, y.boneBatches[k].triangleCount) << "batch " << k;
        }
        EXPECT_EQ(x.maxBonesPerBatch, y.maxBonesPerBatch);
        EXPECT_EQ(x.boneIndicesBatchLocal, y.boneIndicesBatchLocal);
        EXPECT_EQ(x.morphTargets.size(), y.morphTargets.size());
        EXPECT_EQ(x.adjacency.size, y.adjacency.size);
    }

    for (size_t i = 0; i < a.skins.size(); ++i) {
        SCOPED_TRACE("skin " + std::to_string(i));
        if (objectNames) {
            EXPECT_EQ(a.skins[i].name, b.skins[i].name);
        }
        EXPECT_EQ(a.skins[i].joints, b.skins[i].joints);
        ASSERT_EQ(a.skins[i].inverseBind.size(), b.skins[i].inverseBind.size());
        for (size_t j = 0; j < a.skins[i].inverseBind.size(); ++j) {
            const glm::mat4& m = a.skins[i].inverseBind[j];
            float big = 1.0f;
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) big = std::max(big, std::fabs(m[c][r]));
            expectNear(m, b.skins[i].inverseBind[j], std::max(tol, 1e-5f * big),
                       "inverse bind " + std::to_string(j));
        }
    }

    for (size_t i = 0; i < a.materials.size(); ++i) {
        SCOPED_TRACE("material " + std::to_string(i));
        const Material &x = a.materials[i], &y = b.materials[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.model, y.model);
        expectNear(x.ambient, y.ambient, tol, "ambient");
        expectNear(x.diffuse, y.diffuse, tol, "diffuse");
        expectNear(x.specular, y.specular, tol, "specular");
        expectNear(x.emissive, y.emissive, std::max(tol, 1e-6f), "emissive");
        EXPECT_NEARLY(x.shininess, y.shininess, tol);
        EXPECT_NEARLY(x.opacity, y.opacity, tol);
        EXPECT_EQ(x.metallic, y.metallic);
        EXPECT_EQ(x.roughness, y.roughness);
        EXPECT_EQ(x.ior, y.ior);
        EXPECT_EQ(x.reflectivity, y.reflectivity);
        EXPECT_EQ(x.blend.enabled, y.blend.enabled);
        EXPECT_EQ(x.blend.srcRgb, y.blend.srcRgb);
        EXPECT_EQ(x.blend.dstRgb, y.blend.dstRgb);
        EXPECT_EQ(x.blend.srcAlpha, y.blend.srcAlpha);
        EXPECT_EQ(x.blend.dstAlpha, y.blend.dstAlpha);
        EXPECT_EQ(x.blend.opRgb, y.blend.opRgb);
        EXPECT_EQ(x.blend.opAlpha, y.blend.opAlpha);
        expectNear(x.blend.constant, y.blend.constant, tol, "blend constant");
        EXPECT_EQ(x.twoSided, y.twoSided);
        EXPECT_EQ(x.alphaCutoff, y.alphaCutoff);
        EXPECT_EQ(x.vertexColors, y.vertexColors);
        for (size_t t = 0; t < x.textures.size(); ++t) {
            EXPECT_EQ(x.textures[t].texture, y.textures[t].texture)
                << textureSlotName(static_cast<TextureSlot>(t));
            EXPECT_EQ(x.textures[t].uvSet, y.textures[t].uvSet);
            EXPECT_EQ(x.textures[t].wrapS, y.textures[t].wrapS);
        }
        EXPECT_EQ(x.effectFile, y.effectFile);
        EXPECT_EQ(x.effectName, y.effectName);
        EXPECT_EQ(x.userData, y.userData);
    }
    for (size_t i = 0; i < a.textures.size(); ++i) {
        EXPECT_EQ(a.textures[i].path, b.textures[i].path);
        EXPECT_EQ(a.textures[i].name, b.textures[i].name);
    }
    for (size_t i = 0; i < a.lights.size(); ++i) {
        SCOPED_TRACE("light " + std::to_string(i));
        const Light &x = a.lights[i], &y = b.lights[i];
        if (objectNames) {
            EXPECT_EQ(x.name, y.name);
        }
        EXPECT_EQ(x.type, y.type);
        expectNear(x.color * x.intensity, y.color * y.intensity, tol, "colour");
        EXPECT_NEARLY(x.constantAttenuation, y.constantAttenuation, tol);
        EXPECT_NEARLY(x.linearAttenuation, y.linearAttenuation, tol);
        EXPECT_NEARLY(x.quadraticAttenuation, y.quadraticAttenuation, tol);
        EXPECT_NEARLY(x.outerCone, y.outerCone, tol);
        EXPECT_NEARLY(x.falloffExponent, y.falloffExponent, tol);
        EXPECT_EQ(x.innerCone, y.innerCone);
        EXPECT_EQ(x.range, y.range);
        EXPECT_EQ(x.targetNode, y.targetNode);
    }
    for (size_t i = 0; i < a.cameras.size(); ++i) {
        SCOPED_TRACE("camera " + std::to_string(i));
        const Camera &x = a.cameras[i], &y = b.cameras[i];
        if (objectNames) {
            EXPECT_EQ(x.name, y.name);
        }
        EXPECT_NEARLY(x.yfov, y.yfov, tol);
        EXPECT_NEARLY(x.nearZ, y.nearZ, tol);
        EXPECT_NEARLY(x.farZ, y.farZ, tol);
        EXPECT_EQ(x.targetNode, y.targetNode);
        EXPECT_EQ(x.orthographic, y.orthographic);
    }

    EXPECT_EQ(a.animation.fps, b.animation.fps);
    EXPECT_EQ(a.animation.frames, b.animation.frames);
    ASSERT_EQ(a.animation.clips.size(), b.animation.clips.size());
    for (size_t c = 0; c < a.animation.clips.size(); ++c) {
        const Clip &x = a.animation.clips[c], &y = b.animation.clips[c];
        EXPECT_EQ(x.name, y.name);
        EXPECT_NEARLY(x.start, y.start, 1e-6f);
        EXPECT_NEARLY(x.end, y.end, 1e-6f);
        ASSERT_EQ(x.tracks.size(), y.tracks.size());
        for (size_t t = 0; t < x.tracks.size(); ++t) {
            SCOPED_TRACE("track " + std::to_string(t));
            const Track &p = x.tracks[t], &q = y.tracks[t];
            EXPECT_EQ(p.node, q.node);
            EXPECT_EQ(p.channel, q.channel);
            EXPECT_EQ(p.interpolation, q.interpolation);
            EXPECT_EQ(p.components, q.components);
            ASSERT_EQ(p.times.size(), q.times.size());
            expectNearVec(p.times.data(), q.times.data(), p.times.size(), 1e-6f, "times");
            ASSERT_EQ(p.values.size(), q.values.size());
            expectNearVec(p.values.data(), q.values.data(), p.values.size(), tol, "values");
        }
    }
}

// World-space boxes at rest and through the first clip.
void expectSameBoundsThroughTheClip(const Scene& a, const Scene& b, float relative) {
    expectSameBounds(boundsAt(a, -1, 0.0f), boundsAt(b, -1, 0.0f), relative, "rest");
    if (a.animation.clips.empty()) return;
    const float end = a.animation.clips[0].end;
    for (float f : {0.0f, 0.2f, 0.37f, 0.5f, 0.81f, 1.0f}) {
        expectSameBounds(boundsAt(a, 0, f * end), boundsAt(b, 0, f * end), relative,
                         "t = " + std::to_string(f * end));
    }
}

// The tag stream, flat: containers have length 0 and their children follow, so one linear walk
// visits every tag.
struct Tag {
    uint32_t id;
    bool end;
    size_t offset;  // of the payload
    uint32_t length;
};
uint32_t wordAt(const std::vector<uint8_t>& b, size_t at, bool big = false) {
    if (big) return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
std::vector<Tag> walk(const std::vector<uint8_t>& b, bool big = false) {
    std::vector<Tag> tags;
    size_t o = 0;
    while (o + 8 <= b.size()) {
        const uint32_t id = wordAt(b, o, big), length = wordAt(b, o + 4, big);
        Tag t{id & ~pod::kEndTagBit, (id & pod::kEndTagBit) != 0, o + 8, length};
        tags.push_back(t);
        o += 8;
        if (!t.end && !pod::isContainer(t.id)) o += length;
    }
    EXPECT_EQ(o, b.size());
    return tags;
}
std::vector<uint32_t> words(const std::vector<uint8_t>& b, const Tag& t, bool big = false) {
    std::vector<uint32_t> out;
    for (uint32_t k = 0; k + 4 <= t.length; k += 4) out.push_back(wordAt(b, t.offset + k, big));
    return out;
}
std::vector<Tag> leaves(const std::vector<uint8_t>& b, uint32_t id) {
    std::vector<Tag> out;
    for (const Tag& t : walk(b))
        if (t.id == id && !t.end) out.push_back(t);
    return out;
}
// The data type (9000) of every attribute list `list` in file order.
std::vector<uint32_t> listTypes(const std::vector<uint8_t>& b, uint32_t list) {
    std::vector<uint32_t> out;
    bool inside = false;
    for (const Tag& t : walk(b)) {
        if (t.id == list) inside = !t.end;
        if (inside && t.id == pod::DataBlockType && !t.end) out.push_back(wordAt(b, t.offset));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Synthetic scenes

void put(std::vector<uint8_t>& b, const void* p, size_t n) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    b.insert(b.end(), q, q + n);
}
template <typename T>
void putAll(std::vector<uint8_t>& b, std::initializer_list<T> values) {
    for (T v : values) put(b, &v, sizeof v);
}

// One attribute's data for every vertex, element by element.
struct AttrData {
    VertexAttribute attr;
    std::vector<uint8_t> bytes;  // vertices x element size
};
uint32_t elementSize(const VertexAttribute& a) {
    return static_cast<uint32_t>(isPacked(a.type) ? 4 : componentSize(a.type) * a.components);
}
AttrData attr(Semantic semantic, ComponentType type, uint8_t components, bool normalized = false,
              uint8_t set = 0, Swizzle swizzle = Swizzle::Identity) {
    AttrData d;
    d.attr.semantic = semantic;
    d.attr.set = set;
    d.attr.type = type;
    d.attr.components = components;
    d.attr.normalized = normalized;
    d.attr.swizzle = swizzle;
    return d;
}
// One interleaved stream holding `attrs` (offsets aligned to 4, in the given order).
VertexStream interleave(std::vector<AttrData> attrs, uint32_t count) {
    VertexStream s;
    uint32_t cursor = 0;
    for (AttrData& a : attrs) {
        a.attr.offset = cursor;
        cursor += (elementSize(a.attr) + 3) / 4 * 4;
        s.attributes.push_back(a.attr);
    }
    s.stride = cursor;
    s.count = count;
    std::vector<uint8_t> bytes(size_t(cursor) * count, 0xCD);  // padding bytes are copied as they are
    for (const AttrData& a : attrs) {
        const uint32_t size = elementSize(a.attr);
        EXPECT_EQ(a.bytes.size(), size_t(size) * count) << semanticName(a.attr.semantic);
        for (uint32_t v = 0; v < count; ++v)
            std::memcpy(bytes.data() + size_t(v) * cursor + a.attr.offset, a.bytes.data() + size_t(v) * size,
                        size);
    }
    s.bytes = makeOwnedBytes(std::move(bytes));
    return s;
}
IndexData indices16(const std::vector<uint16_t>& values) {
    IndexData d;
    d.type = ComponentType::UInt16;
    d.count = static_cast<uint32_t>(values.size());
    std::vector<uint8_t> b;
    for (uint16_t v : values) put(b, &v, 2);
    d.bytes = makeOwnedBytes(std::move(b));
    return d;
}

const glm::mat4 kPodObject = glm::rotate(glm::mat4(1.0f), glm::radians(-90.0f), glm::vec3(1, 0, 0));

// A grid of (n+1) x (n+1) vertices in x/z with a bump in y; float positions, normals and UVs.
struct Grid {
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::vec2> uvs;
    std::vector<uint16_t> triangles;
};
Grid makeGrid(int n) {
    Grid g;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
            const float x = float(j) / n * 4.0f - 2.0f, z = float(i) / n * 3.0f - 1.0f;
            const float y = 0.5f * std::sin(x) * std::cos(z);
            g.positions.push_back({x, y, z});
            g.normals.push_back(glm::normalize(
                glm::vec3(-0.5f * std::cos(x) * std::cos(z), 1.0f, 0.5f * std::sin(x) * std::sin(z))));
            g.uvs.push_back({float(j) / n, float(i) / n});
        }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const uint16_t a = uint16_t(i * (n + 1) + j), b = uint16_t(a + n + 1);
            g.triangles.insert(g.triangles.end(),
                               {a, b, uint16_t(a + 1), uint16_t(a + 1), b, uint16_t(b + 1)});
        }
    return g;
}

AttrData floats3(Semantic s, const std::vector<glm::vec3>& v) {
    AttrData d = attr(s, ComponentType::Float32, 3);
    for (const glm::vec3& p : v) put(d.bytes, &p[0], 12);
    return d;
}
AttrData floats2(Semantic s, const std::vector<glm::vec2>& v, uint8_t set = 0) {
    AttrData d = attr(s, ComponentType::Float32, 2, false, set);
    for (const glm::vec2& p : v) put(d.bytes, &p[0], 8);
    return d;
}

// A scene in POD order: mesh node "grid" (under "root"), a spot light and a camera (with the
// reader's object transform, so nothing is folded), a material with a texture.
Scene gridScene(std::vector<AttrData> attrs, uint32_t vertices, const std::vector<uint16_t>& triangles) {
    Scene s;
    s.format = "test";
    s.ambient = {0.1f, 0.2f, 0.3f};
    s.clearColor = {0.5f, 0.25f, 0.125f};
    Mesh m;
    m.vertexCount = vertices;
    m.streams.push_back(interleave(std::move(attrs), vertices));
    m.indices = indices16(triangles);
    Submesh sub;
    sub.indexCount = m.indices.count;
    m.submeshes.push_back(sub);
    s.meshes.push_back(std::move(m));
    Material mat;
    mat.name = "painted";
    mat.ambient = {0.1f, 0.1f, 0.1f};
    mat.diffuse = {0.5f, 0.25f, 1.0f};
    mat.specular = {0.25f, 0.25f, 0.25f};
    mat.shininess = 12.0f;
    mat.texture(TextureSlot::Diffuse).texture = 0;
    s.materials.push_back(mat);
    s.textures.push_back({"grid.png", "grid.png", {}});
    Light spot;
    spot.type = LightType::Spot;
    spot.color = {1.0f, 0.5f, 0.25f};
    spot.linearAttenuation = 0.125f;
    spot.outerCone = 0.75f;
    spot.falloffExponent = 2.0f;
    spot.targetNode = 0;
    s.lights.push_back(spot);
    Camera cam;
    cam.yfov = 0.8f;
    cam.nearZ = 0.5f;
    cam.farZ = 250.0f;
    cam.targetNode = 0;
    s.cameras.push_back(cam);
    auto add = [&](const char* name, int32_t parent, NodeKind kind, int32_t object, glm::vec3 t) {
        Node n;
        n.name = name;
        n.parent = parent;
        n.kind = kind;
        n.object = object;
        n.local.translation = t;
        if (kind == NodeKind::Light || kind == NodeKind::Camera) n.objectTransform = kPodObject;
        s.nodes.push_back(n);
    };
    add("grid", 3, NodeKind::Mesh, 0, {0.0f, 1.0f, 0.0f});
    s.nodes[0].materials = {0};
    add("spot", -1, NodeKind::Light, 0, {0.0f, 10.0f, 0.0f});
    add("camera", -1, NodeKind::Camera, 0, {0.0f, 2.0f, 12.0f});
    add("root", -1, NodeKind::Empty, -1, {0.5f, 0.0f, 0.25f});
    s.nodes[1].local.rotation = glm::angleAxis(0.5f, glm::vec3(1, 0, 0));
    return s;
}

Scene floatGridScene(int n = 6) {
    Grid g = makeGrid(n);
    return gridScene({floats3(Semantic::Position, g.positions), floats3(Semantic::Normal, g.normals),
                      floats2(Semantic::TexCoord, g.uvs)},
                     static_cast<uint32_t>(g.positions.size()), g.triangles);
}

// Write, read back clean, compare, and write again: the same bytes.
std::unique_ptr<Scene> roundTrip(const Scene& scene, const PodWriteOptions& options = {}, float tol = 0.0f,
                                 bool objectNames = false, std::vector<uint8_t>* written = nullptr) {
    std::vector<uint8_t> bytes = writeOk(scene, options);
    std::unique_ptr<Scene> back = readClean(bytes);
    if (!back) return back;
    expectSameScene(scene, *back, tol, objectNames);
    expectSameBoundsThroughTheClip(scene, *back, 1e-5f);
    EXPECT_TRUE(writeOk(*back, options) == bytes) << "writing the scene read back gives other bytes";
    if (written) *written = bytes;
    return back;
}

// ---------------------------------------------------------------------------------------------
// Sample files

std::vector<std::filesystem::path> sampleFiles() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::modelsDir() / "pod"))
        if (entry.path().extension() == ".pod") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST(PodWriter, EverySampleFileRoundTrips) {
    ESVIEW_REQUIRE_MODELS("pod");
    const std::vector<std::filesystem::path> files = sampleFiles();
    ASSERT_FALSE(files.empty());
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        LoadResult original = loadSceneFile(path.string());
        ASSERT_TRUE(original.scene) << problems(original);
        const Scene& a = *original.scene;
        const bool fixed = reportHas(a, "fixed-point file");
        for (int variant = 0; variant < 4; ++variant) {
            SCOPED_TRACE("variant " + std::to_string(variant));
            PodWriteOptions options;
            options.fixedPoint = fixed;
            options.interleave = (variant & 1) == 0;
            options.indexedAnimation = (variant & 2) != 0;
            std::vector<std::string> notes;
            const std::vector<uint8_t> bytes = writeOk(a, options, &notes);
            EXPECT_TRUE(notes.empty()) << notes.front();
            std::unique_ptr<Scene> b = readClean(bytes);
            ASSERT_TRUE(b);
            expectSameScene(a, *b, 0.0f);
            expectSameBoundsThroughTheClip(a, *b, 1e-6f);
            if (!a.animation.clips.empty()) {
                // Between frames too: the tracks interpolate the same way.
                const float frame = 1.0f / a.animation.fps;
                expectSameBounds(boundsAt(a, 0, 2.5f * frame), boundsAt(*b, 0, 2.5f * frame), 1e-6f,
                                 "frame 2.5");
            }
            // write -> read -> write gives the same bytes.
            EXPECT_TRUE(writeOk(*b, options) == bytes);
            // Interleaved: one stream per mesh; separate: one per attribute, tightly packed.
            for (const Mesh& m : b->meshes) {
                size_t attributes = 0;
                for (const VertexStream& s : m.streams) attributes += s.attributes.size();
                if (options.interleave) {
                    EXPECT_EQ(m.streams.size(), attributes > 0 ? 1u : 0u);
                } else {
                    EXPECT_EQ(m.streams.size(), attributes);
                    for (const VertexStream& s : m.streams) EXPECT_EQ(s.stride, elementSize(s.attributes[0]));
                }
            }
            if (options.indexedAnimation && !a.animation.clips.empty()) {
                EXPECT_FALSE(leaves(bytes, pod::AnimationPositionIndex).empty());
            }
        }
    }
}

TEST(PodWriter, SampleWithUnusedScaleFloatsAndOldNodeBlocksWritesTheNewFormat) {
    ESVIEW_REQUIRE_MODELS("pod");
    // Old node format (5004-5006, no flags) comes back as flagged animation arrays; the 3ds Max
    // scale-axis floats 3-6 (man.pod) are written as zeros: no reader uses them.
    for (const char* name : {"oolong/oolong_model_float_noninterleaved.pod", "cocos3d/cocos3d_man.pod"}) {
        LoadResult r = loadSceneFile((test::modelsDir() / "pod" / name).string());
        ASSERT_TRUE(r.scene);
        const std::vector<uint8_t> bytes = writeOk(*r.scene);
        EXPECT_TRUE(leaves(bytes, pod::NodePosition).empty());
        EXPECT_EQ(leaves(bytes, pod::AnimationFlags).size(), r.scene->nodes.size());
        for (const Tag& t : leaves(bytes, pod::AnimationScale)) {
            const std::vector<uint32_t> w = words(bytes, t);
            ASSERT_EQ(w.size() % 7, 0u);
            for (size_t k = 0; k < w.size(); k += 7)
                for (size_t f = 3; f < 7; ++f) EXPECT_EQ(w[k + f], 0u);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Synthetic fixtures

TEST(PodWriter, FloatGridWithCameraLightAndMaterialRoundTrips) {
    Scene s = floatGridScene();
    std::vector<uint8_t> bytes;
    std::unique_ptr<Scene> b = roundTrip(s, {}, 0.0f, false, &bytes);
    ASSERT_TRUE(b);
    // Interleaved copy of the stream as it is, padding included; the spot light's target is node 0.
    EXPECT_EQ(b->meshes[0].streams.size(), 1u);
    EXPECT_EQ(b->meshes[0].streams[0].stride, s.meshes[0].streams[0].stride);
    EXPECT_EQ(b->lights[0].targetNode, 0);
    EXPECT_EQ(b->nodes[0].parent, 3);
    EXPECT_EQ(b->meshes[0].name, "grid");  // POD meshes take their node's name
    EXPECT_TRUE(reportHas(*b, "exported by: esview"));
}

TEST(PodWriter, TriangleStripsKeepTheirLengths) {
    // A ribbon of 8 vertices: strip 0 has 4 triangles (6 indices), strip 1 has 2 (4 indices).
    std::vector<glm::vec3> p;
    for (int i = 0; i < 8; ++i) p.push_back({float(i / 2), float(i % 2), 0.25f * float(i)});
    Scene s = gridScene({floats3(Semantic::Position, p)}, 8, {0, 1, 2, 3, 4, 5, 4, 5, 6, 7});
    s.meshes[0].submeshes[0].primitive = Primitive::TriangleStrip;
    s.meshes[0].submeshes[0].stripLengths = {4, 2};
    std::vector<uint8_t> bytes;
    std::unique_ptr<Scene> b = roundTrip(s, {}, 0.0f, false, &bytes);
    ASSERT_TRUE(b);
    const Submesh& sub = b->meshes[0].submeshes[0];
    EXPECT_EQ(sub.primitive, Primitive::TriangleStrip);
    EXPECT_EQ(sub.stripLengths, (std::vector<uint32_t>{4, 2}));
    EXPECT_EQ(triangleCount(b->meshes[0]), 6u);
    ASSERT_EQ(leaves(bytes, pod::NumFaces).size(), 1u);
    EXPECT_EQ(words(bytes, leaves(bytes, pod::NumFaces)[0]), (std::vector<uint32_t>{6}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::NumStrips)[0]), (std::vector<uint32_t>{2}));

    // Non-indexed: the strip runs over the vertices in order.
    Scene flat = s;
    flat.meshes[0].indices = IndexData{};
    flat.meshes[0].submeshes[0].indexCount = 8;
    flat.meshes[0].submeshes[0].stripLengths = {6};
    std::unique_ptr<Scene> c = roundTrip(flat);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->meshes[0].indices.count, 0u);
    EXPECT_EQ(c->meshes[0].submeshes[0].stripLengths, (std::vector<uint32_t>{6}));

    // A strip without lengths is one strip.
    Scene single = s;
    single.meshes[0].submeshes[0].stripLengths.clear();
    std::vector<std::string> notes;
    std::unique_ptr<Scene> d = readClean(writeOk(single, {}, &notes));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->meshes[0].submeshes[0].stripLengths, (std::vector<uint32_t>{8}));
    EXPECT_TRUE(has(notes, "one strip of 8 triangles"));
    expectSameBounds(boundsAt(single, -1, 0), boundsAt(*d, -1, 0), 0.0f, "single strip");
}

TEST(PodWriter, PackedPositionsWithAnUnpackMatrix) {
    // Positions quantised to normalised shorts in their box; the unpack matrix maps them back.
    Grid g = makeGrid(12);
    Bounds box;
    for (glm::vec3& p : g.positions) {
        p = p * glm::vec3(2.0f, 5.0f, 7.0f) + glm::vec3(100.0f, -20.0f, 3.0f);
        box.add(p);
    }
    const glm::vec3 centre = 0.5f * (box.min + box.max), half = 0.5f * (box.max - box.min);
    AttrData packed = attr(Semantic::Position, ComponentType::Int16, 3, true);
    for (const glm::vec3& p : g.positions) {
        const glm::vec3 q = (p - centre) / half * 32767.0f;
        putAll<int16_t>(packed.bytes,
                        {int16_t(std::lround(q.x)), int16_t(std::lround(q.y)), int16_t(std::lround(q.z))});
    }
    const uint32_t count = static_cast<uint32_t>(g.positions.size());
    Scene quantised = gridScene({packed, floats3(Semantic::Normal, g.normals)}, count, g.triangles);
    quantised.meshes[0].positionUnpack = glm::scale(glm::translate(glm::mat4(1.0f), centre), half);
    Scene original = gridScene(
        {floats3(Semantic::Position, g.positions), floats3(Semantic::Normal, g.normals)}, count, g.triangles);

    std::vector<uint8_t> bytes;
    std::unique_ptr<Scene> b = roundTrip(quantised, {}, 0.0f, false, &bytes);
    ASSERT_TRUE(b);
    const VertexAttribute* pos = findAttribute(b->meshes[0], Semantic::Position, 0, nullptr);
    ASSERT_NE(pos, nullptr);
    EXPECT_EQ(pos->type, ComponentType::Int16);
    EXPECT_TRUE(pos->normalized);
    EXPECT_EQ(listTypes(bytes, pod::VertexList), (std::vector<uint32_t>{12}));  // ShortNorm
    EXPECT_EQ(leaves(bytes, pod::UnpackMatrix).size(), 1u);
    expectNear(b->meshes[0].positionUnpack, quantised.meshes[0].positionUnpack, 0.0f, "unpack");
    // World bounds match the float original within one quantisation step.
    const float step = glm::length(half) / 32767.0f;
    const Bounds want = boundsAt(original, -1, 0), got = boundsAt(*b, -1, 0);
    expectNear(got.min, want.min, step, "min");
    expectNear(got.max, want.max, step, "max");
    EXPECT_GT(want.max.x - want.min.x, 7.0f);
}

TEST(PodWriter, Dec3nNormals) {
    Grid g = makeGrid(5);
    AttrData dec = attr(Semantic::Normal, ComponentType::Int2_10_10_10, 3, true);
    for (const glm::vec3& n : g.normals) {
        uint32_t word = 0;
        for (int c = 0; c < 3; ++c) word |= (uint32_t(std::lround(n[c] * 511.0f)) & 0x3FFu) << (10 * c);
        put(dec.bytes, &word, 4);
    }
    Scene s = gridScene({floats3(Semantic::Position, g.positions), dec},
                        static_cast<uint32_t>(g.positions.size()), g.triangles);
    std::vector<uint8_t> bytes;
    std::unique_ptr<Scene> b = roundTrip(s, {}, 0.0f, false, &bytes);
    ASSERT_TRUE(b);
    EXPECT_EQ(listTypes(bytes, pod::NormalList), (std::vector<uint32_t>{8}));  // DEC3N, one word per vertex
    const VertexAttribute* n = findAttribute(b->meshes[0], Semantic::Normal, 0, nullptr);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->type, ComponentType::Int2_10_10_10);
    EXPECT_EQ(n->components, 3);
    const std::vector<float> values = attributeValues(b->meshes[0], Semantic::Normal, 0);
    for (size_t v = 0; v < g.normals.size(); ++v)
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(values[v * 4 + c], g.normals[v][c], 1.0f / 511.0f);
}

TEST(PodWriter, RgbaAndArgbColoursReadBackAsTheSameRgba) {
    Grid g = makeGrid(3);
    const uint32_t count = static_cast<uint32_t>(g.positions.size());
    std::vector<std::array<uint8_t, 4>> rgba;
    for (uint32_t v = 0; v < count; ++v)
        rgba.push_back({uint8_t(v * 13), uint8_t(255 - v * 7), uint8_t(v * 29 + 5), uint8_t(100 + v)});
    // POD RGBA: R in the top byte of a little-endian word, memory a,b,g,r.
    AttrData podRgba = attr(Semantic::Color, ComponentType::UInt8, 4, true, 0, Swizzle::ABGR);
    // POD ARGB / D3DCOLOR: memory b,g,r,a.
    AttrData podArgb = attr(Semantic::Color, ComponentType::UInt8, 4, true, 0, Swizzle::BGRA);
    // Plain bytes r,g,b,a: written as ABGR (18) with packedBytes, else as 4 normalised bytes.
    AttrData plain = attr(Semantic::Color, ComponentType::UInt8, 4, true);
    for (const auto& c : rgba) {
        putAll<uint8_t>(podRgba.bytes, {c[3], c[2], c[1], c[0]});
        putAll<uint8_t>(podArgb.bytes, {c[2], c[1], c[0], c[3]});
        putAll<uint8_t>(plain.bytes, {c[0], c[1], c[2], c[3]});
    }
    Scene s = gridScene({floats3(Semantic::Position, g.positions), podRgba}, count, g.triangles);
    s.meshes.push_back(
        gridScene({floats3(Semantic::Position, g.positions), podArgb}, count, g.triangles).meshes[0]);
    s.meshes.push_back(
        gridScene({floats3(Semantic::Position, g.positions), plain}, count, g.triangles).meshes[0]);
    for (int m = 1; m <= 2; ++m) {
        Node n = s.nodes[0];
        n.name = "grid " + std::to_string(m);
        n.object = m;
        s.nodes.insert(s.nodes.begin() + m, n);
    }
    for (Node& n : s.nodes)
        if (n.parent == 3) n.parent = 5;  // "root" moved behind the two new mesh nodes
    s.lights[0].targetNode = 0;
    for (bool packedBytes : {false, true}) {
        SCOPED_TRACE(packedBytes ? "packed bytes" : "bytes");
        PodWriteOptions options;
        options.packedBytes = packedBytes;
        std::vector<uint8_t> bytes;
        std::unique_ptr<Scene> b = roundTrip(s, options, 0.0f, false, &bytes);
        ASSERT_TRUE(b);
        EXPECT_EQ(listTypes(bytes, pod::VertexColourList),
                  (std::vector<uint32_t>{4, 5, packedBytes ? 18u : 15u}));
        for (size_t m = 0; m < 3; ++m) {
            const std::vector<float> values = attributeValues(b->meshes[m], Semantic::Color, 0);
            ASSERT_EQ(values.size(), size_t(count) * 4);
            for (uint32_t v = 0; v < count; ++v)
                for (int c = 0; c < 4; ++c)
                    EXPECT_FLOAT_EQ(values[v * 4 + c], rgba[v][c] / 255.0f)
                        << "mesh " << m << " vertex " << v;
        }
    }
}

TEST(PodWriter, EveryComponentTypeTheReaderMaps) {
    // One attribute per stored type the reader maps, in one interleaved mesh and as separate lists.
    Grid g = makeGrid(2);
    const uint32_t count = static_cast<uint32_t>(g.positions.size());
    std::vector<AttrData> attrs = {floats3(Semantic::Position, g.positions)};
    struct Kind {
        ComponentType type;
        bool normalized;
        uint8_t components;
        uint32_t podType;
    };
    const Kind kinds[] = {{ComponentType::Float32, false, 2, 1},  {ComponentType::Int32, false, 2, 2},
                          {ComponentType::UInt16, false, 2, 3},   {ComponentType::Fixed16_16, false, 2, 9},
                          {ComponentType::UInt8, false, 2, 10},   {ComponentType::Int16, false, 2, 11},
                          {ComponentType::Int16, true, 2, 12},    {ComponentType::Int8, false, 2, 13},
                          {ComponentType::Int8, true, 2, 14},     {ComponentType::UInt8, true, 2, 15},
                          {ComponentType::UInt16, true, 2, 16},   {ComponentType::UInt32, false, 2, 17},
                          {ComponentType::Float16, false, 2, 19}, {ComponentType::UInt8, false, 4, 7}};
    std::vector<uint32_t> expectedUvTypes;
    uint8_t set = 0;
    for (const Kind& k : kinds) {
        AttrData d = attr(Semantic::TexCoord, k.type, k.components, k.normalized, set++);
        const size_t size = componentSize(k.type);
        for (uint32_t v = 0; v < count; ++v)
            for (int c = 0; c < k.components; ++c) {
                uint32_t bits = v * 2654435761u + uint32_t(c) * 40503u + set;  // arbitrary but fixed
                if (k.type == ComponentType::Float32) {
                    const float f = float(v) * 0.25f + float(c);
                    std::memcpy(&bits, &f, 4);
                }
                if (k.type == ComponentType::Float16) bits = 0x3C00u + v;  // 1.0 and up
                put(d.bytes, &bits, size);
            }
        attrs.push_back(d);
        expectedUvTypes.push_back(k.podType == 7 ? 10 : k.podType);
    }
    Scene s = gridScene(attrs, count, g.triangles);
    for (bool interleaved : {true, false}) {
        SCOPED_TRACE(interleaved ? "interleaved" : "separate");
        PodWriteOptions options;
        options.interleave = interleaved;
        std::vector<uint8_t> bytes;
        std::unique_ptr<Scene> b = roundTrip(s, options, 0.0f, false, &bytes);
        ASSERT_TRUE(b);
        EXPECT_EQ(listTypes(bytes, pod::UvwList), expectedUvTypes);
        options.packedBytes = true;
        std::vector<uint32_t> packedTypes = expectedUvTypes;
        packedTypes.back() = 7;  // UBYTE4
        bytes = writeOk(s, options);
        EXPECT_EQ(listTypes(bytes, pod::UvwList), packedTypes);
        b = readClean(bytes);
        ASSERT_TRUE(b);
        expectSameScene(s, *b, 0.0f, false);
    }
}

TEST(PodWriter, FixedPointSceneAndFixedVertexData) {
    Grid g = makeGrid(4);
    AttrData fixedPositions = attr(Semantic::Position, ComponentType::Fixed16_16, 3);
    for (const glm::vec3& p : g.positions)
        for (int c = 0; c < 3; ++c) {
            const int32_t v = static_cast<int32_t>(std::lround(p[c] * 65536.0f));
            put(fixedPositions.bytes, &v, 4);
        }
    Scene s = gridScene({fixedPositions, floats3(Semantic::Normal, g.normals)},
                        static_cast<uint32_t>(g.positions.size()), g.triangles);
    s.nodes[0].local.rotation = glm::normalize(glm::quat(0.9f, 0.1f, 0.3f, -0.2f));
    s.nodes[0].local.scale = {1.5f, 2.0f, 0.75f};
    PodWriteOptions options;
    options.fixedPoint = true;
    std::vector<uint8_t> bytes = writeOk(s, options);
    EXPECT_EQ(words(bytes, leaves(bytes, pod::SceneFlags).at(0)), (std::vector<uint32_t>{1}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::FieldOfView).at(0)),
              (std::vector<uint32_t>{uint32_t(std::lround(0.8 * 65536.0))}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::FarPlane).at(0)), (std::vector<uint32_t>{250u << 16}));
    EXPECT_EQ(listTypes(bytes, pod::VertexList), (std::vector<uint32_t>{9}));
    std::unique_ptr<Scene> b = readClean(bytes);
    ASSERT_TRUE(b);
    EXPECT_TRUE(reportHas(*b, "fixed-point file"));
    expectSameScene(s, *b, 1.0f / 65536.0f, false);
    expectSameBoundsThroughTheClip(s, *b, 1e-4f);
    // Values that fit 16.16 exactly come back exactly; the second write gives the same bytes.
    EXPECT_EQ(b->cameras[0].farZ, 250.0f);
    EXPECT_TRUE(writeOk(*b, options) == bytes);

    // A value beyond 16.16 is refused.
    Scene far = s;
    far.cameras[0].farZ = 40000.0f;
    std::vector<uint8_t> out;
    std::string error;
    EXPECT_FALSE(writePod(far, options, out, error));
    EXPECT_NE(error.find("does not fit 16.16"), std::string::npos) << error;
}

// A 3-bone chain skinning a column of quads, two bone batches, rotations animated at every frame.
Scene skinnedColumn(bool batches) {
    std::vector<glm::vec3> positions;
    std::vector<uint16_t> triangles;
    AttrData bones = attr(Semantic::BoneIndices, ComponentType::UInt8, 2);
    AttrData weights = attr(Semantic::BoneWeights, ComponentType::Float32, 2);
    // Rows 0-3 use bones 0,1 (batch 0); rows 3-6 use bones 1,2 (batch 1); row 3 is duplicated.
    uint16_t base = 0;
    for (int batch = 0; batch < 2; ++batch) {
        for (int row = batch * 3; row <= batch * 3 + 3; ++row) {
            for (int side = 0; side < 2; ++side) {
                positions.push_back({side ? 0.5f : -0.5f, float(row) * 0.5f, 0.0f});
                const float y = float(row) / 3.0f;  // 0..2: bone coordinate
                const int a = batch, b = a + 1;     // the batch's two bones, globally
                const float wb = std::clamp(y - float(a), 0.0f, 1.0f);
                const int local = batches ? batch : 0;
                putAll<uint8_t>(bones.bytes, {uint8_t(a - local), uint8_t(b - local)});
                putAll<float>(weights.bytes, {1.0f - wb, wb});
            }
        }
        for (int q = 0; q < 3; ++q) {
            const uint16_t v = uint16_t(base + q * 2);
            triangles.insert(triangles.end(), {v, uint16_t(v + 1), uint16_t(v + 2), uint16_t(v + 1),
                                               uint16_t(v + 3), uint16_t(v + 2)});
        }
        base = uint16_t(base + 8);
    }
    const uint32_t count = static_cast<uint32_t>(positions.size());
    Scene s = gridScene({floats3(Semantic::Position, positions), bones, weights}, count, triangles);
    Mesh& m = s.meshes[0];
    if (batches) {
        m.boneBatches = {{{0, 1}, 0, 6}, {{1, 2}, 6, 6}};
        m.boneIndicesBatchLocal = true;
        m.maxBonesPerBatch = 2;
    }
    // Bones after "root" (node 3): bone0 under root, bone1 under bone0, bone2 under bone1.
    for (int b = 0; b < 3; ++b) {
        Node n;
        n.name = "bone" + std::to_string(b);
        n.parent = b == 0 ? 3 : 3 + b;
        n.kind = NodeKind::Bone;
        n.local.translation = {0.0f, b == 0 ? 0.0f : 1.0f, 0.0f};
        s.nodes.push_back(n);
    }
    s.nodes[0].skin = 0;
    s.nodes[0].local.translation = {0.25f, 0.0f, 0.0f};
    Pose rest;
    evaluatePose(s, -1, 0.0f, rest);
    Skin skin;
    skin.name = "grid";
    for (int b = 0; b < 3; ++b) {
        skin.joints.push_back(4 + b);
        skin.inverseBind.push_back(glm::inverse(rest.world[4 + b]) * rest.world[0]);
    }
    s.skins.push_back(skin);
    Clip clip;
    clip.name = "Take 001";
    const int frames = 16;
    for (int b = 0; b < 3; ++b) {
        Track t;
        t.node = 4 + b;
        t.channel = Channel::Rotation;
        t.components = 4;
        for (int f = 0; f < frames; ++f) {
            const glm::quat q =
                glm::angleAxis(0.1f * float(f) * float(b + 1) * (f == 0 ? 0.0f : 1.0f), glm::vec3(0, 0, 1));
            t.times.push_back(float(f) / 30.0f);
            t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
        }
        clip.tracks.push_back(t);
    }
    clip.end = float(frames - 1) / 30.0f;
    s.animation.clips.push_back(clip);
    s.animation.frames = frames;
    return s;
}

TEST(PodWriter, BoneBatchesAndTheirSkin) {
    Scene s = skinnedColumn(true);
    std::vector<uint8_t> bytes;
    std::unique_ptr<Scene> b = roundTrip(s, {}, 0.0f, false, &bytes);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->skins.at(0).name, "grid");  // POD skins are named after their mesh node
    // Batch bone lists hold node indices, padded to the maximum; offsets in triangles.
    EXPECT_EQ(words(bytes, leaves(bytes, pod::BoneBatchIndexList).at(0)),
              (std::vector<uint32_t>{4, 5, 5, 6}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::NumBoneIndicesPerBatch).at(0)), (std::vector<uint32_t>{2, 2}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::BoneOffsetPerBatch).at(0)), (std::vector<uint32_t>{0, 6}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::MaxNumBonesPerBatch).at(0)), (std::vector<uint32_t>{2}));
    EXPECT_EQ(words(bytes, leaves(bytes, pod::NumBoneBatches).at(0)), (std::vector<uint32_t>{2}));
    // The skinned vertices follow the bones the same way at every frame, and between frames.
    for (float t : {0.0f, 0.1f, 0.2f, 0.35f, 0.5f}) {
        Pose pa, pb;
        evaluatePose(s, 0, t, pa);
        evaluatePose(*b, 0, t, pb);
        std::vector<glm::vec3> va, vb;
        worldVertices(s, pa, 0, va);
        worldVertices(*b, pb, 0, vb);
        ASSERT_EQ(va.size(), vb.size());
        for (size_t v = 0; v < va.size(); ++v)
            expectNear(va[v], vb[v], 1e-5f, "vertex " + std::to_string(v) + " at " + std::to_string(t));
    }
    // The animation bends the column: the bounds move.
    EXPECT_GT(glm::length(boundsAt(*b, 0, 0.5f).max - boundsAt(*b, 0, 0.0f).max), 0.1f);

    // A skin without batches becomes one batch of all its joints.
    Scene flat = skinnedColumn(false);
    std::vector<std::string> notes;
    std::unique_ptr<Scene> c = readClean(writeOk(flat, {}, &notes));
    ASSERT_TRUE(c);
    EXPECT_TRUE(has(notes, "one batch of its 3 joints"));
    ASSERT_EQ(c->meshes[0].boneBatches.size(), 1u);
    EXPECT_EQ(c->meshes[0].boneBatches[0].bones, (std::vector<int32_t>{0, 1, 2}));
    EXPECT_EQ(c->skins.at(0).joints, (std::vector<int32_t>{4, 5, 6}));
    for (float t : {0.0f, 0.3f, 0.5f})
        expectSameBounds(boundsAt(flat, 0, t), boundsAt(*c, 0, t), 1e-5f, "one batch");
}

TEST(PodWriter, IndexedAnimationStoresEachValueOnce) {
    Scene s = floatGridScene(2);
    // Node "root" ping-pongs between three positions and two rotations; a matrix node steps.
    Clip clip;
    clip.name = "Take 001";
    const int frames = 21;
    Track t, r, sc;
    t.node = r.node = sc.node = 3;
    t.channel = Channel::Translation;
    r.channel = Channel::Rotation;
    r.components = 4;
    sc.channel = Channel::Scale;
    for (int f = 0; f < frames; ++f) {
        const int phase = f % 4 == 3 ? 1 : f % 4;  // 0 1 2 1 0 1 2 1 ...
        t.times.push_back(float(f) / 30.0f);
        r.times.push_back(float(f) / 30.0f);
        sc.times.push_back(float(f) / 30.0f);
        t.values.insert(t.values.end(), {0.5f + phase, 0.0f, 0.25f});
        const glm::quat q = glm::angleAxis(f % 2 ? 0.5f : 0.0f, glm::vec3(0, 1, 0));
        r.values.insert(r.values.end(), {q.x, q.y, q.z, q.w});
        sc.values.insert(sc.values.end(), {1.0f, 1.0f + float(f % 2), 1.0f});
    }
    Node stepper;
    stepper.name = "stepper";
    stepper.local.useMatrix = true;
    s.nodes.push_back(stepper);
    Track m;
    m.node = 4;
    m.channel = Channel::Matrix;
    m.interpolation = Interpolation::Step;
    m.components = 16;
    for (int f = 0; f < frames; ++f) {
        const glm::mat4 mm = glm::translate(glm::mat4(1.0f), glm::vec3(float(f / 10), 0.0f, 0.0f));
        m.times.push_back(float(f) / 30.0f);
        m.values.insert(m.values.end(), glm::value_ptr(mm), glm::value_ptr(mm) + 16);
    }
    clip.tracks = {t, r, sc, m};
    clip.end = float(frames - 1) / 30.0f;
    s.animation.clips.push_back(clip);
    s.animation.frames = frames;

    std::vector<uint8_t> plain;
    std::unique_ptr<Scene> a = roundTrip(s, {}, 0.0f, false, &plain);
    PodWriteOptions options;
    options.indexedAnimation = true;
    std::vector<uint8_t> indexed;
    std::unique_ptr<Scene> b = roundTrip(s, options, 0.0f, false, &indexed);
    ASSERT_TRUE(a && b);
    EXPECT_LT(indexed.size(), plain.size());
    // 3 distinct positions, 2 rotations, 2 scales, 2 matrices; one float offset per frame.
    const auto position = leaves(indexed, pod::AnimationPosition),
               positionIndex = leaves(indexed, pod::AnimationPositionIndex);
    ASSERT_EQ(positionIndex.size(), 1u);
    EXPECT_EQ(words(indexed, positionIndex[0]).size(), size_t(frames));
    EXPECT_EQ(words(indexed, positionIndex[0])[3], 3u);  // frame 3 repeats frame 1: offset 3 floats
    size_t positionFloats = 0;
    for (const Tag& tag : position) positionFloats = std::max<size_t>(positionFloats, tag.length / 4);
    EXPECT_EQ(positionFloats, 9u);
    EXPECT_EQ(words(indexed, leaves(indexed, pod::AnimationRotationIndex).at(0)).size(), size_t(frames));
    EXPECT_EQ(words(indexed, leaves(indexed, pod::AnimationScaleIndex).at(0))[1], 7u);  // 7 floats per scale
    EXPECT_EQ(words(indexed, leaves(indexed, pod::AnimationMatrixIndex).at(0))[10], 16u);
    expectSameScene(*a, *b, 0.0f);
}

TEST(PodWriter, BigEndianFileIsRefusedWithOneClearLine) {
    Scene s = skinnedColumn(true);
    PodWriteOptions options;
    options.bigEndian = true;
    const std::vector<uint8_t> big = writeOk(s, options);
    const std::vector<uint8_t> little = writeOk(s);
    ASSERT_EQ(big.size(), little.size());
    EXPECT_EQ(wordAt(big, 0), pod::kEndiannessMismatch);  // the version tag, byte-swapped
    LoadResult r = readPod(big);
    EXPECT_FALSE(r.scene);
    ASSERT_EQ(r.problems.size(), 1u);
    const std::string line = r.problems[0].format();
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_NE(line.find("big-endian"), std::string::npos) << line;
    EXPECT_EQ(r.problems[0].offset, 0);
    // The same tags; every 32-bit value and every vertex component swapped.
    const std::vector<Tag> lt = walk(little), bt = walk(big, true);
    ASSERT_EQ(lt.size(), bt.size());
    bool inIndexList = false;
    for (size_t i = 0; i < lt.size(); ++i) {
        if (lt[i].id == pod::VertexIndexList) inIndexList = !lt[i].end;
        ASSERT_EQ(lt[i].id, bt[i].id);
        ASSERT_EQ(lt[i].length, bt[i].length);
        const uint32_t id = lt[i].id;
        const bool text = id == pod::Version || id == pod::History || id == pod::NodeName ||
                          id == pod::MaterialName || id == pod::TextureName;
        if (lt[i].end || text || id == pod::InterleavedDataList) continue;
        if (id == pod::DataBlockData && inIndexList) continue;  // 16-bit indices: checked below
        EXPECT_EQ(words(little, lt[i]), words(big, bt[i], true)) << "block " << id;
    }
    // Indices: each 16-bit value swapped.
    const Tag lix = [&] {
        bool inside = false;
        for (const Tag& t : lt) {
            if (t.id == pod::VertexIndexList) inside = !t.end;
            if (inside && t.id == pod::DataBlockData && !t.end) return t;
        }
        return Tag{};
    }();
    ASSERT_GT(lix.length, 0u);
    size_t bigIndexAt = 0;
    {
        bool inside = false;
        for (const Tag& t : bt) {
            if (t.id == pod::VertexIndexList) inside = !t.end;
            if (inside && t.id == pod::DataBlockData && !t.end) bigIndexAt = t.offset;
        }
    }
    for (size_t k = 0; k < lix.length; k += 2) {
        EXPECT_EQ(little[lix.offset + k], big[bigIndexAt + k + 1]);
        EXPECT_EQ(little[lix.offset + k + 1], big[bigIndexAt + k]);
    }
    // Interleaved vertex: 3 floats, 2 bytes (not swapped) + 2 padding bytes, 2 floats.
    const Tag li = leaves(little, pod::InterleavedDataList).at(0);
    size_t swappedAt = 0;
    for (const Tag& t : walk(big, true))
        if (t.id == pod::InterleavedDataList && !t.end) swappedAt = t.offset;
    for (size_t v = 0; v < li.length / 24; ++v) {
        const size_t at = v * 24;
        for (size_t f : {size_t(0), size_t(4), size_t(8), size_t(16), size_t(20)})
            EXPECT_EQ(wordAt(little, li.offset + at + f), wordAt(big, swappedAt + at + f, true));
        EXPECT_EQ(little[li.offset + at + 12], big[swappedAt + at + 12]);
        EXPECT_EQ(little[li.offset + at + 13], big[swappedAt + at + 13]);
    }
}

TEST(PodWriter, NonInterleavedStreams) {
    Scene s = skinnedColumn(true);
    PodWriteOptions options;
    options.interleave = false;
    std::vector<uint8_t> bytes;
    std::unique_ptr<Scene> b = roundTrip(s, options, 0.0f, false, &bytes);
    ASSERT_TRUE(b);
    EXPECT_TRUE(leaves(bytes, pod::InterleavedDataList).empty());
    const Mesh& m = b->meshes[0];
    ASSERT_EQ(m.streams.size(), 3u);
    EXPECT_EQ(m.streams[0].stride, 12u);
    EXPECT_EQ(m.streams[1].stride, 2u);
    EXPECT_EQ(m.streams[2].stride, 8u);
    for (const VertexStream& st : m.streams) EXPECT_EQ(st.bytes.size, size_t(st.stride) * m.vertexCount);
}

TEST(PodWriter, CameraFovTrackMaterialsAndSceneValues) {
    Scene s = floatGridScene(2);
    s.metersPerUnit = 0.254f;
    s.animation.fps = 25.0f;
    Material pbr;
    pbr.name = "metal";
    pbr.model = ShadingModel::MetalRough;
    pbr.diffuse = {0.5f, 0.25f, 1.0f};
    pbr.emissive = pbr.diffuse * 0.5f;
    pbr.metallic = 0.75f;
    pbr.roughness = 0.375f;
    pbr.ior = 1.25f;
    pbr.reflectivity = 0.125f;
    pbr.opacity = 0.5f;
    pbr.blend.enabled = true;
    pbr.blend.srcRgb = BlendFactor::SrcAlpha;
    pbr.blend.dstRgb = BlendFactor::OneMinusSrcAlpha;
    pbr.blend.srcAlpha = BlendFactor::ConstantAlpha;
    pbr.blend.dstAlpha = BlendFactor::OneMinusConstantColor;
    pbr.blend.opRgb = BlendOp::ReverseSubtract;
    pbr.blend.opAlpha = BlendOp::Max;
    pbr.blend.constant = {0.25f, 0.5f, 0.75f, 1.0f};
    pbr.effectFile = "effects.pfx";
    pbr.effectName = "Shiny";
    pbr.userData = {1, 2, 3, 250};
    pbr.texture(TextureSlot::Normal).texture = 1;
    pbr.texture(TextureSlot::Metallic).texture = 1;
    pbr.texture(TextureSlot::Roughness).texture = 0;
    pbr.texture(TextureSlot::Specular).texture = 0;
    s.materials.push_back(pbr);
    s.textures.push_back({"normals.pvr", "normals.pvr", {}});
    s.nodes[0].materials = {1};
    Light sun;
    sun.type = LightType::Directional;
    sun.color = {0.5f, 0.5f, 0.5f};
    sun.intensity = 1.0f;
    s.lights.push_back(sun);
    Node sunNode;
    sunNode.name = "sun";
    sunNode.kind = NodeKind::Light;
    sunNode.object = 1;
    sunNode.objectTransform = kPodObject;
    s.nodes.insert(s.nodes.begin() + 2, sunNode);
    for (Node& n : s.nodes)
        if (n.parent == 3) n.parent = 4;
    Clip clip;
    clip.name = "Take 001";
    Track fov;
    fov.node = 3;
    fov.channel = Channel::CameraFov;
    fov.components = 1;
    fov.times = {0.0f, 0.4f, 0.8f};
    fov.values = {0.8f, 1.0f, 0.6f};
    clip.tracks.push_back(fov);
    clip.end = 0.8f;
    s.animation.clips.push_back(clip);
    s.animation.frames = 21;
    PodWriteOptions options;
    options.sceneUserData = {9, 8, 7};
    std::vector<uint8_t> bytes = writeOk(s, options);
    std::unique_ptr<Scene> b = readClean(bytes);
    ASSERT_TRUE(b);
    EXPECT_TRUE(reportHas(*b, "scene user data (3 bytes)"));
    // The FOV keys at frames 0, 10, 20 become one value per frame; the curve is the same.
    ASSERT_EQ(b->animation.clips.size(), 1u);
    ASSERT_EQ(b->animation.clips[0].tracks.size(), 1u);
    const Track& back = b->animation.clips[0].tracks[0];
    EXPECT_EQ(back.channel, Channel::CameraFov);
    EXPECT_EQ(back.times.size(), 21u);
    for (float t : {0.0f, 0.1f, 0.4f, 0.55f, 0.8f}) {
        float x, y;
        sampleTrack(fov, t, &x);
        sampleTrack(back, t, &y);
        EXPECT_NEAR(x, y, 1e-6f) << t;
    }
    Scene expected = s;
    expected.animation.clips[0].tracks[0] = back;  // compared above
    expectSameScene(expected, *b, 0.0f, false);
    EXPECT_TRUE(writeOk(*b, options) == bytes);
    // The emission is an amount of the base colour.
    const auto emission = leaves(bytes, pod::Emission);
    ASSERT_EQ(emission.size(), 1u);
    EXPECT_EQ(words(bytes, emission[0]), (std::vector<uint32_t>{0x3F000000u}));
}

TEST(PodWriter, ObjectTransformsAreFoldedIntoCameraAndLightNodes) {
    // Nodes whose objects look down -Z with +Y up (as the demo builds them), one with a child.
    Scene s = floatGridScene(2);
    for (Node& n : s.nodes) {
        n.objectTransform = glm::mat4(1.0f);
        if (n.kind == NodeKind::Camera)
            n.local.rotation = glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 2, 0)));
    }
    Node child;
    child.name = "camera child";
    child.parent = 2;
    child.local.translation = {1.0f, 2.0f, 3.0f};
    child.local.rotation = glm::angleAxis(0.2f, glm::vec3(0, 0, 1));
    s.nodes.push_back(child);
    s.nodes[0].parent = 4;  // the mesh hangs under the camera's child
    std::vector<std::string> notes;
    std::unique_ptr<Scene> b = readClean(writeOk(s, {}, &notes));
    ASSERT_TRUE(b);
    EXPECT_TRUE(has(notes, "object transforms folded"));
    Pose pa, pb;
    evaluatePose(s, -1, 0.0f, pa);
    evaluatePose(*b, -1, 0.0f, pb);
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        expectNear(pa.objectWorld[i], pb.objectWorld[i], 1e-5f, "object world of node " + std::to_string(i));
        expectNear(b->nodes[i].objectTransform, i == 1 || i == 2 ? kPodObject : glm::mat4(1.0f), 0.0f,
                   "reader's object transform");
    }
    expectSameBounds(boundsAt(s, -1, 0), boundsAt(*b, -1, 0), 1e-5f, "rest");
}

TEST(PodWriter, NodesAreWrittenInPodOrder) {
    // Scene order: root, camera, light, mesh. POD order: mesh, light, camera, root.
    Scene s = floatGridScene(2);
    std::vector<Node> nodes = {s.nodes[3], s.nodes[2], s.nodes[1], s.nodes[0]};
    nodes[3].parent = 0;
    s.nodes = nodes;
    s.lights[0].targetNode = 3;
    s.cameras[0].targetNode = 0;
    std::vector<std::string> notes;
    std::unique_ptr<Scene> b = readClean(writeOk(s, {}, &notes));
    ASSERT_TRUE(b);
    EXPECT_TRUE(has(notes, "nodes reordered"));
    std::vector<std::string> names;
    for (const Node& n : b->nodes) names.push_back(n.name);
    EXPECT_EQ(names, (std::vector<std::string>{"grid", "spot", "camera", "root"}));
    EXPECT_EQ(b->nodes[0].parent, 3);
    EXPECT_EQ(b->lights[0].targetNode, 0);
    EXPECT_EQ(b->cameras[0].targetNode, 3);
    expectSameBounds(boundsAt(s, -1, 0), boundsAt(*b, -1, 0), 0.0f, "rest");
}

TEST(PodWriter, RefusesWhatPodCannotExpress) {
    struct Case {
        const char* what;
        std::function<void(Scene&, PodWriteOptions&)> change;
        const char* message;
    };
    const Case cases[] = {
        {"morph target", [](Scene& s, PodWriteOptions&) { s.meshes[0].morphTargets.resize(1); },
         "morph targets"},
        {"two submeshes",
         [](Scene& s, PodWriteOptions&) { s.meshes[0].submeshes.push_back(s.meshes[0].submeshes[0]); },
         "2 submeshes"},
        {"fan",
         [](Scene& s, PodWriteOptions&) { s.meshes[0].submeshes[0].primitive = Primitive::TriangleFan; },
         "triangle_fan"},
        {"restart", [](Scene& s, PodWriteOptions&) { s.meshes[0].submeshes[0].primitiveRestart = true; },
         "primitive restart"},
        {"double",
         [](Scene& s, PodWriteOptions&) {
             s.meshes[0].streams[0].attributes[1].type = ComponentType::Float64;
         },
         "float64"},
        {"normalised float",
         [](Scene& s, PodWriteOptions&) { s.meshes[0].streams[0].attributes[1].normalized = true; },
         "normalised float32"},
        {"uv set 1 without 0",
         [](Scene& s, PodWriteOptions&) { s.meshes[0].streams[0].attributes[2].set = 1; },
         "numbered 0, 1, 2"},
        {"colour set 1",
         [](Scene& s, PodWriteOptions&) {
             s.meshes[0].streams[0].attributes[1].semantic = Semantic::Color,
             s.meshes[0].streams[0].attributes[1].set = 1;
         },
         "one set"},
        {"ambient light", [](Scene& s, PodWriteOptions&) { s.lights[0].type = LightType::Ambient; },
         "ambient light"},
        {"light range", [](Scene& s, PodWriteOptions&) { s.lights[0].range = 10.0f; }, "range"},
        {"ortho camera", [](Scene& s, PodWriteOptions&) { s.cameras[0].orthographic = true; },
         "orthographic"},
        {"two clips", [](Scene& s, PodWriteOptions&) { s.animation.clips.resize(2); }, "2 clips"},
        {"bezier",
         [](Scene& s, PodWriteOptions&) {
             Clip c;
             Track t;
             t.node = 3;
             t.interpolation = Interpolation::Bezier;
             t.times = {0.0f, 1.0f};
             t.values = {0.5f, 0, 0.25f, 1, 1, 1};
             c.tracks.push_back(t);
             c.end = 1.0f;
             s.animation.clips.push_back(c);
         },
         "non-linear interpolation"},
        {"keys between frames",
         [](Scene& s, PodWriteOptions&) {
             Clip c;
             Track t;
             t.node = 3;
             t.times = {0.0f, 0.51f / 30.0f};
             t.values = {0.5f, 0, 0.25f, 1, 1, 1};
             c.tracks.push_back(t);
             c.end = 1.0f;
             s.animation.clips.push_back(c);
         },
         "keys between frames"},
        {"rest frame off",
         [](Scene& s, PodWriteOptions& o) {
             o.restFrame = false;
             Clip c;
             Track t;
             t.node = 3;
             t.times = {0.0f};
             t.values = {9.0f, 0, 0};
             c.tracks.push_back(t);
             s.animation.clips.push_back(c);
         },
         "rest pose differs"},
        {"visibility",
         [](Scene& s, PodWriteOptions&) {
             Clip c;
             Track t;
             t.node = 3;
             t.channel = Channel::Visibility;
             t.components = 1;
             t.times = {0.0f};
             t.values = {1.0f};
             c.tracks.push_back(t);
             s.animation.clips.push_back(c);
         },
         "visibility tracks"},
        {"hidden node", [](Scene& s, PodWriteOptions&) { s.nodes[3].visible = false; }, "hidden"},
        {"two materials",
         [](Scene& s, PodWriteOptions&) {
             s.nodes[0].materials = {0, 0};
         },
         "2 materials"},
        {"object transform",
         [](Scene& s, PodWriteOptions&) {
             s.nodes[0].objectTransform = glm::scale(glm::mat4(1.0f), glm::vec3(2.0f));
         },
         "object transform"},
        {"camera twice",
         [](Scene& s, PodWriteOptions&) { s.nodes[3].kind = NodeKind::Camera, s.nodes[3].object = 0; },
         "shown by two nodes"},
        {"unlit", [](Scene& s, PodWriteOptions&) { s.materials[0].model = ShadingModel::Unlit; }, "unlit"},
        {"classic emissive", [](Scene& s, PodWriteOptions&) { s.materials[0].emissive = glm::vec3(1.0f); },
         "emissive"},
        {"occlusion",
         [](Scene& s, PodWriteOptions&) { s.materials[0].texture(TextureSlot::Occlusion).texture = 0; },
         "no POD texture block"},
        {"clamp",
         [](Scene& s, PodWriteOptions&) { s.materials[0].texture(TextureSlot::Diffuse).wrapS = Wrap::Clamp; },
         "wrap mode"},
        {"embedded",
         [](Scene& s, PodWriteOptions&) {
             s.textures[0].embedded = makeOwnedBytes({1, 2, 3});
         },
         "embedded"},
        {"z up", [](Scene& s, PodWriteOptions&) { s.up = UpAxis::Z; }, "Z-up"},
        {"fps", [](Scene& s, PodWriteOptions&) { s.animation.fps = 29.97f; }, "whole number"},
        {"parent cycle", [](Scene& s, PodWriteOptions&) { s.nodes[3].parent = 0; }, "cycle"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        Scene s = floatGridScene(2);
        PodWriteOptions options;
        c.change(s, options);
        std::vector<uint8_t> out = {1};
        std::string error;
        EXPECT_FALSE(writePod(s, options, out, error));
        EXPECT_TRUE(out.empty());
        EXPECT_NE(error.find(c.message), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos);
    }

    // A skin whose inverse binds are not the frame-0 ones cannot be bound at frame 0.
    Scene skinned = skinnedColumn(true);
    skinned.skins[0].inverseBind[1] = glm::translate(skinned.skins[0].inverseBind[1], glm::vec3(0.5f, 0, 0));
    std::vector<uint8_t> out;
    std::string error;
    EXPECT_FALSE(writePod(skinned, {}, out, error));
    EXPECT_NE(error.find("binds skins at frame 0"), std::string::npos) << error;

    // With the options that allow them: Bezier tracks are sampled, morph targets left out.
    Scene bezier = floatGridScene(2);
    Track t;
    t.node = 3;
    t.interpolation = Interpolation::Bezier;
    t.times = {0.0f, 1.0f};
    t.values = {0.5f, 0, 0.25f, 1, 1, 1};
    bezier.animation.clips.push_back({"curve", 0.0f, 1.0f, {t}});
    PodWriteOptions bake;
    bake.bakeAnimation = true;
    std::vector<std::string> notes;
    std::unique_ptr<Scene> b = readClean(writeOk(bezier, bake, &notes));
    ASSERT_TRUE(b);
    EXPECT_TRUE(has(notes, "sampled at every frame"));
    for (int f = 0; f <= 30; f += 5) {
        float x[3], y[3];
        sampleTrack(t, f / 30.0f, x);
        sampleTrack(b->animation.clips.at(0).tracks.at(0), f / 30.0f, y);
        expectNearVec(x, y, 3, 1e-6f, "frame " + std::to_string(f));
    }
}

// ---------------------------------------------------------------------------------------------
// The demo scene

// The demo without its morph target (POD has none): what the written file should show.
Scene demoWithoutMorphs() {
    Scene s = makeDemoScene();
    for (Mesh& m : s.meshes) {
        m.morphTargets.clear();
        m.defaultMorphWeights.clear();
    }
    for (Clip& c : s.animation.clips)
        c.tracks.erase(std::remove_if(c.tracks.begin(), c.tracks.end(),
                                      [](const Track& t) { return t.channel == Channel::MorphWeights; }),
                       c.tracks.end());
    return s;
}

PodWriteOptions demoOptions() {
    PodWriteOptions options;
    options.dropMorphTargets = true;  // as tools/write_demo_assets.cpp writes assets/demo.pod
    return options;
}

int nodeNamed(const Scene& s, const std::string& name) {
    for (size_t i = 0; i < s.nodes.size(); ++i)
        if (s.nodes[i].name == name) return static_cast<int>(i);
    return -1;
}

TEST(PodWriter, DemoSceneRoundTrip) {
    const Scene demo = makeDemoScene();
    const Scene expected = demoWithoutMorphs();
    std::vector<std::string> notes;
    const std::vector<uint8_t> bytes = writeOk(demo, demoOptions(), &notes);
    EXPECT_TRUE(has(notes, "morph targets dropped"));
    EXPECT_TRUE(has(notes, "the clip starts at frame 1"));
    EXPECT_TRUE(has(notes, "nodes reordered"));
    std::unique_ptr<Scene> b = readClean(bytes);
    ASSERT_TRUE(b);
    ASSERT_EQ(b->nodes.size(), demo.nodes.size());
    EXPECT_EQ(b->meshes.size(), 2u);
    EXPECT_EQ(b->lights.size(), 2u);
    EXPECT_EQ(b->cameras.size(), 1u);
    EXPECT_EQ(b->skins.size(), 1u);
    // The rest pose is frame 0 of the file, and the clip starts at frame 1, which the writer's mark
    // (pod::kClipStartUserData) tells the reader: the clip has the demo's frames and times.
    EXPECT_EQ(b->animation.frames, demo.animation.frames);
    ASSERT_EQ(b->animation.clips.size(), 1u);
    EXPECT_NEAR(b->animation.clips[0].end - b->animation.clips[0].start,
                demo.animation.clips[0].end - demo.animation.clips[0].start, 1e-5f);
    EXPECT_EQ(b->meshes[0].boneBatches.size(), 2u);
    std::set<std::string> namesA, namesB;
    for (const Node& n : demo.nodes) namesA.insert(n.name);
    for (const Node& n : b->nodes) namesB.insert(n.name);
    EXPECT_EQ(namesA, namesB);

    // Rest pose: the demo's own (its morph weight is 0 at rest).
    expectSameBounds(boundsAt(demo, -1, 0.0f), boundsAt(*b, -1, 0.0f), 1e-5f, "rest");
    // Clip time t reads back at t.
    const float frame = 0.0f;
    for (float t : {0.0f, 0.25f, 0.5f, 0.7f, 1.0f, 1.33f, 1.5f, 2.0f})
        expectSameBounds(boundsAt(expected, 0, t), boundsAt(*b, 0, t + frame), 1e-5f,
                         "t = " + std::to_string(t));
    // Where the demo's morph weight is 0, the demo itself.
    for (float t : {0.0f, 2.0f})
        expectSameBounds(boundsAt(demo, 0, t), boundsAt(*b, 0, t + frame), 1e-5f,
                         "demo t = " + std::to_string(t));
    // The skinned tentacle vertex by vertex, and where lights and the camera look.
    for (float t : {0.0f, 0.6f, 1.3f}) {
        Pose pa, pb;
        evaluatePose(expected, 0, t, pa);
        evaluatePose(*b, 0, t + frame, pb);
        std::vector<glm::vec3> va, vb;
        worldVertices(expected, pa, nodeNamed(expected, "tentacle"), va);
        worldVertices(*b, pb, nodeNamed(*b, "tentacle"), vb);
        ASSERT_EQ(va.size(), vb.size());
        float worst = 0.0f;
        for (size_t v = 0; v < va.size(); ++v) worst = std::max(worst, glm::length(va[v] - vb[v]));
        EXPECT_LT(worst, 1e-5f) << "t = " << t;
        for (const char* name : {"key_point", "fill_sun", "front_camera"}) {
            const glm::mat4 &wa = pa.objectWorld[nodeNamed(expected, name)],
                            &wb = pb.objectWorld[nodeNamed(*b, name)];
            expectNear(glm::vec3(wa * glm::vec4(0, 0, -1, 0)), glm::vec3(wb * glm::vec4(0, 0, -1, 0)), 1e-5f,
                       std::string(name) + " forward");
            expectNear(glm::vec3(wa * glm::vec4(0, 1, 0, 0)), glm::vec3(wb * glm::vec4(0, 1, 0, 0)), 1e-5f,
                       std::string(name) + " up");
            expectNear(glm::vec3(wa[3]), glm::vec3(wb[3]), 1e-5f, std::string(name) + " position");
        }
    }
    // Read back, the scene is already in POD's terms: writing it again gives the same bytes, and the
    // one note is that the clip still starts after the rest pose.
    notes.clear();
    EXPECT_TRUE(writeOk(*b, demoOptions(), &notes) == bytes);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_TRUE(has(notes, "the clip starts at frame 1"));
}

// The clip-start mark is esview's own user data: other user data leaves frame 0 in the clip (as POD
// defines it), and a mark past the last frame is a violation with frame 0 used.
TEST(PodWriter, ClipStartMarkIsTheOnlyUserDataThatMoves) {
    const Scene demo = makeDemoScene();
    PodWriteOptions other = demoOptions();
    const std::string text = "exported by hand";
    other.sceneUserData.assign(text.begin(), text.end());
    std::unique_ptr<Scene> b = readClean(writeOk(demo, other));
    ASSERT_TRUE(b);
    EXPECT_EQ(b->animation.frames, demo.animation.frames + 1);  // frame 0, the rest pose, is in the clip
    bool unused = false;
    for (const ReportLine& l : b->report) unused |= l.text.find("scene user data (16 bytes) is not used") != std::string::npos;
    EXPECT_TRUE(unused);

    PodWriteOptions past = demoOptions();
    const std::string mark = std::string(pod::kClipStartUserData) + "999";
    past.sceneUserData.assign(mark.begin(), mark.end());
    const LoadResult checked = readPod(writeOk(demo, past), true);
    EXPECT_NE(problems(checked).find("the clip starts at frame 999 of " + std::to_string(demo.animation.frames + 1) +
                                     "; frame 0 is used"),
              std::string::npos)
        << problems(checked);
}

TEST(PodWriter, DemoAssetIsWhatTheWriterWrites) {
    const std::filesystem::path asset = test::sourceDir() / "assets" / "demo.pod";
    ASSERT_TRUE(std::filesystem::exists(asset)) << asset;
    std::ifstream in(asset, std::ios::binary);
    const std::vector<uint8_t> stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(stored == writeOk(makeDemoScene(), demoOptions()))
        << "assets/demo.pod is out of date: rebuild it with `esview_write_assets` (see assets/README.md)";
    std::unique_ptr<Scene> b = readClean(stored);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->nodes.size(), 12u);
}

}  // namespace
}  // namespace esv
