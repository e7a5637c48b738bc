// The CPU scene model shared by loaders, the renderer and the app.
//
// Objects refer to each other by index (int32, -1 = none). Vertex payloads are kept as the file
// stores them: a stream is bytes + stride + attributes, exactly what glVertexAttribPointer needs.
// Bytes live in a shared, immutable buffer (usually the whole file read once), so a scene never
// copies vertex data it does not have to convert.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "scene/bytes.h"
#include "scene/image.h"

namespace esv {

// ---------------------------------------------------------------------------------------------
// Vertex streams

enum class Semantic : uint8_t {
    Position,
    Normal,
    Tangent,
    Binormal,
    Color,
    TexCoord,
    BoneIndices,
    BoneWeights,
    Count
};

// Storage type of one component, as the file holds it.
enum class ComponentType : uint8_t {
    Float32,
    Float16,
    Float64,      // OpenGEX double arrays; GLES cannot read it, loaders convert with a warning
    Fixed16_16,   // GL_FIXED
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int2_10_10_10,   // packed signed 10/10/10/2 in one 32-bit word (x in the low bits); GL_INT_2_10_10_10_REV
    UInt2_10_10_10,  // packed unsigned 10/10/10/2; GL_UNSIGNED_INT_2_10_10_10_REV
    Count
};

// Size in bytes of one stored component (for packed 10/10/10/2 types: of the whole 4-byte word).
size_t componentSize(ComponentType type);
const char* componentTypeName(ComponentType type);
const char* semanticName(Semantic semantic);
// True for the packed 10/10/10/2 types whose `components` count refers to one 32-bit word.
inline bool isPacked(ComponentType type) {
    return type == ComponentType::Int2_10_10_10 || type == ComponentType::UInt2_10_10_10;
}

// How the stored channels map to RGBA (POD colour types store the bytes in other orders).
enum class Swizzle : uint8_t {
    Identity,  // memory order r,g,b,a
    BGRA,      // memory order b,g,r,a (POD ARGB / D3DCOLOR)
    ABGR,      // memory order a,b,g,r (POD RGBA)
    Count
};

struct VertexAttribute {
    Semantic semantic = Semantic::Position;
    uint8_t set = 0;  // texcoord / colour set index
    ComponentType type = ComponentType::Float32;
    uint8_t components = 3;  // logical components read by the shader (1..4)
    bool normalized = false;
    Swizzle swizzle = Swizzle::Identity;
    uint32_t offset = 0;  // byte offset of the first component inside a vertex
};

// One vertex buffer: `count` vertices, `stride` bytes apart, starting at bytes.data.
struct VertexStream {
    ByteView bytes;
    uint32_t stride = 0;
    uint32_t count = 0;
    std::vector<VertexAttribute> attributes;
};

// ---------------------------------------------------------------------------------------------
// Index data and primitives

enum class Primitive : uint8_t {
    Points,
    Lines,
    LineStrip,
    Triangles,
    TriangleStrip,
    TriangleFan,
    Quads,    // expanded to triangles by the renderer/reference path
    Patches,  // POD patch meshes: read, reported, not drawn
    Nurbs,    // POD NURBS meshes: read, reported, not drawn
    Count
};
const char* primitiveName(Primitive primitive);

// A range of a mesh drawn with one material slot.
struct Submesh {
    Primitive primitive = Primitive::Triangles;
    uint32_t firstIndex = 0;  // into the mesh's indices (or first vertex when non-indexed)
    uint32_t indexCount = 0;  // indices (or vertices when non-indexed) used by this submesh
    // POD strips: lengths of consecutive strips in triangles; strip i uses length+2 indices.
    std::vector<uint32_t> stripLengths;
    bool primitiveRestart = false;  // OpenGEX restart index (all ones of the index type)
    bool frontFaceCW = false;
    uint32_t materialSlot = 0;  // index into Node::materials of the instance
    // Added to every index of this submesh (glDrawElementsBaseVertex's base). 0 in every scene as
    // loaded; the preparation stage sets it when it splits a mesh into windows of at most 65536
    // vertices for a target without 32-bit indices, so each window's indices fit 16 bits.
    uint32_t baseVertex = 0;
};

// Index buffer as stored: UInt8, UInt16 or UInt32.
struct IndexData {
    ComponentType type = ComponentType::UInt16;
    ByteView bytes;
    uint32_t count = 0;
};

// ---------------------------------------------------------------------------------------------
// Skinning and morphs

// A bone batch (POD): the bones a range of triangles may use, small enough for one uniform palette.
// `bones` are indices into the skin's joints. Vertex bone indices inside the batch's triangles are
// local to the batch (0 .. bones.size()-1) when Mesh::boneIndicesBatchLocal is set.
struct BoneBatch {
    std::vector<int32_t> bones;
    uint32_t firstTriangle = 0;
    uint32_t triangleCount = 0;
};

// Joints (node indices) and their inverse bind matrices. Skinned vertex in world space:
//   sum_i w_i * world(joint_i) * inverseBind_i * v
// and the instance node's own world matrix is not applied (as in glTF; POD folds the mesh node's
// frame-0 world matrix into inverseBind, see pod-reader-notes 5).
struct Skin {
    std::string name;
    std::vector<int32_t> joints;
    std::vector<glm::mat4> inverseBind;
    int32_t skeletonRoot = -1;
    // The stored vertices sit where the rest pose's world matrix of the mesh node puts them, which
    // inverseBind then includes (POD, pod-reader-notes 5): the bind skeleton is drawn placed by it.
    bool bindPlacedByMeshNode = false;
};

// A morph target: a stream carrying Position (and optionally Normal/Tangent) values for every vertex.
struct MorphTarget {
    std::string name;
    VertexStream stream;
    bool relative = true;  // true: deltas added to the base; false: absolute positions blended
    // OpenGEX: this target is the mesh's own base arrays (morph index 0, or the lowest one). Its
    // delta is zero; with Mesh::morphBaseWeighted its weight scales the base.
    bool isBase = false;
};

// A key and value the file attaches to an object for the user (AWD user attributes): shown in
// the inspector as the file has them, as text.
struct UserAttribute {
    std::string name;   // with its namespace ("uri key") when it has one; "where: " first for a part
    std::string type;   // the file's field type ("uint16", "string", ...)
    std::string value;  // as text; long lists shortened
};

// ---------------------------------------------------------------------------------------------
// Meshes

struct Mesh {
    std::string name;
    std::vector<VertexStream> streams;
    IndexData indices;  // count 0 = non-indexed
    std::vector<Submesh> submeshes;
    uint32_t vertexCount = 0;
    // POD: maps stored (quantised) positions back to model space; applied in the vertex shader.
    glm::mat4 positionUnpack{1.0f};
    std::vector<BoneBatch> boneBatches;
    bool boneIndicesBatchLocal = false;
    uint32_t maxBonesPerBatch = 0;
    std::vector<MorphTarget> morphTargets;
    std::vector<float> defaultMorphWeights;  // one per target
    // OpenGEX morphing (A = sum_i w_i M_i, the base being one of the absolute targets): the base is
    // scaled by the sum of the weights of the absolute targets instead of being taken once. With
    // weights that sum to one over the absolute targets this is the usual "base + deltas".
    bool morphBaseWeighted = false;
    // Adjacency (POD 6021 etc.) kept as read; not drawn.
    ByteView adjacency;
    // Tangent frames for normal mapping, one per vertex (xyz the tangent, w the handedness): made by
    // the preparation stage for a mesh that a material normal-maps; null in a scene as loaded.
    std::shared_ptr<const std::vector<glm::vec4>> tangentFrames;
    std::vector<UserAttribute> attributes;  // the file's user attributes (AWD), for the inspector
    // A part of another file mesh (index into Scene::meshes of its first part; -1: a file mesh of
    // its own). glTF primitives that do not share their vertex attributes become one scene mesh
    // each; `info` counts the file's mesh once, its parts' vertices and triangles summed.
    int32_t partOf = -1;
};

// ---------------------------------------------------------------------------------------------
// Materials and textures

enum class TextureSlot : uint8_t {
    Diffuse,
    Ambient,
    Specular,
    SpecularColour = Specular,
    Shininess,
    Normal,
    Bump,
    Emissive,
    Opacity,
    Reflection,
    Refraction,
    Metallic,
    Roughness,
    Occlusion,
    // KHR_materials_specular (metal/rough): specularTexture, whose alpha scales specularFactor, and
    // specularColorTexture, whose RGB scales specularColorFactor. Not the classic model's Specular.
    SpecularStrength,
    SpecularTint,
    Count
};
const char* textureSlotName(TextureSlot slot);

// Addressing of one texture coordinate outside [0, 1] (OpenGEX Texture x_address / y_address).
// GLES samples the first three itself; the renderer emulates the others in the fragment stage.
enum class Wrap : uint8_t {
    Repeat,        // frac(c)
    Clamp,         // sat(c): the edge texels stretch
    Mirror,        // mirrored repeat
    Border,        // c inside [0, 1] samples c, else the border colour
    MirrorClamp,   // mirrored about zero, then clamped: sat(|c|)
    MirrorBorder,  // |c| inside [0, 1] samples |c|, else the border colour
    Count
};
const char* wrapName(Wrap wrap);
// True for the modes GLES has no sampler state for (the renderer emulates them in the shader).
inline bool wrapNeedsShader(Wrap wrap) {
    return wrap == Wrap::Border || wrap == Wrap::MirrorClamp || wrap == Wrap::MirrorBorder;
}

// Where one output channel of a sampled texel comes from (OpenGEX Texture swizzle).
enum class SwizzleSource : uint8_t {
    Red,       // the texel's first component ('r' or 'x')
    Green,     // 'g', 'y'
    Blue,      // 'b', 'z'
    Alpha,     // 'a', 'w'
    Zero,      // '0'
    One,       // '1'
    Identity,  // 'i': the identity component of its position (see resolveSwizzle)
    Count
};
using TextureSwizzle = std::array<SwizzleSource, 4>;  // output r, g, b, a
constexpr TextureSwizzle kIdentitySwizzle{SwizzleSource::Identity, SwizzleSource::Identity,
                                          SwizzleSource::Identity, SwizzleSource::Identity};
// The swizzle as the spec writes it: four characters of r, g, b, a, 0, 1, i.
std::string swizzleText(const TextureSwizzle& swizzle);
// Parses an OpenGEX swizzle string: one or four characters from {r g b a x y z w 0 1 i}, one
// character meaning the same character four times. False (and `out` untouched) otherwise.
bool parseSwizzle(const std::string& text, TextureSwizzle& out);
// Replaces Identity by what it means for a texture of `channels` (1..4) components: the identity
// string of a four-channel texture is "rgba", of three "rgb1", of two "rg01", of one "r001"
// (OpenGEX, Texture). The result holds no Identity.
TextureSwizzle resolveSwizzle(const TextureSwizzle& swizzle, int channels);
// True when the resolved swizzle of a `channels`-component texture reads every channel in place.
bool isIdentitySwizzle(const TextureSwizzle& swizzle, int channels = 4);

// How texels are filtered (glTF sampler magFilter / minFilter). Default is esview's own choice:
// linear, and trilinear where the texture has mip levels. A mipmap filter on a texture without
// levels samples its base level with the filter's first word.
enum class TextureFilter : uint8_t {
    Default,
    Nearest,
    Linear,
    NearestMipmapNearest,
    LinearMipmapNearest,
    NearestMipmapLinear,
    LinearMipmapLinear,
    Count
};

// How a material samples one texture. `uvTransform` indexes Scene::uvTransforms (-1: the texture
// coordinates are used as stored); the transformed coordinate is M * (u, v, 0, 1), M being the
// (possibly animated) matrix of that transform, and its x, y address the image (the renderer
// applies the affine part: rows x and y, columns u, v and w). `border` is the colour the Border
// and MirrorBorder modes produce; `swizzle` permutes the sampled channels.
struct TextureRef {
    int32_t texture = -1;
    uint8_t uvSet = 0;
    Wrap wrapS = Wrap::Repeat;
    Wrap wrapT = Wrap::Repeat;
    int32_t uvTransform = -1;
    glm::vec4 border{0.0f};  // OpenGEX "zero" (0,0,0,0); "black" (0,0,0,1); "white" (1,1,1,1)
    TextureSwizzle swizzle = kIdentitySwizzle;
    TextureFilter minFilter = TextureFilter::Default;  // minification (mipmap filters included)
    TextureFilter magFilter = TextureFilter::Default;  // magnification: Default, Nearest or Linear

    // True when sampling needs more than GL's sampler state: a uv transform or an emulated wrap.
    bool needsShaderAddressing() const {
        return uvTransform >= 0 || wrapNeedsShader(wrapS) || wrapNeedsShader(wrapT);
    }
};

enum class BlendFactor : uint8_t {
    Zero,
    One,
    SrcColor,
    OneMinusSrcColor,
    SrcAlpha,
    OneMinusSrcAlpha,
    DstAlpha,
    OneMinusDstAlpha,
    DstColor,
    OneMinusDstColor,
    SrcAlphaSaturate,
    ConstantColor,
    OneMinusConstantColor,
    ConstantAlpha,
    OneMinusConstantAlpha,
    Count
};
enum class BlendOp : uint8_t { Add, Subtract, ReverseSubtract, Min, Max, Count };

struct BlendState {
    bool enabled = false;
    BlendFactor srcRgb = BlendFactor::One, dstRgb = BlendFactor::Zero;
    BlendFactor srcAlpha = BlendFactor::One, dstAlpha = BlendFactor::Zero;
    BlendOp opRgb = BlendOp::Add, opAlpha = BlendOp::Add;
    glm::vec4 constant{0.0f};
};

enum class ShadingModel : uint8_t { Classic, MetalRough, Unlit, Count };

struct Material {
    std::string name;
    ShadingModel model = ShadingModel::Classic;
    glm::vec3 ambient{0.2f};
    glm::vec3 diffuse{0.8f};
    glm::vec3 specular{0.0f};
    glm::vec3 emissive{0.0f};
    float shininess = 0.0f;  // Blinn-Phong exponent
    float opacity = 1.0f;
    // Metal/rough parameters (POD extended blocks, OpenGEX).
    float metallic = 0.0f;
    float roughness = 1.0f;
    // The index of refraction, which sets the metal/rough dielectric F0 (dielectricF0): glTF's
    // KHR_materials_ior, POD's IOR block, OpenGEX's Param "ior". 1.5 gives glTF's F0 of 0.04.
    float ior = 1.5f;
    float reflectivity = 0.0f;
    // glTF 2.0 terms: the normal map's scale (its x and y before normalising, every shading model),
    // the occlusion map's strength (metal/rough: ambient light times 1 + strength * (ao - 1)), and
    // KHR_materials_specular's factor and colour factor on the dielectric F0 = min(0.04 * colour, 1)
    // * factor and F90 = factor (metal/rough), each times its map where the material has one
    // (TextureSlot::SpecularStrength's alpha, SpecularTint's RGB). The defaults draw as glTF without them.
    float normalScale = 1.0f;
    float occlusionStrength = 1.0f;
    float specularFactor = 1.0f;
    glm::vec3 specularColorFactor{1.0f};
    BlendState blend;
    bool twoSided = false;
    float alphaCutoff = 0.0f;  // 0 = no alpha test
    bool vertexColors = true;  // modulate by vertex colour when the mesh has one
    std::array<TextureRef, static_cast<size_t>(TextureSlot::Count)> textures{};
    std::string effectFile, effectName;
    std::vector<uint8_t> userData;

    TextureRef& texture(TextureSlot s) { return textures[static_cast<size_t>(s)]; }
    const TextureRef& texture(TextureSlot s) const { return textures[static_cast<size_t>(s)]; }
    std::vector<UserAttribute> attributes;  // the file's user attributes (AWD), for the inspector
};

// Metal/rough's dielectric reflectance at normal incidence, ((ior - 1) / (ior + 1))^2: 0.04 at 1.5,
// 0 at 1 (no reflection), 1 at glTF's allowed 0.
inline float dielectricF0(float ior) {
    const float r = (ior - 1.0f) / (ior + 1.0f);
    return r * r;
}
// An index glTF allows (KHR_materials_ior: 1 and above, or exactly 0 for an F0 of 1).
inline bool iorInGltfRange(float ior) { return ior >= 1.0f || ior == 0.0f; }

// A texture as referenced by the file. The image is found, read and (where the GPU lacks the
// codec) decoded by loaders/textures (prepareSceneTextures) before the renderer uploads it.
struct Texture {
    std::string name;
    std::string path;  // as written in the file (may be relative, any case, another extension)
    ByteView embedded;  // AWD embeds images; empty otherwise
    // Filled by prepareSceneTextures: the file found (empty when embedded or missing), the image
    // (a checker placeholder when missing or unreadable), and whether it is that placeholder.
    std::string resolvedPath;
    Image image;
    bool placeholder = false;
    std::vector<UserAttribute> attributes;  // the file's user attributes (AWD), for the inspector
    // Nothing draws it (a FreeSpace texture named "invisible"): when its file is missing that is
    // information, not a warning, as the game never loads it.
    bool notDrawn = false;
};

// ---------------------------------------------------------------------------------------------
// Lights and cameras

enum class LightType : uint8_t { Point, Directional, Spot, Ambient, Count };
const char* lightTypeName(LightType type);

struct Light {
    std::string name;
    LightType type = LightType::Point;
    glm::vec3 color{1.0f};
    float intensity = 1.0f;
    float constantAttenuation = 1.0f, linearAttenuation = 0.0f, quadraticAttenuation = 0.0f;
    float range = 0.0f;              // 0 = infinite; else the distance where the light ends
    // OpenGEX linear/smooth distance attenuation: full strength up to rangeStart, falling linearly
    // (or by smoothstep) to zero at `range`. POD lights leave rangeStart 0 and range 0.
    float rangeStart = 0.0f;
    bool smoothRange = false;
    float attenuationOffset = 0.0f;  // OpenGEX inverse curves: added after the division, then saturated
    float innerCone = 0.0f;          // radians, half angle
    float outerCone = 3.14159265f;   // radians, half angle (POD falloff angle)
    float falloffExponent = 0.0f;
    bool smoothCone = false;         // OpenGEX smooth angular attenuation between the cones
    bool coneLinearInCosine = false; // OpenGEX "cos_angle" attenuation: linear in the cosine, not the angle
    // OpenGEX attenuation curves: inverse ones saturate after adding attenuationOffset, the inner
    // cone is used even at 0, and falloffExponent powers the cone function (POD: cos^exponent).
    bool openGexFalloff = false;
    int32_t targetNode = -1;
    bool enabled = true;
    bool castsShadows = true;        // kept for the panel; the renderer draws no shadows
    // OpenGEX spot light projection texture (index into Scene::textures; -1: none). Its image
    // filters the light's colour across a square frustum around -Z with half angle outerCone
    // (under 90 degrees; 45 otherwise), image right along +X and up along +Y (spec, LightObject).
    TextureRef projection;
};

struct Camera {
    std::string name;
    float yfov = 0.7854f;  // radians, vertical
    // Radians, horizontal (OpenGEX "fov"); when > 0 the vertical angle follows from the viewport's
    // aspect ratio instead of yfov.
    float xfov = 0.0f;
    float nearZ = 0.1f, farZ = 1000.0f;
    float aspect = 0.0f;   // 0 = from the viewport
    bool orthographic = false;
    float orthoHeight = 1.0f;
    int32_t targetNode = -1;
};

// ---------------------------------------------------------------------------------------------
// Nodes

enum class NodeKind : uint8_t { Empty, Mesh, Light, Camera, Bone, Count };
const char* nodeKindName(NodeKind kind);

// One factor of an OpenGEX node transform (Transform, Translation, Rotation or Scale structure).
// A node's local transform is the product of its node elements in file order, and its object
// transform the product of its object elements; each element can be animated on its own.
enum class ElementKind : uint8_t {
    Matrix,      // 16 floats, column-major
    TranslateX,  // 1 float (likewise Y, Z)
    TranslateY,
    TranslateZ,
    Translate,   // 3 floats
    RotateX,     // 1 float, radians (likewise Y, Z)
    RotateY,
    RotateZ,
    RotateAxis,  // 4 floats: angle in radians, then the axis (normalised when used)
    RotateQuat,  // 4 floats: x, y, z, w (normalised when used)
    ScaleX,      // 1 float (likewise Y, Z)
    ScaleY,
    ScaleZ,
    Scale,       // 3 floats
    Count
};
const char* elementKindName(ElementKind kind);
uint32_t elementComponents(ElementKind kind);

struct TransformElement {
    ElementKind kind = ElementKind::Matrix;
    bool object = false;  // applies to the node's object only, not inherited by children
    std::array<float, 16> value{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    std::string name;     // the file's name for it (OpenGEX local name), for tracks and the panel

    // The element as a 4x4 matrix, from `values` (elementComponents(kind) floats).
    static glm::mat4 toMatrix(ElementKind kind, const float* values);
    glm::mat4 toMatrix() const { return toMatrix(kind, value.data()); }
};

// A local transform: either TRS (world = parent * T * R * S) or a full matrix.
struct Transform {
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm order: w, x, y, z
    glm::vec3 scale{1.0f};
    glm::mat4 matrix{1.0f};
    bool useMatrix = false;

    glm::mat4 toMatrix() const;
};

// A texture coordinate transform (OpenGEX Texture: Transform, Translation, Rotation and Scale
// substructures; AWD UV animation frames). The matrix is the product of `elements` in order (each
// TransformElement::toMatrix; the `object` flag has no meaning here), applied to (u, v, 0, 1).
// TextureRef::uvTransform refers to one; Channel::UvElement tracks animate single elements, and
// Pose::uvMatrices holds the evaluated matrices. Several references may share one.
struct UvTransform {
    std::string name;  // for the panel and reports (e.g. "material 'Wood' / diffuse")
    std::vector<TransformElement> elements;

    // The product of the elements as written (the rest pose).
    glm::mat4 matrix() const;
};

struct Node {
    std::string name;
    int32_t parent = -1;
    NodeKind kind = NodeKind::Empty;
    int32_t object = -1;  // mesh, light or camera index by kind
    std::vector<int32_t> materials;  // material per submesh slot (mesh nodes)
    int32_t skin = -1;
    Transform local;
    // Transform applied to this node's object only, not inherited by children (OpenGEX object transforms).
    glm::mat4 objectTransform{1.0f};
    // OpenGEX transform elements. When not empty, `local` is the product of the node elements (as
    // a matrix) and `objectTransform` that of the object elements, and Channel::Element tracks
    // animate single elements.
    std::vector<TransformElement> elements;
    // Morph weights of this instance (OpenGEX MorphWeight); empty = the mesh's defaultMorphWeights.
    std::vector<float> morphWeights;
    bool visible = true;
    // A node the reader added that is not one of the file's own objects (AWD skeleton joints):
    // drawn and animated like any other, left out of the file's node count (`info`).
    bool viewerAdded = false;
    // Shown in the inspector: AWD user attributes, POF subobject facts (radius, centre, bounds ...).
    std::vector<UserAttribute> attributes;
};

// ---------------------------------------------------------------------------------------------
// Animation

enum class Channel : uint8_t {
    Translation,   // 3 floats
    Rotation,      // 4 floats, quaternion x, y, z, w
    Scale,         // 3 floats
    Matrix,        // 16 floats, column-major
    MorphWeights,  // one float per morph target of the node's mesh
    CameraFov,     // 1 float, radians
    Visibility,    // 1 float, > 0.5 visible
    Element,       // Node::elements[Track::element]: elementComponents(kind) floats
    MorphWeight,   // 1 float: the weight of morph target Track::element of the node's mesh
    // Scene::uvTransforms[Track::uvTransform].elements[Track::element]: elementComponents(kind)
    // floats. The track animates no node: Track::node is -1.
    UvElement,
    Count
};
const char* channelName(Channel channel);

enum class Interpolation : uint8_t {
    Step,
    Linear,  // lerp; rotations slerp
    Bezier,  // cubic Bezier: per key, in and out control values (and times) in the tangent arrays
    Tcb,     // Kochanek-Bartels: per key tension, continuity, bias
    Count
};

// One animated value. Every channel but UvElement targets Track::node; a UvElement track targets
// Track::uvTransform and leaves node at -1, so code that looks tracks up by node must check it.
struct Track {
    int32_t node = -1;
    Channel channel = Channel::Translation;
    // Channel::Element: index into Node::elements; MorphWeight: target index; UvElement: index
    // into UvTransform::elements.
    uint32_t element = 0;
    int32_t uvTransform = -1;  // Channel::UvElement: index into Scene::uvTransforms
    Interpolation interpolation = Interpolation::Linear;
    uint32_t components = 3;  // floats per key
    std::vector<float> times;   // seconds, ascending
    std::vector<float> values;  // times.size() * components
    // Bezier: control values. inValues/outValues are times.size() * components.
    std::vector<float> inValues, outValues;
    // A Bezier time curve (OpenGEX Time curve "bezier", POD/Bezier control times): control point
    // times, times.size() each. When present, the curve parameter between two keys solves the
    // cubic time curve instead of being linear in time, whatever the value interpolation.
    std::vector<float> inTimes, outTimes;
    // TCB: per key tension, continuity, bias (times.size() each).
    std::vector<float> tension, continuity, bias;
    // TCB tangents scaled for uneven key spacing (speed continuous across a key). OpenGEX's
    // formula uses the curve parameter as is: false.
    bool tcbSpacingAdjust = true;
};

struct Clip {
    std::string name;
    float start = 0.0f;  // seconds
    float end = 0.0f;    // seconds
    std::vector<Track> tracks;
    float fps = 0.0f;    // the clip's own frame rate; 0 = use Animation::fps
    float duration() const { return end - start; }
};

struct Animation {
    float fps = 30.0f;    // POD frame rate; clips of other formats keep times in seconds
    uint32_t frames = 0;  // POD frame count (0 = not frame based)
    std::vector<Clip> clips;
};

// ---------------------------------------------------------------------------------------------
// Import report

enum class Severity : uint8_t { Info, Warning };
struct ReportLine {
    Severity severity = Severity::Info;
    std::string text;
};

enum class UpAxis : uint8_t { Y, Z };

struct PofExtras;  // scene/pof_extras.h

struct Scene {
    std::string format;  // "pod", "ogex", "awd", "pof", "demo"
    std::string sourcePath;
    std::vector<Node> nodes;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<Texture> textures;
    std::vector<UvTransform> uvTransforms;  // texture coordinate transforms (TextureRef::uvTransform)
    std::vector<Light> lights;
    std::vector<Camera> cameras;
    std::vector<Skin> skins;
    Animation animation;
    glm::vec3 ambient{0.0f};
    glm::vec3 clearColor{0.0f};
    float metersPerUnit = 1.0f;
    UpAxis up = UpAxis::Y;
    // The direction the models of the file face (a character's face, a ship's bow), in scene axes:
    // the first view looks at it. +Z (POD, PVRShaman's convention) unless the loader knows better.
    glm::vec3 front{0.0f, 0.0f, 1.0f};
    std::vector<ReportLine> report;
    // POF only (null otherwise): header, subobject properties and game points, in file axes, for
    // the panel and `info` (scene/pof_extras.h).
    std::shared_ptr<const PofExtras> pof;

    void info(std::string text) { report.push_back({Severity::Info, std::move(text)}); }
    void warn(std::string text) { report.push_back({Severity::Warning, std::move(text)}); }
};

// The texture a material normal-maps with (its normal map, else its bump map), or -1.
int32_t normalMapTexture(const Material& material);

// Number of triangles a submesh draws after strip, fan and quad expansion (0 for non-triangle primitives).
uint32_t triangleCount(const Submesh& submesh);
uint32_t triangleCount(const Mesh& mesh);

// The factor the base positions and normals are scaled by before the targets' weighted deltas are
// added: 1, or for Mesh::morphBaseWeighted the sum of the absolute targets' weights.
float morphBaseScale(const Mesh& mesh, const std::vector<float>& weights);

}  // namespace esv
