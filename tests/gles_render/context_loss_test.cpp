// A renderer whose context is gone (renderer.h, abandonRenderer): dropped with no GL call at all,
// counted through the loader's hooks (renderer/gl_calls.h), where destroying it normally deletes
// every object it made; and a new renderer on a new context, given the same prepared scene, draws
// the same picture as the first did. ES3 and ES2 mode, with the overlays, wireframe edges, an
// outline and the timer queries made before the loss.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/hosts/egl_context.h"
#include "common/image_compare.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"
#include "renderer/gl_calls.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace esv {
namespace {

constexpr int kSize = 160;

// Everything a frame of the viewer makes: shaded scene, wireframe edges, a selection outline and
// the skeleton overlay.
ViewSettings busyView(const Scene& scene, const Pose& pose) {
    ViewSettings view;
    view.wireframeOverlay = true;
    view.showSkeleton = true;
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].kind == NodeKind::Mesh) {
            view.highlightNode = int(n);
            break;
        }
    const Bounds bounds = sceneBounds(scene, pose);
    if (bounds.valid()) frameBounds(view.orbit, bounds.min, bounds.max, 1.0f);
    return view;
}

struct Drawn {
    std::unique_ptr<Renderer> renderer;
    test::Image image;
    FrameStats stats;
};

// A renderer on the current context with `scene` uploaded, after two frames drawn offscreen (the
// second read back).
Drawn drawTwice(const Scene& scene, bool gles2) {
    Drawn out;
    RendererOptions options;
    options.gles2 = gles2;
    std::string error;
    out.renderer = Renderer::create(options, error);
    if (!out.renderer) {
        ADD_FAILURE() << error;
        return out;
    }
    std::vector<ReportLine> report;
    if (!out.renderer->setScene(scene, report, error)) {
        ADD_FAILURE() << error;
        return out;
    }
    Pose pose;
    evaluatePose(scene, scene.animation.clips.empty() ? -1 : 0, 0.25f, pose);
    const ViewSettings view = busyView(scene, pose);
    OffscreenTarget target;
    if (!target.create(kSize, kSize, error)) {
        ADD_FAILURE() << error;
        return out;
    }
    target.bind();
    out.renderer->draw(scene, pose, view, kSize, kSize);
    out.stats = out.renderer->draw(scene, pose, view, kSize, kSize);
    target.read(out.image.rgba);
    out.image.width = out.image.height = kSize;
    return out;
}

std::string esName(const ::testing::TestParamInfo<bool>& param) {
    return param.param ? "Es2" : "Es3";
}

class ContextLoss : public ::testing::TestWithParam<bool> {};

TEST_P(ContextLoss, AbandoningMakesNoGlCallWhereDestroyingDeletesEveryObject) {
    const bool gles2 = GetParam();
    EglContext context;
    std::string error;
    ASSERT_TRUE(context.create(gles2 ? 2 : 3, error)) << error;
    const Scene loaded = makeDemoScene();
    RendererOptions probe;
    probe.gles2 = gles2;
    std::unique_ptr<Renderer> first = Renderer::create(probe, error);
    ASSERT_TRUE(first) << error;
    const std::unique_ptr<Scene> scene = prepareForTarget(loaded, targetCaps(first->info()));
    first.reset();

    // Destroyed as usual, with the context alive: its objects are deleted in GL.
    Drawn kept = drawTwice(*scene, gles2);
    ASSERT_TRUE(kept.renderer);
    EXPECT_EQ(kept.stats.glErrors, 0u);
    uint64_t before = gl::callCount();
    kept.renderer.reset();
    const uint64_t deleting = gl::callCount() - before;
    EXPECT_GT(deleting, 10u) << "the buffers, vertex arrays, programs and textures of the demo";
    std::printf("destroying the renderer (%s): %llu GL calls\n", gles2 ? "ES2" : "ES3",
                static_cast<unsigned long long>(deleting));

    // Abandoned: not one call reaches GL.
    Drawn lost = drawTwice(*scene, gles2);
    ASSERT_TRUE(lost.renderer);
    before = gl::callCount();
    abandonRenderer(lost.renderer);
    EXPECT_EQ(gl::callCount() - before, 0u);
    EXPECT_FALSE(lost.renderer);
    // Handles delete again afterwards.
    Drawn after = drawTwice(*scene, gles2);
    ASSERT_TRUE(after.renderer);
    before = gl::callCount();
    after.renderer.reset();
    EXPECT_EQ(gl::callCount() - before, deleting);
}

TEST_P(ContextLoss, ANewContextDrawsTheSamePictureFromTheSceneInMemory) {
    const bool gles2 = GetParam();
    const Scene loaded = makeDemoScene();
    auto context = std::make_unique<EglContext>();
    std::string error;
    ASSERT_TRUE(context->create(gles2 ? 2 : 3, error)) << error;
    RendererOptions probe;
    probe.gles2 = gles2;
    std::unique_ptr<Renderer> first = Renderer::create(probe, error);
    ASSERT_TRUE(first) << error;
    const TargetCaps caps = targetCaps(first->info());
    first.reset();
    const std::unique_ptr<Scene> scene = prepareForTarget(loaded, caps);

    Drawn before = drawTwice(*scene, gles2);
    ASSERT_TRUE(before.renderer);
    // The context goes first, every object with it (as the platform destroys it); then the renderer,
    // with no GL call to the context that is gone.
    context.reset();
    const uint64_t calls = gl::callCount();
    abandonRenderer(before.renderer);
    EXPECT_EQ(gl::callCount() - calls, 0u);

    context = std::make_unique<EglContext>();
    ASSERT_TRUE(context->create(gles2 ? 2 : 3, error)) << error;
    Drawn again = drawTwice(*scene, gles2);
    ASSERT_TRUE(again.renderer);
    const TargetCaps capsAgain = targetCaps(again.renderer->info());
    EXPECT_EQ(capsAgain.esVersion, caps.esVersion);
    EXPECT_EQ(capsAgain.paletteCapacity, caps.paletteCapacity);
    EXPECT_EQ(again.stats.glErrors, 0u) << (again.stats.notes.empty() ? "" : again.stats.notes[0]);
    EXPECT_EQ(again.stats.drawCalls, before.stats.drawCalls);
    // Exactly the same pixels.
    const test::CompareResult diff = test::compareImages(again.image, before.image, 0);
    EXPECT_TRUE(diff.sameSize);
    EXPECT_EQ(diff.maxDifference, 0) << "pixels differ after the context was made again";
    again.renderer.reset();
}

INSTANTIATE_TEST_SUITE_P(Es3AndEs2, ContextLoss, ::testing::Values(false, true), esName);

}  // namespace
}  // namespace esv
