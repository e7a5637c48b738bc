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

int renderFrames(const RenderRequest& request, RenderedFrames& out) {
    out = {};
    LoadResult loaded = openScene(request.file);
    if (!loaded.scene) {
        for (const Problem& p : loaded.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        return kExitBadInput;
    }
    // Textures read here so the user's folders are searched; preparation then decodes them.
    readSceneTextures(*loaded.scene, {}, request.texturePaths);
    const Scene& loadedScene = *loaded.scene;
    ResolvedTime time;
    std::string error;
    if (!resolveTime(loadedScene, request.time, time, error)) {
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
    int weightBone = -1;
    if (!request.weightBone.empty()) {
        weightBone = findNode(loadedScene, request.weightBone);
        if (weightBone < 0 || !isJoint(loadedScene, weightBone)) {
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

    const DeviceProfile* device = !request.device.empty() ? findDevice(request.device) : nullptr;
    const bool gles2 = request.gles2 || request.gles2Strict || (device && device->esVersion < 30);
    EglContext context;
    if (!context.create(gles2 ? 2 : 3, error)) {
        std::fprintf(stderr, "esview: cannot create a headless GLES context: %s\n", error.c_str());
        return kExitBadInput;
    }
    RendererOptions options;
    options.gles2 = gles2;
    options.gles2Strict = request.gles2Strict;
    options.device = request.device;
    std::unique_ptr<Renderer> renderer = Renderer::create(options, error);
    if (!renderer) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    // The scene prepared for this context, as the viewer prepares it (textures, bone batches, types,
    // tangents).
    const std::unique_ptr<Scene> prepared = prepareForTarget(loadedScene, targetCaps(renderer->info()));
    const Scene& scene = *prepared;
    if (!renderer->setScene(scene, prepared->report, error)) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }
    OffscreenTarget target;
    if (!target.create(request.width, request.height, error)) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return kExitBadInput;
    }

    Pose pose;
    ViewSettings view;
    view.mode = request.mode;
    view.showSkeleton = request.skeleton;
    view.weightBone = weightBone;
    view.showNormalLines = request.normalLines;
    view.showTangentLines = request.tangentLines;
    view.camera = request.camera;
    view.lighting = request.lighting;
    view.missingTexture = request.missingTexture;
    // The viewer's first view of a newly opened file, framed in the whole image: what the viewer
    // frames (the rest pose and the clip it plays, the first unless --clip names one; a POF model's
    // first detail level without debris) from the format's three-quarter front view. The pose drawn
    // is the one asked for, with the POF view the viewer starts with.
    const PofViewState pof;
    evaluatePose(scene, time.clip, time.seconds, pose);
    applyPofView(scene, pof, pose);
    const int framedClip = !request.frameClip ? -1
                           : time.clip >= 0   ? time.clip
                                              : (scene.animation.clips.empty() ? -1 : 0);
    Bounds bounds;
    std::vector<glm::vec3> points;
    float gizmoScale = 1.0f;
    const bool meshDrawn = sceneFraming(scene, framedClip, pof, bounds, points, &gizmoScale);
    frameFirstView(view.orbit, scene, bounds, points, float(request.width) / float(request.height));
    // No mesh: the gizmos of the lights, cameras and empty nodes in the pose drawn, framed above.
    Annotations gizmos;
    if (!meshDrawn) {
        out.noMeshNote = noMeshText(scene);
        if (request.gizmos) sceneGizmos(scene, pose, gizmoScale, gizmos);
        if (!gizmos.empty()) view.annotations = &gizmos;
    }

    // Programs, vertex arrays and buffers are made before the frame, which then only draws.
    renderer->prepareFrame(scene, pose, view);
    target.bind();
    const std::vector<glm::vec4> clearColors =
        request.clearColors.empty() ? std::vector<glm::vec4>{view.clearColor} : request.clearColors;
    FrameStats stats;
    for (const glm::vec4& clear : clearColors) {
        view.clearColor = clear;
        stats = renderer->draw(scene, pose, view, request.width, request.height);
        out.rgba.emplace_back();
        target.read(out.rgba.back());
    }
    out.drawCalls = stats.drawCalls;
    out.triangles = stats.triangles;
    // A device profile says what it adapted: the lines preparation and upload added.
    if (request.gles2Strict || device)
        for (size_t i = loadedScene.report.size(); i < prepared->report.size(); ++i)
            std::fprintf(stderr, "%s: %s: %s\n", request.file.c_str(),
                         prepared->report[i].severity == Severity::Warning ? "warning" : "note",
                         prepared->report[i].text.c_str());
    for (const std::string& note : stats.notes)
        std::fprintf(stderr, "%s: warning: %s\n", request.file.c_str(), note.c_str());
    if (stats.glErrors > 0) {
        // Builds with GL checks treat any GL error as a failure (our bug, printed with its call site).
        std::fprintf(stderr, "esview: %u GL errors while drawing\n", stats.glErrors);
        return kExitBadInput;
    }
    return kExitOk;
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
