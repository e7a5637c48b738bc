#include "loaders/awd/awd_format.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

#include <lzma.h>
#include <zlib.h>

namespace esv::awd {

const char* blockTypeName(uint8_t type) {
    switch (type) {
        case block::TriangleGeometry: return "TriangleGeometry";
        case block::PrimitiveGeometry: return "PrimitiveGeometry";
        case block::Scene: return "Scene";
        case block::Container: return "Container";
        case block::MeshInstance: return "MeshInstance";
        case block::SkyBox: return "SkyBox";
        case block::Light: return "Light";
        case block::Camera: return "Camera";
        case block::TextureProjector: return "TextureProjector";
        case block::LightPicker: return "LightPicker";
        case block::Material: return "Material";
        case block::BitmapTexture: return "BitmapTexture";
        case block::CubeTexture: return "CubeTexture";
        case block::SharedMethod: return "SharedMethod";
        case block::ShadowMethod: return "ShadowMethod";
        case block::Skeleton: return "Skeleton";
        case block::SkeletonPose: return "SkeletonPose";
        case block::SkeletonAnimation: return "SkeletonAnimation";
        case block::MeshPose: return "MeshPose";
        case block::MeshPoseAnimation: return "MeshPoseAnimation";
        case block::AnimationSet: return "AnimationSet";
        case block::UVAnimation: return "UVAnimation";
        case block::Animator: return "Animator";
        case block::Command: return "Command";
        case block::Namespace: return "Namespace";
        case block::MetaData: return "MetaData";
        default: return nullptr;
    }
}

const char* streamTypeName(uint8_t type) {
    switch (type) {
        case stream::Positions: return "positions";
        case stream::Indices: return "face indices";
        case stream::UVs: return "UVs";
        case stream::Normals: return "normals";
        case stream::Tangents: return "tangents";
        case stream::JointIndices: return "joint indices";
        case stream::JointWeights: return "joint weights";
        default: return nullptr;
    }
}

const char* fieldTypeName(uint8_t type) {
    switch (type) {
        case field::Int8: return "int8";
        case field::Int16: return "int16";
        case field::Int32: return "int32";
        case field::UInt8: return "uint8";
        case field::UInt16: return "uint16";
        case field::UInt32: return "uint32";
        case field::Float32Libawd:
        case field::Float32: return "float32";
        case field::Float64Libawd:
        case field::Float64: return "float64";
        case field::Bool: return "bool";
        case field::Color: return "color";
        case field::BlockAddr: return "BlockAddr";
        case field::String: return "string";
        case field::ByteArray: return "ByteArray";
        case field::Vector2: return "Vector2x1";
        case field::Vector3: return "Vector3x1";
        case field::Vector4: return "Vector4x1";
        case field::Matrix3x2Libawd:
        case field::Matrix3x2: return "Matrix3x2";
        case field::Matrix3x3Libawd:
        case field::Matrix3x3: return "Matrix3x3";
        case field::Matrix4x3Libawd:
        case field::Matrix4x3: return "Matrix4x3";
        case field::Matrix4x4Libawd:
        case field::Matrix4x4: return "Matrix4x4";
        default: return nullptr;
    }
}

const char* methodTypeName(uint16_t type) {
    switch (type) {
        case 1: return "EnvMapAmbientMethod";
        case 51: return "DepthDiffuseMethod";
        case 52: return "GradientDiffuseMethod";
        case 53: return "WrapDiffuseMethod";
        case 54: return "LightMapDiffuseMethod";
        case 55: return "CelDiffuseMethod";
        case 56: return "SubsurfaceScatteringDiffuseMethod";
        case 101: return "AnisotropicSpecularMethod";
        case 102: return "PhongSpecularMethod";
        case 103: return "CelSpecularMethod";
        case 104: return "FresnelSpecularMethod";
        case 151: return "HeightMapNormalMethod";
        case 152: return "SimpleWaterNormalMethod";
        case 401: return "ColorMatrixMethod";
        case 402: return "ColorTransformMethod";
        case 403: return "EnvMapMethod";
        case 404: return "LightMapMethod";
        case 405: return "ProjectiveTextureMethod";
        case 406: return "RimLightMethod";
        case 407: return "AlphaMaskMethod";
        case 408: return "RefractionEnvMapMethod";
        case 409: return "OutlineMethod";
        case 410: return "FresnelEnvMapMethod";
        case 411: return "FogMethod";
        case 998: return "ShadowMapMethodBlockMethod";
        case 999: return "EffectMethodBlockMethod";
        case 1001: return "CascadeShadowMapMethod";
        case 1002: return "NearShadowMapMethod";
        case 1101: return "FilteredShadowMapMethod";
        case 1102: return "DitheredShadowMapMethod";
        case 1103: return "SoftShadowMapMethod";
        case 1104: return "HardShadowMapMethod";
        default: return nullptr;
    }
}

uint64_t decompressionLimit(uint64_t compressedSize) {
    // Model data compresses a few times at most; 512:1 over a 32 MiB floor leaves room for
    // unusually regular data while a few kilobytes can never ask for gigabytes.
    constexpr uint64_t kFloor = uint64_t(32) << 20;
    constexpr uint64_t kRatio = 512;
    if (compressedSize > kMaxDecompressedBytes / kRatio) return kMaxDecompressedBytes;
    return std::min(kMaxDecompressedBytes, kFloor + compressedSize * kRatio);
}

namespace {

// Output grows by doubling from a size proportional to the input, so a stream that ends early
// or fails never makes us touch more memory than it produced.
size_t nextCapacity(size_t current, size_t inputSize, uint64_t limit) {
    uint64_t next = current == 0 ? std::max<uint64_t>(uint64_t(inputSize) * 4, 4096) : uint64_t(current) * 2;
    return static_cast<size_t>(std::min(next, limit));
}

}  // namespace

bool inflateZlib(const uint8_t* data, size_t size, uint64_t limit, std::vector<uint8_t>& out,
                 size_t& trailing, std::string& error) {
    out.clear();
    trailing = 0;
    z_stream z{};
    if (inflateInit(&z) != Z_OK) {
        error = "zlib could not be initialised";
        return false;
    }
    // The zlib format does not say how much it holds. Output goes into uninitialised chunks the
    // size of the input (64 KiB to 16 MiB; a stream that ends early or fails never has more than one
    // chunk it did not fill), then once into a buffer of the exact size: at most twice the body and
    // a chunk in memory, each byte written twice, no capacity left over.
    const size_t chunkSize = std::clamp<size_t>(size, size_t(64) << 10, size_t(16) << 20);
    std::vector<std::pair<std::unique_ptr<uint8_t[]>, size_t>> chunks;  // data, bytes used
    size_t capacity = 0, produced = 0, consumed = 0, room = 0;
    auto fail = [&](std::string why) {
        inflateEnd(&z);
        error = std::move(why);
        return false;
    };
    int rc = Z_OK;
    while (true) {
        if (room == 0) {
            if (capacity >= limit)
                return fail("the compressed body inflates to more than " + std::to_string(limit) +
                            " bytes, the limit for a file of this size");
            const size_t next = static_cast<size_t>(std::min<uint64_t>(chunkSize, limit - capacity));
            chunks.emplace_back(new uint8_t[next], 0);
            capacity += next;
            room = next;
        }
        auto& [chunk, used] = chunks.back();
        // zlib counts in uInt; feed and drain at most 1 GiB per call.
        const size_t inChunk = std::min<size_t>(size - consumed, size_t(1) << 30);
        const size_t outChunk = std::min<size_t>(room, size_t(1) << 30);
        z.next_in = const_cast<Bytef*>(data + consumed);
        z.avail_in = static_cast<uInt>(inChunk);
        z.next_out = chunk.get() + used;
        z.avail_out = static_cast<uInt>(outChunk);
        rc = inflate(&z, Z_NO_FLUSH);
        consumed += inChunk - z.avail_in;
        used += outChunk - z.avail_out;
        produced += outChunk - z.avail_out;
        room -= outChunk - z.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && z.avail_out != 0)  // no progress possible: the input ended
            return fail("the zlib stream ends early (the file is truncated)");
        if (rc != Z_OK && rc != Z_BUF_ERROR) return fail("zlib: " + std::string(z.msg ? z.msg : "corrupt data"));
    }
    inflateEnd(&z);
    out.resize(produced);
    size_t at = 0;
    for (auto& [chunk, used] : chunks) {
        if (used) std::memcpy(out.data() + at, chunk.get(), used);
        at += used;
        chunk.reset();
    }
    trailing = size - consumed;
    return true;
}

namespace {

std::string hexByte(uint8_t v) {
    const char* digits = "0123456789ABCDEF";
    return {digits[v >> 4], digits[v & 15]};
}

uint32_t le32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// Dictionary sizes LZMA encoders write: liblzma and the LZMA SDK round up to 2^n or 3 * 2^(n-1)
// (at least 4 KiB), and the SDK to whole MiB from 4 MiB on.
bool plausibleDictionary(uint32_t d) {
    if (d < 4096) return false;
    if ((d & (d - 1)) == 0) return true;
    const uint32_t third = d / 3;
    if (d % 3 == 0 && (third & (third - 1)) == 0) return true;
    return d >= (4u << 20) && d % (1u << 20) == 0;
}

// One reading of the body's first bytes.
struct LzmaLayout {
    const char* name;
    uint8_t properties;
    uint32_t dictionary;
    uint64_t size;  // kUnknownSize: not given, the stream ends with its end marker
    size_t dataOffset;
};
constexpr uint64_t kUnknownSize = ~uint64_t(0);

bool decodeLzma(const uint8_t* data, size_t size, const LzmaLayout& layout, uint64_t limit, std::vector<uint8_t>& out,
                std::string& error) {
    out.clear();
    const bool known = layout.size != kUnknownSize;
    if (known && layout.size > limit) {
        error = "the LZMA body declares " + std::to_string(layout.size) + " decompressed bytes, more than the " +
                std::to_string(limit) + " allowed for a file of this size";
        return false;
    }
    const uint64_t cap = known ? layout.size : limit;
    // liblzma's .lzma decoder is given a header it can trust: the dictionary never needs to be
    // larger than the output, so a file asking for a huge one gets no more than that.
    uint8_t header[13];
    header[0] = layout.properties;
    const uint32_t dict = static_cast<uint32_t>(std::max<uint64_t>(4096, std::min<uint64_t>(layout.dictionary, std::max<uint64_t>(cap, 4096))));
    for (int i = 0; i < 4; ++i) header[1 + i] = static_cast<uint8_t>(dict >> (8 * i));
    for (int i = 0; i < 8; ++i) header[5 + i] = static_cast<uint8_t>(layout.size >> (8 * i));

    lzma_stream strm = LZMA_STREAM_INIT;
    if (lzma_alone_decoder(&strm, uint64_t(256) << 20) != LZMA_OK) {
        error = "liblzma could not be initialised";
        return false;
    }
    auto finish = [&](bool ok, const std::string& why) {
        lzma_end(&strm);
        if (!ok) {
            out.clear();
            error = why;
        }
        return ok;
    };
    // The header first, then the payload.
    std::vector<uint8_t> sink(16);
    strm.next_in = header;
    strm.avail_in = sizeof header;
    strm.next_out = sink.data();
    strm.avail_out = sink.size();
    lzma_ret rc = lzma_code(&strm, LZMA_RUN);
    if (rc != LZMA_OK && rc != LZMA_STREAM_END) return finish(false, "the LZMA properties are invalid");
    if (strm.avail_in != 0) return finish(false, "the LZMA properties are invalid");
    if (rc == LZMA_STREAM_END || layout.size == 0) return finish(true, "");

    size_t produced = 0;
    strm.next_in = data + layout.dataOffset;
    strm.avail_in = size - layout.dataOffset;
    while (true) {
        // One byte of room past the cap lets the stream reach its end marker, or show that it
        // holds more than it may.
        if (produced > cap)
            return finish(false, "the LZMA data decompresses to more than " + std::to_string(cap) +
                                     (known ? " bytes, the size its header declares" : " bytes, the limit for a file of this size"));
        if (produced == out.size()) out.resize(nextCapacity(out.size(), size, cap + 1));
        strm.next_out = out.data() + produced;
        strm.avail_out = out.size() - produced;
        rc = lzma_code(&strm, LZMA_FINISH);
        produced = out.size() - strm.avail_out;
        if (rc == LZMA_STREAM_END) break;
        if (rc == LZMA_OK) {
            if (strm.avail_out == 0) continue;  // room needed
            return finish(false, "the LZMA data ends early (the file is truncated)");
        }
        if (rc == LZMA_BUF_ERROR) return finish(false, "the LZMA data ends early (the file is truncated)");
        if (rc == LZMA_MEMLIMIT_ERROR || rc == LZMA_MEM_ERROR)
            return finish(false, "the LZMA stream needs more memory than allowed");
        return finish(false, "the LZMA data is corrupt");
    }
    if (known && produced != layout.size)
        return finish(false, "the LZMA data holds " + std::to_string(produced) + " bytes, its header declares " +
                                 std::to_string(layout.size));
    out.resize(produced);
    out.shrink_to_fit();
    return finish(true, "");
}

}  // namespace

bool inflateLzma(const uint8_t* data, size_t size, uint64_t limit, std::vector<uint8_t>& out, std::string& error) {
    out.clear();
    if (size < 9) {
        error = "the LZMA body is " + std::to_string(size) + " bytes, shorter than its 9-byte header";
        return false;
    }
    // The two layouts, told apart by what an encoder can write: a properties byte below 9 * 5 * 5
    // and a dictionary size encoders produce. The .lzma layout must also leave its 13-byte header
    // in the body, and its size must be unknown (all ones) or fit 32 bits as AWD's own field does.
    std::vector<LzmaLayout> candidates;
    if (size >= 13) {
        uint64_t size64 = 0;
        for (int i = 0; i < 8; ++i) size64 |= uint64_t(data[5 + i]) << (8 * i);
        if (data[0] < 225 && plausibleDictionary(le32(data + 1)) && (size64 == kUnknownSize || size64 >> 32 == 0))
            candidates.push_back({".lzma", data[0], le32(data + 1), size64, 13});
    }
    if (data[4] < 225 && plausibleDictionary(le32(data + 5)))
        candidates.push_back({"AWD spec", data[4], le32(data + 5), le32(data), 9});
    if (candidates.empty()) {
        error = "the LZMA body starts with neither a .lzma header (properties byte 0x" + hexByte(data[0]) +
                ", dictionary size " + std::to_string(le32(data + 1)) +
                ") nor the AWD spec's (32-bit size, properties byte 0x" + hexByte(data[4]) + ", dictionary size " +
                std::to_string(le32(data + 5)) + ")";
        return false;
    }
    // Real files use the .lzma layout; when both readings are plausible and the first fails, the
    // second is tried, and the first one's error is the one reported if both fail.
    std::string firstError;
    for (size_t i = 0; i < candidates.size(); ++i) {
        std::string why;
        if (decodeLzma(data, size, candidates[i], limit, out, why)) return true;
        if (i == 0) firstError = why;
    }
    error = firstError;
    return false;
}

}  // namespace esv::awd
