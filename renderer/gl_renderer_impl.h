// The GLES renderer's class, private to renderer/: what it holds for a scene (GpuMesh, ...) and
// its member functions, defined by part:
//   gl_renderer.cpp  create, setScene, info, the frame (prepareFrame, draw)
//   draw_builder.cpp the frame's draw list (draw_list.h): passes, nodes, submeshes, batch ranges
//   draw_executor.cpp the list applied through the state cache
//   mesh_upload.cpp  vertex streams, index lists, edges; attribute setup (VAOs, the CPU path's arrays)
//   materials.cpp    textures, programs by feature, material uniforms and render state
//   skinning.cpp     morph targets (attributes or a texture of deltas) and bone palettes
//   debug_views.cpp  transform feedback capture, SkinDiff, the overlay (skeleton, normals, ...)
// with the light rig (light_rig.h) and the GPU timer (gpu_timer.h) as small classes of their own
// and the camera maths in camera.h. Every GL state change goes through m_state (gl_state.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "target/binding_plan.h"
#include "target/device_profiles.h"
#include "renderer/gl_objects.h"
#include "renderer/draw_list.h"
#include "renderer/gl_state.h"
#include "renderer/gpu_scene.h"
#include "renderer/gpu_timer.h"
#include "renderer/light_rig.h"
#include "renderer/renderer.h"
#include "renderer/shader_program.h"
#include "renderer/textures.h"
#include "scene/skin_analysis.h"

namespace esv::detail {

constexpr int kVectorsPerBone = 4;  // palette entries are mat4 (u_bones in mesh.vert)

const glm::vec3 kSkinDiffGrey(0.6f);  // SkinDiff: what is not compared

struct Caps {
    bool es3 = false;
    bool vao = false;
    bool uintIndices = false;
    bool timer = false;  // GL_EXT_disjoint_timer_query
    int maxVertexUniformVectors = 128;
    int maxVertexAttribs = 8;
    bool strict = false;                // RendererOptions::gles2Strict: no extensions, kStrictLimits
    const DeviceProfile* device = nullptr;  // RendererOptions::device (strict-es2 under gles2Strict)
    bool webgl = false;                 // a WebGL context (GL_VERSION names WebGL): no GL_FIXED attributes
    bool fragmentHighp = true;          // false: fragment shaders are mediump (strict)
    int maxFragmentUniformVectors = 0;  // 0: not checked
    int maxTextureUnits = 0;
    bool derivatives = false;  // dFdx/dFdy in fragment shaders (ES3, or GL_OES_standard_derivatives)
};

// What setScene uploads is a GpuScene (gpu_scene.h).

// A redraw of a node in one flat colour over the shaded scene (overlays), instead of its view mode.
struct FlatPass {
    bool edges = false;  // every triangle edge as GL_LINES; else the triangles, blended by colour.a
    glm::vec4 color{1.0f};
    // The triangles as an inverted hull (OUTLINE in mesh.vert): front faces culled, pushed out by
    // kOutlinePixels on screen and back in depth, so only a rim around the silhouette shows.
    bool outline = false;
};
constexpr float kOutlinePixels = 2.0f;

// With ESVIEW_GL_CHECKS: records every pending GL error with `where` (takeGlErrors hands them to
// the frame's notes or the failing call's error), counts them in `errors`, and returns false when
// there was one. Without it: true, and no glGetError. The renderer never prints.
bool checkGl(const char* where, uint32_t& errors);
std::string takeGlErrors();

class GlRenderer final : public Renderer {
public:
    GlRenderer(const RendererOptions& options, const Caps& caps);

    bool setScene(const Scene& scene, std::vector<ReportLine>& report, std::string& error) override;
    RendererInfo info() const override;
    unsigned textureObject(int index) const override;
    void prepareFrame(const Scene& scene, const Pose& pose, const ViewSettings& view) override;
    FrameStats draw(const Scene& scene, const Pose& pose, const ViewSettings& view, int width, int height, int x = 0,
                    int y = 0) override;
    bool captureVertices(const Scene& scene, const Pose& pose, int n, std::vector<glm::vec3>& positions,
                         std::vector<glm::vec3>& normals, std::string& error) override;

private:
    // --- the frame (gl_renderer.cpp)
    static bool drawable(const Scene& scene, const Pose& pose, size_t n) {
        const Node& node = scene.nodes[n];
        return node.kind == NodeKind::Mesh && node.object >= 0 && pose.visible[n];
    }
    // --- the draw list: its builder (draw_builder.cpp) and executor (draw_executor.cpp)
    // The frame's passes: the scene (opaque, then transparent back to front), the wireframe
    // overlay's edges, the selection outline.
    void buildFrame(const Scene& scene, const Pose& pose, const ViewSettings& view, DrawList& list, FrameStats& stats);
    // Mesh node n's items in the view's mode, or in one flat colour when `flat` is given (overlays).
    void buildNode(const Scene& scene, const Pose& pose, const ViewSettings& view, size_t n, const FlatPass* flat,
                   DrawList& list, FrameStats& stats);
    // One submesh of list.nodes[index]: one item per bone batch range of its triangles (or edges),
    // or one for its lines or points.
    void buildSubmesh(const Scene& scene, const ViewSettings& view, uint32_t index, uint32_t submesh,
                      const FlatPass* flat, DrawList& list, FrameStats& stats);
    // The overdraw views' passes: depth of the nearest opaque surfaces, that layer counted once,
    // then the blended and alpha-tested layers in front of it; or every layer (OverdrawAll).
    void buildOverdrawFrame(const Scene& scene, const Pose& pose, const ViewSettings& view, DrawList& list,
                            FrameStats& stats);
    void execute(const Scene& scene, const Pose& pose, const DrawList& list, FrameStats& stats);
    // A pass's depth, colour and blend settings for what it writes (PassWrites), and back.
    void beginPassWrites(PassWrites writes);
    void endPassWrites(PassWrites writes);
    // The overdraw views around the frame's passes (overdraw.cpp): the count target bound and
    // cleared (false: it cannot be made here), then read back into `stats` and resolved onto the
    // framebuffer that was bound, in the viewport at (x, y).
    bool beginOverdraw(int width, int height, FrameStats& stats);
    void endOverdraw(int width, int height, int x, int y, FrameStats& stats);
    // A node's vertex inputs, index list and lights; a submesh's program and everything it shares
    // across its items; one item's palette, look and draw.
    void beginNode(const Scene& scene, const Pose& pose, const DrawNode& d);
    void beginSubmesh(const Scene& scene, const Pose& pose, const DrawNode& d, const DrawItem& item);
    void drawItem(const Scene& scene, const DrawNode& d, const DrawItem& item, FrameStats& stats);

    // --- scene upload and attribute setup (mesh_upload.cpp)
    bool uploadMesh(const Mesh& mesh, GpuMesh& gpu, const VertexCaps& vcaps, std::vector<ReportLine>& report,
                    std::string& error);
    // Lines, line strips and points: one index list of GL_LINES pairs then GL_POINTS indices,
    // expanded once (strip restarts honoured as for triangle strips), and each such submesh's range.
    bool uploadPrimitives(const Mesh& mesh, GpuMesh& gpu, std::vector<ReportLine>& report, std::string& error);
    void buildEdges(GpuMesh& gpu);
    GLuint attributeLimit() const {
        return GLuint(std::min(m_caps.maxVertexAttribs, int(kLocMorphBase) + 2 * kMaxGpuMorphTargets + 1));
    }
    // Points the mesh's attributes m_vertexBase vertices into their streams.
    void bindStreams(const GpuMesh& gpu, bool skinned);
    // Binds the mesh's attribute setup: its VAO (made and filled on first use) where vertex arrays
    // exist, plain pointers otherwise. Current values of disabled attributes are context state
    // (not VAO state), so they are set on every draw.
    void bindMesh(GpuMesh& gpu, bool skinned);
    // Binds the attributes of the CPU path: world-space positions and normals computed on the CPU
    // (drawn with identity matrices), colours and UVs from the stored streams.
    void bindCpuVertices(const Scene& scene, const Pose& pose, size_t n, GpuMesh& gpu);
    // The CPU path's attribute pointers, m_vertexBase vertices in (setup: enable them too).
    void pointCpuVertices(size_t n, const GpuMesh& gpu, bool setup);
    // A windowed mesh's next submesh starts at another vertex: points every vertex input there.
    void moveVertexBase(size_t n, GpuMesh& gpu, bool cpu, bool skinned, uint32_t base);

    // --- materials and textures (materials.cpp)
    static const Material& materialOf(const Scene& scene, const Node& node, uint32_t slot);
    static bool isTransparent(const Scene& scene, const Node& node);
    void uploadTextures(const Scene& scene, std::vector<ReportLine>& report);
    // The program for `f`, linked on first use (linking leaves the new program in use).
    const MeshProgram* programFor(const ShaderFeatures& f, std::string& error);
    // Binds `texture` (or the neutral `fallback`) on `unit` with the reference's wrap modes and, on
    // ES3, its swizzle (ES2 permuted the pixels at upload). True when the reference's own texture
    // was bound, false for the fallback.
    bool bindTexture(int unit, const TextureRef& ref, GpuTexture& fallback, GLenum target = GL_TEXTURE_2D);
    // The references a material's maps sample, by MAP_TRANSFORMS index (= texture unit), as
    // bindMaterialTextures binds them; null where the unit is not sampled.
    static void sampledMaps(const Material& m, const ShaderFeatures& f, const TextureRef* (&refs)[kTransformedMaps]);
    // True when a map the features sample needs MAP_TRANSFORMS (a uv transform or an emulated wrap).
    static bool needsMapTransforms(const Material& m, const ShaderFeatures& f);
    // The maps of `f`'s program that name texture coordinate set 1 (ShaderFeatures::uv1Maps).
    static uint8_t uv1Maps(const Material& m, const ShaderFeatures& f);
    void bindMaterialTextures(const Scene& scene, const Pose& pose, const Material& m, const ShaderFeatures& f,
                              const MeshProgram& p);
    // The material's uniforms and render state; `flat` is the colour of the batches, wireframe and
    // SkinDiff views.
    void setMaterial(const Scene& scene, const Node& node, uint32_t slot, const MeshProgram& p,
                     const glm::vec3& flat);
    // Culling as the material asks, unless the view forces every material two-sided.
    void setCulling(const Material& m) const;
    // State of a flat overlay pass: its colour (alpha-blended below 1), no alpha test, and no depth
    // writes, so overlays never hide each other.
    void setFlat(const MeshProgram& p, const glm::vec4& color, const Material& m) const;
    ShaderFeatures featuresFor(const Scene& scene, const Node& node, const GpuMesh& gpu, ViewMode mode, bool cpu,
                               bool gpuSkinned, const Material* material = nullptr) const;

    // --- skinning and morphs (skinning.cpp)
    // Every target's position (and normal) deltas in stored space, one RGBA32F texel per vertex.
    void uploadMorphTexture(const Mesh& mesh, GpuMesh& gpu, std::vector<ReportLine>& report);
    // Sets the texture path's uniforms: weights of every target (by index) and the layout.
    void bindMorphTexture(const GpuMesh& gpu, const Pose& pose, size_t n, const MeshProgram& p);
    // True when node n's active targets go through the texture of deltas this frame.
    bool useMorphTexture(const GpuMesh& gpu, const std::vector<int>& active) const {
        // The delta texture is read at gl_VertexID, which a windowed mesh's local indices are not.
        return gpu.morphDeltas && !gpu.windowed && int(active.size()) > morphCapacity(gpu);
    }
    // The targets of node `n` with a non-zero weight at `pose` (at most kMaxGpuMorphTargets are
    // blended on the GPU; more at once send the node down the CPU path for that frame).
    void activeMorphs(const Pose& pose, size_t n, const GpuMesh& gpu, std::vector<int>& active) const;
    // Same as morphBaseScale(mesh, weights), from the uploaded targets.
    static float morphBaseScaleOf(const GpuMesh& gpu, const std::vector<float>& w);
    int morphCapacity(const GpuMesh& gpu) const;
    // Points the morph attribute locations at the active targets' buffers (and turns the other
    // morph locations off), then sets the weights. Called after bindMesh on every draw.
    void bindMorphs(const GpuMesh& gpu, const std::vector<int>& active, const Pose& pose, size_t n,
                    const ShaderFeatures& f, const MeshProgram& p);
    // The palette of batch `b` (or the whole skin when the mesh has no batches) into m_bones.
    void batchPalette(const Mesh& mesh, const std::vector<glm::mat4>& palette, size_t b);
    // The selected joint's index in batch b's palette (-1: strongest influence; -2: not in this batch).
    static float weightBoneLocal(const Scene& scene, const Node& node, const Mesh& mesh, size_t b, int weightBone);

    // --- debug views (debug_views.cpp; captureVertices above)
    // Overlays from the CPU pose, drawn with the overlay program after the scene: the skeleton
    // (lines parent -> child between joints, joint markers), its bind pose, joint axes, vertex
    // normal and tangent lines, the selected node's axis tripod, and one joint's influence.
    void drawOverlay(const Scene& scene, const Pose& pose, const ViewSettings& view, FrameStats& stats);
    // Calls emit(joint, &parent) for every bone and emit(joint, nullptr) for every joint of every
    // skin in its bind pose: joint j's world bind matrix is inverse(inverseBind[j]), the matrix at
    // which the skin leaves the stored vertices where they are. POD folds the mesh node's frame-0
    // world matrix into inverseBind (scene.h, Skin), so there the stored vertices, and with them the
    // bind skeleton, are placed by that matrix: the rest pose's, which is frame 0 for POD.
    template <typename Emit>
    void bindPoseSkeleton(const Scene& scene, Emit&& emit);
    // SkinDiff view of GPU-skinned node n: captures what the vertex stage computes (transform
    // feedback, ES3), compares each vertex with the CPU reference and draws the reference surface
    // coloured by the difference over m_skinDiffRange. False when the node cannot be captured.
    bool drawSkinDiff(const Scene& scene, const Pose& pose, size_t n, FrameStats& stats);

    RendererOptions m_options;
    Caps m_caps;
    mutable gl::StateCache m_state;  // every state change of a frame goes through it
    uint32_t m_vertexBase = 0;       // where the bound vertex inputs start (GpuSubmesh::baseVertex)
    bool m_dryRun = false;           // prepareFrame: everything a draw needs, but no draws
    ProgramCache m_programs;
    GpuScene m_gpu;  // what setScene uploaded
    int m_morphSlots = 0;                  // vertex attributes left for morph targets
    DrawList m_list;  // this frame's draws (kept for its capacity)
    // Which of a node's submeshes buildSubmesh builds (the overdraw views' passes split them).
    enum class SubmeshFilter : uint8_t { All, Opaque, Layers } m_filter = SubmeshFilter::All;
    // The overdraw views: the count target, the framebuffer it replaced, the resolve.
    gl::Framebuffer m_overdrawFramebuffer;
    gl::Texture m_overdrawColor;
    gl::Renderbuffer m_overdrawDepth;
    int m_overdrawWidth = 0, m_overdrawHeight = 0;
    GLuint m_overdrawPrevious = 0;
    bool m_overdrawScissor = false;
    OverdrawProgram m_overdrawProgram;
    gl::Buffer m_overdrawTriangle;
    gl::VertexArray m_overdrawVao;
    std::vector<uint8_t> m_counts;
    OverlayProgram m_overlay;
    gl::Buffer m_overlayBuffer;
    gl::VertexArray m_overlayVao;  // where vertex arrays exist: its two attributes set up once
    int m_paletteCapacity = 0;
    glm::mat4 m_view{1.0f}, m_projection{1.0f};
    glm::vec3 m_eye{0.0f};
    glm::vec2 m_outline{0.0f};  // the outline's width in clip units per w (u_outline), this frame's
    LightRig m_lights;  // this frame's lights and the current draw's selection
    TextureFormatSupport m_textureSupport;
    GpuTexture m_white, m_flatNormal;  // neutral maps for units a material leaves empty
    GpuTexture m_grey;                 // the diffuse colour of a missing texture (MissingTexture::Grey)
    std::vector<glm::mat4> m_bones;
    std::vector<glm::vec3> m_positions, m_normals;
    std::set<uint64_t> m_reported;
    bool m_forceTwoSided = false;  // this frame's ViewSettings::forceTwoSided
    bool m_missingGrey = true;     // this frame's ViewSettings::missingTexture is Grey
    gl::Buffer m_feedback;         // transform feedback target of captureVertices
    // SkinDiff: this frame's full-scale difference, the captured vertices, per-vertex colours, and
    // the stream buffers and VAO that draw them.
    float m_skinDiffRange = 1.0f;
    std::vector<glm::vec3> m_captured, m_capturedNormals, m_colors;
    gl::Buffer m_skinDiffPositions, m_skinDiffColors;
    gl::VertexArray m_skinDiffVao;
    std::vector<VertexInfluence> m_influences;  // influenceJoint's vertices of one node
    Pose m_restPose;                                       // bind-pose skeleton of POD skins
    GpuTimer m_timer;
};

}  // namespace esv::detail
