// AWD animation blocks: Skeleton, SkeletonPose, SkeletonAnimation, MeshPose, MeshPoseAnimation,
// AnimationSet, Animator and UVAnimation, read with the layouts of Away3D's AWD2Parser (the spec's
// tables leave out fields the exporters write), then turned into scene joints, skins, morph
// targets, UV transforms and clips once every block is read (finishAnimation).
//
// Away3D's conventions, kept as stored: matrices are column-major 4x3 (as the scene graph's), a
// joint's parent is its stored parent id - 1 (0 = none), a Skeleton stores each joint's inverse
// bind pose, and a pose stores each joint's transform local to its parent joint. Skinned vertices
// live in the mesh's own space: sum_i w_i * (joint global_i * inverseBind_i) * v, then the mesh
// instance's world matrix. The joints are therefore added as nodes below the mesh instance.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "loaders/awd/awd_internal.h"
#include "scene/cpu_reference.h"

namespace esv::awd {

namespace {

std::string num(uint64_t v) { return std::to_string(v); }

// Floats of vertex animation kept at most (over all frames of all clips): 256 MiB.
constexpr uint64_t kMaxMorphFloats = uint64_t(1) << 26;

// translation * rotation * scale of a joint transform (Away3D's JointPose keeps rotation and
// translation; the scale is kept too, 1 for the exporters' poses). A mirroring matrix keeps its
// reflection as a negative x scale.
void splitTrs(const glm::mat4& m, glm::vec3& t, glm::quat& q, glm::vec3& s) {
    const glm::vec3 c0(m[0]), c1(m[1]), c2(m[2]);
    s = glm::vec3(glm::length(c0), glm::length(c1), glm::length(c2));
    for (int i = 0; i < 3; ++i)
        if (!(s[i] > 1e-20f) || !std::isfinite(s[i])) s[i] = 1.0f;
    if (glm::dot(glm::cross(c0, c1), c2) < 0.0f) s.x = -s.x;
    q = glm::quat_cast(glm::mat3(c0 / s.x, c1 / s.y, c2 / s.z));
    const float len = glm::length(q);
    q = len > 1e-20f && std::isfinite(len) ? q / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    t = glm::vec3(m[3]);
}

bool finiteMatrix(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

// Key times of a clip's frames in seconds: frame i at the sum of the durations before it, plus
// one key at the sum of all durations (the last frame held, or frame 0 again for a looping clip
// that stitches its final frame). Returns the frame each key shows.
void frameKeys(const AnimClip& clip, std::vector<float>& times, std::vector<size_t>& frames) {
    times.clear();
    frames.clear();
    uint64_t ms = 0;
    for (size_t f = 0; f < clip.frames.size(); ++f) {
        times.push_back(float(double(ms) / 1000.0));
        frames.push_back(f);
        ms += clip.frames[f].durationMs;
    }
    if (!clip.frames.empty() && clip.frames.back().durationMs > 0) {
        times.push_back(float(double(ms) / 1000.0));
        frames.push_back(clip.loop && clip.stitchFinalFrame ? 0 : clip.frames.size() - 1);
    }
}

float clipSeconds(const AnimClip& clip) {
    uint64_t ms = 0;
    for (const AnimFrame& f : clip.frames) ms += f.durationMs;
    return float(double(ms) / 1000.0);
}

// The positions of a mesh as float triples (the reader's position streams are float32).
std::vector<float> basePositions(const Mesh& mesh) {
    std::vector<float> out(size_t(mesh.vertexCount) * 3, 0.0f);
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes) {
            if (a.semantic != Semantic::Position || a.type != ComponentType::Float32) continue;
            for (uint32_t v = 0; v < mesh.vertexCount && v < s.count; ++v) {
                const size_t at = size_t(v) * s.stride + a.offset;
                if (at + 12 > s.bytes.size) break;
                std::memcpy(&out[size_t(v) * 3], s.bytes.data + at, 12);
            }
            return out;
        }
    return out;
}

// The largest joint index a mesh's BoneIndices streams hold (-1 when none).
int64_t maxJointIndex(const Mesh& mesh) {
    int64_t most = -1;
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes) {
            if (a.semantic != Semantic::BoneIndices || a.type != ComponentType::UInt16) continue;
            for (uint32_t v = 0; v < s.count; ++v)
                for (uint32_t c = 0; c < a.components; ++c) {
                    const size_t at = size_t(v) * s.stride + a.offset + 2 * c;
                    if (at + 2 > s.bytes.size) break;
                    uint16_t value;
                    std::memcpy(&value, s.bytes.data + at, 2);
                    most = std::max<int64_t>(most, value);
                }
        }
    return most;
}

bool hasAttribute(const Mesh& mesh, Semantic semantic) {
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes)
            if (a.semantic == semantic) return true;
    return false;
}

// Vertex normals of a frame's positions `p` (float triples) over `triangles` (vertex indices):
// the sum of the unit face normals around each vertex, normalised, as Away3D derives them.
std::vector<float> frameNormals(const std::vector<float>& p, const std::vector<uint32_t>& triangles) {
    const size_t vertices = p.size() / 3;
    std::vector<float> normals(vertices * 3, 0.0f);
    for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
        const uint32_t i0 = triangles[t], i1 = triangles[t + 1], i2 = triangles[t + 2];
        if (i0 >= vertices || i1 >= vertices || i2 >= vertices) continue;
        const glm::vec3 a0(p[i0 * 3], p[i0 * 3 + 1], p[i0 * 3 + 2]);
        const glm::vec3 a1(p[i1 * 3], p[i1 * 3 + 1], p[i1 * 3 + 2]);
        const glm::vec3 a2(p[i2 * 3], p[i2 * 3 + 1], p[i2 * 3 + 2]);
        glm::vec3 nrm = glm::cross(a1 - a0, a2 - a0);
        const float len = glm::length(nrm);
        if (!(len > 1e-20f) || !std::isfinite(len)) continue;
        nrm /= len;
        for (uint32_t i : {i0, i1, i2})
            for (int k = 0; k < 3; ++k) normals[size_t(i) * 3 + k] += nrm[k];
    }
    for (size_t v = 0; v < vertices; ++v) {
        glm::vec3 nrm(normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2]);
        const float len = glm::length(nrm);
        if (len > 1e-20f) nrm /= len;
        for (int k = 0; k < 3; ++k) normals[v * 3 + k] = nrm[k];
    }
    return normals;
}

// The scene clip of UV clip `uc`: one 4x4 matrix track of UV transform `uvIndex`, a key per frame
// and one more holding the last frame for its duration.
Clip uvClip(const UvClip& uc, int32_t uvIndex) {
    Clip clip;
    clip.name = uc.name;
    Track t;
    t.channel = Channel::UvElement;
    t.uvTransform = uvIndex;
    t.element = 0;
    t.components = 16;
    uint64_t ms = 0;
    for (size_t f = 0; f < uc.matrices.size(); ++f) {
        t.times.push_back(float(double(ms) / 1000.0));
        t.values.insert(t.values.end(), &uc.matrices[f][0][0], &uc.matrices[f][0][0] + 16);
        ms += uc.durationsMs[f];
    }
    if (uc.durationsMs.back() > 0) {
        t.times.push_back(float(double(ms) / 1000.0));
        t.values.insert(t.values.end(), &uc.matrices.back()[0][0], &uc.matrices.back()[0][0] + 16);
    }
    clip.end = float(double(ms) / 1000.0);
    clip.tracks.push_back(std::move(t));
    return clip;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Blocks

int32_t Reader::readSkeleton(ByteReader& r) {
    Skeleton sk;
    if (!readString(r, sk.name, "name")) return -1;
    m_currentName = sk.name;
    sk.blockId = m_current->id;
    sk.offset = m_current->offset + m_bodyBase;
    const uint16_t count = r.u16();
    if (ended(r, "joint count")) return -1;
    AttrList props;
    if (!readAttrs(r, props, "skeleton")) return -1;
    unknownProps(props, {}, "skeleton");
    bool nanFixed = false;
    for (uint16_t j = 0; j < count; ++j) {
        const uint64_t jointAt = r.offset();
        r.u16();  // the joint id: Away3D ignores it (exporters number from 0 or from 1)
        const uint16_t parent = r.u16();
        if (ended(r, "joint id and parent")) return -1;
        SkeletonJoint joint;
        if (!readString(r, joint.name, "joint name")) return -1;
        if (!readMatrix(r, joint.inverseBind, "joint's inverse bind pose")) return -1;
        AttrList jointProps;
        if (!readAttrs(r, jointProps, "joint")) return -1;
        if (!readUserAttrs(r, "joint")) return -1;
        joint.parent = int32_t(parent) - 1;
        if (joint.parent >= int32_t(j)) {
            violation(jointAt + 2, blockWhere(),
                      "joint " + num(j) + " " + quoted(joint.name) + ": parent id " + num(parent) +
                          " names no earlier joint (parents come first); the joint is made a root");
            joint.parent = -1;
        }
        // Away3D's quirk for the 3ds Max exporter: a NaN inverse bind pose reads as the identity.
        if (std::isnan(joint.inverseBind[0][0])) {
            joint.inverseBind = glm::mat4(1.0f);
            nanFixed = true;
        } else if (!finiteMatrix(joint.inverseBind) || std::fabs(glm::determinant(joint.inverseBind)) < 1e-30f) {
            violation(jointAt, blockWhere(),
                      "joint " + num(j) + " " + quoted(joint.name) +
                          ": the inverse bind pose is not invertible or not finite; the identity is used");
            joint.inverseBind = glm::mat4(1.0f);
        }
        sk.joints.push_back(std::move(joint));
    }
    if (!readUserAttrs(r, "skeleton")) return -1;
    if (nanFixed)
        info(blockWhere() + ": an inverse bind pose holding NaN reads as the identity, as Away3D reads it");
    m_skeletons.push_back(std::move(sk));
    return static_cast<int32_t>(m_skeletons.size() - 1);
}

int32_t Reader::readSkeletonPose(ByteReader& r) {
    SkeletonPose pose;
    if (!readString(r, pose.name, "name")) return -1;
    m_currentName = pose.name;
    pose.blockId = m_current->id;
    pose.offset = m_current->offset + m_bodyBase;
    const uint16_t count = r.u16();
    if (ended(r, "joint transform count")) return -1;
    AttrList props;
    if (!readAttrs(r, props, "pose")) return -1;
    unknownProps(props, {}, "pose");
    for (uint16_t j = 0; j < count; ++j) {
        const uint64_t at = r.offset();
        const uint8_t has = r.u8();
        if (ended(r, "joint transform flag")) return -1;
        glm::mat4 m(1.0f);
        // Away3D reads a matrix only after the value 1.
        if (has == 1) {
            if (!readMatrix(r, m, "joint transform")) return -1;
            if (!finiteMatrix(m)) {
                violation(at + 1, blockWhere(), "joint transform " + num(j) + " is not finite; the bind pose is used");
                m = glm::mat4(1.0f);
                pose.has.push_back(0);
                pose.transforms.push_back(m);
                continue;
            }
        } else if (has != 0) {
            violation(at, blockWhere(),
                      "joint transform " + num(j) + ": flag " + num(has) + " is neither 0 nor 1; read as 0 (no transform), as Away3D does");
        }
        pose.has.push_back(has == 1 ? 1 : 0);
        pose.transforms.push_back(m);
    }
    if (!readUserAttrs(r, "pose")) return -1;
    m_poses.push_back(std::move(pose));
    return static_cast<int32_t>(m_poses.size() - 1);
}

int32_t Reader::readSkeletonAnimation(ByteReader& r) {
    AnimClip clip;
    clip.type = block::SkeletonAnimation;
    if (!readString(r, clip.name, "name")) return -1;
    m_currentName = clip.name;
    clip.blockId = m_current->id;
    clip.offset = m_current->offset + m_bodyBase;
    const uint16_t count = r.u16();
    if (ended(r, "frame count")) return -1;
    AttrList props;
    if (!readAttrs(r, props, "animation")) return -1;
    unknownProps(props, {}, "animation");
    if (!r.canReadArray(count, 6)) {
        r.fail();
        ended(r, "frame list");
        return -1;
    }
    for (uint16_t f = 0; f < count; ++f) {
        const uint64_t at = r.offset();
        const uint32_t poseId = r.u32();
        AnimFrame frame;
        frame.durationMs = r.u16();
        bool ok = true;
        const BlockRef* pose = resolve(poseId, at, {block::SkeletonPose}, ("frame " + num(f) + "'s pose").c_str(), ok);
        if (!ok) return -1;
        if (!pose) {
            violation(at, blockWhere(), "frame " + num(f) + " names no pose; the frame is left out, as Away3D does");
            continue;
        }
        frame.pose = pose->index;
        clip.frames.push_back(std::move(frame));
    }
    if (!readUserAttrs(r, "animation")) return -1;
    if (clip.frames.empty()) {
        violation(clip.offset, blockWhere(), "the animation has no frames; no clip is made");
        return -1;
    }
    m_clips.push_back(std::move(clip));
    return static_cast<int32_t>(m_clips.size() - 1);
}

// What a MeshPose / MeshPoseAnimation block says about its frames: its header and properties,
// then its target's sub-geometries.
struct Reader::MeshPoseLayout {
    uint64_t targetAt = 0;  // of the target BlockAddr
    uint32_t targetId = 0;
    uint16_t frameCount = 1, subCount = 0, streamCount = 0;
    uint64_t typesAt = 0;  // of the stream types
    std::vector<uint16_t> streamTypes;
    uint32_t style = 0;  // parsing style: 0 every vertex, 1 from vertOffsets, 2 the vertices an index stream lists
    bool stylePerFrame = false;
    std::vector<uint32_t> vertOffsets;  // per sub-geometry (parsing style 1)
    std::vector<uint32_t> subVertices;  // the target's vertices per sub-geometry
    std::vector<uint32_t> subBase;      // where each sub-geometry's vertices begin in the mesh
    uint32_t total = 0;                 // the target's vertices
};

// Reports why a vertex animation is ignored and skips the rest of its block; false.
bool Reader::ignoreAnimation(ByteReader& r, uint64_t at, const std::string& why) {
    violation(at, blockWhere(), why + "; the animation is ignored");
    r.skip(r.remaining());
    return false;
}

// The fields before the frames: name, target, counts, stream types and properties.
bool Reader::readMeshPoseHeader(ByteReader& r, bool animation, AnimClip& clip, MeshPoseLayout& layout) {
    if (!readString(r, clip.name, "name")) return false;
    m_currentName = clip.name;
    clip.blockId = m_current->id;
    clip.offset = m_current->offset + m_bodyBase;
    layout.targetAt = r.offset();
    layout.targetId = r.u32();
    layout.frameCount = animation ? r.u16() : 1;
    layout.subCount = r.u16();
    layout.streamCount = r.u16();
    if (ended(r, "target, frame, sub-geometry and stream counts")) return false;
    layout.typesAt = r.offset();
    for (uint16_t s = 0; s < layout.streamCount; ++s) layout.streamTypes.push_back(r.u16());
    if (ended(r, "stream types")) return false;
    AttrList props;
    if (!readAttrs(r, props, "animation")) return false;
    clip.loop = propBool(props, 1, true);
    clip.stitchFinalFrame = propBool(props, 2, false);
    const bool useTranslation = propBool(props, 3, false);
    clip.relative = !propBool(props, 4, true);
    layout.style = propUInt(props, 5, 0, 2);
    layout.stylePerFrame = propBool(props, 7, false);
    if (const Attr* a = props.find(6)) {
        for (uint32_t i = 0; i + 4 <= a->length; i += 4) {
            uint32_t v;
            std::memcpy(&v, a->value + i, 4);
            layout.vertOffsets.push_back(v);
        }
    }
    unknownProps(props, {1, 2, 3, 4, 5, 6, 7}, "animation");
    if (useTranslation) info(blockWhere() + ": useTranslation is not applied (Away3D does not read it either)");
    return true;
}

// The target: a TriangleGeometry (or a MeshInstance of one) with as many sub-geometries as the
// animation, which has one position stream. False when the animation cannot be used.
bool Reader::resolveMeshPoseTarget(ByteReader& r, AnimClip& clip, MeshPoseLayout& layout) {
    bool ok = true;
    const BlockRef* target =
        resolve(layout.targetId, layout.targetAt, {block::TriangleGeometry, block::PrimitiveGeometry, block::MeshInstance},
                "the target geometry", ok);
    if (!ok) return false;
    if (!target) return ignoreAnimation(r, layout.targetAt, "the animation names no target geometry");
    int32_t mesh = target->index;
    if (target->type == block::MeshInstance) {
        clip.instance = target->index;
        mesh = m_scene.nodes[target->index].kind == NodeKind::Mesh ? m_scene.nodes[target->index].object : -1;
    }
    auto subs = m_subVertices.find(mesh);
    if (mesh < 0 || subs == m_subVertices.end())
        return ignoreAnimation(r, layout.targetAt,
                               "the target is not a TriangleGeometry (a primitive's vertices are not the file's)");
    clip.mesh = mesh;
    layout.subVertices = subs->second;
    if (layout.subCount != layout.subVertices.size())
        return ignoreAnimation(r, layout.targetAt,
                               "the animation has " + num(layout.subCount) + " sub-geometries, its target " +
                                   num(layout.subVertices.size()));
    if (std::count(layout.streamTypes.begin(), layout.streamTypes.end(), 1) != 1) {
        violation(layout.typesAt, blockWhere(), "the animation has no (or more than one) position stream (type 1)");
        r.skip(r.remaining());
        return false;
    }
    for (uint32_t v : layout.subVertices) {
        layout.subBase.push_back(layout.total);
        layout.total += v;
    }
    return true;
}

// One frame: its duration (and parsing style), then each sub-geometry's streams over a copy of
// `base` (absolute) or zeros (relative). `kept` counts the floats all frames keep.
bool Reader::readMeshPoseFrame(ByteReader& r, const MeshPoseLayout& layout, bool relative, const std::vector<float>& base,
                               uint16_t f, uint64_t& kept, AnimFrame& frame) {
    frame.durationMs = r.u16();
    uint32_t frameStyle = layout.style;
    if (layout.stylePerFrame) frameStyle = r.u16();
    if (ended(r, "frame duration")) return false;
    if (frameStyle > 2) {
        violation(r.offset(), blockWhere(), "frame " + num(f) + ": parsing style " + num(frameStyle) + " is not 0, 1 or 2; read as 0");
        frameStyle = 0;
    }
    if (kept + uint64_t(layout.total) * 3 > kMaxMorphFloats)
        return ignoreAnimation(r, layout.targetAt,
                               "the vertex animation would keep more than " + num(kMaxMorphFloats * 4 >> 20) + " MiB");
    frame.positions = relative ? std::vector<float>(size_t(layout.total) * 3, 0.0f) : base;
    frame.positions.resize(size_t(layout.total) * 3, 0.0f);
    kept += frame.positions.size();
    for (uint16_t s = 0; s < layout.subCount; ++s)
        if (!readMeshPoseSub(r, layout, f, s, frameStyle, frame.positions.data() + size_t(layout.subBase[s]) * 3))
            return false;
    return true;
}

// Sub-geometry `s` of frame `f`: its streams, the positions written to `out` (its first vertex).
bool Reader::readMeshPoseSub(ByteReader& r, const MeshPoseLayout& layout, uint16_t f, uint16_t s, uint32_t frameStyle,
                             float* out) {
    const uint64_t subAt = r.offset();
    const uint32_t length = r.u32();
    if (ended(r, "sub-geometry length")) return false;
    if (!r.canRead(length)) {
        r.fail();
        ended(r, "sub-geometry streams");
        return false;
    }
    ByteReader sr(r.current(), length, r.offset());
    r.skip(length);
    const std::string where = "frame " + num(f) + " / sub-geometry " + num(s);
    // Away3D's layout: with one stream and every vertex stored, the positions fill the
    // sub-geometry's length; otherwise each stream carries its own uint32 length (spec).
    std::vector<uint32_t> indices;
    for (uint16_t k = 0; k < layout.streamCount; ++k) {
        uint32_t streamLength = length;
        uint64_t streamAt = subAt + 4;
        if (!(layout.streamCount == 1 && frameStyle == 0)) {
            streamAt = sr.offset();
            streamLength = sr.u32();
            if (!sr.ok() || !sr.canRead(streamLength)) {
                violation(streamAt, blockWhere(), where + ": stream " + num(k) + " runs past the sub-geometry");
                break;
            }
        }
        ByteReader data(sr.current(), streamLength, sr.offset());
        sr.skip(streamLength);
        if (layout.streamTypes[k] == 2) {
            while (data.remaining() >= 4) indices.push_back(data.u32());
            continue;
        }
        if (layout.streamTypes[k] != 1) {
            info(blockWhere() + ": stream type " + num(layout.streamTypes[k]) + " is not used (Away3D reads positions only)");
            continue;
        }
        readMeshPosePositions(data, streamAt, where, layout, s, frameStyle, indices, out);
    }
    return true;
}

// A position stream (`data`, at `streamAt`) of sub-geometry `s`: every vertex (parsing style 0),
// the vertices from its vertOffset (1), or those the index streams before it list (2).
void Reader::readMeshPosePositions(ByteReader& data, uint64_t streamAt, const std::string& where,
                                   const MeshPoseLayout& layout, uint16_t s, uint32_t frameStyle,
                                   const std::vector<uint32_t>& indices, float* out) {
    const bool wide = m_header.geometry64;
    const size_t step = wide ? 8 : 4;
    const size_t streamLength = data.remaining();
    const uint32_t vertices = layout.subVertices[s];
    const uint32_t stored = static_cast<uint32_t>(streamLength / (3 * step));
    uint32_t first = 0;
    uint32_t expected = vertices;
    if (frameStyle == 1) {
        first = s < layout.vertOffsets.size() ? layout.vertOffsets[s] : 0;
        if (first > vertices) {
            violation(streamAt, blockWhere(), where + ": vertOffset " + num(first) + " is beyond the " + num(vertices) + " vertices");
            first = vertices;
        }
        expected = vertices - first;
    } else if (frameStyle == 2) {
        expected = static_cast<uint32_t>(indices.size());
    }
    if (stored != expected || streamLength % (3 * step) != 0)
        violation(streamAt, blockWhere(),
                  where + ": " + num(streamLength) + " bytes of positions for " + num(expected) +
                      " vertices; the vertices it covers are used");
    for (uint32_t i = 0; i < stored && i < expected; ++i) {
        uint32_t v = first + i;
        if (frameStyle == 2) {
            v = indices[i];
            if (v >= vertices) {
                violation(streamAt, blockWhere(), where + ": original index " + num(v) + " is beyond the " + num(vertices) + " vertices");
                continue;
            }
        }
        for (int c = 0; c < 3; ++c) out[size_t(v) * 3 + c] = wide ? float(data.f64()) : data.f32();
    }
}

int32_t Reader::readMeshPose(ByteReader& r, bool animation) {
    AnimClip clip;
    clip.type = animation ? block::MeshPoseAnimation : block::MeshPose;
    MeshPoseLayout layout;
    if (!readMeshPoseHeader(r, animation, clip, layout)) return -1;
    if (!resolveMeshPoseTarget(r, clip, layout)) return -1;
    const std::vector<float> base = clip.relative ? std::vector<float>() : basePositions(m_scene.meshes[clip.mesh]);
    uint64_t kept = 0;
    for (const AnimClip& c : m_clips)
        for (const AnimFrame& f : c.frames) kept += f.positions.size();
    for (uint16_t f = 0; f < layout.frameCount; ++f) {
        AnimFrame frame;
        if (!readMeshPoseFrame(r, layout, clip.relative, base, f, kept, frame)) return -1;
        clip.frames.push_back(std::move(frame));
    }
    if (!readUserAttrs(r, "animation")) return -1;
    if (clip.frames.empty()) {
        violation(clip.offset, blockWhere(), "the animation has no frames; no clip is made");
        return -1;
    }
    m_clips.push_back(std::move(clip));
    return static_cast<int32_t>(m_clips.size() - 1);
}

int32_t Reader::readAnimationSet(ByteReader& r) {
    AnimationSet set;
    if (!readString(r, set.name, "name")) return -1;
    m_currentName = set.name;
    const uint16_t count = r.u16();
    if (ended(r, "animation count")) return -1;
    AttrList props;
    if (!readAttrs(r, props, "animation set"))
        return -1;
    unknownProps(props, {1}, "animation set");  // 1: joints per vertex (Away3D's SkeletonAnimationSet)
    if (!r.canReadArray(count, 4)) {
        r.fail();
        ended(r, "animation list");
        return -1;
    }
    for (uint16_t i = 0; i < count; ++i) {
        const uint64_t at = r.offset();
        const uint32_t id = r.u32();
        bool ok = true;
        const BlockRef* clip = resolve(id, at,
                                       {block::SkeletonAnimation, block::MeshPose, block::MeshPoseAnimation, block::UVAnimation},
                                       "an animation", ok);
        if (!ok) return -1;
        if (!clip) continue;
        if (clip->type == block::UVAnimation) {
            set.clips.push_back(-1 - clip->index);  // UV clips: -1 - index
            continue;
        }
        set.clips.push_back(clip->index);
    }
    if (!readUserAttrs(r, "animation set")) return -1;
    m_sets.push_back(std::move(set));
    return static_cast<int32_t>(m_sets.size() - 1);
}

int32_t Reader::readAnimator(ByteReader& r) {
    Animator an;
    if (!readString(r, an.name, "name")) return -1;
    m_currentName = an.name;
    an.blockId = m_current->id;
    an.offset = m_current->offset + m_bodyBase;
    an.type = r.u16();
    if (ended(r, "animator type")) return -1;
    AttrList props;
    if (!readAttrs(r, props, "animator")) return -1;
    unknownProps(props, {1}, "animator");
    const uint64_t setAt = r.offset();
    const uint32_t setId = r.u32();
    const uint16_t meshCount = r.u16();
    if (ended(r, "animation set and mesh count")) return -1;
    if (!r.canReadArray(meshCount, 4)) {
        r.fail();
        ended(r, "mesh list");
        return -1;
    }
    bool ok = true;
    const BlockRef* set = resolve(setId, setAt, {block::AnimationSet}, "the animation set", ok);
    if (!ok) return -1;
    for (uint16_t i = 0; i < meshCount; ++i) {
        const uint64_t at = r.offset();
        const uint32_t id = r.u32();
        const BlockRef* inst = resolve(id, at, {block::MeshInstance}, "a mesh", ok);
        if (!ok) return -1;
        if (inst) an.instances.push_back(inst->index);
    }
    r.u16();  // active state
    r.u8();   // autoplay
    if (ended(r, "active state and autoplay")) return -1;
    // Away3D reads two attribute lists here.
    if (!readUserAttrs(r, "animator") || !readUserAttrs(r, "animator")) return -1;
    an.set = set ? set->index : -1;
    if (an.type == 1) {
        const Attr* sk = props.find(1);
        if (!sk || sk->length != 4) {
            violation(an.offset, blockWhere(), "a skeleton animator names no skeleton (property 1); it drives nothing");
        } else {
            uint32_t id;
            std::memcpy(&id, sk->value, 4);
            const BlockRef* skeleton = resolve(id, sk->offset, {block::Skeleton}, "the skeleton", ok);
            if (!ok) return -1;
            an.skeleton = skeleton ? skeleton->index : -1;
        }
    } else if (an.type != 2 && an.type != 3) {
        violation(an.offset, blockWhere(), "animator type " + num(an.type) + " is neither 1 (skeleton) nor 2 (vertex)");
    }
    if (!set) violation(setAt, blockWhere(), "the animator names no animation set; it drives nothing");
    m_animators.push_back(std::move(an));
    return static_cast<int32_t>(m_animators.size() - 1);
}

int32_t Reader::readUvAnimation(ByteReader& r) {
    UvClip clip;
    if (!readString(r, clip.name, "name")) return -1;
    m_currentName = clip.name;
    const uint16_t count = r.u16();
    if (ended(r, "frame count")) return -1;
    AttrList props;
    if (!readAttrs(r, props, "animation")) return -1;
    unknownProps(props, {}, "animation");
    if (!r.canReadArray(count, 26)) {
        r.fail();
        ended(r, "frame list");
        return -1;
    }
    for (uint16_t f = 0; f < count; ++f) {
        // A Flash Matrix (a, b, c, d, tx, ty), float32 as Away3D reads it: u' = a u + c v + tx.
        float v[6];
        for (float& x : v) x = r.f32();
        glm::mat4 m(1.0f);
        m[0][0] = v[0];
        m[0][1] = v[1];
        m[1][0] = v[2];
        m[1][1] = v[3];
        m[3][0] = v[4];
        m[3][1] = v[5];
        clip.matrices.push_back(m);
        clip.durationsMs.push_back(r.u16());
    }
    if (ended(r, "frames")) return -1;
    if (!readUserAttrs(r, "animation")) return -1;
    if (clip.matrices.empty()) return -1;
    m_uvClips.push_back(std::move(clip));
    return static_cast<int32_t>(m_uvClips.size() - 1);
}

// ---------------------------------------------------------------------------------------------
// Scene

// What the parts of finishAnimation share: which skeleton drives which mesh instance, which
// clips play on which skeleton, the scene clip made for each animation block, and counts for the
// report.
struct Reader::AnimationPlan {
    std::map<int32_t, int32_t> instanceSkeleton;         // mesh instance node -> skeleton
    std::map<int32_t, std::set<int32_t>> skeletonClips;  // skeleton -> AnimClip indices
    std::set<int32_t> animatedSkeletons;                 // skeletons an Animator drives
    std::map<int32_t, int32_t> sceneClip;                // AnimClip -> scene clip
    size_t jointNodes = 0, targets = 0;
};

// Which skeleton drives each mesh instance: the Animators say (AWD 2.1); without one, a skinned
// mesh uses the file's skeleton whose joints its indices fit (AWD 2.0 files have one).
void Reader::linkSkeletons(AnimationPlan& plan) {
    for (const Animator& an : m_animators) {
        if (an.type != 1 || an.skeleton < 0) continue;
        plan.animatedSkeletons.insert(an.skeleton);
        for (int32_t node : an.instances)
            if (m_scene.nodes[node].kind == NodeKind::Mesh && m_scene.nodes[node].object >= 0)
                plan.instanceSkeleton[node] = an.skeleton;
        if (an.set >= 0)
            for (int32_t c : m_sets[an.set].clips)
                if (c >= 0 && m_clips[c].type == block::SkeletonAnimation) plan.skeletonClips[an.skeleton].insert(c);
    }
    for (size_t n = 0; n < m_scene.nodes.size(); ++n) {
        const Node& node = m_scene.nodes[n];
        if (node.kind != NodeKind::Mesh || node.object < 0 || plan.instanceSkeleton.count(int32_t(n))) continue;
        const Mesh& mesh = m_scene.meshes[node.object];
        if (!hasAttribute(mesh, Semantic::BoneIndices) || m_skeletons.empty()) continue;
        const int64_t most = maxJointIndex(mesh);
        int32_t pick = -1;
        for (size_t s = 0; s < m_skeletons.size() && pick < 0; ++s)
            if (!plan.animatedSkeletons.count(int32_t(s)) && most < int64_t(m_skeletons[s].joints.size())) pick = int32_t(s);
        if (pick < 0 && plan.animatedSkeletons.empty()) pick = 0;
        if (pick >= 0) plan.instanceSkeleton[int32_t(n)] = pick;
    }
    // Skeleton clips without an Animator: every clip whose poses fit the skeleton.
    for (size_t s = 0; s < m_skeletons.size(); ++s) {
        if (plan.animatedSkeletons.count(int32_t(s))) continue;
        for (size_t c = 0; c < m_clips.size(); ++c)
            if (m_clips[c].type == block::SkeletonAnimation) plan.skeletonClips[int32_t(s)].insert(int32_t(c));
    }
}

// Violations for joint indices beyond the skeleton that skins the mesh, and for poses whose joint
// count differs from the skeleton's (reported once per clip and skeleton).
void Reader::checkSkeletonFit(const AnimationPlan& plan) {
    std::set<int32_t> checkedMeshes;
    for (const auto& [node, s] : plan.instanceSkeleton) {
        const int32_t meshIndex = m_scene.nodes[node].object;
        if (!checkedMeshes.insert(meshIndex).second) continue;
        const int64_t most = maxJointIndex(m_scene.meshes[meshIndex]);
        const Skeleton& sk = m_skeletons[s];
        if (most >= int64_t(sk.joints.size())) {
            const auto block = m_meshBlocks.count(meshIndex) ? m_meshBlocks[meshIndex] : std::pair<uint32_t, uint64_t>{0, 0};
            violation(block.second, "block " + num(block.first) + " (TriangleGeometry " + quoted(m_scene.meshes[meshIndex].name) + ")",
                      "joint index " + num(uint64_t(most)) + " is beyond skeleton " + quoted(sk.name) + " (block " +
                          num(sk.blockId) + ", " + num(sk.joints.size()) + " joints)");
        }
    }
    for (const auto& [s, clips] : plan.skeletonClips) {
        const Skeleton& sk = m_skeletons[s];
        for (int32_t c : clips) {
            for (const AnimFrame& f : m_clips[c].frames) {
                const SkeletonPose& p = m_poses[f.pose];
                if (p.transforms.size() != sk.joints.size()) {
                    violation(p.offset, "block " + num(p.blockId) + " (SkeletonPose " + quoted(p.name) + ")",
                              "the pose has " + num(p.transforms.size()) + " joint transforms, skeleton " + quoted(sk.name) +
                                  " (block " + num(sk.blockId) + ") " + num(sk.joints.size()) + " joints; animation " +
                                  quoted(m_clips[c].name) + " (block " + num(m_clips[c].blockId) +
                                  ") uses it (missing joints keep the bind pose)");
                    break;
                }
            }
        }
    }
}

// The scene clip of animation block `c` (AnimClip index), made on first use.
int32_t Reader::sceneClipFor(AnimationPlan& plan, int32_t c) {
    auto it = plan.sceneClip.find(c);
    if (it != plan.sceneClip.end()) return it->second;
    Clip clip;
    clip.name = m_clips[c].name;
    clip.start = 0.0f;
    clip.end = clipSeconds(m_clips[c]);
    m_scene.animation.clips.push_back(std::move(clip));
    const int32_t index = static_cast<int32_t>(m_scene.animation.clips.size() - 1);
    plan.sceneClip[c] = index;
    return index;
}

// Scene clips: one per animation block something plays, created in block order so that clip
// indices follow the file.
void Reader::createSceneClips(AnimationPlan& plan) {
    std::set<int32_t> used;
    for (const auto& [s, clips] : plan.skeletonClips) {
        bool driven = false;
        for (const auto& [node, sk] : plan.instanceSkeleton) driven = driven || sk == s;
        if (driven) used.insert(clips.begin(), clips.end());
    }
    for (size_t c = 0; c < m_clips.size(); ++c)
        if (m_clips[c].type != block::SkeletonAnimation) used.insert(int32_t(c));
    for (int32_t c : used) sceneClipFor(plan, c);
}

// Joints: one set of joint nodes per skeleton and placement (mesh instances with the same
// parent and local matrix share one), below the first such instance.
void Reader::makeSkins(AnimationPlan& plan) {
    std::map<std::tuple<int32_t, int32_t, std::vector<float>>, int32_t> groups;  // -> skin
    for (const auto& [node, s] : plan.instanceSkeleton) {
        const Node& inst = m_scene.nodes[node];
        std::vector<float> local(16);
        std::memcpy(local.data(), &inst.local.matrix[0][0], 64);
        auto key = std::make_tuple(s, inst.parent, local);
        auto found = groups.find(key);
        if (found != groups.end()) {
            m_scene.nodes[node].skin = found->second;
            continue;
        }
        const Skeleton& sk = m_skeletons[s];
        Skin skin;
        skin.name = sk.name;
        const int32_t first = static_cast<int32_t>(m_scene.nodes.size());
        std::vector<glm::mat4> bindLocal(sk.joints.size());
        for (size_t j = 0; j < sk.joints.size(); ++j) {
            const SkeletonJoint& joint = sk.joints[j];
            const glm::mat4 global = glm::inverse(joint.inverseBind);
            bindLocal[j] = joint.parent >= 0 ? sk.joints[joint.parent].inverseBind * global : global;
            Node jn;
            jn.name = joint.name;
            jn.parent = joint.parent >= 0 ? first + joint.parent : node;
            jn.kind = NodeKind::Empty;
            jn.viewerAdded = true;
            splitTrs(bindLocal[j], jn.local.translation, jn.local.rotation, jn.local.scale);
            m_scene.nodes.push_back(std::move(jn));
            skin.joints.push_back(first + int32_t(j));
            skin.inverseBind.push_back(joint.inverseBind);
        }
        plan.jointNodes += sk.joints.size();
        skin.skeletonRoot = node;
        m_scene.skins.push_back(std::move(skin));
        const int32_t skinIndex = static_cast<int32_t>(m_scene.skins.size() - 1);
        groups[key] = skinIndex;
        m_scene.nodes[node].skin = skinIndex;
        for (int32_t c : plan.skeletonClips[s]) addJointTracks(plan, c, sk, first, bindLocal);
    }
}

// Tracks of skeleton clip `c` for the joint nodes from `firstJoint`: per joint, translation /
// rotation / scale keys at the frame times (the bind pose where a pose leaves a joint out).
void Reader::addJointTracks(AnimationPlan& plan, int32_t c, const Skeleton& sk, int32_t firstJoint,
                            const std::vector<glm::mat4>& bindLocal) {
    const AnimClip& ac = m_clips[c];
    Clip& clip = m_scene.animation.clips[sceneClipFor(plan, c)];
    std::vector<float> times;
    std::vector<size_t> keyFrames;
    frameKeys(ac, times, keyFrames);
    for (size_t j = 0; j < sk.joints.size(); ++j) {
        Track t, q, sc;
        t.node = q.node = sc.node = firstJoint + int32_t(j);
        t.channel = Channel::Translation;
        q.channel = Channel::Rotation;
        sc.channel = Channel::Scale;
        t.components = 3;
        q.components = 4;
        sc.components = 3;
        t.times = q.times = sc.times = times;
        glm::quat previous(1.0f, 0.0f, 0.0f, 0.0f);
        for (size_t k = 0; k < keyFrames.size(); ++k) {
            const SkeletonPose& pose = m_poses[ac.frames[keyFrames[k]].pose];
            const glm::mat4 m = j < pose.transforms.size() && pose.has[j] ? pose.transforms[j] : bindLocal[j];
            glm::vec3 tr, s3;
            glm::quat rot;
            splitTrs(m, tr, rot, s3);
            if (k > 0 && glm::dot(previous, rot) < 0.0f) rot = -rot;
            previous = rot;
            t.values.insert(t.values.end(), {tr.x, tr.y, tr.z});
            q.values.insert(q.values.end(), {rot.x, rot.y, rot.z, rot.w});
            sc.values.insert(sc.values.end(), {s3.x, s3.y, s3.z});
        }
        clip.tracks.push_back(std::move(t));
        clip.tracks.push_back(std::move(q));
        clip.tracks.push_back(std::move(sc));
    }
}

// Vertex animation: one absolute (or, additive, relative) morph target per frame; weights switch
// and crossfade between consecutive frames, as Away3D's VertexAnimator blends two frames.
void Reader::makeMorphTargets(AnimationPlan& plan) {
    std::map<int32_t, std::vector<int32_t>> clipInstances;  // AnimClip -> nodes (from Animators)
    for (const Animator& an : m_animators)
        if (an.set >= 0)
            for (int32_t c : m_sets[an.set].clips)
                if (c >= 0 && m_clips[c].type != block::SkeletonAnimation)
                    clipInstances[c].insert(clipInstances[c].end(), an.instances.begin(), an.instances.end());
    for (size_t c = 0; c < m_clips.size(); ++c) {
        AnimClip& ac = m_clips[c];
        if (ac.type == block::SkeletonAnimation || ac.mesh < 0) continue;
        Mesh& mesh = m_scene.meshes[ac.mesh];
        std::vector<int32_t> nodes;
        if (ac.instance >= 0) {
            if (m_scene.nodes[ac.instance].kind == NodeKind::Mesh) nodes.push_back(ac.instance);
        } else if (clipInstances.count(int32_t(c))) {
            for (int32_t n : clipInstances[int32_t(c)])
                if (m_scene.nodes[n].kind == NodeKind::Mesh && m_scene.nodes[n].object == ac.mesh) nodes.push_back(n);
        } else {
            for (size_t n = 0; n < m_scene.nodes.size(); ++n)
                if (m_scene.nodes[n].kind == NodeKind::Mesh && m_scene.nodes[n].object == ac.mesh) nodes.push_back(int32_t(n));
        }
        const uint32_t firstTarget = static_cast<uint32_t>(mesh.morphTargets.size());
        addFrameTargets(ac, mesh);
        plan.targets += ac.frames.size();
        Clip& clip = m_scene.animation.clips[sceneClipFor(plan, int32_t(c))];
        std::vector<float> times;
        std::vector<size_t> keyFrames;
        frameKeys(ac, times, keyFrames);
        for (int32_t n : nodes)
            for (size_t f = 0; f < ac.frames.size(); ++f) {
                Track w;
                w.node = n;
                w.channel = Channel::MorphWeight;
                w.element = firstTarget + uint32_t(f);
                w.components = 1;
                w.times = times;
                for (size_t k : keyFrames) w.values.push_back(k == f ? 1.0f : 0.0f);
                clip.tracks.push_back(std::move(w));
            }
    }
}

// A morph target of `mesh` per frame of vertex clip `ac` (whose positions are released).
void Reader::addFrameTargets(AnimClip& ac, Mesh& mesh) {
    // Absolute frames carry normals derived from their own triangles, as Away3D derives a
    // frame geometry's normals (the sum of unit face normals, normalised).
    std::vector<uint32_t> triangles;
    const bool withNormals = !ac.relative && hasAttribute(mesh, Semantic::Normal);
    if (withNormals) expandTriangles(mesh, triangles);
    for (size_t f = 0; f < ac.frames.size(); ++f) {
        MorphTarget target;
        target.name = ac.name + " " + num(f);
        target.relative = ac.relative;
        std::vector<float>& p = ac.frames[f].positions;
        const size_t vertices = p.size() / 3;
        std::vector<float> normals;
        if (withNormals) normals = frameNormals(p, triangles);
        const uint32_t stride = withNormals ? 24 : 12;
        std::vector<uint8_t> bytes(vertices * stride);
        for (size_t v = 0; v < vertices; ++v) {
            std::memcpy(bytes.data() + v * stride, &p[v * 3], 12);
            if (withNormals) std::memcpy(bytes.data() + v * stride + 12, &normals[v * 3], 12);
        }
        std::vector<float>().swap(p);
        target.stream.bytes = makeOwnedBytes(std::move(bytes));
        target.stream.stride = stride;
        target.stream.count = mesh.vertexCount;
        VertexAttribute a;
        a.semantic = Semantic::Position;
        a.components = 3;
        target.stream.attributes.push_back(a);
        if (withNormals) {
            a.semantic = Semantic::Normal;
            a.offset = 12;
            target.stream.attributes.push_back(a);
        }
        mesh.morphTargets.push_back(std::move(target));
        mesh.defaultMorphWeights.push_back(0.0f);
    }
}

// UV animations: a transform per clip, applied to the diffuse maps of the meshes whose
// Animator plays it (AWD has no other link from a material to a UV animation).
void Reader::makeUvClips() {
    for (size_t u = 0; u < m_uvClips.size(); ++u) {
        const UvClip& uc = m_uvClips[u];
        UvTransform ut;
        ut.name = "UV animation " + quoted(uc.name);
        TransformElement e;
        e.kind = ElementKind::Matrix;
        std::memcpy(e.value.data(), &uc.matrices.front()[0][0], 64);
        ut.elements.push_back(e);
        m_scene.uvTransforms.push_back(std::move(ut));
        const int32_t uvIndex = static_cast<int32_t>(m_scene.uvTransforms.size() - 1);
        m_scene.animation.clips.push_back(uvClip(uc, uvIndex));
        size_t linked = 0;
        for (const Animator& an : m_animators) {
            if (an.set < 0) continue;
            const auto& clips = m_sets[an.set].clips;
            if (std::find(clips.begin(), clips.end(), -1 - int32_t(u)) == clips.end()) continue;
            for (int32_t n : an.instances)
                for (int32_t mat : m_scene.nodes[n].materials) {
                    if (mat < 0) continue;
                    TextureRef& ref = m_scene.materials[mat].texture(TextureSlot::Diffuse);
                    if (ref.texture < 0) continue;
                    ref.uvTransform = uvIndex;
                    ++linked;
                }
        }
        if (!linked)
            info("UV animation " + quoted(uc.name) + ": no Animator plays it on a mesh; kept as a clip that moves nothing drawn");
    }
}

// The report lines: joint nodes added, morph targets made, skeletons that skin nothing.
void Reader::reportAnimation(const AnimationPlan& plan) {
    if (plan.jointNodes)
        info(num(plan.jointNodes) + " joint nodes added for " + num(m_skeletons.size()) + " skeleton" +
             (m_skeletons.size() == 1 ? "" : "s") + " (below the mesh instances they skin; not counted as the file's nodes)");
    if (plan.targets) info(num(plan.targets) + " morph targets made from vertex animation frames");
    for (size_t s = 0; s < m_skeletons.size(); ++s) {
        bool used = false;
        for (const auto& [node, sk] : plan.instanceSkeleton) used = used || sk == int32_t(s);
        if (!used)
            info("skeleton " + quoted(m_skeletons[s].name) + " (block " + num(m_skeletons[s].blockId) +
                 ") skins no mesh instance; its animations are not played");
    }
}

void Reader::finishAnimation() {
    AnimationPlan plan;
    linkSkeletons(plan);
    checkSkeletonFit(plan);
    createSceneClips(plan);
    makeSkins(plan);
    makeMorphTargets(plan);
    // Nodes of a mesh given morph targets after they were read carry no weights of their own.
    for (Node& n : m_scene.nodes)
        if (n.kind == NodeKind::Mesh && n.object >= 0 && !n.morphWeights.empty() &&
            n.morphWeights.size() != m_scene.meshes[n.object].morphTargets.size())
            n.morphWeights.clear();
    makeUvClips();
    reportAnimation(plan);
}

}  // namespace esv::awd
