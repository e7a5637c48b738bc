#include "scene/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace esv {
namespace {

// Index of the key interval containing `t`: keys[i] <= t < keys[i+1]; assumes 2+ keys and t inside.
size_t findInterval(const std::vector<float>& times, float t) {
    auto it = std::upper_bound(times.begin(), times.end(), t);
    size_t i = static_cast<size_t>(it - times.begin());
    return i == 0 ? 0 : std::min(i - 1, times.size() - 2);
}

glm::quat quatAt(const float* v) {
    return glm::quat(v[3], v[0], v[1], v[2]);
}

void storeQuat(const glm::quat& q, float* out) {
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
}

// Shortest-path spherical interpolation; falls back to normalised lerp for nearly equal rotations.
glm::quat slerpShortest(glm::quat a, glm::quat b, float u) {
    float d = glm::dot(a, b);
    if (d < 0.0f) {
        b = -b;
        d = -d;
    }
    if (d > 0.9995f) return glm::normalize(a * (1.0f - u) + b * u);
    const float theta = std::acos(std::min(d, 1.0f));
    const float s = std::sin(theta);
    return a * (std::sin((1.0f - u) * theta) / s) + b * (std::sin(u * theta) / s);
}

float cubicBezier(float p0, float p1, float p2, float p3, float s) {
    const float r = 1.0f - s;
    return r * r * r * p0 + 3.0f * r * r * s * p1 + 3.0f * r * s * s * p2 + s * s * s * p3;
}

// Solves the Bezier time curve x(s) = t for s in [0,1]: Newton's method from the linear guess
// (the OpenGEX spec's method), kept inside a shrinking bisection bracket so a flat spot or a step
// out of [0,1] cannot diverge. x is monotonic when both control times lie inside [t0, t1].
float solveBezierParameter(float t0, float c0, float c1, float t1, float t) {
    const float h = t1 - t0;
    if (!(h > 0.0f)) return 0.0f;
    // x(s) - t = a s^3 + b s^2 + c s + d
    const float a = t1 - 3.0f * c1 + 3.0f * c0 - t0;
    const float b = 3.0f * (c1 - 2.0f * c0 + t0);
    const float c = 3.0f * (c0 - t0);
    const float d = t0 - t;
    float lo = 0.0f, hi = 1.0f;
    float s = std::clamp((t - t0) / h, 0.0f, 1.0f);
    for (int i = 0; i < 32; ++i) {
        const float f = ((a * s + b) * s + c) * s + d;
        if (std::fabs(f) <= 1e-7f * h) break;
        if (f < 0.0f) {
            lo = s;
        } else {
            hi = s;
        }
        const float df = (3.0f * a * s + 2.0f * b) * s + c;
        float next = df != 0.0f ? s - f / df : -1.0f;
        if (!(next > lo && next < hi)) next = 0.5f * (lo + hi);
        if (next == s) break;
        s = next;
    }
    return s;
}

// Kochanek-Bartels tangents at key k for one component, scaled for non-uniform key spacing. Keys
// without parameters use tension = continuity = bias = 0 (Catmull-Rom). The end keys repeat
// themselves as their missing neighbour.
void tcbTangents(const Track& tr, bool haveParams, size_t k, size_t c, float& incoming, float& outgoing) {
    const size_t n = tr.times.size();
    const size_t comps = tr.components;
    const float p = tr.values[k * comps + c];
    const float prev = k > 0 ? tr.values[(k - 1) * comps + c] : p;
    const float next = k + 1 < n ? tr.values[(k + 1) * comps + c] : p;
    const float t = haveParams ? tr.tension[k] : 0.0f;
    const float cont = haveParams ? tr.continuity[k] : 0.0f;
    const float b = haveParams ? tr.bias[k] : 0.0f;
    const float dIn = p - prev, dOut = next - p;
    const float src =
        0.5f * (1 - t) * (1 + cont) * (1 + b) * dIn + 0.5f * (1 - t) * (1 - cont) * (1 - b) * dOut;
    const float dst =
        0.5f * (1 - t) * (1 - cont) * (1 + b) * dIn + 0.5f * (1 - t) * (1 + cont) * (1 - b) * dOut;
    // Keys at uneven intervals: adjust so the curve's speed is continuous across the key.
    const float hPrev = k > 0 ? tr.times[k] - tr.times[k - 1] : 0.0f;
    const float hNext = k + 1 < n ? tr.times[k + 1] - tr.times[k] : 0.0f;
    float inScale = 1.0f, outScale = 1.0f;
    if (tr.tcbSpacingAdjust && hPrev > 0.0f && hNext > 0.0f) {
        inScale = 2.0f * hPrev / (hPrev + hNext);
        outScale = 2.0f * hNext / (hPrev + hNext);
    }
    incoming = dst * inScale;
    outgoing = src * outScale;
}

}  // namespace

void sampleTrack(const Track& track, float seconds, float* out) {
    const size_t n = track.times.size();
    const size_t comps = track.components;
    if (n == 0 || comps == 0 || track.values.size() < n * comps) {
        for (size_t c = 0; c < comps; ++c) out[c] = 0.0f;
        return;
    }
    if (n == 1 || !(seconds > track.times.front())) {
        std::memcpy(out, track.values.data(), comps * sizeof(float));
        return;
    }
    if (seconds >= track.times.back()) {
        std::memcpy(out, track.values.data() + (n - 1) * comps, comps * sizeof(float));
        return;
    }
    const size_t k = findInterval(track.times, seconds);
    const float t0 = track.times[k], t1 = track.times[k + 1];
    const float h = t1 - t0;
    float u = h > 0.0f ? (seconds - t0) / h : 0.0f;
    if (track.outTimes.size() >= n && track.inTimes.size() >= n) {
        // Control times outside the key interval would make time run backwards on the curve.
        const float c0 = std::clamp(track.outTimes[k], t0, t1);
        const float c1 = std::clamp(track.inTimes[k + 1], t0, t1);
        u = solveBezierParameter(t0, c0, c1, t1, seconds);
    }
    const float* a = track.values.data() + k * comps;
    const float* b = a + comps;

    switch (track.interpolation) {
        case Interpolation::Step:
            std::memcpy(out, a, comps * sizeof(float));
            return;
        case Interpolation::Linear:
            if (track.channel == Channel::Rotation && comps == 4) {
                storeQuat(slerpShortest(quatAt(a), quatAt(b), u), out);
                return;
            }
            for (size_t c = 0; c < comps; ++c) out[c] = a[c] + (b[c] - a[c]) * u;
            return;
        case Interpolation::Bezier: {
            // Without control values the curve degenerates to a straight line (controls at thirds).
            const bool haveValues = track.outValues.size() >= n * comps && track.inValues.size() >= n * comps;
            const float s = u;
            for (size_t c = 0; c < comps; ++c) {
                const float c0 = haveValues ? track.outValues[k * comps + c] : a[c] + (b[c] - a[c]) / 3.0f;
                const float c1 =
                    haveValues ? track.inValues[(k + 1) * comps + c] : b[c] - (b[c] - a[c]) / 3.0f;
                out[c] = cubicBezier(a[c], c0, c1, b[c], s);
            }
            if (track.channel == Channel::Rotation && comps == 4) storeQuat(glm::normalize(quatAt(out)), out);
            return;
        }
        case Interpolation::Tcb: {
            const bool haveParams =
                track.tension.size() >= n && track.continuity.size() >= n && track.bias.size() >= n;
            const float u2 = u * u, u3 = u2 * u;
            const float h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2,
                        h11 = u3 - u2;
            for (size_t c = 0; c < comps; ++c) {
                float outTangent = 0.0f, inTangent = 0.0f, unused = 0.0f;
                tcbTangents(track, haveParams, k, c, unused, outTangent);
                tcbTangents(track, haveParams, k + 1, c, inTangent, unused);
                out[c] = h00 * a[c] + h10 * outTangent + h01 * b[c] + h11 * inTangent;
            }
            if (track.channel == Channel::Rotation && comps == 4) storeQuat(glm::normalize(quatAt(out)), out);
            return;
        }
        default:
            std::memcpy(out, a, comps * sizeof(float));
            return;
    }
}

namespace {

// Floats a track of `channel` must carry per key for evaluatePose to apply it (0: any count).
uint32_t requiredComponents(Channel channel) {
    switch (channel) {
        case Channel::Translation:
        case Channel::Scale:
            return 3;
        case Channel::Rotation:
            return 4;
        case Channel::Matrix:
            return 16;
        case Channel::CameraFov:
        case Channel::Visibility:
        case Channel::MorphWeight:
            return 1;
        default:
            return 0;
    }
}

// Copies every node's element values into the pose, where element tracks overwrite them.
void copyElements(const Scene& scene, Pose& pose) {
    const size_t count = scene.nodes.size();
    pose.elementOffset.resize(count);
    pose.elementsChanged.assign(count, 0);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        pose.elementOffset[i] = static_cast<uint32_t>(total);
        total += scene.nodes[i].elements.size();
    }
    pose.elementValues.resize(total * 16);
    for (size_t i = 0; i < count; ++i) {
        const std::vector<TransformElement>& elements = scene.nodes[i].elements;
        for (size_t e = 0; e < elements.size(); ++e)
            std::memcpy(&pose.elementValues[(pose.elementOffset[i] + e) * 16], elements[e].value.data(),
                        16 * sizeof(float));
    }
}

// Copies every uv transform's element values into the pose, where UvElement tracks overwrite them.
void copyUvElements(const Scene& scene, Pose& pose) {
    const size_t count = scene.uvTransforms.size();
    pose.uvElementOffset.resize(count);
    pose.uvChanged.assign(count, 0);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        pose.uvElementOffset[i] = static_cast<uint32_t>(total);
        total += scene.uvTransforms[i].elements.size();
    }
    pose.uvElementValues.resize(total * 16);
    for (size_t i = 0; i < count; ++i) {
        const std::vector<TransformElement>& elements = scene.uvTransforms[i].elements;
        for (size_t e = 0; e < elements.size(); ++e)
            std::memcpy(&pose.uvElementValues[(pose.uvElementOffset[i] + e) * 16], elements[e].value.data(),
                        16 * sizeof(float));
    }
}

// A node's local (node elements) and object (object elements) transforms from element values
// (16 floats per element), each the product of its elements in file order.
void composeElements(const Node& node, const float* values, Transform& local, glm::mat4& object) {
    glm::mat4 nodePart(1.0f), objectPart(1.0f);
    for (size_t e = 0; e < node.elements.size(); ++e) {
        const glm::mat4 m = TransformElement::toMatrix(node.elements[e].kind, values + e * 16);
        if (node.elements[e].object) {
            objectPart = objectPart * m;
        } else {
            nodePart = nodePart * m;
        }
    }
    local = Transform{};
    local.matrix = nodePart;
    local.useMatrix = true;
    object = objectPart;
}

// World and object world matrices from pose.local, shared by evaluatePose and blendPoses so a
// blended pose composes its hierarchy exactly as a sampled one does.
void computeWorld(const Scene& scene, Pose& pose) {
    const size_t count = scene.nodes.size();
    if (pose.objectLocal.size() != count) {
        pose.objectLocal.resize(count);
        for (size_t i = 0; i < count; ++i) pose.objectLocal[i] = scene.nodes[i].objectTransform;
    }
    pose.world.resize(count);
    pose.objectWorld.resize(count);
    // World matrices in any node order: walk up from each unresolved node to a resolved one or a
    // root, then resolve that chain top-down. Every node is resolved once, so this is linear.
    std::vector<uint8_t>& done = pose.resolved;
    std::vector<uint32_t>& chain = pose.chain;
    done.assign(count, 0);
    for (size_t i = 0; i < count; ++i) {
        if (done[i]) continue;
        chain.clear();
        size_t n = i;
        // The length cap ends the walk on a parent cycle (the validator rejects those; this only
        // keeps an unvalidated scene from looping).
        while (!done[n] && chain.size() <= count) {
            chain.push_back(static_cast<uint32_t>(n));
            const int32_t p = scene.nodes[n].parent;
            if (p < 0 || static_cast<size_t>(p) >= count) break;
            n = static_cast<size_t>(p);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const size_t node = *it;
            if (done[node]) continue;
            const int32_t p = scene.nodes[node].parent;
            const glm::mat4 local = pose.local[node].toMatrix();
            pose.world[node] =
                (p >= 0 && static_cast<size_t>(p) < count && done[p]) ? pose.world[p] * local : local;
            pose.objectWorld[node] = pose.world[node] * pose.objectLocal[node];
            done[node] = 1;
        }
    }
}

}  // namespace

void evaluatePose(const Scene& scene, int clip, float seconds, Pose& pose) {
    const size_t count = scene.nodes.size();
    pose.local.resize(count);
    pose.world.resize(count);
    pose.objectWorld.resize(count);
    pose.morphWeights.resize(count);
    pose.cameraFov.assign(count, 0.0f);
    pose.visible.resize(count);
    pose.objectLocal.resize(count);
    bool elementsCopied = false, uvCopied = false;
    pose.uvMatrices.resize(scene.uvTransforms.size());
    for (size_t i = 0; i < scene.uvTransforms.size(); ++i) pose.uvMatrices[i] = scene.uvTransforms[i].matrix();

    for (size_t i = 0; i < count; ++i) {
        const Node& node = scene.nodes[i];
        pose.local[i] = node.local;
        pose.objectLocal[i] = node.objectTransform;
        pose.visible[i] = node.visible ? 1 : 0;
        std::vector<float>& weights = pose.morphWeights[i];
        weights.clear();
        if (node.kind == NodeKind::Mesh && node.object >= 0 &&
            static_cast<size_t>(node.object) < scene.meshes.size()) {
            const Mesh& mesh = scene.meshes[node.object];
            if (!mesh.morphTargets.empty()) {
                weights.assign(mesh.morphTargets.size(), 0.0f);
                const std::vector<float>& defaults =
                    node.morphWeights.empty() ? mesh.defaultMorphWeights : node.morphWeights;
                for (size_t t = 0; t < weights.size() && t < defaults.size(); ++t) weights[t] = defaults[t];
            }
        }
        if (node.kind == NodeKind::Camera && node.object >= 0 &&
            static_cast<size_t>(node.object) < scene.cameras.size())
            pose.cameraFov[i] = scene.cameras[node.object].yfov;
    }

    if (clip >= 0 && static_cast<size_t>(clip) < scene.animation.clips.size()) {
        const Clip& c = scene.animation.clips[clip];
        const float t = std::clamp(seconds, c.start, std::max(c.start, c.end));
        std::vector<float>& value = pose.trackValues;
        for (const Track& track : c.tracks) {
            if (track.channel == Channel::UvElement) {
                // Targets a texture coordinate transform, not a node.
                if (track.uvTransform < 0 || static_cast<size_t>(track.uvTransform) >= scene.uvTransforms.size())
                    continue;
                const std::vector<TransformElement>& elements = scene.uvTransforms[track.uvTransform].elements;
                if (track.element >= elements.size() ||
                    track.components < elementComponents(elements[track.element].kind))
                    continue;
                if (!uvCopied) {
                    copyUvElements(scene, pose);
                    uvCopied = true;
                }
                if (value.size() < track.components) value.resize(track.components);
                sampleTrack(track, t, value.data());
                float* dst = &pose.uvElementValues[(size_t(pose.uvElementOffset[track.uvTransform]) + track.element) * 16];
                std::memcpy(dst, value.data(), elementComponents(elements[track.element].kind) * sizeof(float));
                pose.uvChanged[track.uvTransform] = 1;
                continue;
            }
            if (track.node < 0 || static_cast<size_t>(track.node) >= count || track.components == 0) continue;
            // A track with too few floats for its channel would leave parts of the value unset.
            if (track.components < requiredComponents(track.channel)) continue;
            const Node& target = scene.nodes[track.node];
            if (track.channel == Channel::Element &&
                (track.element >= target.elements.size() ||
                 track.components < elementComponents(target.elements[track.element].kind)))
                continue;
            if (value.size() < track.components) value.resize(track.components);
            sampleTrack(track, t, value.data());
            Transform& local = pose.local[track.node];
            switch (track.channel) {
                case Channel::Translation:
                    local.translation = glm::vec3(value[0], value[1], value[2]);
                    break;
                case Channel::Rotation: {
                    const glm::quat q = quatAt(value.data());
                    const float len = glm::length(q);
                    // A zero quaternion (all-zero keys) has no rotation to normalise; keep the rest value.
                    if (len > 0.0f && std::isfinite(len)) local.rotation = q / len;
                    break;
                }
                case Channel::Scale:
                    local.scale = glm::vec3(value[0], value[1], value[2]);
                    break;
                case Channel::Matrix:
                    std::memcpy(&local.matrix[0][0], value.data(), 16 * sizeof(float));
                    local.useMatrix = true;
                    break;
                case Channel::MorphWeights: {
                    std::vector<float>& w = pose.morphWeights[track.node];
                    for (size_t k = 0; k < w.size() && k < track.components; ++k) w[k] = value[k];
                    break;
                }
                case Channel::CameraFov:
                    pose.cameraFov[track.node] = value[0];
                    break;
                case Channel::Visibility:
                    pose.visible[track.node] = value[0] > 0.5f ? 1 : 0;
                    break;
                case Channel::MorphWeight: {
                    std::vector<float>& w = pose.morphWeights[track.node];
                    if (track.element < w.size()) w[track.element] = value[0];
                    break;
                }
                case Channel::Element: {
                    if (!elementsCopied) {
                        copyElements(scene, pose);
                        elementsCopied = true;
                    }
                    const uint32_t comps = elementComponents(target.elements[track.element].kind);
                    float* dst = &pose.elementValues[(size_t(pose.elementOffset[track.node]) + track.element) * 16];
                    std::memcpy(dst, value.data(), comps * sizeof(float));
                    pose.elementsChanged[track.node] = 1;
                    break;
                }
                default:
                    break;
            }
        }
    }
    if (elementsCopied) {
        for (size_t i = 0; i < count; ++i)
            if (pose.elementsChanged[i]) composeElements(scene.nodes[i], &pose.elementValues[size_t(pose.elementOffset[i]) * 16],
                                                         pose.local[i], pose.objectLocal[i]);
    }
    if (uvCopied) {
        for (size_t i = 0; i < scene.uvTransforms.size(); ++i) {
            if (!pose.uvChanged[i]) continue;
            const std::vector<TransformElement>& elements = scene.uvTransforms[i].elements;
            const float* values = &pose.uvElementValues[size_t(pose.uvElementOffset[i]) * 16];
            glm::mat4 m(1.0f);
            for (size_t e = 0; e < elements.size(); ++e) m = m * TransformElement::toMatrix(elements[e].kind, values + e * 16);
            pose.uvMatrices[i] = m;
        }
    }

    computeWorld(scene, pose);
}

namespace {

// Splits `m` into translation * rotation * scale, the form Transform::toMatrix builds. A mirroring
// matrix keeps its reflection as a negative x scale. Fails on a perspective row, a zero or
// non-finite axis, and on anything the three parts do not rebuild (shear), so the caller can fall
// back to blending the matrix itself.
bool decomposeTrs(const glm::mat4& m, glm::vec3& translation, glm::quat& rotation, glm::vec3& scale) {
    constexpr float kExact = 1e-6f;
    if (std::fabs(m[0][3]) > kExact || std::fabs(m[1][3]) > kExact || std::fabs(m[2][3]) > kExact ||
        std::fabs(m[3][3] - 1.0f) > kExact)
        return false;
    const glm::vec3 c0(m[0]), c1(m[1]), c2(m[2]);
    scale = glm::vec3(glm::length(c0), glm::length(c1), glm::length(c2));
    if (!(scale.x > 0.0f && scale.y > 0.0f && scale.z > 0.0f) || !std::isfinite(scale.x) ||
        !std::isfinite(scale.y) || !std::isfinite(scale.z))
        return false;
    if (glm::dot(glm::cross(c0, c1), c2) < 0.0f) scale.x = -scale.x;
    rotation = glm::normalize(glm::quat_cast(glm::mat3(c0 / scale.x, c1 / scale.y, c2 / scale.z)));
    translation = glm::vec3(m[3]);
    Transform rebuilt;
    rebuilt.translation = translation;
    rebuilt.rotation = rotation;
    rebuilt.scale = scale;
    const glm::mat4 back = rebuilt.toMatrix();
    const float largest = std::max({1.0f, std::fabs(scale.x), std::fabs(scale.y), std::fabs(scale.z)});
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (!(std::fabs(back[c][r] - m[c][r]) <= 1e-4f * largest)) return false;
    return true;
}

Transform blendLocal(const Transform& a, const Transform& b, float w) {
    glm::vec3 ta = a.translation, sa = a.scale, tb = b.translation, sb = b.scale;
    glm::quat ra = a.rotation, rb = b.rotation;
    const bool asTrs = (!a.useMatrix || decomposeTrs(a.matrix, ta, ra, sa)) &&
                       (!b.useMatrix || decomposeTrs(b.matrix, tb, rb, sb));
    Transform out;
    if (!asTrs) {
        // Element-wise is the only blend defined for every matrix; it may shear in between.
        const glm::mat4 ma = a.toMatrix(), mb = b.toMatrix();
        out.matrix = ma + (mb - ma) * w;
        out.useMatrix = true;
        return out;
    }
    out.translation = ta + (tb - ta) * w;
    out.scale = sa + (sb - sa) * w;
    out.rotation = slerpShortest(ra, rb, w);
    return out;
}

// A pose copied from one that was not evaluated for this scene's uv transforms gets their rest matrices.
void restUvMatricesIfUnsized(const Scene& scene, Pose& pose) {
    if (pose.uvMatrices.size() == scene.uvTransforms.size()) return;
    pose.uvMatrices.resize(scene.uvTransforms.size());
    for (size_t i = 0; i < scene.uvTransforms.size(); ++i) pose.uvMatrices[i] = scene.uvTransforms[i].matrix();
}

bool sizedFor(const Pose& pose, size_t count) {
    return pose.local.size() == count && pose.morphWeights.size() == count && pose.cameraFov.size() == count &&
           pose.visible.size() == count;
}

}  // namespace

void blendPoses(const Scene& scene, const Pose& a, const Pose& b, float weight, Pose& out) {
    const size_t count = scene.nodes.size();
    const bool aSized = sizedFor(a, count), bSized = sizedFor(b, count);
    if (!aSized && !bSized) {
        evaluatePose(scene, -1, 0.0f, out);
        return;
    }
    const float w = std::isnan(weight) ? 0.0f : std::clamp(weight, 0.0f, 1.0f);
    // The end weights copy one side bit for bit (no decompose/slerp round trip).
    const Pose* only = !bSized || w == 0.0f ? &a : !aSized || w == 1.0f ? &b : nullptr;
    if (only) {
        if (only != &out) {
            out.local = only->local;
            out.objectLocal = only->objectLocal;
            out.morphWeights = only->morphWeights;
            out.cameraFov = only->cameraFov;
            out.visible = only->visible;
            out.uvMatrices = only->uvMatrices;
        }
        restUvMatricesIfUnsized(scene, out);
        computeWorld(scene, out);
        return;
    }
    // `out` may be a or b: sizes already match then, and each element is read before it is written.
    out.local.resize(count);
    out.morphWeights.resize(count);
    out.cameraFov.resize(count);
    out.visible.resize(count);
    const bool objectsSized = a.objectLocal.size() == count && b.objectLocal.size() == count;
    out.objectLocal.resize(count);
    for (size_t i = 0; i < count; ++i) {
        out.local[i] = blendLocal(a.local[i], b.local[i], w);
        // Object transforms (OpenGEX) blend element-wise: they are usually a fixed pivot.
        out.objectLocal[i] = objectsSized ? a.objectLocal[i] + (b.objectLocal[i] - a.objectLocal[i]) * w
                                          : scene.nodes[i].objectTransform;
        const float fovA = a.cameraFov[i], fovB = b.cameraFov[i];
        out.cameraFov[i] = fovA + (fovB - fovA) * w;
        out.visible[i] = w < 0.5f ? a.visible[i] : b.visible[i];
        // Both sides hold one weight per target of the node's mesh; the shorter bounds a mismatch.
        const std::vector<float>& weightsA = a.morphWeights[i];
        const std::vector<float>& weightsB = b.morphWeights[i];
        const size_t targets = std::min(weightsA.size(), weightsB.size());
        std::vector<float>& blended = out.morphWeights[i];
        blended.resize(targets);
        for (size_t k = 0; k < targets; ++k) blended[k] = weightsA[k] + (weightsB[k] - weightsA[k]) * w;
    }
    const size_t uvCount = scene.uvTransforms.size();
    const bool uvSized = a.uvMatrices.size() == uvCount && b.uvMatrices.size() == uvCount;
    out.uvMatrices.resize(uvCount);
    for (size_t i = 0; uvSized && i < uvCount; ++i) {
        Transform ta, tb;
        ta.useMatrix = tb.useMatrix = true;
        ta.matrix = a.uvMatrices[i];
        tb.matrix = b.uvMatrices[i];
        out.uvMatrices[i] = blendLocal(ta, tb, w).toMatrix();
    }
    if (!uvSized)
        for (size_t i = 0; i < uvCount; ++i) out.uvMatrices[i] = scene.uvTransforms[i].matrix();
    computeWorld(scene, out);
}

void skinPalette(const Scene& scene, const Pose& pose, int node, std::vector<glm::mat4>& palette) {
    palette.clear();
    if (node < 0 || static_cast<size_t>(node) >= scene.nodes.size()) return;
    const int32_t skinIndex = scene.nodes[node].skin;
    if (skinIndex < 0 || static_cast<size_t>(skinIndex) >= scene.skins.size()) return;
    const Skin& skin = scene.skins[skinIndex];
    palette.resize(skin.joints.size());
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        const int32_t joint = skin.joints[j];
        const glm::mat4 world = joint >= 0 && static_cast<size_t>(joint) < pose.world.size()
                                    ? pose.world[joint]
                                    : glm::mat4(1.0f);
        palette[j] = j < skin.inverseBind.size() ? world * skin.inverseBind[j] : world;
    }
}

}  // namespace esv
