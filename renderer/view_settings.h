// The plain view-settings struct the panel and the command line edit and the renderer consumes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace esv {

enum class ViewMode : uint8_t {
    Shaded,
    Wireframe,
    Normals,
    Weights,
    Batches,
    Uv,
    Unlit,
    VertexColors,
    // Skinned instances coloured by |GPU-skinned - CPU reference| position per vertex (ES3: the
    // GPU side comes from transform feedback); everything else, and all of ES2 mode, in grey.
    SkinDiff,
    // The shaded model with every triangle edge over it (the wireframe overlay as a mode).
    ShadedWire,
    // Texture debug views of the diffuse map (ES 3.0 or OES_standard_derivatives: screen-space
    // derivatives): the mip level sampled, a colour per level; the base level's texels per screen
    // pixel on a diverging scale around 1 (blue: magnified, white: one texel a pixel, red: minified).
    Mip,
    TexelDensity,
    // Fragments shaded per pixel, on a heat scale (FrameStats::overdraw*). `overdraw` as a tile-based
    // GPU with hidden surface removal shades them: the nearest opaque layer once, then every blended
    // and alpha-tested layer in front of it (alpha-tested fragments are shaded even where they are
    // discarded); `overdraw-all` counts every layer of every surface, as without depth testing.
    Overdraw,
    OverdrawAll,
    Count
};
const char* viewModeName(ViewMode mode);
// Parses "shaded", "wireframe", ...; returns false for an unknown name.
bool parseViewMode(const char* name, ViewMode& mode);

// An orbit camera around `target`: yaw/pitch in radians, distance in scene units.
struct OrbitCamera {
    glm::vec3 target{0.0f};
    float yaw = 0.6f;
    float pitch = 0.35f;
    float distance = 5.0f;
    float yfov = 0.7854f;
    // The scene's bounding sphere as frameBounds (camera.h) last framed it; the near and far planes
    // hug it (far better depth precision than fixed ratios of the distance). Radius 0 = unknown:
    // near and far follow the distance alone.
    glm::vec3 sceneCenter{0.0f};
    float sceneRadius = 0.0f;
    // The scene's up axis is +Z (OpenGEX's default): yaw turns about Z and pitch lifts toward it, so
    // a Z-up file is seen upright without changing its coordinates.
    bool zUp = false;
};

// What lights a shaded scene: the file's own lights, the viewer's studio rig (a key, a fill and a
// rim light that turn with the camera, and a sky-over-ground hemisphere ambient), or both, the rig
// then dimmed so that it adds to the file's lights without blowing them out.
enum class Lighting : uint8_t { File, Studio, Both, Count };
const char* lightingName(Lighting lighting);  // "file", "studio", "both"
// Parses "file", "studio" or "both"; returns false for an unknown name.
bool parseLighting(const char* name, Lighting& lighting);
// The one default of the viewer and `esview render`.
inline constexpr Lighting kDefaultLighting = Lighting::Both;

// How a texture that could not be found or read is drawn: a neutral grey in place of its colours
// (the shape stays readable), or the magenta checker that makes it stand out.
enum class MissingTexture : uint8_t { Grey, Checker, Count };
const char* missingTextureName(MissingTexture missing);  // "grey", "checker"
bool parseMissingTexture(const char* name, MissingTexture& missing);
inline constexpr MissingTexture kDefaultMissingTexture = MissingTexture::Grey;

// The part of the picture a framed scene must fit: fractions of its width and height from the top
// left (the viewer passes what no panel covers). The full picture by default.
struct ViewRegion {
    float x0 = 0.0f, y0 = 0.0f, x1 = 1.0f, y1 = 1.0f;
    bool operator==(const ViewRegion& o) const { return x0 == o.x0 && y0 == o.y0 && x1 == o.x1 && y1 == o.y1; }
    bool operator!=(const ViewRegion& o) const { return !(*this == o); }
};

// The Weights and SkinDiff views' ramp (mesh.frag's): blue at 0, green at 0.5, red at 1; `w` is
// clamped to 0..1. The app's legends draw the same colours.
glm::vec3 heatColor(float w);

// The Batches view's colour of bone batch `batch` of a mesh (a mesh drawn without batches is batch
// 0): kBatchColorCount distinct colours, repeating after that. The Skinning panel's swatches and
// the legend use the same.
inline constexpr size_t kBatchColorCount = 64;
glm::vec3 batchColor(size_t batch);

// The SkinDiff view's difference that reads red, in scene units: `setting` (ViewSettings::skinDiffRange)
// when positive, else 1e-3 of `boxDiagonal` (the diagonal of the drawn scene's box at this pose), at
// least 1e-12. The renderer colours by it; the app's scale bar shows it.
float resolvedSkinDiffRange(float setting, float boxDiagonal);

// Lines and points the app adds to the overlay (POF markers, ...), in world space with an RGBA
// colour each, drawn after the scene with one draw per set.
struct OverlayVertex {
    glm::vec3 position{0.0f};
    glm::vec4 color{1.0f};
};
struct Annotations {
    std::vector<OverlayVertex> lines;   // pairs of end points
    std::vector<OverlayVertex> points;  // squares `pointSize` pixels across
    float pointSize = 7.0f;
    // X-ray: drawn through everything. Otherwise depth-tested against the scene (hidden behind a
    // surface), each vertex pulled toward the eye by 1/200 of its distance so that a point lying on
    // a surface stays visible.
    bool throughSurfaces = false;
    bool empty() const { return lines.empty() && points.empty(); }
};

struct ViewSettings {
    ViewMode mode = ViewMode::Shaded;
    int camera = -1;  // index into Scene::cameras; -1 = the orbit camera
    OrbitCamera orbit;
    bool showSkeleton = false;  // bones as lines from parent to child, joints as points, over the scene
    bool showNormalLines = false;  // each vertex normal as a short line (CPU-skinned positions)
    bool showTangentLines = false;  // each vertex tangent as a short line (file's or computed from UVs)
    int weightBone = -1;  // Weights mode: node index of the joint whose weights to show; -1 = strongest influence
    glm::vec4 clearColor{0.18f, 0.19f, 0.22f, 1.0f};
    Lighting lighting = kDefaultLighting;
    // A light from the eye on top of whatever else lights the scene. (With Lighting::File and no
    // light of the file in use, a headlight and a fill from above always stand in: nothing is
    // black by accident.)
    bool headlight = false;
    MissingTexture missingTexture = kDefaultMissingTexture;
    bool useSceneClearColor = false;

    // Debug aids (the panel's checkboxes); the defaults draw exactly what the file asks for.
    bool wireframeOverlay = false;  // triangle edges over the shaded scene
    bool forceTwoSided = false;     // no back-face culling for any material
    // The selected node (-1 = none): mesh nodes get accent-coloured edges and a light tint, every
    // node an RGB axis tripod at its world matrix, drawn through everything.
    int highlightNode = -1;
    // A joint node (-1 = none): every vertex it moves, as a point coloured by its weight (the
    // Weights mode's blue -> red ramp), over the scene, and the joint as a large marker.
    int influenceJoint = -1;
    bool showJointAxes = false;  // X/Y/Z of every joint's world matrix as red/green/blue lines
    bool showBindPose = false;   // the skeleton in its bind pose (cyan) beside the animated one
    // SkinDiff mode: the difference (scene units) that reads red; 0 = 1e-3 of the scene's box diagonal.
    float skinDiffRange = 0.0f;
    float pointSize = 5.0f;  // pixels across each point of a Points submesh (gl_PointSize)
    // Extra overlay lines and points (not owned; null or empty = none). The pointer must stay valid
    // while the renderer draws with these settings.
    const Annotations* annotations = nullptr;
};

}  // namespace esv
