// Shader assembly and the program cache. Sources come from shaders/ (embedded at build time); the
// renderer prepends the version line, a compatibility prelude and the permutation's defines.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "renderer/gl_objects.h"
#include "renderer/view_settings.h"

namespace esv {

// One permutation of the mesh program.
struct ShaderFeatures {
    bool skinned = false;
    int boneCount = 0;   // palette size (mat4s) when skinned
    int influences = 0;  // bone influences per vertex read by the shader (1..4)
    bool normal = false;
    bool color = false;
    bool uv = false;
    ViewMode mode = ViewMode::Shaded;
    // Transform feedback of the vertex stage's world position and normal (ES 3.00 only).
    bool capture = false;
    // Morph targets blended in the vertex stage from extra attributes (0 = none, up to kMaxGpuMorphTargets).
    int morphTargets = 0;
    bool morphNormals = false;  // each target also carries a normal attribute
    // ES3: every target from a texture of deltas (up to kMaxTextureMorphTargets), when more are
    // active than the attribute path holds.
    bool morphTexture = false;
    // A Points submesh: the vertex stage writes gl_PointSize from u_pointSize (ES requires it for
    // GL_POINTS draws).
    bool points = false;
    // Material maps (shaded and unlit modes): `textured` samples the diffuse map (unit 0),
    // `materialMaps` the specular, emissive and opacity maps (units 1, 3, 4; metal/rough: metallic,
    // emissive, roughness and the occlusion map on unit 5); a neutral 1x1 texture
    // stands in for a map the material lacks, so two defines cover every combination.
    bool textured = false;
    bool materialMaps = false;
    bool normalMap = false;   // tangent-space normal map; needs the a_tangent attribute
    uint8_t reflection = 0;   // 0 none, 1 lat-long 2D map, 2 cube map
    bool metalRough = false;  // metal/rough model instead of the classic one
    // Metal/rough, GLSL ES 3.00 only: KHR_materials_specular's maps (the strength in .a on unit
    // kUnitSpecularStrength, the colour in .rgb on kUnitSpecularTint; the neutral white where one
    // is absent). ES 2 grants 8 fragment units and the other maps take them all.
    bool specularMaps = false;
    // Some sampled map has a texture coordinate transform or an addressing mode GL lacks (border,
    // mirror_clamp, mirror_border): every map samples through u_mapUv / u_mapBorder (mesh.frag).
    bool mapTransforms = false;
    // The maps (bits by map index, see kTransformedMaps) that sample texture coordinate set 1:
    // those whose TextureRef::uvSet is 1, when the mesh has set 1. Nonzero: the vertex stage reads
    // a_uv1 (HAS_UV1) and the fragment stage gets the mask as UV1_MAPS. A compile-time mask rather
    // than a uniform: files put one or two maps on set 1 (the occlusion map, a lightmap), so few
    // masks occur, the choice folds away and costs no fragment uniform vector (scarce on ES 2), and
    // programs of materials without set-1 maps stay exactly as they were.
    uint8_t uv1Maps = 0;
    // Shaded mode: one spot light's colour is filtered by its projection texture (u_lightProjection,
    // u_projectedLight, u_projectionMap in mesh.frag).
    bool lightProjection = false;
    // The selection outline (vertex stage): the inverted hull, each vertex pushed out on screen
    // along its normal by u_outline (mesh.vert). Never with points, the weights view or capture.
    bool outline = false;
    // The light arrays' size (MAX_LIGHTS of mesh.frag); 0: all kMaxShaderLights. Fewer only where a
    // profile's fragment uniform budget cannot hold them all (the strict ES2 profile, see
    // lightsWithinBudget): the draw then takes the first lights of the rig's order.
    uint8_t maxLights = 0;

    uint64_t key() const;
};

enum class GlslVersion : uint8_t { Es100, Es300 };

constexpr int kMaxShaderLights = 8;  // MAX_LIGHTS of mesh.frag (LightRig::kMaxLights)
constexpr int kVectorsPerLight = 5;  // u_lightPosition, Color, Attenuation, Range, Spot
// The lights a program may hold so that its fragment uniforms fit `limit` vectors, given that with
// `lights` lights it uses `vectors`: `lights` when it fits, else fewer by whole lights (at least 1).
inline int lightsWithinBudget(int vectors, int lights, int limit) {
    if (limit <= 0 || vectors <= limit) return lights;
    const int drop = (vectors - limit + kVectorsPerLight - 1) / kVectorsPerLight;
    return lights - drop < 1 ? 1 : lights - drop;
}

// The full source of a stage for `features` in `version` (what the driver or glslangValidator compiles).
// `fragmentHighp` false: the fragment stage is mediump outright, as on a driver without
// GL_FRAGMENT_PRECISION_HIGH (the strict ES2 profile); true: highp where the driver defines it.
std::string assembleVertexShader(const ShaderFeatures& features, GlslVersion version);
std::string assembleFragmentShader(const ShaderFeatures& features, GlslVersion version,
                                   bool fragmentHighp = true);

// The uniforms mesh.frag declares (names, without array brackets), read from its source: the
// fragment stage's share of a program's active uniforms.
const std::vector<std::string>& fragmentUniformNames();

// Uniform vectors one active uniform takes under the GLSL ES 1.00 packing rules' upper bound
// (appendix A.7): one row per element for scalars and vectors, 2/3/4 rows per mat2/mat3/mat4
// element, none for samplers. `type` is a GL type enum (GL_FLOAT_VEC4, ...).
int uniformVectors(unsigned type, int arraySize);

// The overlay program's stages (lines and points over the scene; no permutations).
std::string assembleOverlayShader(bool vertex, GlslVersion version);

// Permutations covering every source the renderer can request for palettes up to `maxBones`
// (used by the tests). Each stage's source depends only on the features that stage reads, so the
// list holds every distinct vertex source (with fragment features at defaults) and every distinct
// fragment source (with vertex features at defaults): compiling both sets covers every program.
std::vector<ShaderFeatures> allShaderPermutations(int maxBones);

// Attribute locations bound by semantic before linking (ES 1.00 has no layout qualifiers).
enum AttributeLocation : uint32_t {
    kLocPosition = 0,
    kLocNormal = 1,
    kLocColor = 2,
    kLocUv = 3,
    kLocBoneIndices = 4,
    kLocBoneWeights = 5,
    kLocationCount = 6,
    // Morph target attributes follow: positions at kLocMorphBase + i, then normals at
    // kLocMorphBase + targets + i (see morphPositionLocation / morphNormalLocation).
    kLocMorphBase = 6
};

constexpr int kMaxGpuMorphTargets = 4;
constexpr int kMaxTextureMorphTargets = 64;  // MORPH_TEXTURE_TARGETS in mesh.vert
// The tangent attribute takes the last location the morph range would use (so normal-mapped
// meshes keep fewer morph slots: one in ES2's 8 attributes, all four with 16).
inline uint32_t tangentLocation(int maxVertexAttribs) {
    const int last = int(kLocMorphBase) + 2 * kMaxGpuMorphTargets;
    return uint32_t((maxVertexAttribs < last + 1 ? maxVertexAttribs : last + 1) - 1);
}
// Texture coordinate set 1 (a_uv1, ShaderFeatures::uv1Maps): the location after the tangent's
// where there is one (16 attributes: beyond the morph range), else the one below the tangent's (ES
// 2's 8: the morph range's first, so a mesh with set 1 keeps no morph attribute slot there and
// draws its morph targets on the CPU path; see morphCapacity).
inline uint32_t uv1Location(int maxVertexAttribs) {
    const uint32_t tangent = tangentLocation(maxVertexAttribs);
    return int(tangent) + 1 < maxVertexAttribs ? tangent + 1 : tangent - 1;
}
// Texture units of the material maps.
enum TextureUnit : int {
    kUnitDiffuse = 0,
    kUnitSpecular = 1,  // metal/rough: metallic
    kUnitNormal = 2,
    kUnitEmissive = 3,
    kUnitOpacity = 4,  // metal/rough: roughness
    kUnitReflection = 5,
    kUnitOcclusion = 5,  // metal/rough: the lat-long reflection map's unit, which only classic uses
    kUnitReflectionCube = 6,
    kUnitMorphDeltas = 7,         // vertex stage
    kUnitLightProjection = 8,     // GLSL ES 3.00 (ES3 grants at least 16 fragment units)
    kUnitLightProjectionEs2 = 7,  // GLSL ES 1.00: ES2 grants 8; the morph delta texture is ES3-only
    kUnitSpecularStrength = 9,    // GLSL ES 3.00, metal/rough: KHR_materials_specular's specularTexture
    kUnitSpecularTint = 10,       // GLSL ES 3.00, metal/rough: its specularColorTexture
    kUnitCount = 11
};
// The projection texture's unit for `version` (u_projectionMap in mesh.frag).
inline int lightProjectionUnit(GlslVersion version) {
    return version == GlslVersion::Es300 ? kUnitLightProjection : kUnitLightProjectionEs2;
}
inline uint32_t morphPositionLocation(int target) { return kLocMorphBase + uint32_t(target); }
inline uint32_t morphNormalLocation(int targets, int target) { return kLocMorphBase + uint32_t(targets + target); }

struct MeshProgram {
    gl::Program program;
    int model = -1, viewProjection = -1, positionUnpack = -1, bones = -1;
    int ambient = -1, diffuse = -1, specular = -1, emissive = -1, shininess = -1, eye = -1;
    int lightCount = -1, lightPosition = -1, lightColor = -1, lightAttenuation = -1, lightSpot = -1, lightRange = -1;
    int skyColor = -1, groundColor = -1, up = -1;  // the hemisphere ambient
    int flatColor = -1;
    int diffuseSize = -1;  // u_diffuseSize (Mip, TexelDensity): the diffuse map's width, height, levels
    int surface = -1;
    int weightBone = -1;
    int morphWeights = -1, morphAbsolute = -1, morphBaseScale = -1;
    int morphTextureWeights = -1, morphLayout = -1;
    int mapUv = -1, mapBorder = -1;  // MAP_TRANSFORMS: per map, see kTransformedMaps and mesh.frag
    int mapFactors = -1;             // u_mapFactors: normal map scale, occlusion strength, specular factor
    bool metalRough = false;         // METAL_ROUGH: u_specular is the dielectric F0's colour
    int pointSize = -1;              // POINTS
    int outline = -1;                // OUTLINE
    int lightProjection = -1, projectedLight = -1;  // LIGHT_PROJECTION
    int maxLights = kMaxShaderLights;  // the size of its light arrays (ShaderFeatures::maxLights)
    int fragmentUniformVectors = 0;    // its fragment stage's active uniform vectors (uniformVectors)
};

// Maps that MAP_TRANSFORMS addresses: indices into u_mapUv / u_mapBorder, the first six equal to
// their units (the occlusion map's only in metal/rough programs with material maps; the others'
// arrays hold 5), then KHR_materials_specular's two (only in programs with specularMaps).
constexpr int kMapSpecularStrength = 6;  // on kUnitSpecularStrength
constexpr int kMapSpecularTint = 7;      // on kUnitSpecularTint
constexpr int kTransformedMaps = 8;
// The maps `features`' program addresses (the size its transforms upload takes).
inline int transformedMaps(const ShaderFeatures& features) {
    return features.specularMaps ? kTransformedMaps : kMapSpecularStrength;
}

struct OverlayProgram {
    gl::Program program;
    int viewProjection = -1, pointSize = -1;
};
// The overdraw views' resolve (shaders/overdraw.*): a_position at kLocPosition, u_counts the count texture.
struct OverdrawProgram {
    gl::Program program;
    int counts = -1;
};
std::string assembleOverdrawShader(bool vertex, GlslVersion version);
bool buildOverdrawProgram(GlslVersion version, OverdrawProgram& out, std::string& error);
// Compiles and links the overlay program (attributes: a_position at kLocPosition, a_color at kLocColor).
bool buildOverlayProgram(GlslVersion version, OverlayProgram& out, std::string& error);

class ProgramCache {
public:
    // `fragmentHighp`: see assembleFragmentShader. `maxFragmentUniformVectors` > 0: each linked
    // program's fragment uniforms are counted against it, and one above it gets a note.
    ProgramCache(GlslVersion version, int maxVertexAttribs, bool fragmentHighp = true,
                 int maxFragmentUniformVectors = 0)
        : m_version(version),
          m_maxVertexAttribs(maxVertexAttribs),
          m_fragmentHighp(fragmentHighp),
          m_maxFragmentVectors(maxFragmentUniformVectors) {}
    // The linked program for `features`, compiled on first use; null with `error` set on failure.
    const MeshProgram* get(const ShaderFeatures& features, std::string& error);
    // Programs linked so far (linking one leaves it in use: see get).
    size_t size() const { return m_programs.size(); }
    // The most fragment uniform vectors a program linked so far uses (active uniforms, counted by
    // uniformVectors).
    int maxFragmentUniformVectors() const { return m_fragmentVectorsUsed; }
    // The notes of programs over the fragment budget since the last call, one sentence each.
    std::vector<std::string> takeNotes() { return std::move(m_notes); }

private:
    // Compiles and links `features` into `p` (leaving it in use); false with `error` on failure.
    bool link(const ShaderFeatures& features, MeshProgram& p, std::string& error);

    GlslVersion m_version;
    int m_maxVertexAttribs;
    bool m_fragmentHighp;
    int m_maxFragmentVectors;
    int m_fragmentVectorsUsed = 0;
    std::vector<std::string> m_notes;
    std::map<uint64_t, MeshProgram> m_programs;
};

}  // namespace esv
