// Shaping a loaded scene into what POD holds and a device draws well (the PVRGeoPOD job): one
// primitive list and material per mesh, bone batches for a palette budget, per-attribute
// quantisation with the largest error it introduced, vertex-cache and vertex-fetch order, triangle
// strips. Pure CPU, no GL and no file I/O: the result goes to writePod (loaders/pod/pod_writer.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

// How one group of attributes is stored. Keep: as loaded.
enum class PodQuant : uint8_t {
    Keep,
    Float,  // 32-bit floats
    Fixed,  // 16.16 fixed point (GL_FIXED)
    Int16,  // positions: normalised int16 with the unpack matrix (Mesh::positionUnpack)
    Dec3n,  // normals, tangents: DEC3N (signed normalised 10/10/10 in one 32-bit word)
    Byte,   // normals, tangents: normalised signed bytes
    Half,   // UVs: half floats
    Short,  // UVs: normalised shorts (unsigned when every value lies in 0..1, else signed, -1..1)
    UByte,  // weights: normalised unsigned bytes whose sum per vertex is exactly 255
    Count
};
const char* podQuantName(PodQuant q);

// Groups of attributes quantised together. Tangents covers binormals too.
enum class PodAttr : uint8_t { Positions, Normals, Tangents, Uvs, Weights, Count };
const char* podAttrName(PodAttr a);

struct PodQuantize {
    PodQuant choice[static_cast<size_t>(PodAttr::Count)] = {PodQuant::Keep, PodQuant::Keep, PodQuant::Keep,
                                                            PodQuant::Keep, PodQuant::Keep};
    PodQuant& operator[](PodAttr a) { return choice[static_cast<size_t>(a)]; }
    PodQuant operator[](PodAttr a) const { return choice[static_cast<size_t>(a)]; }
};

// The --quantize syntax: comma-separated items, each `all` (positions=int16, normals=dec3n,
// tangents=dec3n, uvs=half, weights=ubyte) or `GROUP=TYPE` with GROUP one of positions, normals,
// tangents, uvs, weights and TYPE one the group takes (positions: int16 fixed float; normals and
// tangents: dec3n byte fixed float; uvs: half short fixed float; weights: ubyte float); later items
// override earlier ones. Adds to `q`; false with one sentence in `error` on anything else.
bool parsePodQuantize(const std::string& text, PodQuantize& q, std::string& error);
// The types a group takes, for the help: "int16|fixed|float".
std::string podQuantChoices(PodAttr a);

// The largest error one quantisation introduced over every vertex it rewrote: in model units for
// positions and UVs (the distance between the value read back and the source's), in degrees for
// normals and tangents (the angle between the directions), in weight units for weights.
struct PodQuantError {
    PodQuant type = PodQuant::Keep;
    double largest = 0.0;
    uint64_t values = 0;  // vertices rewritten
};

struct PodQuantReport {
    PodQuantError error[static_cast<size_t>(PodAttr::Count)];
    PodQuantError& operator[](PodAttr a) { return error[static_cast<size_t>(a)]; }
    const PodQuantError& operator[](PodAttr a) const { return error[static_cast<size_t>(a)]; }
};

// Rewrites every vertex stream of `mesh` as one interleaved stream with the types `q` asks for
// (attributes a choice does not cover, and groups left Keep, as stored; each attribute aligned to
// its component size, the stride a multiple of 4). Positions as Int16 get the unpack matrix that
// maps them back (centre and half extent of the mesh's box per axis, composed with the mesh's own
// unpack matrix). Errors are measured by reading the new vertices back as the renderer reads them
// and added to `report` (largest kept). False with one sentence in `error` (the mesh unchanged)
// when a value does not fit the type asked for (16.16 beyond +-32768, half floats beyond 65504,
// UVs outside -1..1 as shorts, a tangent's handedness w as DEC3N).
bool quantizeMesh(Mesh& mesh, const PodQuantize& q, PodQuantReport& report, std::string& error);

// The ranges of expanded triangles (expandTriangles order) that must stay contiguous: one per bone
// batch, or the whole mesh. Triangles never move between ranges.
std::vector<std::pair<uint32_t, uint32_t>> podTriangleRanges(const Mesh& mesh);

// Merges vertices whose bytes are identical in every stream (exporters often write each
// triangle's own corners), within each range only, so that a vertex keeps its one bone batch; then
// reorders the triangles of each range for the post-transform vertex cache
// (meshopt_optimizeVertexCache), and renumbers the vertices in first-use order in every stream;
// vertices no triangle uses are dropped. For a mesh of one indexed or non-indexed Triangles or
// TriangleStrip submesh (a list comes out); false with `error` otherwise (or for an index beyond
// the vertices), the mesh unchanged. Bone batches keep their bones and triangle ranges.
bool optimizePodMesh(Mesh& mesh, std::string& error);

// Renumbers the vertices of a mesh of one indexed triangle list or strip list in the order its
// indices first use them (as meshopt_optimizeVertexFetchRemap does), dropping unused ones; triangles keep
// their order. False with `error` (the mesh unchanged) for another mesh or an index out of range.
bool optimizePodVertexFetch(Mesh& mesh, std::string& error);

// Turns the one Triangles submesh of `mesh` into triangle strips as POD stores them: identical
// vertices merged as optimizePodMesh does, then per range of podTriangleRanges
// meshopt_optimizeVertexCacheStrip and meshopt_stripify, split at its restarts into strips with
// their lengths; unused vertices dropped (the others keep their order). Strips may carry degenerate
// triangles (meshoptimizer's winding swaps); bone batch ranges are recounted in the strips'
// triangles. A mesh of another primitive is left as it is (returns true).
bool stripifyPodMesh(Mesh& mesh, std::string& error);

// What POD cannot hold, on request dropped; the bone budget; the vertex shaping.
struct PodShapeOptions {
    uint32_t maxBones = 28;  // palette budget (bone matrices per batch); 0: keep the batches
    PodQuantize quantize;
    bool optimize = false;
    bool strips = false;
    bool dropMorphs = false;
    bool bindPoseRest =
        false;                // skins bound elsewhere than the rest pose: the bind pose becomes the rest pose
    bool dropHidden = false;  // hidden mesh nodes written as empty nodes (POD has no visibility)
    bool dropVisibility = false;   // visibility tracks left out (POD has no visibility)
    bool dropUvAnimation = false;  // texture coordinate tracks left out (POD has none)
    bool wrapRepeat = false;       // textures of other wrap modes written repeating (POD has no wrap modes)
    bool plainTextures = false;    // texture coordinate transforms and swizzles left out (POD has neither)
    // Lights as POD has them: ranges and spot inner cones left out, switched-off lights written
    // black, ambient lights added to the scene's ambient colour.
    bool plainLights = false;
    // Cameras as POD has them: orthographic ones written perspective (a 45-degree field of view),
    // fixed aspect ratios left out.
    bool plainCameras = false;
    // Materials as POD has them: two-sided ones written one-sided, alpha cutoffs left out, unlit
    // ones written lit, vertex colours always on, an emission POD cannot store and
    // KHR_materials_specular's maps (TextureSlot::SpecularStrength, SpecularTint) left out.
    bool plainMaterials = false;
    int clip = -1;                 // the clip to keep (index); -1: the only one
    float fps = 0.0f;              // > 0: the frame rate animation is sampled at (else the scene's)
};

// What shapeSceneForPod did, for the command's output.
struct PodShapeReport {
    PodQuantReport quant;
    std::vector<std::string> notes;  // one line per change ("mesh 2 'Body': split into 3 meshes ...")
    // What POD cannot hold and no option asked to drop, one sentence each naming the option that
    // would ("clip 'Run': ... (--clip NAME picks it)"). Shaping goes on past each one as if the option
    // had been given, so that one run lists them all; the scene must then not be written.
    std::vector<std::string> refusals;
    size_t meshesSplit = 0, meshesRebatched = 0, meshesOptimized = 0, meshesStripped = 0;
};

// Shapes `scene` for POD in this order: materials (metal/rough values of classic materials left
// out; wrap modes other than repeat refused unless `wrapRepeat`, texture coordinate transforms and
// swizzles unless `plainTextures`), the one clip kept (several refused without `clip`),
// visibility and UV tracks refused unless dropped, transform element tracks sampled per frame as
// matrices, object transforms of mesh nodes moved to child nodes, a Z-up scene turned Y-up at its
// roots, morph targets dropped (dropMorphs), meshes with several
// submeshes split into one mesh per submesh (the extra parts shown by new child nodes of every node
// that showed the mesh, with the same skin), fans, quads and line strips expanded, bone batches
// re-batched for `maxBones` (rebatchSceneBones), then per mesh quantizeMesh, and optimizePodMesh
// (optimize alone) or stripifyPodMesh then optimizePodVertexFetch (strips, optimize). Whatever POD
// cannot hold and the options do not drop is listed in report.refusals (every one, not only the
// first); `error` is then the first of them and the result false. False with one sentence in `error`
// (`where: what`) when a step cannot be done at all. On false the scene is partly shaped and must not
// be written.
bool shapeSceneForPod(Scene& scene, const PodShapeOptions& options, PodShapeReport& report,
                      std::string& error);

// Float to IEEE half, rounding to nearest even (values beyond the half range become infinities).
uint16_t floatToHalf(float value);

}  // namespace esv
