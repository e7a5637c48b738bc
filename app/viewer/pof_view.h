// The POF side of the viewer (Scene::pof): which subobjects are drawn (a detail level, debris),
// rotating subobjects spun for display, and the game's points (guns, missiles, turrets, docks with
// their paths, thrusters, eye points, special points, glow banks) placed in display axes for the
// overlay. Pure functions of the scene, a pose and PofViewState: no GL, no ImGui.
//
// PofExtras is in the file's axes; the scene is its display conversion (x, y, z) -> (x, y, -z).
// Points the file gives in model coordinates map straight to display world; points relative to a
// subobject (turret firing points and normals, eye points, glow banks with a parent) go through
// that subobject's world matrix in the pose, so they follow a spun or offset subobject.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "renderer/view_settings.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

enum class PofMarkerKind : uint8_t {
    Guns,
    Missiles,
    Turrets,
    Docks,
    Thrusters,
    Eyes,
    Specials,
    Glows,
    Count
};
const char* pofMarkerKindName(PofMarkerKind kind);  // "guns", "missiles", ... as scripts spell them
bool parsePofMarkerKind(const std::string& name, PofMarkerKind& kind);

// What the POF panel and `pof` script commands set.
struct PofViewState {
    int lod = 0;          // detail level drawn: that LOD root and its descendants
    bool debris = false;  // debris subobjects (and their descendants) drawn as well
    bool shield = false;  // the shield mesh as a wireframe over the view
    std::array<bool, static_cast<size_t>(PofMarkerKind::Count)> markers{};
    std::vector<float> spinDegrees;  // per scene node: rotation about its movement axis
    double clockSeconds = 0.0;       // the viewer's clock, for blinking glow banks
    // Markers drawn through the hull (x-ray) instead of hidden behind it.
    bool xray = false;
    // The label of the marker clicked last (its label stays on screen); empty = none.
    std::string selectedMarker;

    bool marker(PofMarkerKind k) const { return markers[static_cast<size_t>(k)]; }
    bool& marker(PofMarkerKind k) { return markers[static_cast<size_t>(k)]; }
};

// The colour markers of `kind` are drawn in (the overlay and the POF panel's swatches), RGBA 0..1:
// apart from each other and from the missing-texture checker's magenta.
glm::vec4 pofMarkerColor(PofMarkerKind kind);
// Glow points of a bank that is off at the moment.
inline constexpr glm::vec4 kPofUnlitColor{0.35f, 0.35f, 0.35f, 1.0f};

// File axes to display axes (a point or a direction).
inline glm::vec3 pofToDisplay(const glm::vec3& p) {
    return glm::vec3(p.x, p.y, -p.z);
}

// Scene node of subobject `number` (subobject i is node i); -1 when the file has none.
int pofSubobjectNode(const PofExtras& pof, int32_t number);

// The axis a subobject (scene node `node`) turns about, in display axes: a rotating subobject's
// movement axis (movement type 1 or 2; axis 0 = X, 1 = Z, 2 = Y as FreeSpace numbers them), else for
// turrets the turret normal (the TGUN/TMIS bank's base, sobj_parent) or X (a separate barrel,
// sobj_par_phys). False for any other subobject.
bool pofSpinAxis(const PofExtras& pof, int node, glm::vec3& displayAxis);

// The display rotation of a spin by `degrees` about a file axis: the file rotation seen through the
// Z flip (a mirror conjugates a rotation into one by the opposite angle about the mirrored axis).
glm::mat4 pofSpinMatrix(const glm::vec3& displayAxis, float degrees);

// Per scene node, 1 when drawn with detail level `lod` (its root and descendants, debris left out
// unless `debris`, then the debris subobjects and their descendants too). `lod` out of range draws
// nothing from the detail levels.
void pofDrawnNodes(const Scene& scene, int lod, bool debris, std::vector<uint8_t>& drawn);

// Applies the drawn set and the spins to `pose` (an evaluatePose result for `scene`) and recomputes
// its world matrices. Does nothing when the scene has no POF data.
void applyPofView(const Scene& scene, const PofViewState& view, Pose& pose);

// Whether a glow bank is on at `seconds` of the viewer's clock: on for on_time ms, off for off_time
// ms, shifted by disp_time ms; always on when either time is not positive.
bool pofGlowBankLit(const PofExtras::GlowBank& bank, double seconds);

struct PofMarker {
    PofMarkerKind kind = PofMarkerKind::Guns;
    std::string label;         // shown on hover
    glm::vec3 position{0.0f};  // display world
    glm::vec3 normal{0.0f};    // display world, unit, or zero when the file has none
    float radius = 0.0f;       // scene units (thruster glows, glow points, special points); 0 = none
    bool lit = true;           // glow points: the bank is on now
};
struct PofPolyline {
    PofMarkerKind kind = PofMarkerKind::Docks;
    std::string label;
    std::vector<glm::vec3> points;  // display world
};

// Every marker of the kinds enabled in `view` (all kinds when `allKinds`), placed with `pose`.
// Points relative to a subobject that is not drawn in `pose` are left out. Dock paths become
// polylines through their vertices.
void pofMarkers(const Scene& scene, const Pose& pose, const PofViewState& view, bool allKinds,
                std::vector<PofMarker>& markers, std::vector<PofPolyline>& lines);

// The overlay's share of the markers (pofMarkers' output) for the renderer: each marker a point in its
// kind's colour (grey when unlit), its normal a line `normalLength` long, its radius a circle facing
// the camera (`cameraRight`, `cameraUp`: unit vectors of the view), each path a run of segments.
// `xray` draws them all through the scene. Replaces `out`'s contents.
void pofAnnotations(const std::vector<PofMarker>& markers, const std::vector<PofPolyline>& lines,
                    const glm::vec3& cameraRight, const glm::vec3& cameraUp, float normalLength, bool xray,
                    Annotations& out);

// The shield mesh's edges in display world (pairs of points), faces with bad vertex indices skipped.
void pofShieldEdges(const PofExtras& pof, std::vector<glm::vec3>& segments);

// The shield's wireframe colour.
inline constexpr glm::vec4 kPofShieldColor{0.3f, 0.7f, 0.95f, 1.0f};

// What the renderer draws over a POF scene this frame, for a camera whose inverse view matrix is
// `cameraToWorld`: the markers of the kinds `view` enables (pofAnnotations: normals
// `normalLength` long, radii as circles facing the camera) and, with `view.shield`, the shield's
// edges, all depth-tested unless `view.xray`. Replaces `out`'s contents (empty when nothing is on
// or the scene is not a POF one).
void pofFrameAnnotations(const Scene& scene, const Pose& pose, const PofViewState& view,
                         const glm::mat4& cameraToWorld, float normalLength, Annotations& out);

}  // namespace esv
