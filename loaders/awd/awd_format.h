// AWD 2.0 / 2.1 (Away3D) format constants, readable names and the body decompression shared by
// the reader, its tests and its fuzz target. See ../shared/specs/awd-2.1-spec.txt; where the spec
// is silent or wrong, the layouts follow Away3D's AWD2Parser (the reference reader), as noted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace esv::awd {

// The file header is 12 bytes: "AWD", major, minor, uint16 flags, uint8 compression, uint32 body
// length (the spec's table says 11 but lists 12 bytes of fields).
constexpr size_t kHeaderSize = 12;
// A block header: uint32 id, uint8 namespace, uint8 type, uint8 flags, uint32 length.
constexpr size_t kBlockHeaderSize = 11;

// Header flags. Only the streaming bit is in the spec; the precision bits are Away3D's (honoured
// for version 2.1 files, as AWD2Parser does).
constexpr uint16_t kFlagStreaming = 0x0001;
constexpr uint16_t kFlagMatrix64 = 0x0002;      // scene-header matrices and matrix-typed properties
constexpr uint16_t kFlagGeometry64 = 0x0004;    // float geometry streams and geometry properties
constexpr uint16_t kFlagProperties64 = 0x0008;  // float properties
constexpr uint16_t kKnownHeaderFlags = 0x000F;

enum class Compression : uint8_t { None = 0, Zlib = 1, Lzma = 2 };

// Block flags. Bit 0 is the spec's per-block "high precision", which Away3D does not read (the
// header's bits decide). Bits 3 and 4 are Away3D's per-block compression: the block's payload is
// compressed on its own, with LZMA when bit 4 is set, else zlib.
constexpr uint8_t kBlockFlagHighPrecision = 0x01;
constexpr uint8_t kBlockFlagCompressed = 0x08;
constexpr uint8_t kBlockFlagLzma = 0x10;

// Block types of the null namespace (spec table 8).
namespace block {
constexpr uint8_t TriangleGeometry = 1;
constexpr uint8_t PrimitiveGeometry = 11;
constexpr uint8_t Scene = 21;
constexpr uint8_t Container = 22;
constexpr uint8_t MeshInstance = 23;
constexpr uint8_t SkyBox = 31;
constexpr uint8_t Light = 41;
constexpr uint8_t Camera = 42;
constexpr uint8_t TextureProjector = 43;
constexpr uint8_t LightPicker = 51;
constexpr uint8_t Material = 81;
constexpr uint8_t BitmapTexture = 82;
constexpr uint8_t CubeTexture = 83;
constexpr uint8_t SharedMethod = 91;
constexpr uint8_t ShadowMethod = 92;
constexpr uint8_t Skeleton = 101;
constexpr uint8_t SkeletonPose = 102;
constexpr uint8_t SkeletonAnimation = 103;
constexpr uint8_t MeshPose = 111;
constexpr uint8_t MeshPoseAnimation = 112;
constexpr uint8_t AnimationSet = 113;
constexpr uint8_t UVAnimation = 121;
constexpr uint8_t Animator = 122;
constexpr uint8_t Command = 253;
constexpr uint8_t Namespace = 254;
constexpr uint8_t MetaData = 255;
}  // namespace block

// "TriangleGeometry", "MeshInstance", ...; nullptr for a type the spec does not define.
const char* blockTypeName(uint8_t type);

// Geometry data stream types (spec table 12).
namespace stream {
constexpr uint8_t Positions = 1;
constexpr uint8_t Indices = 2;
constexpr uint8_t UVs = 3;
constexpr uint8_t Normals = 4;
constexpr uint8_t Tangents = 5;
constexpr uint8_t JointIndices = 6;
constexpr uint8_t JointWeights = 7;
}  // namespace stream
const char* streamTypeName(uint8_t type);  // "positions", "face indices", ...; nullptr if unknown

// Field data types of user attributes (spec table 5). Exporters also write libawd's numbering,
// which Away3D reads: float32 = 7, float64 = 8 and the matrix types 44..47; both are accepted.
namespace field {
constexpr uint8_t Int8 = 1, Int16 = 2, Int32 = 3, UInt8 = 4, UInt16 = 5, UInt32 = 6;
constexpr uint8_t Float32Libawd = 7, Float64Libawd = 8;
constexpr uint8_t Float32 = 11, Float64 = 12;
constexpr uint8_t Bool = 21, Color = 22, BlockAddr = 23;
constexpr uint8_t String = 31, ByteArray = 32;
constexpr uint8_t Vector2 = 41, Vector3 = 42, Vector4 = 43;
constexpr uint8_t Matrix3x2Libawd = 44, Matrix3x3Libawd = 45, Matrix4x3Libawd = 46, Matrix4x4Libawd = 47;
constexpr uint8_t Matrix3x2 = 51, Matrix3x3 = 52, Matrix4x3 = 53, Matrix4x4 = 54;
}  // namespace field
const char* fieldTypeName(uint8_t type);  // "float32", "color", ...; nullptr if unknown

// Shading, effect and shadow method type names (the material and method block tables);
// nullptr when unknown.
const char* methodTypeName(uint16_t type);

// The most a compressed body (or block) of `compressedSize` bytes may decompress to: a generous
// ratio over the input plus a floor for tiny inputs, never more than kMaxDecompressedBytes. A
// body claiming more is refused before anything is allocated for it.
constexpr uint64_t kMaxDecompressedBytes = uint64_t(1) << 30;
uint64_t decompressionLimit(uint64_t compressedSize);

// Inflates a zlib stream (header and Adler-32 trailer included, as the spec says) into `out`,
// growing it as output arrives; fails past `limit` bytes, on corrupt data and on a stream that
// ends early. Bytes after the end of the zlib stream are reported through `trailing`.
bool inflateZlib(const uint8_t* data, size_t size, uint64_t limit, std::vector<uint8_t>& out,
                 size_t& trailing, std::string& error);

// Decodes an AWD LZMA body in either layout: the .lzma ("alone") header that the Away3D tools
// write (5 properties bytes, 64-bit decompressed size or all ones, raw LZMA1 data), or the spec's
// table 4 (uint32 decompressed size, the 5 properties bytes, raw LZMA1 data). The layout is told
// apart by a properties byte below 225 and a dictionary size an encoder writes; when both readings
// are plausible the .lzma one is tried first. A declared size is checked against `limit` before
// anything is allocated, an unknown size stops output at `limit`, and the decoder's dictionary is
// capped to the output. Fails on corrupt or short data.
bool inflateLzma(const uint8_t* data, size_t size, uint64_t limit, std::vector<uint8_t>& out, std::string& error);

}  // namespace esv::awd
