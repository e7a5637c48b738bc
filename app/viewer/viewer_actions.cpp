#include "app/viewer/viewer_actions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "app/viewer/gizmos.h"
#include "app/viewer/pof_view.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/scene_loader.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"

namespace esv {
namespace {

constexpr float kNoOverride = std::numeric_limits<float>::quiet_NaN();

// Which nodes framing counts (framingBounds): all but a ground under the subject.
std::vector<uint8_t> framedNodes(const Scene& scene, const std::vector<Bounds>& perNode) {
    std::vector<uint8_t> keep(perNode.size(), 0);
    const int up = scene.up == UpAxis::Z ? 2 : 1, h0 = 0, h1 = up == 2 ? 1 : 2;
    auto slab = [&](const Bounds& b) {
        const glm::vec3 e = b.max - b.min;
        const float wide = std::max(e[h0], e[h1]);
        return wide > 0.0f && e[up] <= 0.02f * wide;
    };
    Bounds rest;
    for (size_t n = 0; n < perNode.size(); ++n)
        if (perNode[n].valid() && !slab(perNode[n])) {
            rest.add(perNode[n]);
            keep[n] = 1;
        }
    for (size_t n = 0; n < perNode.size(); ++n) {
        const Bounds& b = perNode[n];
        if (!b.valid() || keep[n]) continue;
        if (!rest.valid()) {
            keep[n] = 1;  // only slabs: they are what there is to see
            continue;
        }
        const glm::vec3 r = rest.max - rest.min, e = b.max - b.min;
        // Wider than the rest by 2.5 times both ways, or by a quarter both ways and covering 8 times
        // its footprint (a character in a T pose is wide one way and thin the other).
        const bool wider = (e[h0] >= 2.5f * r[h0] && e[h1] >= 2.5f * r[h1]) ||
                           (e[h0] >= 1.25f * r[h0] && e[h1] >= 1.25f * r[h1] && e[h0] * e[h1] >= 8.0f * r[h0] * r[h1]);
        const bool ground = wider && b.max[up] <= rest.min[up] + 0.1f * r[up];
        keep[n] = ground ? 0 : 1;
    }
    return keep;
}

// Vertices framing fits, at most about this many a pose (sceneFraming).
constexpr size_t kFramingPoints = 16384;

// Fits the orbit camera on the box, or the points on it when there are any, keeping its angles.
void fitFraming(OrbitCamera& orbit, const Bounds& bounds, const std::vector<glm::vec3>& points,
                float aspect) {
    if (!bounds.valid()) return;
    if (points.empty())
        frameBounds(orbit, bounds.min, bounds.max, aspect);
    else
        framePoints(orbit, points.data(), points.size(), bounds.min, bounds.max, aspect);
}

}  // namespace

bool sceneFraming(const Scene& scene, int clip, const PofViewState& pof, Bounds& bounds,
                  std::vector<glm::vec3>& points, float* gizmoScale) {
    std::vector<Pose> poses(1);
    evaluatePose(scene, -1, 0.0f, poses[0]);
    if (clip >= 0 && size_t(clip) < scene.animation.clips.size()) {
        const Clip& c = scene.animation.clips[clip];
        constexpr int kSamples = 8;
        for (int i = 0; i <= kSamples; ++i) {
            poses.emplace_back();
            evaluatePose(scene, clip, c.start + c.duration() * float(i) / kSamples, poses.back());
        }
    }
    std::vector<Bounds> perNode, sample;
    for (Pose& pose : poses) {
        applyPofView(scene, pof, pose);
        sceneBounds(scene, pose, &sample);
        if (perNode.empty()) perNode = sample;
        for (size_t n = 0; n < perNode.size() && n < sample.size(); ++n) perNode[n].add(sample[n]);
    }
    const std::vector<uint8_t> keep = framedNodes(scene, perNode);
    bounds = Bounds{};
    size_t kept = 0;
    for (size_t n = 0; n < perNode.size(); ++n)
        if (keep[n]) {
            bounds.add(perNode[n]);
            ++kept;
        }
    points.clear();
    if (bounds.valid()) {
        // Vertices a node has but draws nothing with lie outside its box (sceneBounds): left out.
        const size_t perNodeCap = std::max<size_t>(64, kFramingPoints / std::max<size_t>(kept, 1));
        std::vector<glm::vec3> positions;
        for (const Pose& pose : poses)
            for (size_t n = 0; n < perNode.size(); ++n) {
                if (!keep[n]) continue;
                worldVertices(scene, pose, int(n), positions);
                const float slack = 1e-4f * glm::length(perNode[n].max - perNode[n].min);
                const size_t stride = std::max<size_t>(1, positions.size() / perNodeCap);
                for (size_t v = 0; v < positions.size(); v += stride) {
                    const glm::vec3& p = positions[v];
                    if (glm::all(glm::greaterThanEqual(p, perNode[n].min - slack)) &&
                        glm::all(glm::lessThanEqual(p, perNode[n].max + slack)))
                        points.push_back(p);
                }
            }
    }
    if (bounds.valid()) return true;
    // Scenes with no drawable geometry (only lights, cameras, empty nodes, bones) frame their nodes
    // and the gizmos drawn in their place, sized at rest, in every pose (an animated empty stays in view).
    const float size = gizmoSize(scene, poses[0]);
    if (gizmoScale) *gizmoScale = size;
    Annotations gizmos;
    for (const Pose& pose : poses) {
        sceneGizmos(scene, pose, size, gizmos);
        for (const glm::mat4& m : pose.world) bounds.add(glm::vec3(m[3]));
    }
    for (const OverlayVertex& v : gizmos.lines) points.push_back(v.position);
    for (const OverlayVertex& v : gizmos.points) points.push_back(v.position);
    for (const glm::vec3& p : points) bounds.add(p);
    if (!bounds.valid()) bounds.add(glm::vec3(0.0f));
    return false;
}

bool fileCameraDirection(const Scene& scene, glm::vec3& toEye) {
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Camera || node.object < 0 || size_t(node.object) >= scene.cameras.size())
            continue;
        Pose rest;
        evaluatePose(scene, -1, 0.0f, rest);
        ViewSettings settings;
        settings.camera = node.object;
        glm::mat4 view, projection;
        cameraMatrices(scene, rest, settings, 1, 1, view, projection);
        // The camera looks down its -Z: the eye lies along +Z of its frame, seen from the model.
        const glm::vec3 z = glm::vec3(glm::inverse(view)[2]);
        if (!std::isfinite(z.x) || !std::isfinite(z.y) || !std::isfinite(z.z) || glm::length(z) < 1e-6f) continue;
        toEye = glm::normalize(z);
        return true;
    }
    return false;
}

void frameFirstView(OrbitCamera& orbit, const Scene& scene, const Bounds& bounds,
                    const std::vector<glm::vec3>& points, float aspect) {
    orbit.yfov = OrbitCamera{}.yfov;
    firstView(orbit, scene.front, scene.up == UpAxis::Z);
    glm::vec3 toEye;
    if (fileCameraDirection(scene, toEye)) {
        // Yaw and pitch of orbitDirection from the camera's direction, in the Y-up frame the orbit
        // turns in (with Z up, its +Y is the scene's +Z and its +Z the scene's -Y); the pitch
        // kept off the poles, where yaw no longer turns the view.
        const glm::vec3 d = orbit.zUp ? glm::vec3(toEye.x, toEye.z, -toEye.y) : toEye;
        orbit.pitch = glm::clamp(std::asin(glm::clamp(d.y, -1.0f, 1.0f)), -kFileCameraPitch, kFileCameraPitch);
        orbit.yaw = std::abs(d.x) + std::abs(d.z) > 1e-6f ? std::atan2(d.x, d.z) : orbit.yaw;
    }
    fitFraming(orbit, bounds, points, aspect);
}

namespace {

// Möller-Trumbore; returns the ray parameter or a negative value when there is no hit.
float rayTriangle(const glm::vec3& origin, const glm::vec3& dir, const glm::vec3& a, const glm::vec3& b,
                  const glm::vec3& c) {
    const glm::vec3 e1 = b - a, e2 = c - a;
    const glm::vec3 p = glm::cross(dir, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f) return -1.0f;
    const float inv = 1.0f / det;
    const glm::vec3 t = origin - a;
    const float u = glm::dot(t, p) * inv;
    if (u < 0.0f || u > 1.0f) return -1.0f;
    const glm::vec3 q = glm::cross(t, e1);
    const float v = glm::dot(dir, q) * inv;
    if (v < 0.0f || u + v > 1.0f) return -1.0f;
    return glm::dot(e2, q) * inv;
}

// The drawn mesh node whose triangles the ray (unit `dir`) meets first, nearer than `distance`
// (which becomes that hit's distance); -1 when none.
int nearestMeshHit(const ViewerState& s, const glm::vec3& origin, const glm::vec3& dir, float& distance) {
    const Scene& scene = *s.scene;
    int best = -1;
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Mesh || node.object < 0 || n >= s.pose.visible.size() ||
            !s.pose.visible[n])
            continue;
        worldVertices(scene, s.pose, int(n), positions);
        expandTriangles(scene.meshes[node.object], triangles);
        for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
            if (triangles[t] >= positions.size() || triangles[t + 1] >= positions.size() ||
                triangles[t + 2] >= positions.size())
                continue;
            const float hit = rayTriangle(origin, dir, positions[triangles[t]], positions[triangles[t + 1]],
                                          positions[triangles[t + 2]]);
            if (hit > 0.0f && hit < distance) {
                distance = hit;
                best = int(n);
            }
        }
    }
    return best;
}

bool validNode(const ViewerState& s, int node) {
    return s.scene && node >= 0 && size_t(node) < s.scene->nodes.size();
}

}  // namespace

bool isJoint(const Scene& scene, int node) {
    if (node < 0 || size_t(node) >= scene.nodes.size()) return false;
    if (scene.nodes[node].kind == NodeKind::Bone) return true;
    for (const Skin& skin : scene.skins)
        if (std::find(skin.joints.begin(), skin.joints.end(), node) != skin.joints.end()) return true;
    return false;
}

int findNode(const Scene& scene, const std::string& name) {
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (scene.nodes[i].name == name) return int(i);
    int index = -1;
    const char* end = name.data() + name.size();
    auto [ptr, ec] = std::from_chars(name.data(), end, index);
    if (ec == std::errc() && ptr == end && index >= 0 && size_t(index) < scene.nodes.size()) return index;
    return -1;
}

void selectNode(ViewerState& s, int node) {
    if (!validNode(s, node)) node = -1;
    s.selection.node = node;
    s.view.highlightNode = node;
    const bool joint = node >= 0 && isJoint(*s.scene, node);
    s.selection.joint = joint ? node : -1;
    s.view.influenceJoint = s.selection.joint;
    if (joint) {
        s.view.weightBone = node;
        if (s.weightsOnJointPick) s.view.mode = ViewMode::Weights;
    }
    if (node >= 0) {
        const Node& n = s.scene->nodes[node];
        if (n.kind == NodeKind::Light) s.selection.light = n.object;
        if (n.kind == NodeKind::Mesh && !n.materials.empty()) s.selection.material = n.materials[0];
    }
}

Bounds framingBounds(const Scene& scene, const std::vector<Bounds>& perNode) {
    const std::vector<uint8_t> keep = framedNodes(scene, perNode);
    Bounds framed;
    for (size_t n = 0; n < perNode.size(); ++n)
        if (keep[n]) framed.add(perNode[n]);
    return framed;
}

ViewportRect sceneViewport(const ViewerState& s) {
    const ViewportRect whole = !s.viewport.empty()
                                   ? s.viewport
                                   : ViewportRect{0, 0, std::max(s.framebufferWidth, 0), std::max(s.framebufferHeight, 0)};
    if (!s.compare.active()) return whole;
    ViewportRect a, b;
    compareRects(s.compare.mode, whole, a, b);
    return a;
}

void updateFrameAnnotations(ViewerState& s) {
    s.view.annotations = nullptr;
    s.annotations.lines.clear();
    s.annotations.points.clear();
    if (!s.scene) return;
    const ViewportRect v = sceneViewport(s);
    if (s.scene->pof && !v.empty()) {
        glm::mat4 view, projection;
        cameraMatrices(*s.scene, s.pose, s.view, v.width, v.height, view, projection);
        const float normalLength = s.bounds.valid() ? 0.04f * glm::length(s.bounds.max - s.bounds.min) : 1.0f;
        pofFrameAnnotations(*s.scene, s.pose, s.pof, glm::inverse(view), normalLength, s.annotations);
    }
    if (s.gizmos) sceneGizmos(*s.scene, s.pose, s.gizmoSize, s.annotations);
    if (!s.annotations.empty()) s.view.annotations = &s.annotations;
}

namespace {

float windowAspect(const ViewerState& s) {
    const ViewportRect v = sceneViewport(s);
    return v.width > 0 && v.height > 0 ? float(v.width) / float(v.height) : 4.0f / 3.0f;
}

bool sameOrbit(const OrbitCamera& a, const OrbitCamera& b) {
    return a.target == b.target && a.yaw == b.yaw && a.pitch == b.pitch && a.distance == b.distance &&
           a.yfov == b.yfov && a.zUp == b.zUp;
}

// What framing fits: the scene's box and points, and while a second model is compared (compare_view.h)
// its framing too, so that both are in view.
void framedWithCompared(const ViewerState& s, Bounds& bounds, std::vector<glm::vec3>& points) {
    bounds = s.bounds;
    points = s.framingPoints;
    if (!s.compare.active() || !s.compare.bounds.valid()) return;
    bounds.add(s.compare.bounds);
    points.insert(points.end(), s.compare.framingPoints.begin(), s.compare.framingPoints.end());
}

// The orbit camera, from now on, as framing left it: updateViewport frames again while it stays so.
void recordFraming(ViewerState& s) {
    s.view.camera = -1;
    s.framed = s.bounds.valid();
    s.framedOrbit = s.view.orbit;
    s.framedAspect = windowAspect(s);
}

}  // namespace

void frameScene(ViewerState& s) {
    if (s.scene) s.view.orbit.zUp = s.scene->up == UpAxis::Z;
    Bounds bounds;
    std::vector<glm::vec3> points;
    framedWithCompared(s, bounds, points);
    fitFraming(s.view.orbit, bounds, points, windowAspect(s));
    recordFraming(s);
}

void reframeIfUntouched(ViewerState& s) {
    if (s.framed && s.view.camera < 0 && sameOrbit(s.view.orbit, s.framedOrbit)) frameScene(s);
}

void updateViewport(ViewerState& s, const ViewportRect& viewport) {
    s.viewport = viewport;
    if (!s.framed || !s.scene || s.view.camera >= 0 || !sameOrbit(s.view.orbit, s.framedOrbit)) {
        s.framed = s.framed && s.view.camera < 0 && sameOrbit(s.view.orbit, s.framedOrbit);
        return;
    }
    if (std::abs(windowAspect(s) - s.framedAspect) > 1e-4f) frameScene(s);
}

void switchClip(ViewerState& s, int clip) {
    if (!s.scene) return;
    const bool untouched = s.framed && s.view.camera < 0 && sameOrbit(s.view.orbit, s.framedOrbit);
    selectClip(*s.scene, s.transport, clip);
    s.gizmos = !sceneFraming(*s.scene, s.transport.clip, s.pof, s.bounds, s.framingPoints, &s.gizmoSize);
    s.noMeshNote = s.gizmos ? noMeshText(*s.scene) : std::string();
    if (untouched) frameScene(s);
}

void frameSelection(ViewerState& s) {
    if (!validNode(s, s.selection.node)) {
        frameScene(s);
        return;
    }
    const int node = s.selection.node;
    Bounds box;
    if (s.scene->nodes[node].kind == NodeKind::Mesh) {
        std::vector<glm::vec3> positions;
        worldVertices(*s.scene, s.pose, node, positions);
        for (const glm::vec3& p : positions)
            if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) box.add(p);
    }
    if (!box.valid()) {
        // A point-like node: frame it with a tenth of the scene around it.
        const glm::vec3 at(s.pose.world[node][3]);
        const float r = s.bounds.valid() ? 0.05f * glm::length(s.bounds.max - s.bounds.min) : 1.0f;
        box.add(at - glm::vec3(r));
        box.add(at + glm::vec3(r));
    }
    const float sceneRadius = s.view.orbit.sceneRadius;
    frameBounds(s.view.orbit, box.min, box.max, windowAspect(s));
    // Near/far keep covering the whole scene, not just the selection.
    s.view.orbit.sceneRadius = std::max(sceneRadius, s.view.orbit.sceneRadius);
    s.view.camera = -1;
}

void resetView(ViewerState& s) {
    if (!s.scene) {
        s.view.orbit.yfov = OrbitCamera{}.yfov;
        frameScene(s);
        return;
    }
    Bounds bounds;
    std::vector<glm::vec3> points;
    framedWithCompared(s, bounds, points);
    frameFirstView(s.view.orbit, *s.scene, bounds, points, windowAspect(s));
    recordFraming(s);
}

void setMorphOverride(ViewerState& s, int node, int target, float weight) {
    if (!validNode(s, node) || target < 0) return;
    if (s.morphOverride.size() != s.scene->nodes.size()) s.morphOverride.assign(s.scene->nodes.size(), {});
    const Node& n = s.scene->nodes[node];
    if (n.kind != NodeKind::Mesh || n.object < 0) return;
    const size_t targets = s.scene->meshes[n.object].morphTargets.size();
    if (size_t(target) >= targets) return;
    std::vector<float>& o = s.morphOverride[node];
    if (o.size() != targets) o.assign(targets, kNoOverride);
    o[target] = weight;
}

void clearMorphOverrides(ViewerState& s) {
    for (std::vector<float>& o : s.morphOverride) std::fill(o.begin(), o.end(), kNoOverride);
}

void updatePose(ViewerState& s) {
    if (!s.scene) return;
    evaluateTransport(*s.scene, s.transport, s.pose, s.scratchPose);
    applyPofView(*s.scene, s.pof, s.pose);
    for (size_t n = 0; n < s.morphOverride.size() && n < s.pose.morphWeights.size(); ++n) {
        std::vector<float>& weights = s.pose.morphWeights[n];
        const std::vector<float>& o = s.morphOverride[n];
        for (size_t t = 0; t < o.size() && t < weights.size(); ++t)
            if (!std::isnan(o[t])) weights[t] = o[t];
    }
}

namespace {

bool install(ViewerState& s, std::unique_ptr<Scene> scene, const std::string& path, bool keepView,
             std::string& error) {
    // Hidden and solo bones: a new file starts without; the analysis reads the weights as prepared.
    if (!keepView) s.boneMask = BoneMask{};
    const RendererInfo info = s.renderer->info();
    SkinAnalysis analysis =
        analyzeSkinning(*scene, info.vectorsPerBone, info.reservedVertexVectors, info.maxVertexUniformVectors);
    maskBoneWeights(*scene, s.boneMask);
    if (!s.renderer->setScene(*scene, scene->report, error)) {
        if (s.scene) {
            std::vector<ReportLine> again;  // the old scene's report already has these lines
            std::string ignored;
            s.renderer->setScene(*s.scene, again, ignored);
        }
        return false;
    }
    // What a reload keeps, by name so it survives an edited file.
    std::string clipName, selectedName;
    if (keepView && s.scene) {
        if (s.transport.clip >= 0 && size_t(s.transport.clip) < s.scene->animation.clips.size())
            clipName = s.scene->animation.clips[s.transport.clip].name;
        if (validNode(s, s.selection.node)) selectedName = s.scene->nodes[s.selection.node].name;
    }
    const Transport oldTransport = s.transport;
    const ViewSettings oldView = s.view;

    s.scene = std::move(scene);
    s.path = path;
    s.fileStamp = fileStamp(path);
    s.rendererInfo = s.renderer->info();
    s.skin = std::move(analysis);
    s.morphOverride.assign(s.scene->nodes.size(), {});
    s.timelineClip = -2;
    // A reload keeps the POF view (detail level, debris, markers, spins by node); a new file starts afresh.
    if (!keepView) {
        const double clock = s.pof.clockSeconds;
        s.pof = PofViewState{};
        s.pof.clockSeconds = clock;
    }
    if (!s.scene->pof || s.pof.lod < 0 ||
        size_t(s.pof.lod) >= std::max<size_t>(s.scene->pof->detailLevels.size(), 1))
        s.pof.lod = 0;
    s.pof.spinDegrees.resize(s.scene->nodes.size(), 0.0f);
    s.selection = Selection{};
    s.pickedVertex = StoredInfluences{};
    s.view.highlightNode = -1;
    s.view.influenceJoint = -1;
    s.view.weightBone = -1;

    const Scene& sc = *s.scene;
    int clip = sc.animation.clips.empty() ? -1 : 0;
    if (keepView && !clipName.empty())
        for (size_t i = 0; i < sc.animation.clips.size(); ++i)
            if (sc.animation.clips[i].name == clipName) clip = int(i);
    selectClip(sc, s.transport, clip);
    // Nothing drawn: the lights, cameras and empty nodes as gizmos, and the 3D view says so.
    s.gizmos = !sceneFraming(sc, clip, s.pof, s.bounds, s.framingPoints, &s.gizmoSize);
    s.noMeshNote = s.gizmos ? noMeshText(sc) : std::string();
    if (keepView) {
        s.transport.playing = oldTransport.playing;
        s.transport.speed = oldTransport.speed;
        s.transport.loop = oldTransport.loop;
        s.transport.direction = oldTransport.direction;
        seekTransport(sc, s.transport, oldTransport.time);
        // The play range stays with its clip (selectClip cleared it).
        if (oldTransport.range && s.transport.clip >= 0 &&
            sc.animation.clips[s.transport.clip].name == clipName)
            setPlayRange(sc, s.transport, oldTransport.rangeIn, oldTransport.rangeOut);
        s.view = oldView;
        s.view.highlightNode = -1;
        s.view.influenceJoint = -1;
        s.view.weightBone = -1;
        if (s.view.camera >= int(sc.cameras.size())) s.view.camera = -1;
        if (!selectedName.empty()) selectNode(s, findNode(sc, selectedName));
        s.view.mode = oldView.mode;  // reselecting a joint does not switch the view (weightsOnJointPick)
    } else {
        // A new file: its format's first view, framed, and no blend (the index was another file's clip).
        s.transport.blendClip = -1;
        s.transport.blendWeight = 0.0f;
        resetView(s);
    }
    updatePose(s);
    return true;
}

}  // namespace

bool installScene(ViewerState& s, std::shared_ptr<const Scene> loaded, std::unique_ptr<Scene> prepared,
                  const std::string& path, bool keepView, std::string& error) {
    if (!install(s, std::move(prepared), path, keepView, error)) return false;
    s.loaded = std::move(loaded);
    ++s.loadsCompleted;
    return true;
}

bool reprepareScene(ViewerState& s, std::string& error) {
    if (!s.loaded || !s.renderer) return false;
    const StoredInfluences picked = s.pickedVertex;
    if (!install(s, prepareForTarget(*s.loaded, targetCaps(s.renderer->info())), s.path, true, error)) return false;
    s.pickedVertex = picked;  // the same file: the same stored influences
    return true;
}

bool setBoneMask(ViewerState& s, const BoneMask& mask, std::string& error) {
    if (!s.scene) {
        error = "no scene is open";
        return false;
    }
    for (int32_t n : mask.muted)
        if (!isJoint(*s.scene, n)) {
            error = "node " + std::to_string(n) + " is no joint";
            return false;
        }
    if (mask.solo >= 0 && !isJoint(*s.scene, mask.solo)) {
        error = "node " + std::to_string(mask.solo) + " is no joint";
        return false;
    }
    const BoneMask old = s.boneMask;
    s.boneMask = mask;
    if (reprepareScene(s, error)) return true;
    s.boneMask = old;
    return false;
}

unsigned textureObject(const ViewerState& s, int index) {
    if (!s.renderer || !s.scene || index < 0 || size_t(index) >= s.scene->textures.size()) return 0;
    return s.renderer->textureObject(index);
}

bool projectToScreen(const ViewerState& s, const glm::vec3& world, glm::vec2& pixel) {
    const ViewportRect v = sceneViewport(s);
    if (!s.scene || v.empty()) return false;
    glm::mat4 view, projection;
    cameraMatrices(*s.scene, s.pose, s.view, v.width, v.height, view, projection);
    const glm::vec4 clip = projection * view * glm::vec4(world, 1.0f);
    if (clip.w <= 1e-6f) return false;
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    pixel.x = float(v.x) + (ndc.x * 0.5f + 0.5f) * float(v.width);
    pixel.y = float(v.y) + (0.5f - ndc.y * 0.5f) * float(v.height);
    return true;
}

bool projectBox(const ViewerState& s, const Bounds& box, glm::vec2& min, glm::vec2& max) {
    if (!box.valid()) return false;
    min = glm::vec2(std::numeric_limits<float>::max());
    max = glm::vec2(-std::numeric_limits<float>::max());
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y,
                               i & 4 ? box.max.z : box.min.z);
        glm::vec2 p;
        if (!projectToScreen(s, corner, p)) return false;
        min = glm::min(min, p);
        max = glm::max(max, p);
    }
    return true;
}

int jointAt(const ViewerState& s, float x, float y, float radiusPx) {
    if (!s.scene || s.pose.world.size() != s.scene->nodes.size()) return -1;
    int best = -1;
    float bestDistance = radiusPx;
    for (size_t n = 0; n < s.scene->nodes.size(); ++n) {
        if (!isJoint(*s.scene, int(n))) continue;
        glm::vec2 p;
        if (!projectToScreen(s, glm::vec3(s.pose.world[n][3]), p)) continue;
        const float d = glm::length(p - glm::vec2(x, y));
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(n);
        }
    }
    return best;
}

int pickAt(const ViewerState& s, float x, float y, float radiusPx) {
    const ViewportRect v = sceneViewport(s);
    if (!s.scene || v.empty()) return -1;
    // Outside the scene's rectangle (B's half of a side-by-side comparison) the ray is not A's.
    if (x < float(v.x) || y < float(v.y) || x >= float(v.x + v.width) || y >= float(v.y + v.height)) return -1;
    const Scene& scene = *s.scene;
    if (s.view.showSkeleton) {
        const int joint = jointAt(s, x, y, radiusPx);
        if (joint >= 0) return joint;
    }
    glm::mat4 view, projection;
    cameraMatrices(scene, s.pose, s.view, v.width, v.height, view, projection);
    const glm::mat4 inverse = glm::inverse(projection * view);
    const float nx = 2.0f * (x - float(v.x)) / float(v.width) - 1.0f;
    const float ny = 1.0f - 2.0f * (y - float(v.y)) / float(v.height);
    glm::vec4 nearPoint = inverse * glm::vec4(nx, ny, -1.0f, 1.0f);
    glm::vec4 farPoint = inverse * glm::vec4(nx, ny, 1.0f, 1.0f);
    const glm::vec3 origin = glm::vec3(nearPoint) / nearPoint.w;
    const glm::vec3 dir = glm::normalize(glm::vec3(farPoint) / farPoint.w - origin);

    float hit = std::numeric_limits<float>::max();
    return nearestMeshHit(s, origin, dir, hit);
}

bool hiddenBySurface(const ViewerState& s, const glm::vec3& world) {
    const ViewportRect v = sceneViewport(s);
    if (!s.scene || v.empty()) return false;
    glm::mat4 view, projection;
    cameraMatrices(*s.scene, s.pose, s.view, v.width, v.height, view, projection);
    const glm::vec3 eye(glm::inverse(view)[3]);
    const float distance = glm::length(world - eye);
    if (!(distance > 0.0f) || !std::isfinite(distance)) return false;
    // The renderer draws depth-tested annotations 1/200 of their distance toward the eye.
    float hit = distance * (1.0f - 1.0f / 200.0f);
    return nearestMeshHit(s, eye, (world - eye) / distance, hit) >= 0;
}

bool setPofLod(ViewerState& s, int lod, std::string& error) {
    if (!s.scene || !s.scene->pof) {
        error = "the scene is not a POF model";
        return false;
    }
    const size_t levels = s.scene->pof->detailLevels.size();
    if (lod < 0 || size_t(lod) >= std::max<size_t>(levels, 1)) {
        error = "no detail level " + std::to_string(lod) + " (" + std::to_string(levels) + " detail levels)";
        return false;
    }
    s.pof.lod = lod;
    updatePose(s);
    return true;
}

bool setPofSpin(ViewerState& s, int node, float degrees, std::string& error) {
    if (!s.scene || !s.scene->pof) {
        error = "the scene is not a POF model";
        return false;
    }
    const PofExtras& pof = *s.scene->pof;
    glm::vec3 axis;
    if (node < 0 || size_t(node) >= pof.subobjects.size() || !pofSpinAxis(pof, node, axis)) {
        error = node < 0 || size_t(node) >= pof.subobjects.size()
                    ? std::string("no such subobject")
                    : "subobject '" + pof.subobjects[node].name +
                          "' neither rotates nor is a turret (movement type " +
                          std::to_string(pof.subobjects[node].movementType) + ", axis " +
                          std::to_string(pof.subobjects[node].movementAxis) + ")";
        return false;
    }
    if (!std::isfinite(degrees)) {
        error = "the angle is not a number";
        return false;
    }
    s.pof.spinDegrees.resize(s.scene->nodes.size(), 0.0f);
    s.pof.spinDegrees[node] = degrees;
    updatePose(s);
    return true;
}

int findPofSubobject(const Scene& scene, const std::string& text) {
    if (!scene.pof) return -1;
    const PofExtras& pof = *scene.pof;
    for (size_t i = 0; i < pof.subobjects.size(); ++i)
        if (pof.subobjects[i].name == text) return int(i);
    int number = -1;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, number);
    return ec == std::errc() && ptr == end ? pofSubobjectNode(pof, number) : -1;
}

int pofMarkerAt(const ViewerState& s, const std::vector<PofMarker>& markers, float x, float y,
                float radiusPx) {
    int best = -1;
    float bestDistance = radiusPx;
    for (size_t i = 0; i < markers.size(); ++i) {
        glm::vec2 p;
        if (!projectToScreen(s, markers[i].position, p)) continue;
        const float d = glm::length(p - glm::vec2(x, y));
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(i);
        }
    }
    return best;
}

const Scene& fileScene(const ViewerState& s) {
    if (s.loaded && s.scene && s.loaded->nodes.size() == s.scene->nodes.size()) return *s.loaded;
    return *s.scene;
}

bool skinnedVertexAt(const ViewerState& s, float x, float y, float radiusPx, int& node, uint32_t& vertex) {
    if (!s.scene || s.pose.world.size() != s.scene->nodes.size()) return false;
    const Scene& scene = fileScene(s);
    struct Candidate {
        float distance;
        int node;
        uint32_t vertex;
        glm::vec3 world;
    };
    std::vector<Candidate> candidates;
    std::vector<glm::vec3> positions;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& nd = scene.nodes[n];
        if (nd.kind != NodeKind::Mesh || nd.skin < 0 || n >= s.pose.visible.size() || !s.pose.visible[n]) continue;
        worldVertices(scene, s.pose, int(n), positions);
        for (size_t v = 0; v < positions.size(); ++v) {
            glm::vec2 p;
            if (!projectToScreen(s, positions[v], p)) continue;
            const float d = glm::length(p - glm::vec2(x, y));
            if (d <= radiusPx) candidates.push_back({d, int(n), uint32_t(v), positions[v]});
        }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.distance < b.distance || (a.distance == b.distance && a.vertex < b.vertex);
    });
    // The nearest on screen that a surface does not hide (a few tried: each is a ray through the scene).
    for (size_t i = 0; i < candidates.size() && i < 16; ++i) {
        if (hiddenBySurface(s, candidates[i].world)) continue;
        node = candidates[i].node;
        vertex = candidates[i].vertex;
        return true;
    }
    return false;
}

bool pickVertex(ViewerState& s, int node, uint32_t vertex, std::string& error) {
    if (!s.scene) {
        error = "no scene is open";
        return false;
    }
    const Scene& scene = fileScene(s);
    StoredInfluences picked;
    if (!storedInfluences(scene, node, vertex, picked)) {
        const bool skinned = node >= 0 && size_t(node) < scene.nodes.size() && scene.nodes[node].skin >= 0 &&
                             scene.nodes[node].kind == NodeKind::Mesh;
        error = !skinned ? "node " + std::to_string(node) + " is no skinned mesh instance"
                         : "no vertex " + std::to_string(vertex) + " with bone indices and weights in node " +
                               std::to_string(node);
        return false;
    }
    s.pickedVertex = std::move(picked);
    return true;
}

void clearPickedVertex(ViewerState& s) {
    s.pickedVertex = StoredInfluences{};
}

std::string jointBatchText(const Scene& scene, int joint) {
    std::string text;
    const std::vector<JointBatch> batches = jointBatches(scene, joint);
    for (size_t i = 0; i < batches.size(); ++i) {
        const JointBatch& b = batches[i];
        const std::string& name = scene.nodes[size_t(b.node)].name;
        const std::string of = " of " + (name.empty() ? "node " + std::to_string(b.node) : name);
        if (b.batch < 0) {
            text += (text.empty() ? "" : "; ") + std::string("the whole skin") + of;
            continue;
        }
        // Consecutive entries of one node share its "of NAME".
        const bool first = i == 0 || batches[i - 1].node != b.node || batches[i - 1].batch < 0;
        const bool last = i + 1 == batches.size() || batches[i + 1].node != b.node;
        if (first) {
            size_t count = 0;
            for (size_t k = i; k < batches.size() && batches[k].node == b.node; ++k) ++count;
            text += (text.empty() ? "" : "; ") + std::string(count > 1 ? "batches " : "batch ");
        } else {
            text += ", ";
        }
        text += std::to_string(b.batch);
        if (last) text += of;
    }
    return text;
}

std::vector<std::string> pickedVertexLines(const ViewerState& s) {
    const StoredInfluences& p = s.pickedVertex;
    if (!s.scene || p.node < 0) return {};
    const Scene& scene = fileScene(s);
    if (size_t(p.node) >= scene.nodes.size()) return {};
    auto name = [&](int n) {
        const std::string& text = scene.nodes[size_t(n)].name;
        return (text.empty() ? "node " + std::to_string(n) : text);
    };
    std::vector<std::string> lines;
    lines.push_back("vertex " + std::to_string(p.vertex) + " of " + name(p.node));
    if (!p.batches.empty()) {
        std::string batches = p.batches.size() > 1 ? "batches" : "batch";
        for (size_t i = 0; i < p.batches.size(); ++i) batches += (i ? ", " : " ") + std::to_string(p.batches[i]);
        lines.push_back(batches);
    }
    const size_t slots = std::max(p.indices.size(), p.weights.size());
    for (size_t k = 0; k < slots; ++k) {
        char text[64];
        std::string line;
        if (k < p.indices.size()) {
            std::snprintf(text, sizeof text, "index %g", double(p.indices[k]));
            line = text;
            const int joint = k < p.jointNodes.size() ? p.jointNodes[k] : -1;
            line += " -> " + (joint >= 0 && size_t(joint) < scene.nodes.size() ? name(joint) : std::string("-"));
        } else {
            line = "(no index)";
        }
        if (k < p.weights.size()) {
            std::snprintf(text, sizeof text, "  weight %.4f", double(p.weights[k]));
            line += text;
        } else {
            line += "  weight -";
        }
        lines.push_back(line);
    }
    return lines;
}

}  // namespace esv
