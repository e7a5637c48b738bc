// EXT_meshopt_compression views: data written by meshoptimizer's own encoders (vertex, index buffer,
// index sequence, the three filters) decodes to what was encoded; the extension's rules on modes,
// strides, counts and filters are enforced with one sentence each; sizes no encoding could reach are
// refused before anything is allocated; damaged data fails or decodes, never crashes.
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include "loaders/gltf/decode_meshopt.h"

namespace esv::gltf {
namespace {

constexpr uint64_t kMax = 1ull << 30;

struct Vertex {
    float position[3];
    uint8_t color[4];
};

std::vector<Vertex> someVertices(size_t n) {
    std::vector<Vertex> v(n);
    for (size_t i = 0; i < n; ++i) {
        v[i].position[0] = float(i % 37) * 0.25f;
        v[i].position[1] = std::sin(float(i) * 0.1f);
        v[i].position[2] = float(i / 37);
        for (int k = 0; k < 4; ++k) v[i].color[k] = uint8_t(i * (k + 3));
    }
    return v;
}

template <class T>
std::vector<T> gridTriangles(uint32_t side) {
    std::vector<T> idx;
    for (uint32_t j = 0; j + 1 < side; ++j)
        for (uint32_t i = 0; i + 1 < side; ++i) {
            const T a = T(j * side + i), b = T(a + 1), c = T(a + side), d = T(c + 1);
            idx.insert(idx.end(), {a, c, b, b, c, d});
        }
    return idx;
}

std::vector<uint8_t> encodeVertices(const void* data, size_t count, size_t stride) {
    std::vector<uint8_t> out(meshopt_encodeVertexBufferBound(count, stride));
    out.resize(meshopt_encodeVertexBuffer(out.data(), out.size(), data, count, stride));
    return out;
}

TEST(MeshoptDecode, AttributesComeBackByteForByte) {
    const std::vector<Vertex> v = someVertices(1000);
    const std::vector<uint8_t> encoded = encodeVertices(v.data(), v.size(), sizeof(Vertex));
    ASSERT_FALSE(encoded.empty());
    ASSERT_LT(encoded.size(), v.size() * sizeof(Vertex));
    std::vector<uint8_t> out;
    std::string error;
    ASSERT_TRUE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::None, v.size(), sizeof(Vertex)},
                                  encoded.data(), encoded.size(), kMax, out, error))
        << error;
    ASSERT_EQ(out.size(), v.size() * sizeof(Vertex));
    EXPECT_EQ(std::memcmp(out.data(), v.data(), out.size()), 0);
}

TEST(MeshoptDecode, TrianglesAndIndexSequencesComeBackAsWritten) {
    for (int size : {2, 4}) {
        SCOPED_TRACE(size);
        const std::vector<uint32_t> idx32 = gridTriangles<uint32_t>(40);
        std::vector<uint8_t> expected(idx32.size() * size_t(size));
        for (size_t i = 0; i < idx32.size(); ++i) {
            if (size == 2) {
                const uint16_t x = uint16_t(idx32[i]);
                std::memcpy(&expected[i * 2], &x, 2);
            } else {
                std::memcpy(&expected[i * 4], &idx32[i], 4);
            }
        }
        std::vector<uint8_t> tri(meshopt_encodeIndexBufferBound(idx32.size(), 40 * 40));
        tri.resize(meshopt_encodeIndexBuffer(tri.data(), tri.size(), idx32.data(), idx32.size()));
        std::vector<uint8_t> seq(meshopt_encodeIndexSequenceBound(idx32.size(), 40 * 40));
        seq.resize(meshopt_encodeIndexSequence(seq.data(), seq.size(), idx32.data(), idx32.size()));
        for (MeshoptMode mode : {MeshoptMode::Triangles, MeshoptMode::Indices}) {
            const std::vector<uint8_t>& encoded = mode == MeshoptMode::Triangles ? tri : seq;
            std::vector<uint8_t> out;
            std::string error;
            ASSERT_TRUE(decodeMeshoptView({mode, MeshoptFilter::None, idx32.size(), uint64_t(size)}, encoded.data(),
                                          encoded.size(), kMax, out, error))
                << error;
            EXPECT_EQ(out, expected);
        }
    }
}

TEST(MeshoptDecode, OctahedralNormalsDecodeToUnitVectorsNearTheOriginals) {
    const size_t n = 500;
    std::vector<float> normals(n * 4);
    for (size_t i = 0; i < n; ++i) {
        const float a = float(i) * 0.37f, b = float(i) * 0.11f - 1.5f;
        normals[i * 4 + 0] = std::cos(a) * std::cos(b);
        normals[i * 4 + 1] = std::sin(b);
        normals[i * 4 + 2] = std::sin(a) * std::cos(b);
        normals[i * 4 + 3] = 1.0f;
    }
    std::vector<int16_t> packed(n * 4);
    meshopt_encodeFilterOct(packed.data(), n, 8, 16, normals.data());
    const std::vector<uint8_t> encoded = encodeVertices(packed.data(), n, 8);
    std::vector<uint8_t> out;
    std::string error;
    ASSERT_TRUE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::Octahedral, n, 8}, encoded.data(),
                                  encoded.size(), kMax, out, error))
        << error;
    const auto* decoded = reinterpret_cast<const int16_t*>(out.data());
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            ASSERT_NEAR(decoded[i * 4 + k] / 32767.0f, normals[i * 4 + k], 1e-3f) << "normal " << i << " component " << k;
}

TEST(MeshoptDecode, QuaternionsAndExponentialFloatsDecodeNearTheOriginals) {
    const size_t n = 300;
    std::vector<float> quats(n * 4);
    for (size_t i = 0; i < n; ++i) {
        const float angle = float(i) * 0.05f, s = std::sin(angle / 2);
        const float ax = 0.48f, ay = 0.6f, az = 0.64f;  // unit axis
        quats[i * 4 + 0] = ax * s, quats[i * 4 + 1] = ay * s, quats[i * 4 + 2] = az * s;
        quats[i * 4 + 3] = std::cos(angle / 2);
    }
    std::vector<int16_t> packedQ(n * 4);
    meshopt_encodeFilterQuat(packedQ.data(), n, 8, 16, quats.data());
    std::vector<uint8_t> encoded = encodeVertices(packedQ.data(), n, 8);
    std::vector<uint8_t> out;
    std::string error;
    ASSERT_TRUE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::Quaternion, n, 8}, encoded.data(),
                                  encoded.size(), kMax, out, error))
        << error;
    const auto* q = reinterpret_cast<const int16_t*>(out.data());
    for (size_t i = 0; i < n; ++i) {
        float dot = 0;
        for (int k = 0; k < 4; ++k) dot += q[i * 4 + k] / 32767.0f * quats[i * 4 + k];
        ASSERT_GT(std::fabs(dot), 0.9999f) << "quaternion " << i;  // the same rotation (either sign)
    }

    std::vector<float> values(n * 3);
    for (size_t i = 0; i < values.size(); ++i) values[i] = (float(i) - 400.0f) * 1.37f;
    std::vector<uint32_t> packedE(values.size());
    meshopt_encodeFilterExp(packedE.data(), n, 12, 15, values.data());
    encoded = encodeVertices(packedE.data(), n, 12);
    ASSERT_TRUE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::Exponential, n, 12}, encoded.data(),
                                  encoded.size(), kMax, out, error))
        << error;
    const auto* f = reinterpret_cast<const float*>(out.data());
    for (size_t i = 0; i < values.size(); ++i)
        ASSERT_NEAR(f[i], values[i], std::fabs(values[i]) * 1e-4f + 1e-6f) << "value " << i;
}

TEST(MeshoptDecode, TheExtensionsRulesAreEnforced) {
    const struct {
        MeshoptView view;
        const char* error;
    } cases[] = {
        {{MeshoptMode::Attributes, MeshoptFilter::None, 10, 6}, "byteStride 6 of mode ATTRIBUTES must be a multiple of 4 from 4 to 256"},
        {{MeshoptMode::Attributes, MeshoptFilter::None, 10, 260}, "byteStride 260 of mode ATTRIBUTES must be a multiple of 4 from 4 to 256"},
        {{MeshoptMode::Triangles, MeshoptFilter::None, 9, 8}, "byteStride 8 of mode TRIANGLES must be 2 or 4"},
        {{MeshoptMode::Indices, MeshoptFilter::None, 9, 1}, "byteStride 1 of mode INDICES must be 2 or 4"},
        {{MeshoptMode::Triangles, MeshoptFilter::None, 10, 2}, "count 10 of mode TRIANGLES is not a multiple of 3"},
        {{MeshoptMode::Indices, MeshoptFilter::Exponential, 9, 4}, "filter EXPONENTIAL applies to mode ATTRIBUTES only, not INDICES"},
        {{MeshoptMode::Attributes, MeshoptFilter::Octahedral, 9, 12}, "filter OCTAHEDRAL needs byteStride 4 or 8, not 12"},
        {{MeshoptMode::Attributes, MeshoptFilter::Quaternion, 9, 4}, "filter QUATERNION needs byteStride 8, not 4"},
    };
    for (const auto& c : cases) {
        std::string error;
        EXPECT_FALSE(checkMeshoptView(c.view, error));
        EXPECT_EQ(error, c.error);
        std::vector<uint8_t> out;
        const uint8_t data[64] = {0xA0};
        EXPECT_FALSE(decodeMeshoptView(c.view, data, sizeof(data), kMax, out, error));
        EXPECT_EQ(error, c.error);
    }
    MeshoptMode mode;
    MeshoptFilter filter;
    EXPECT_TRUE(parseMeshoptMode("TRIANGLES", mode));
    EXPECT_EQ(mode, MeshoptMode::Triangles);
    EXPECT_FALSE(parseMeshoptMode("triangles", mode));
    EXPECT_TRUE(parseMeshoptFilter("EXPONENTIAL", filter));
    EXPECT_EQ(filter, MeshoptFilter::Exponential);
    EXPECT_FALSE(parseMeshoptFilter("OCT", filter));
}

TEST(MeshoptDecode, SizesNoEncodingCouldReachAreRefusedBeforeAllocating) {
    const uint8_t data[16] = {0xA0};
    std::vector<uint8_t> out;
    std::string error;
    // 16 encoded bytes hold at most 16 * 64 + 16384 attribute bytes.
    EXPECT_FALSE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::None, 1u << 28, 16}, data, sizeof(data),
                                   kMax * 8, out, error));
    EXPECT_EQ(error, "count 268435456 at byteStride 16 (4294967296 bytes) cannot come from 16 encoded bytes");
    EXPECT_TRUE(out.empty());
    EXPECT_FALSE(decodeMeshoptView({MeshoptMode::Triangles, MeshoptFilter::None, 300, 4}, data, sizeof(data), kMax, out, error));
    EXPECT_EQ(error, "count 300 at byteStride 4 (1200 bytes) cannot come from 16 encoded bytes");
    EXPECT_FALSE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::None, 1000, 16}, data, sizeof(data), 15999,
                                   out, error));
    EXPECT_EQ(error, "count 1000 at byteStride 16 is over the 15999-byte limit");
    // The count times the stride overflows 64 bits.
    EXPECT_FALSE(decodeMeshoptView({MeshoptMode::Attributes, MeshoptFilter::None, ~0ull / 2, 8}, data, sizeof(data),
                                   kMax, out, error));
}

TEST(MeshoptDecode, DamagedDataFailsOrDecodesButNeverReadsOutside) {
    const std::vector<Vertex> v = someVertices(700);
    const std::vector<uint8_t> encoded = encodeVertices(v.data(), v.size(), sizeof(Vertex));
    const MeshoptView view{MeshoptMode::Attributes, MeshoptFilter::None, v.size(), sizeof(Vertex)};
    size_t failures = 0;
    for (size_t cut = 0; cut < encoded.size(); ++cut) {
        std::vector<uint8_t> prefix(encoded.begin(), encoded.begin() + ptrdiff_t(cut));  // exact size: ASan sees overreads
        std::vector<uint8_t> out;
        std::string error;
        if (!decodeMeshoptView(view, prefix.data(), prefix.size(), kMax, out, error)) {
            ++failures;
            EXPECT_FALSE(error.empty());
        }
    }
    EXPECT_EQ(failures, encoded.size()) << "every truncated prefix is refused";
    for (size_t at = 0; at < encoded.size(); at += 7) {
        std::vector<uint8_t> damaged = encoded;
        damaged[at] ^= 0x5A;
        std::vector<uint8_t> out;
        std::string error;
        if (decodeMeshoptView(view, damaged.data(), damaged.size(), kMax, out, error)) {
            EXPECT_EQ(out.size(), v.size() * sizeof(Vertex));
        } else {
            EXPECT_FALSE(error.empty());
        }
    }
}

}  // namespace
}  // namespace esv::gltf
