// PowerVR POD block identifiers and data types (POD specification 2.1, "Block List" and
// section 2.9; numbering of the node blocks as in the legacy reader, see pod-reader-notes 4).
// Shared by the reader, the writer and the tests that build byte fixtures.
#pragma once

#include <cstdint>

namespace esv::pod {

// Material shininess: POD 0..1 fraction x 128 = the scene model's Blinn-Phong exponent.
constexpr float kPodShininessScale = 128.0f;

// A tag is two little-endian uint32: the block id (bit 31 set on the end tag) and the length of
// the data that follows (0 for containers and end tags).
constexpr uint32_t kEndTagBit = 0x80000000u;
// What the version start tag (1000, length 11) reads as when a file was written big-endian.
constexpr uint32_t kEndiannessMismatch = 0xE8030000u;
constexpr char kVersionString[] = "AB.POD.2.0";  // stored with its NUL: length 11

enum Block : uint32_t {
    // Top level
    Version = 1000,
    Scene = 1001,
    ExportOptions = 1002,
    History = 1003,

    // Scene children
    ClearColour = 2000,
    AmbientColour = 2001,
    NumCameras = 2002,
    NumLights = 2003,
    NumMeshes = 2004,
    NumNodes = 2005,
    NumMeshNodes = 2006,
    NumTextures = 2007,
    NumMaterials = 2008,
    NumFrames = 2009,
    CameraBlock = 2010,
    LightBlock = 2011,
    MeshBlock = 2012,
    NodeBlock = 2013,
    TextureBlock = 2014,
    MaterialBlock = 2015,
    SceneFlags = 2016,
    Fps = 2017,
    SceneUserData = 2018,
    Units = 2019,

    // Material children
    MaterialName = 3000,
    DiffuseTextureIndex = 3001,
    MaterialOpacity = 3002,
    MaterialAmbient = 3003,
    MaterialDiffuse = 3004,
    MaterialSpecular = 3005,
    MaterialShininess = 3006,
    EffectFileName = 3007,
    EffectName = 3008,
    AmbientTextureIndex = 3009,
    SpecularColourTextureIndex = 3010,
    SpecularLevelTextureIndex = 3011,
    BumpMapTextureIndex = 3012,
    EmissiveTextureIndex = 3013,
    GlossinessTextureIndex = 3014,
    OpacityTextureIndex = 3015,
    ReflectionTextureIndex = 3016,
    RefractionTextureIndex = 3017,
    BlendSrcRgb = 3018,
    BlendSrcAlpha = 3019,
    BlendDstRgb = 3020,
    BlendDstAlpha = 3021,
    BlendOpRgb = 3022,
    BlendOpAlpha = 3023,
    BlendColour = 3024,
    BlendFactorArray = 3025,
    MaterialFlags = 3026,
    MaterialUserData = 3027,
    Metallicity = 3028,
    Roughness = 3029,
    Ior = 3030,
    Reflectivity = 3032,
    SubSurfaceScattering = 3033,
    SubSurfaceScatteringDepth = 3034,
    SubSurfaceScatteringColour = 3035,
    Emission = 3036,
    EmissionLuminance = 3037,
    MetallicityTextureIndex = 3040,
    RoughnessTextureIndex = 3041,

    // Texture children
    TextureName = 4000,

    // Node children
    NodeIndex = 5000,
    NodeName = 5001,
    NodeMaterialIndex = 5002,
    NodeParentIndex = 5003,
    NodePosition = 5004,  // deprecated static blocks (old node format)
    NodeRotation = 5005,
    NodeScale = 5006,
    AnimationPosition = 5007,
    AnimationRotation = 5008,
    AnimationScale = 5009,
    NodeMatrix = 5010,  // deprecated static matrix (the 2.1 text calls 5010 the animation matrix)
    AnimationMatrix = 5011,
    AnimationFlags = 5012,
    AnimationPositionIndex = 5013,
    AnimationRotationIndex = 5014,
    AnimationScaleIndex = 5015,
    AnimationMatrixIndex = 5016,
    NodeUserData = 5017,

    // Mesh children
    NumVertices = 6000,
    NumFaces = 6001,
    NumUvwChannels = 6002,
    VertexIndexList = 6003,
    StripLength = 6004,
    NumStrips = 6005,
    VertexList = 6006,
    NormalList = 6007,
    TangentList = 6008,
    BinormalList = 6009,
    UvwList = 6010,
    VertexColourList = 6011,
    BoneIndexList = 6012,
    BoneWeightList = 6013,
    InterleavedDataList = 6014,
    BoneBatchIndexList = 6015,
    NumBoneIndicesPerBatch = 6016,
    BoneOffsetPerBatch = 6017,
    MaxNumBonesPerBatch = 6018,
    NumBoneBatches = 6019,
    UnpackMatrix = 6020,
    MeshType = 6021,
    AdjacencyIndexList = 6022,

    // Light children
    LightTargetIndex = 7000,
    LightColour = 7001,
    LightType = 7002,
    ConstantAttenuation = 7003,
    LinearAttenuation = 7004,
    QuadraticAttenuation = 7005,
    FalloffAngle = 7006,
    FalloffExponent = 7007,

    // Camera children
    CameraTargetIndex = 8000,
    FieldOfView = 8001,
    FarPlane = 8002,
    NearPlane = 8003,
    FovAnimation = 8004,

    // POD Data Block children (inside 6003, 6006..6013, 6022)
    DataBlockType = 9000,
    DataBlockComponents = 9001,
    DataBlockStride = 9002,
    DataBlockData = 9003,
};

// Data types of a POD Data Block (9000), section 2.9.1 plus the ids later SDKs added.
enum class DataType : uint32_t {
    None = 0,
    Float = 1,
    Int = 2,
    UnsignedShort = 3,
    Rgba = 4,
    Argb = 5,
    D3dColor = 6,
    UByte4 = 7,
    Dec3n = 8,
    Fixed16_16 = 9,
    UnsignedByte = 10,
    Short = 11,
    ShortNorm = 12,
    Byte = 13,
    ByteNorm = 14,
    UnsignedByteNorm = 15,
    UnsignedShortNorm = 16,
    UnsignedInt = 17,
    Abgr = 18,
    Float16 = 19,
    Count
};

// Scene flag bit 0 (2016): non-vertex numbers are 16.16 fixed point (int32 / 65536).
constexpr uint32_t kSceneFlagFixedPoint = 0x1u;

// Scene user data (2018) esview's writer leaves when the rest pose is frame 0 and the clip starts at
// frame 1 (the rest differs from the clip's start): the text, then the frame as digits. esview's
// reader then starts the clip there, so the clip's times are the source's; other readers play frame 0
// as part of the animation, as POD defines it.
constexpr const char* kClipStartUserData = "esview: the clip starts at frame ";
// Node animation flags (5012).
constexpr uint32_t kHasPositionAnimation = 0x1u;
constexpr uint32_t kHasRotationAnimation = 0x2u;
constexpr uint32_t kHasScaleAnimation = 0x4u;
constexpr uint32_t kHasMatrixAnimation = 0x8u;
// Material flags (3026).
constexpr uint32_t kMaterialBlendingEnabled = 0x1u;

// True for the blocks that hold children instead of data (start tag length 0).
inline bool isContainer(uint32_t id) {
    switch (id) {
        case Scene: case CameraBlock: case LightBlock: case MeshBlock: case NodeBlock: case TextureBlock:
        case MaterialBlock: case VertexIndexList: case VertexList: case NormalList: case TangentList:
        case BinormalList: case UvwList: case VertexColourList: case BoneIndexList: case BoneWeightList:
        case AdjacencyIndexList:
            return true;
        default:
            return false;
    }
}

// A readable name for a block id ("bone batch list"), or nullptr for ids this reader does not know.
const char* blockName(uint32_t id);

}  // namespace esv::pod
