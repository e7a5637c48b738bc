// The headless render the golden-image tests share: one scene drawn offscreen (EGL on llvmpipe)
// with the textures prepared as the app prepares them for that context.
#pragma once

#include <algorithm>

#include <gtest/gtest.h>

#include "app/egl_context.h"
#include "common/image_compare.h"
#include "loaders/textures/scene_textures.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv::test {

struct Rendered {
    Image image;
    FrameStats stats;
};

// Renders `scene` headless into a `size` x `size` image at `seconds` of clip 0 (-1 = rest pose),
// orbit camera framing the bounds at that time unless `view.camera` names a file camera. Context,
// renderer and target live for this call only; failures are reported as test failures.
inline Rendered renderHeadless(const Scene& scene, float seconds, ViewSettings view, bool gles2,
                               int size = 192) {
    Rendered out;
    EglContext context;
    std::string error;
    EXPECT_TRUE(context.create(gles2 ? 2 : 3, error)) << error;
    RendererOptions options;
    options.gles2 = gles2;
    options.checkErrors = true;
    auto renderer = Renderer::create(options, error);
    EXPECT_NE(renderer, nullptr) << error;
    if (!renderer) return out;
    // Textures as the app prepares them for this context (decoded where it lacks the codec).
    Scene prepared = scene;
    const RendererInfo info = renderer->info();
    prepareSceneTextures(prepared, [&](PixelFormat f) { return info.supports(f); });
    std::vector<ReportLine> report;
    EXPECT_TRUE(renderer->setScene(prepared, report, error)) << error;
    OffscreenTarget target;
    EXPECT_TRUE(target.create(size, size, error)) << error;
    Pose pose;
    evaluatePose(prepared, seconds < 0.0f ? -1 : 0, std::max(seconds, 0.0f), pose);
    Bounds bounds = sceneBounds(prepared, pose);
    if (view.camera < 0) Renderer::frameBounds(view.orbit, bounds.min, bounds.max, 1.0f);
    target.bind();
    out.stats = renderer->draw(prepared, pose, view, size, size);
    target.read(out.image.rgba);
    out.image.width = out.image.height = size;
    return out;
}

}  // namespace esv::test
