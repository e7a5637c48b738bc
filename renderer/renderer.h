// The renderer: turns a validated scene into GLES draws. It owns every GL object and reads only
// the scene model; it never parses files and knows nothing of windows or EGL. A GL context must be
// current (and glad loaded) on the calling thread for every call.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "renderer/view_settings.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

struct RendererOptions {
    // Enforce the ES 2.0 minimum limits and feature set even when the context offers more:
    // 128 vertex uniform vectors, 8 vertex attributes, #version 100 shaders, no ES3 entry points.
    bool gles2 = false;
    // Check glGetError after each draw and fail loudly (test builds).
    bool checkErrors = false;
};

struct FrameStats {
    uint32_t drawCalls = 0;
    uint32_t triangles = 0;
    uint32_t glErrors = 0;
};

// What the renderer found in the context and decided from it (shown by the panel, asserted by tests).
struct RendererInfo {
    bool es3 = false;           // ES 3.0 features in use (false in ES2 mode)
    bool vertexArrays = false;  // VAOs (ES3, or OES_vertex_array_object in ES2 mode)
    bool uintIndices = false;   // 32-bit indices (ES3, or OES_element_index_uint)
    int maxVertexUniformVectors = 0;  // as enforced (128 in ES2 mode)
    int maxVertexAttribs = 0;
    int paletteCapacity = 0;    // bones per draw
    // Compressed formats sampled natively (others must be decoded before setScene).
    std::array<bool, static_cast<size_t>(PixelFormat::Count)> compressedFormats{};
    bool npotTextures = false;  // wrap and mipmaps on any size (ES3)
    int maxTextureSize = 0;
    size_t textureBytes = 0;    // texture memory of the current scene, as uploaded

    bool supports(PixelFormat f) const {
        return f == PixelFormat::Rgba8 || compressedFormats[static_cast<size_t>(f)];
    }
};

class Renderer {
public:
    virtual ~Renderer() = default;

    // Creates a renderer for the current context. Returns null and sets `error` when the context
    // lacks what the renderer needs.
    static std::unique_ptr<Renderer> create(const RendererOptions& options, std::string& error);

    // Uploads a validated scene (vertex streams as stored, one buffer per stream). Replaces any
    // previous scene. Conversions it must make are appended to `report`.
    virtual bool setScene(const Scene& scene, std::vector<ReportLine>& report, std::string& error) = 0;

    virtual RendererInfo info() const = 0;

    // Draws the scene at `pose` into the currently bound framebuffer of width x height pixels.
    virtual FrameStats draw(const Scene& scene, const Pose& pose, const ViewSettings& view, int width,
                            int height) = 0;

    // The world-space position and normal the GPU computes for every vertex of mesh node `node` at
    // `pose` (unpack matrix and skinning, same buffers, attribute setup, palettes and shader as
    // drawing), read back through transform feedback. Each vertex is taken from the first bone
    // batch whose triangles use it; vertices no triangle uses are NaN. Normals are not normalised.
    // Returns false with `error` when the context cannot capture (ES2 mode) or the node is drawn
    // from CPU-computed vertices.
    virtual bool captureVertices(const Scene& scene, const Pose& pose, int node, std::vector<glm::vec3>& positions,
                                 std::vector<glm::vec3>& normals, std::string& error) = 0;

    // Frames the orbit camera on the box min..max: target at its centre, distance so that the
    // box's bounding sphere fits the vertical field of view.
    static void frameBounds(OrbitCamera& orbit, const glm::vec3& min, const glm::vec3& max);

    // The view and projection matrices of the orbit camera for a viewport of `aspect` (w/h).
    static void orbitMatrices(const OrbitCamera& orbit, float aspect, glm::mat4& view, glm::mat4& projection);
};

// An offscreen RGBA8 + depth framebuffer for headless rendering and screenshots.
class OffscreenTarget {
public:
    OffscreenTarget() = default;
    ~OffscreenTarget();
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;

    bool create(int width, int height, std::string& error);
    void bind() const;
    // Reads the colour buffer as tightly packed RGBA8, top row first.
    void read(std::vector<uint8_t>& rgba) const;
    int width() const { return m_width; }
    int height() const { return m_height; }

private:
    unsigned m_fbo = 0, m_color = 0, m_depth = 0;
    int m_width = 0, m_height = 0;
};

}  // namespace esv
