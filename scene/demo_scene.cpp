#include "scene/demo_scene.h"

#include "scene/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

namespace esv {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr int kBones = 6;
constexpr float kBoneLength = 0.5f;
constexpr float kHeight = kBones * kBoneLength;  // 3.0
constexpr int kRows = 48;                        // rings along the height
constexpr int kSegments = 24;                    // vertices around a ring
constexpr int kSplitRow = 28;                    // ring at y = 1.75, the centre of bone 3
constexpr float kClipSeconds = 2.0f;
constexpr float kFps = 30.0f;

// The tentacle's vertex as stored: interleaved like a POD export (44 bytes, the bone index bytes
// padded so the weights stay 4-byte aligned).
struct TentacleVertex {
    float position[3];
    float normal[3];
    float uv[2];
    uint8_t bones[2];  // local to the vertex's bone batch
    uint8_t pad[2];
    float weights[2];
};
static_assert(sizeof(TentacleVertex) == 44, "tightly packed interleaved vertex");

struct SphereVertex {
    float position[3];
    float normal[3];
    float uv[2];
};

float radiusAt(float y) {
    return 0.45f - 0.1f * y;
}

template <typename T>
ByteView toBytes(const std::vector<T>& items) {
    std::vector<uint8_t> bytes(items.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), items.data(), bytes.size());
    return makeOwnedBytes(std::move(bytes));
}

// Two influences by height: linear between the centres of neighbouring bones. A vertex exactly at
// a bone centre names that bone twice, so a zero weight never points at a bone outside its batch.
void boneWeights(float y, int& boneA, int& boneB, float& weightB) {
    const float f = std::clamp(y / kBoneLength - 0.5f, 0.0f, float(kBones - 1));
    boneA = std::min(static_cast<int>(std::floor(f)), kBones - 1);
    weightB = f - float(boneA);
    boneB = weightB > 0.0f ? std::min(boneA + 1, kBones - 1) : boneA;
}

Mesh makeTentacle() {
    std::vector<TentacleVertex> vertices;
    std::vector<uint16_t> indices;
    Mesh mesh;
    mesh.name = "tentacle";

    // Each batch owns its vertices (the split ring is duplicated) so indices stay batch-local.
    struct BatchRange {
        int firstRow, lastRow;
        int firstBone;
        std::vector<int32_t> bones;
        bool bottomCap, topCap;
    };
    const BatchRange ranges[2] = {{0, kSplitRow, 0, {0, 1, 2, 3}, true, false},
                                  {kSplitRow, kRows, 3, {3, 4, 5}, false, true}};
    uint32_t triangles = 0;
    for (const BatchRange& range : ranges) {
        BoneBatch batch;
        batch.bones = range.bones;
        batch.firstTriangle = triangles;
        const uint16_t base = static_cast<uint16_t>(vertices.size());
        const int ringCount = range.lastRow - range.firstRow + 1;
        for (int row = range.firstRow; row <= range.lastRow; ++row) {
            const float y = kHeight * float(row) / float(kRows);
            const float r = radiusAt(y);
            int a, b;
            float wb;
            boneWeights(y, a, b, wb);
            for (int s = 0; s <= kSegments; ++s) {
                const float theta = 2.0f * kPi * float(s) / float(kSegments);
                TentacleVertex v{};
                v.position[0] = r * std::cos(theta);
                v.position[1] = y;
                v.position[2] = -r * std::sin(theta);
                glm::vec3 n = glm::normalize(glm::vec3(std::cos(theta), 0.1f, -std::sin(theta)));
                v.normal[0] = n.x;
                v.normal[1] = n.y;
                v.normal[2] = n.z;
                v.uv[0] = float(s) / float(kSegments);
                v.uv[1] = y / kHeight;
                v.bones[0] = static_cast<uint8_t>(a - range.firstBone);
                v.bones[1] = static_cast<uint8_t>(b - range.firstBone);
                v.weights[0] = 1.0f - wb;
                v.weights[1] = wb;
                vertices.push_back(v);
            }
        }
        const int ring = kSegments + 1;
        for (int row = 0; row + 1 < ringCount; ++row)
            for (int s = 0; s < kSegments; ++s) {
                const uint16_t i0 = static_cast<uint16_t>(base + row * ring + s);
                const uint16_t i1 = static_cast<uint16_t>(i0 + 1);
                const uint16_t i2 = static_cast<uint16_t>(i0 + ring);
                const uint16_t i3 = static_cast<uint16_t>(i2 + 1);
                indices.insert(indices.end(), {i0, i1, i2, i1, i3, i2});
                triangles += 2;
            }
        // Caps: a centre vertex with the ring's skinning, fanned as a triangle list.
        auto cap = [&](int row, float normalY, float lift) {
            const float y = kHeight * float(row) / float(kRows);
            int a, b;
            float wb;
            boneWeights(y, a, b, wb);
            TentacleVertex c{};
            c.position[1] = y + lift;
            c.normal[1] = normalY;
            c.uv[0] = 0.5f;
            c.uv[1] = y / kHeight;
            c.bones[0] = static_cast<uint8_t>(a - range.firstBone);
            c.bones[1] = static_cast<uint8_t>(b - range.firstBone);
            c.weights[0] = 1.0f - wb;
            c.weights[1] = wb;
            const uint16_t centre = static_cast<uint16_t>(vertices.size());
            vertices.push_back(c);
            const uint16_t first = static_cast<uint16_t>(base + (row - range.firstRow) * ring);
            for (int s = 0; s < kSegments; ++s) {
                const uint16_t i0 = static_cast<uint16_t>(first + s),
                               i1 = static_cast<uint16_t>(first + s + 1);
                if (normalY < 0.0f) {
                    indices.insert(indices.end(), {centre, i1, i0});
                } else {
                    indices.insert(indices.end(), {centre, i0, i1});
                }
                ++triangles;
            }
        };
        if (range.bottomCap) cap(range.firstRow, -1.0f, 0.0f);
        if (range.topCap) cap(range.lastRow, 1.0f, 0.12f);
        batch.triangleCount = triangles - batch.firstTriangle;
        mesh.boneBatches.push_back(batch);
    }

    VertexStream stream;
    stream.stride = sizeof(TentacleVertex);
    stream.count = static_cast<uint32_t>(vertices.size());
    stream.bytes = toBytes(vertices);
    stream.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity,
         offsetof(TentacleVertex, position)},
        {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity,
         offsetof(TentacleVertex, normal)},
        {Semantic::TexCoord, 0, ComponentType::Float32, 2, false, Swizzle::Identity,
         offsetof(TentacleVertex, uv)},
        {Semantic::BoneIndices, 0, ComponentType::UInt8, 2, false, Swizzle::Identity,
         offsetof(TentacleVertex, bones)},
        {Semantic::BoneWeights, 0, ComponentType::Float32, 2, false, Swizzle::Identity,
         offsetof(TentacleVertex, weights)},
    };
    mesh.streams.push_back(std::move(stream));
    mesh.vertexCount = static_cast<uint32_t>(vertices.size());
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = static_cast<uint32_t>(indices.size());
    mesh.indices.bytes = toBytes(indices);
    Submesh sub;
    sub.indexCount = mesh.indices.count;
    mesh.submeshes.push_back(sub);
    mesh.boneIndicesBatchLocal = true;
    mesh.maxBonesPerBatch = 4;
    return mesh;
}

// A UV sphere with one relative morph target ("bulge": lobes pushed out along the normal).
Mesh makeBlob() {
    constexpr int kStacks = 20, kSlices = 32;
    constexpr float kRadius = 0.55f;
    std::vector<SphereVertex> vertices;
    std::vector<float> deltas;
    std::vector<uint16_t> indices;
    for (int i = 0; i <= kStacks; ++i) {
        const float phi = kPi * float(i) / float(kStacks);
        for (int j = 0; j <= kSlices; ++j) {
            const float theta = 2.0f * kPi * float(j) / float(kSlices);
            const glm::vec3 n(std::sin(phi) * std::cos(theta), std::cos(phi),
                              -std::sin(phi) * std::sin(theta));
            SphereVertex v{};
            for (int k = 0; k < 3; ++k) {
                v.position[k] = kRadius * n[k];
                v.normal[k] = n[k];
            }
            v.uv[0] = float(j) / float(kSlices);
            v.uv[1] = float(i) / float(kStacks);
            vertices.push_back(v);
            // Four lobes around the equator and a lifted top.
            const float lobe = std::pow(std::max(0.0f, std::cos(4.0f * theta)), 3.0f) * std::sin(phi);
            const float amount = 0.35f * lobe + 0.25f * std::max(0.0f, n.y) * n.y;
            deltas.insert(deltas.end(), {n.x * amount, n.y * amount, n.z * amount});
        }
    }
    for (int i = 0; i < kStacks; ++i)
        for (int j = 0; j < kSlices; ++j) {
            const uint16_t a = static_cast<uint16_t>(i * (kSlices + 1) + j);
            const uint16_t b = static_cast<uint16_t>(a + kSlices + 1);
            indices.insert(indices.end(), {a, b, static_cast<uint16_t>(a + 1), static_cast<uint16_t>(a + 1),
                                           b, static_cast<uint16_t>(b + 1)});
        }
    Mesh mesh;
    mesh.name = "blob";
    VertexStream stream;
    stream.stride = sizeof(SphereVertex);
    stream.count = static_cast<uint32_t>(vertices.size());
    stream.bytes = toBytes(vertices);
    stream.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity,
         offsetof(SphereVertex, position)},
        {Semantic::Normal, 0, ComponentType::Float32, 3, false, Swizzle::Identity,
         offsetof(SphereVertex, normal)},
        {Semantic::TexCoord, 0, ComponentType::Float32, 2, false, Swizzle::Identity,
         offsetof(SphereVertex, uv)},
    };
    mesh.streams.push_back(std::move(stream));
    mesh.vertexCount = static_cast<uint32_t>(vertices.size());
    mesh.indices.type = ComponentType::UInt16;
    mesh.indices.count = static_cast<uint32_t>(indices.size());
    mesh.indices.bytes = toBytes(indices);
    Submesh sub;
    sub.indexCount = mesh.indices.count;
    mesh.submeshes.push_back(sub);

    MorphTarget bulge;
    bulge.name = "bulge";
    bulge.relative = true;
    bulge.stream.stride = 12;
    bulge.stream.count = mesh.vertexCount;
    bulge.stream.bytes = toBytes(deltas);
    bulge.stream.attributes = {
        {Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0}};
    mesh.morphTargets.push_back(std::move(bulge));
    mesh.defaultMorphWeights = {0.0f};
    return mesh;
}

int32_t addNode(Scene& scene, const char* name, int32_t parent, NodeKind kind, int32_t object,
                const glm::vec3& translation, const glm::quat& rotation = glm::quat(1, 0, 0, 0)) {
    Node n;
    n.name = name;
    n.parent = parent;
    n.kind = kind;
    n.object = object;
    n.local.translation = translation;
    n.local.rotation = rotation;
    scene.nodes.push_back(n);
    return static_cast<int32_t>(scene.nodes.size() - 1);
}

// The orientation whose -Z axis points along `direction` (lights and cameras look down -Z).
glm::quat lookAlong(const glm::vec3& direction) {
    return glm::quatLookAt(glm::normalize(direction), glm::vec3(0.0f, 1.0f, 0.0f));
}

}  // namespace

Scene makeDemoScene() {
    Scene scene;
    scene.format = "demo";
    scene.ambient = glm::vec3(0.12f, 0.12f, 0.14f);
    scene.clearColor = glm::vec3(0.18f, 0.19f, 0.22f);

    scene.meshes.push_back(makeTentacle());
    scene.meshes.push_back(makeBlob());

    Material skin;
    skin.name = "tentacle_skin";
    skin.ambient = glm::vec3(0.9f, 0.45f, 0.2f);
    skin.diffuse = glm::vec3(0.9f, 0.45f, 0.2f);
    skin.specular = glm::vec3(0.5f);
    skin.shininess = 32.0f;
    Material blob;
    blob.name = "blob_glaze";
    blob.ambient = glm::vec3(0.25f, 0.45f, 0.9f);
    blob.diffuse = glm::vec3(0.25f, 0.45f, 0.9f);
    blob.specular = glm::vec3(0.2f);
    blob.shininess = 16.0f;
    scene.materials = {skin, blob};

    Light point;
    point.name = "key_point";
    point.type = LightType::Point;
    point.color = glm::vec3(1.0f, 0.95f, 0.85f);
    point.linearAttenuation = 0.02f;
    Light sun;
    sun.name = "fill_sun";
    sun.type = LightType::Directional;
    sun.color = glm::vec3(0.45f, 0.5f, 0.6f);
    scene.lights = {point, sun};

    Camera camera;
    camera.name = "front";
    camera.yfov = 0.7f;
    camera.nearZ = 0.1f;
    camera.farZ = 100.0f;
    scene.cameras = {camera};

    // Node order: meshes first, then lights and cameras, then the skeleton (as POD orders them).
    const int32_t root = addNode(scene, "demo_root", -1, NodeKind::Empty, -1, glm::vec3(0.0f));
    const int32_t tentacle = addNode(scene, "tentacle", root, NodeKind::Mesh, 0, glm::vec3(0.0f));
    const int32_t blobNode = addNode(scene, "blob", root, NodeKind::Mesh, 1, glm::vec3(1.6f, 0.55f, 0.3f));
    scene.nodes[tentacle].materials = {0};
    scene.nodes[blobNode].materials = {1};
    addNode(scene, "key_point", -1, NodeKind::Light, 0, glm::vec3(2.5f, 4.0f, 3.0f));
    addNode(scene, "fill_sun", -1, NodeKind::Light, 1, glm::vec3(0.0f),
            lookAlong(glm::vec3(-1.0f, -2.0f, -1.5f)));
    const glm::vec3 eye(0.8f, 1.8f, 7.5f);
    addNode(scene, "front_camera", -1, NodeKind::Camera, 0, eye,
            lookAlong(glm::vec3(0.6f, 1.4f, 0.0f) - eye));

    Skin skeleton;
    skeleton.name = "tentacle_skeleton";
    int32_t parent = root;
    for (int b = 0; b < kBones; ++b) {
        const std::string name = "bone" + std::to_string(b);
        const int32_t node = addNode(scene, name.c_str(), parent, NodeKind::Bone, -1,
                                     glm::vec3(0.0f, b == 0 ? 0.0f : kBoneLength, 0.0f));
        skeleton.joints.push_back(node);
        parent = node;
    }
    skeleton.skeletonRoot = skeleton.joints.front();
    // The mesh is modelled in the skeleton's rest space, so the bind pose is the rest pose.
    Pose rest;
    evaluatePose(scene, -1, 0.0f, rest);
    for (int32_t joint : skeleton.joints) skeleton.inverseBind.push_back(glm::inverse(rest.world[joint]));
    scene.skins.push_back(skeleton);
    scene.nodes[tentacle].skin = 0;

    // One clip: a bending wave up the chain, the blob's bulge breathing and the whole thing bobbing.
    Clip wave;
    wave.name = "wave";
    wave.start = 0.0f;
    wave.end = kClipSeconds;
    const int keys = static_cast<int>(kClipSeconds * kFps) + 1;
    for (int b = 0; b < kBones; ++b) {
        Track track;
        track.node = skeleton.joints[b];
        track.channel = Channel::Rotation;
        track.interpolation = Interpolation::Linear;
        track.components = 4;
        for (int k = 0; k < keys; ++k) {
            const float t = float(k) / kFps;
            const float phase = 2.0f * kPi * t / kClipSeconds;
            const float bend = 0.2f * std::sin(phase + 0.5f - 0.55f * float(b)) + 0.06f;
            const float twist = 0.15f * std::cos(phase - 0.4f * float(b));
            const glm::quat q =
                glm::angleAxis(bend, glm::vec3(0, 0, 1)) * glm::angleAxis(twist, glm::vec3(1, 0, 0));
            track.times.push_back(t);
            track.values.insert(track.values.end(), {q.x, q.y, q.z, q.w});
        }
        wave.tracks.push_back(std::move(track));
    }
    Track breathe;
    breathe.node = blobNode;
    breathe.channel = Channel::MorphWeights;
    breathe.interpolation = Interpolation::Linear;
    breathe.components = 1;
    Track bob;
    bob.node = root;
    bob.channel = Channel::Translation;
    bob.interpolation = Interpolation::Linear;
    bob.components = 3;
    for (int k = 0; k < keys; ++k) {
        const float t = float(k) / kFps;
        const float phase = 2.0f * kPi * t / kClipSeconds;
        breathe.times.push_back(t);
        breathe.values.push_back(0.5f - 0.5f * std::cos(phase));
        bob.times.push_back(t);
        bob.values.insert(bob.values.end(), {0.0f, 0.08f * std::sin(phase), 0.0f});
    }
    wave.tracks.push_back(std::move(breathe));
    wave.tracks.push_back(std::move(bob));
    scene.animation.clips.push_back(std::move(wave));
    scene.animation.fps = kFps;
    scene.animation.frames = static_cast<uint32_t>(keys);
    scene.info("built-in demo scene: a 6-bone tentacle in 2 bone batches and a morphing blob");
    return scene;
}

}  // namespace esv
