// The one harness every rendering test draws through: a headless GLES context (EGL on llvmpipe),
// a renderer for it, an offscreen target, and the scene prepared for that renderer by the same
// preparation stage the app uses (prepareForTarget). Failures to set up are test failures.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <glad/gles2.h>
#include <gtest/gtest.h>

#include "app/hosts/egl_context.h"
#include "common/image_compare.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv::test {

struct Rendered {
    Image image;
    FrameStats stats;
};

// The GL_RENDERER string of the harness's contexts ("llvmpipe (LLVM ...)", or "softpipe" where
// GALLIUM_DRIVER says so: one driver for the whole process), set when a harness makes its context.
inline std::string& rendererName() {
    static std::string name;
    return name;
}

// The golden image of a picture made of lines (the wireframe, the skeleton and other overlays).
// The goldens are llvmpipe's, and softpipe rasterises lines otherwise (it lights other pixels along
// a line: a fifth of the wireframe's model pixels differ), so a picture of lines drawn by softpipe
// has a golden of its own, NAME.softpipe.png, drawn by softpipe on x86. The armhf tests draw with
// softpipe (cmake/toolchains/arm-linux-gnueabihf.cmake), and the native suite runs the tests that
// use these goldens with softpipe too (SoftpipeLineGoldens, tests/gles_render/CMakeLists.txt), so
// both kinds stay current. Rewriting goldens (ESVIEW_UPDATE_GOLDEN=1) with softpipe writes only
// these: a test under softpipe leaves llvmpipe's goldens as they are.
inline bool drawsWithSoftpipe() {
    return rendererName().find("softpipe") != std::string::npos;
}
inline std::string lineGolden(const std::string& name) {
    return drawsWithSoftpipe() ? name + ".softpipe" : name;
}

class RenderHarness {
public:
    // `strict`: the strict ES 2.0 device profile (RendererOptions::gles2Strict, implies gles2).
    explicit RenderHarness(bool gles2, int width = 192, int height = 192, bool checkErrors = true,
                           bool strict = false)
        : m_width(width), m_height(height) {
        std::string error;
        if (!m_context.create(gles2 || strict ? 2 : 3, error)) {
            ADD_FAILURE() << "headless context: " << error;
            return;
        }
        if (const GLubyte* name = glGetString(GL_RENDERER))
            rendererName() = reinterpret_cast<const char*>(name);
        RendererOptions options;
        options.gles2 = gles2 || strict;
        options.gles2Strict = strict;
        options.checkErrors = checkErrors;
        m_renderer = Renderer::create(options, error);
        if (!m_renderer) {
            ADD_FAILURE() << "renderer: " << error;
            return;
        }
        if (!m_target.create(width, height, error)) {
            ADD_FAILURE() << "offscreen target: " << error;
            m_renderer.reset();
        }
    }

    bool ok() const { return m_renderer != nullptr; }
    Renderer& renderer() { return *m_renderer; }
    RendererInfo info() const { return m_renderer->info(); }
    TargetCaps target() const { return targetCaps(m_renderer->info()); }
    int width() const { return m_width; }
    int height() const { return m_height; }

    // Prepares `loaded` for this renderer (as the app does) and uploads it. The report holds the
    // preparation's lines and the upload's.
    bool setScene(const Scene& loaded, PrepareStats* stats = nullptr) {
        if (!ok()) return false;
        return setScene(loaded, target(), stats);
    }

    // The same for another target than this renderer's own (a smaller palette, ...), which this
    // renderer must still be able to draw.
    bool setScene(const Scene& loaded, const TargetCaps& caps, PrepareStats* stats = nullptr) {
        if (!ok()) return false;
        return setPrepared(prepareForTarget(loaded, caps, {}, stats));
    }

    // Uploads a scene as it is, without preparation: for tests of what the renderer does with a
    // scene that skipped a step.
    bool setPrepared(std::unique_ptr<Scene> prepared) {
        if (!ok()) return false;
        m_scene = std::move(prepared);
        m_report = m_scene->report;
        std::string error;
        const bool uploaded = m_renderer->setScene(*m_scene, m_report, error);
        EXPECT_TRUE(uploaded) << error;
        return uploaded;
    }

    const Scene& scene() const { return *m_scene; }
    // The uploaded scene, to edit between draws what the renderer reads each frame (lights, ...).
    Scene& scene() { return *m_scene; }
    const std::vector<ReportLine>& report() const { return m_report; }

    // Draws the prepared scene at `pose` with `view` into the offscreen target and reads it back.
    Rendered draw(const Pose& pose, const ViewSettings& view) {
        Rendered out;
        if (!ok() || !m_scene) return out;
        m_target.bind();
        out.stats = m_renderer->draw(*m_scene, pose, view, m_width, m_height);
        m_target.read(out.image.rgba);
        out.image.width = m_width;
        out.image.height = m_height;
        return out;
    }

    // The pose at `seconds` of clip 0 (-1 = the rest pose).
    Pose poseAt(float seconds) const {
        Pose pose;
        evaluatePose(*m_scene, seconds < 0.0f ? -1 : 0, std::max(seconds, 0.0f), pose);
        return pose;
    }

    // `view` with its orbit camera framing the scene's bounds at `pose` for this target's aspect
    // (a file camera named by `view.camera` is drawn instead when the scene has it).
    ViewSettings framed(const Pose& pose, ViewSettings view) const {
        const Bounds bounds = sceneBounds(*m_scene, pose);
        if (bounds.valid())
            frameBounds(view.orbit, bounds.min, bounds.max, float(m_width) / float(m_height));
        return view;
    }

    // Draws at `pose` with `view` framed as above.
    Rendered drawFramed(const Pose& pose, const ViewSettings& view) {
        if (!ok() || !m_scene) return {};
        return draw(pose, framed(pose, view));
    }

    // Draws at `seconds` of clip 0 (-1 = rest pose), framed as above.
    Rendered drawAt(float seconds, const ViewSettings& view) {
        if (!ok() || !m_scene) return {};
        return drawFramed(poseAt(seconds), view);
    }

    // Where world point `p` lands in a drawFramed picture, in pixels from the top left, through the
    // view and projection the renderer draws with.
    glm::vec2 project(const Pose& pose, const ViewSettings& view, const glm::vec3& p) const {
        glm::mat4 v, proj;
        cameraMatrices(*m_scene, pose, framed(pose, view), m_width, m_height, v, proj);
        const glm::vec4 clip = proj * v * glm::vec4(p, 1.0f);
        return {(clip.x / clip.w * 0.5f + 0.5f) * float(m_width),
                (0.5f - clip.y / clip.w * 0.5f) * float(m_height)};
    }

private:
    int m_width, m_height;
    EglContext m_context;
    std::unique_ptr<Renderer> m_renderer;
    OffscreenTarget m_target;
    std::unique_ptr<Scene> m_scene;
    std::vector<ReportLine> m_report;
};

// The orbit camera on +Z looking at the origin from `distance`, unframed: tests that place
// geometry by hand know where each world point lands.
inline ViewSettings headOnView(float distance) {
    ViewSettings view;
    view.orbit.target = glm::vec3(0.0f);
    view.orbit.yaw = 0.0f;
    view.orbit.pitch = 0.0f;
    view.orbit.distance = distance;
    return view;
}

// One scene drawn once, `size` x `size`, at `seconds` of clip 0 (-1 = rest pose): what the golden
// image tests compare.
inline Rendered renderHeadless(const Scene& scene, float seconds, ViewSettings view, bool gles2,
                               int size = 192) {
    RenderHarness harness(gles2, size, size);
    if (!harness.setScene(scene)) return {};
    return harness.drawAt(seconds, view);
}

}  // namespace esv::test
