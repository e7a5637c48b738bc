// The renderer: turns a validated scene into GLES draws. It owns every GL object and reads only
// the scene model; it never parses files and knows nothing of windows or EGL. A GL context must be
// current (and glad loaded) on the calling thread for every call.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "target/state_changes.h"
#include "renderer/view_settings.h"
#include "scene/sampler.h"
#include "scene/scene.h"
#include "target/target_caps.h"

namespace esv {

struct RendererOptions {
    // Enforce the ES 2.0 minimum limits and feature set even when the context offers more:
    // 128 vertex uniform vectors, 8 vertex attributes, #version 100 shaders, no ES3 entry points.
    bool gles2 = false;
    // A strict ES 2.0 device profile (implies gles2), for PowerVR SGX-class drivers: the renderer
    // acts as if GL_EXTENSIONS were empty (no OES_texture_npot, OES_element_index_uint,
    // OES_vertex_array_object, OES_texture_float, compressed formats or timer queries), fragment
    // shaders use mediump as if GL_FRAGMENT_PRECISION_HIGH were undefined, and the limits are held
    // at kStrictLimits (target/strict_profile.h). The preparation stage adapts the scene to it
    // (targetCaps: NPOT and oversized textures resized, 32-bit indices narrowed), with report lines.
    bool gles2Strict = false;
    // A device profile's name (target/device_profiles.h: "sgx540", "ge8320", "strict-es2", ...): the
    // renderer holds to that device's ES version, extensions and limits where the context grants
    // more. gles2Strict is the device "strict-es2". Empty: the context as it is.
    std::string device;
    // Check glGetError after each draw and fail loudly (test builds).
    bool checkErrors = false;
};

struct FrameStats {
    uint32_t drawCalls = 0;
    uint32_t triangles = 0;
    uint32_t lines = 0;   // line segments drawn from Lines and LineStrip submeshes
    uint32_t points = 0;  // points drawn from Points submeshes
    uint32_t glErrors = 0;
    // Draw calls that skinned on the GPU: one per (submesh, bone batch) range, in every pass that
    // redraws a skinned node (edge overlays included; SkinDiff draws from CPU positions, not these).
    uint32_t boneBatchesDrawn = 0;
    // The most palette uniform vectors one draw uploaded: vectorsPerBone x the matrices of its
    // batch (the bones the batch names, not the program's rounded-up array size).
    uint32_t paletteVectorsMax = 0;
    // GPU time of an earlier frame in milliseconds (GL_EXT_disjoint_timer_query, read back without
    // waiting, so it lags a frame or more); -1 when the context has no timer or no result is ready.
    float gpuMs = -1.0f;
    // SkinDiff mode: the largest |GPU - CPU| skinned position in scene units; -1 when nothing was
    // compared (another mode, ES2 mode without transform feedback, or no GPU-skinned instance).
    float skinDiffMax = -1.0f;
    // Mesh instances of the scene pass drawn from vertices the CPU computed, by reason: more morph
    // targets active at once than the attribute slots hold and no texture of deltas (ES2), or a
    // bone batch larger than the palette; and instances whose morphs came from the texture of
    // deltas. The fallbacks are never silent: the stats overlay shows them and tests assert them.
    uint32_t cpuMorphedNodes = 0;
    uint32_t cpuSkinnedNodes = 0;
    uint32_t morphTextureNodes = 0;
    // GL calls the frame made (renderer/gl_calls.h): what reached GL through the state cache.
    uint32_t glCalls = 0;
    // Of those, the state changes by kind, with the bytes of uniforms and of bone palettes sent.
    StateChanges changes;
    // The scale of the file's lights beside the studio rig (Lighting::Both): below 1 when they
    // alone would light the side in view more than the rig's target (renderer/light_rig.h). The
    // panel shows it, so a dimmed light is never a mystery.
    float fileLightExposure = 1.0f;
    // The overdraw views: pixels covered by at least one counted fragment, the fragments counted,
    // and the most on one pixel (read back from the count target; 0 in the other modes).
    uint32_t overdrawCovered = 0;
    uint64_t overdrawShaded = 0;
    uint32_t overdrawMax = 0;
    // What the renderer could not do as asked, one sentence each, said in the first frame it
    // happens for the current scene (a program that does not compile, morphs moved to the CPU).
    // The viewer adds them to the import report; `render` prints them as warnings.
    std::vector<std::string> notes;
};

// What the renderer found in the context and decided from it (shown by the panel, asserted by tests).
struct RendererInfo {
    bool es3 = false;           // ES 3.0 features in use (false in ES2 mode)
    bool vertexArrays = false;  // VAOs (ES3, or OES_vertex_array_object in ES2 mode)
    bool uintIndices = false;   // 32-bit indices (ES3, or OES_element_index_uint)
    int maxVertexUniformVectors = 0;  // as enforced (128 in ES2 mode)
    int maxVertexAttribs = 0;
    int paletteCapacity = 0;    // bones per draw
    int vectorsPerBone = 4;     // a palette entry is a mat4
    int reservedVertexVectors = 0;  // vertex uniform vectors the mesh program keeps besides the palette
    bool strict = false;            // RendererOptions::gles2Strict (the device strict-es2)
    std::string device;             // the device profile held to; empty: none
    bool fixedAttributes = true;    // GL_FIXED vertex attributes (false: WebGL, which has none)
    bool floatTextures = false;     // float textures may be sampled (ES3; never under the strict profile)
    bool fragmentHighp = true;      // fragment shaders use highp (false: mediump, the strict profile)
    int maxFragmentUniformVectors = 0;   // as enforced: every linked program is checked against it
    int maxTextureUnits = 0;             // fragment texture image units, as enforced
    int fragmentUniformVectorsUsed = 0;  // the most any program linked so far uses (GL's active uniforms)
    bool gpuTimer = false;      // FrameStats::gpuMs is measured (GL_EXT_disjoint_timer_query)
    // Compressed formats sampled natively (others must be decoded before setScene).
    std::array<bool, static_cast<size_t>(PixelFormat::Count)> compressedFormats{};
    bool npotTextures = false;  // wrap and mipmaps on any size (ES3)
    int maxTextureSize = 0;
    size_t textureBytes = 0;    // texture memory of the current scene, as uploaded

    bool supports(PixelFormat f) const {
        return f == PixelFormat::Rgba8 || compressedFormats[static_cast<size_t>(f)];
    }
};

// The target this renderer's context is, for the preparation stage (prepare/prepare.h).
TargetCaps targetCaps(const RendererInfo& info);

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

    // The GL texture name uploaded for Scene::textures[index] (a 2D texture, or a cube map when the
    // image is one), 0 when that texture was not uploaded; for the panel's thumbnails. Owned by the
    // renderer and valid until the next setScene.
    virtual unsigned textureObject(int index) const = 0;

    // Links the programs and makes the vertex arrays and buffers that draw() needs for this scene,
    // pose and view, without drawing anything: a one-frame render (`esview render`) does this
    // before it clears, so that its frame holds only the frame's work.
    virtual void prepareFrame(const Scene& scene, const Pose& pose, const ViewSettings& view) = 0;

    // Draws the scene at `pose` into the currently bound framebuffer, in the width x height pixels
    // whose lower left corner is (x, y) (the GL viewport), seen through cameraMatrices
    // (renderer/camera.h) at that rectangle's aspect. The clear covers the whole framebuffer (unless
    // the caller set a scissor): what is drawn around the rectangle comes after.
    virtual FrameStats draw(const Scene& scene, const Pose& pose, const ViewSettings& view, int width,
                            int height, int x = 0, int y = 0) = 0;

    // The world-space position and normal the GPU computes for every vertex of mesh node `node` at
    // `pose` (unpack matrix and skinning, same buffers, attribute setup, palettes and shader as
    // drawing), read back through transform feedback. Each vertex is taken from the first bone
    // batch whose triangles use it; vertices no triangle uses are NaN. Normals are not normalised.
    // Returns false with `error` when the context cannot capture (ES2 mode) or the node is drawn
    // from CPU-computed vertices.
    virtual bool captureVertices(const Scene& scene, const Pose& pose, int node, std::vector<glm::vec3>& positions,
                                 std::vector<glm::vec3>& normals, std::string& error) = 0;
};

// Destroys `renderer` without a GL call, for a context that is already gone with every object in
// it (Android destroys the EGL context of an app in the background): programs, buffers, vertex
// arrays, textures, timer queries and the state cache go, nothing is deleted in GL. The next
// renderer is made with Renderer::create on the new context and given the scene again.
void abandonRenderer(std::unique_ptr<Renderer>& renderer);

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
    unsigned m_fbo = 0, m_color = 0, m_colorTexture = 0, m_depth = 0;
    int m_width = 0, m_height = 0;
};

}  // namespace esv
