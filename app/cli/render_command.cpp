#include "app/cli/render_command.h"

#include <cstdio>

#include "app/cli/commands.h"
#include "app/hosts/egl_context.h"
#include "app/viewer/gizmos.h"
#include "app/viewer/png_file.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/viewer_actions.h"
#include "loaders/textures/scene_textures.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "target/device_profiles.h"

namespace esv {

int openRenderScene(const RenderRequest& request, RenderScene& opened) {
    opened = {};
    opened.loaded = openScene(request.file);
    if (!opened.loaded.scene) {
        for (const Problem& p : opened.loaded.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        return kExitBadInput;
    }
    // Textures read here so the user's folders are searched; preparation then decodes them.
    readSceneTextures(*opened.loaded.scene, {}, request.texturePaths);
    const Scene& loadedScene = *opened.loaded.scene;
    std::string error;
    if (!resolveTime(loadedScene, request.time, opened.time, error)) {
        std::fprintf(stderr, "%s: %s\n", request.file.c_str(), error.c_str());
        return kExitBadInput;
    }
    if (request.camera >= static_cast<int>(loadedScene.cameras.size())) {
        std::string names;
        for (size_t c = 0; c < loadedScene.cameras.size(); ++c)
            names += (c ? ", " : "") + std::to_string(c) + " '" + loadedScene.cameras[c].name + "'";
        std::fprintf(stderr, "%s: no camera %d (%s)\n", request.file.c_str(), request.camera,
                     loadedScene.cameras.empty() ? "the file has none" : ("the cameras: " + names).c_str());
        return kExitBadInput;
    }
    if (!request.weightBone.empty()) {
        opened.weightBone = findNode(loadedScene, request.weightBone);
        if (opened.weightBone < 0 || !isJoint(loadedScene, opened.weightBone)) {
            std::string joints;
            size_t listed = 0, total = 0;
            for (size_t n = 0; n < loadedScene.nodes.size(); ++n) {
                if (!isJoint(loadedScene, int(n))) continue;
                if (listed < 8) joints += (listed ? ", " : "") + std::to_string(n) + " '" + loadedScene.nodes[n].name + "'", ++listed;
                ++total;
            }
            if (total > listed) joints += ", ... (" + std::to_string(total) + " in all)";
            std::fprintf(stderr, "%s: --weight-bone %s: no joint of that name or node index (%s)\n", request.file.c_str(),
                         request.weightBone.c_str(), total ? ("the joints: " + joints).c_str() : "the file has no skin");
            return kExitBadInput;
        }
    }
    return kExitOk;
}

bool renderFraming(const RenderRequest& request, const Scene& scene, const ResolvedTime& time, Bounds& bounds,
                   std::vector<glm::vec3>& points, float* gizmoScale) {
    // What the viewer frames: the rest pose and the clip it plays (the first unless --clip names
    // one; a POF model's first detail level without debris).
    const int framedClip = !request.frameClip ? -1
                           : time.clip >= 0   ? time.clip
                                              : (scene.animation.clips.empty() ? -1 : 0);
    return sceneFraming(scene, framedClip, PofViewState{}, bounds, points, gizmoScale);
}

namespace {

// A headless context with a renderer holding the scene prepared for it, and the offscreen target
// drawn into. Members are destroyed in reverse: everything of GL before its context.
struct HeadlessGl {
    EglContext context;
    std::unique_ptr<Renderer> renderer;
    std::unique_ptr<Scene> prepared;
    OffscreenTarget target;
};

// Makes the context, the renderer and the target for `request` and uploads `loadedScene` prepared
// for that context. Returns an ExitCode.
int startHeadless(const RenderRequest& request, const Scene& loadedScene, const DeviceProfile* device,
                  HeadlessGl& gl) {
    const bool gles2 = request.gles2 || request.gles2Strict || (device && device->esVersion < 30);
    std::string error;
    if (!gl.context.create(gles2 ? 2 : 3, error)) {
        std::fprintf(stderr, "esview: cannot create a headless GLES context: %s\n", error.c_str());
        return kExitBadInput;
    }
    RendererOptions options;
    options.gles2 = gles2;
    options.gles2Strict = request.gles2Strict;
    options.device = request.device;
    gl.renderer = Renderer::create(options, error);
    if (!gl.renderer) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    // The scene prepared for this context, as the viewer prepares it (textures, bone batches, types,
    // tangents).
    gl.prepared = prepareForTarget(loadedScene, targetCaps(gl.renderer->info()));
    if (!gl.renderer->setScene(*gl.prepared, gl.prepared->report, error)) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    if (!gl.target.create(request.width, request.height, error)) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

// The orbit camera turned by `yaw` about the up axis through the centre of the box it framed
// (OrbitCamera::sceneCenter): camera and target turn together, keeping the distance, the pitch and
// where the target sits against the view, so a turntable circles the model's centre.
OrbitCamera turnedAboutCentre(const OrbitCamera& orbit, float yaw) {
    OrbitCamera turned = orbit;
    turned.yaw += yaw;
    if (yaw == 0.0f || orbit.sceneRadius <= 0.0f) return turned;
    const glm::vec3 up = orbitUp(orbit);
    auto ahead = [&up](const OrbitCamera& o) {
        const glm::vec3 d = orbitDirection(o);
        return d - up * glm::dot(d, up);
    };
    glm::vec3 f0 = ahead(orbit), f1 = ahead(turned);
    if (glm::length(f0) < 1e-6f || glm::length(f1) < 1e-6f) return turned;
    f0 = glm::normalize(f0);
    f1 = glm::normalize(f1);
    const glm::vec3 r0 = glm::cross(up, f0), r1 = glm::cross(up, f1);
    const glm::vec3 v = orbit.target - orbit.sceneCenter;
    turned.target = orbit.sceneCenter + glm::dot(v, f0) * f1 + glm::dot(v, r0) * r1 + glm::dot(v, up) * up;
    return turned;
}

// Draws each shot of `request` (one at `opened.time` without shots) on each background into `out`,
// the view's orbit turned by the shot's yaw offset about the framed centre. `gizmoScale` sizes the
// gizmos of a scene that draws no mesh (meshDrawn false). Returns the last frame's statistics, with the GL errors of all.
FrameStats drawShots(const RenderRequest& request, const RenderScene& opened, HeadlessGl& gl, ViewSettings view,
                     bool meshDrawn, float gizmoScale, RenderedFrames& out) {
    const Scene& scene = *gl.prepared;
    std::vector<RenderShot> shots = request.shots;
    if (shots.empty()) shots.emplace_back();
    const std::vector<glm::vec4> clearColors =
        request.clearColors.empty() ? std::vector<glm::vec4>{view.clearColor} : request.clearColors;
    const OrbitCamera orbit = view.orbit;
    FrameStats stats;
    unsigned glErrors = 0;
    for (const RenderShot& shot : shots) {
        ResolvedTime time = opened.time;
        if (shot.frame) {
            TimeSelection selection;
            selection.frame = shot.frame;
            selection.clip = request.time.clip;
            std::string error;
            resolveTime(scene, selection, time, error);  // the clip was resolved once already
        }
        // The pose drawn is the one asked for, with the POF view the viewer starts with.
        Pose pose;
        evaluatePose(scene, time.clip, time.seconds, pose);
        applyPofView(scene, PofViewState{}, pose);
        view.orbit = turnedAboutCentre(orbit, shot.yawOffset);
        // No mesh: the gizmos of the lights, cameras and empty nodes in the pose drawn.
        Annotations gizmos;
        view.annotations = nullptr;
        if (!meshDrawn && request.gizmos) sceneGizmos(scene, pose, gizmoScale, gizmos);
        if (!gizmos.empty()) view.annotations = &gizmos;
        // Programs, vertex arrays and buffers are made before the frame, which then only draws.
        gl.renderer->prepareFrame(scene, pose, view);
        gl.target.bind();
        for (const glm::vec4& clear : clearColors) {
            view.clearColor = clear;
            stats = gl.renderer->draw(scene, pose, view, request.width, request.height);
            glErrors += stats.glErrors;
            out.rgba.emplace_back();
            gl.target.read(out.rgba.back());
        }
    }
    stats.glErrors = glErrors;
    return stats;
}

}  // namespace

int renderOpened(const RenderRequest& request, const RenderScene& opened, RenderedFrames& out) {
    out = {};
    const Scene& loadedScene = *opened.loaded.scene;
    const DeviceProfile* device = !request.device.empty() ? findDevice(request.device) : nullptr;
    HeadlessGl gl;
    if (const int status = startHeadless(request, loadedScene, device, gl); status != kExitOk) return status;
    const Scene& scene = *gl.prepared;

    ViewSettings view;
    view.mode = request.mode;
    view.showSkeleton = request.skeleton;
    view.weightBone = opened.weightBone;
    view.showNormalLines = request.normalLines;
    view.showTangentLines = request.tangentLines;
    view.camera = request.camera;
    view.lighting = request.lighting;
    view.missingTexture = request.missingTexture;
    // The viewer's first view of a newly opened file, framed in the whole image from the format's
    // three-quarter front view (or the orbit the request gives).
    Bounds bounds;
    std::vector<glm::vec3> points;
    float gizmoScale = 1.0f;
    const bool meshDrawn = renderFraming(request, scene, opened.time, bounds, points, &gizmoScale);
    if (request.orbit)
        view.orbit = *request.orbit;
    else
        frameFirstView(view.orbit, scene, bounds, points, float(request.width) / float(request.height));
    out.orbit = view.orbit;
    if (!meshDrawn) out.noMeshNote = noMeshText(scene);

    const FrameStats stats = drawShots(request, opened, gl, view, meshDrawn, gizmoScale, out);
    out.drawCalls = stats.drawCalls;
    out.triangles = stats.triangles;
    // A device profile says what it adapted: the lines preparation and upload added.
    if (request.gles2Strict || device)
        for (size_t i = loadedScene.report.size(); i < gl.prepared->report.size(); ++i)
            std::fprintf(stderr, "%s: %s: %s\n", request.file.c_str(),
                         gl.prepared->report[i].severity == Severity::Warning ? "warning" : "note",
                         gl.prepared->report[i].text.c_str());
    for (const std::string& note : stats.notes)
        std::fprintf(stderr, "%s: warning: %s\n", request.file.c_str(), note.c_str());
    if (stats.glErrors > 0) {
        // Builds with GL checks treat any GL error as a failure (our bug, printed with its call site).
        std::fprintf(stderr, "esview: %u GL errors while drawing\n", stats.glErrors);
        return kExitBadInput;
    }
    return kExitOk;
}

int renderFrames(const RenderRequest& request, RenderedFrames& out) {
    out = {};
    RenderScene opened;
    if (const int status = openRenderScene(request, opened); status != kExitOk) return status;
    return renderOpened(request, opened, out);
}

int runRender(const RenderRequest& request) {
    RenderedFrames frames;
    const int status = renderFrames(request, frames);
    if (frames.rgba.empty()) return status;
    if (!writePng(request.output, request.width, request.height, frames.rgba.front())) {
        std::fprintf(stderr, "esview: cannot write %s\n", request.output.c_str());
        return kExitBadInput;
    }
    std::printf("%s: wrote %dx%d (%u draw calls, %u triangles%s%s)\n", request.output.c_str(), request.width,
                request.height, frames.drawCalls, frames.triangles, frames.noMeshNote.empty() ? "" : "; ",
                frames.noMeshNote.c_str());
    return status;
}

}  // namespace esv
