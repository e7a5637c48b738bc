// KHR_draco_mesh_compression data written by Debian's draco_encoder from an OBJ this test writes: the
// decoded triangles are the OBJ's triangles (as sets of corners, winding kept) within the
// quantisation the encoder was asked for; requests Draco cannot meet fail with one sentence; damaged
// and truncated data fails or decodes, never crashes. Skips where draco_encoder is absent (setup.sh
// installs it) or the build has no Draco.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/gltf/decode_draco.h"

namespace esv::gltf {
namespace {

namespace fs = std::filesystem;

constexpr int kSide = 12;  // vertices per side of the grid

struct Corner {
    float x, y, z, u, v;
};

// The grid the OBJ holds: heights from a smooth function, UVs across it.
Corner gridCorner(int i, int j) {
    const float x = float(i) / (kSide - 1), z = float(j) / (kSide - 1);
    return {x * 4.0f - 2.0f, 0.5f * std::sin(x * 3.0f) * std::cos(z * 2.0f), z * 3.0f, x, z};
}

using Triangle = std::array<std::array<long, 3>, 3>;

// A triangle as its corner positions rounded to `step`, rotated so the smallest corner is first
// (the winding is kept: the other two stay in order).
Triangle canonical(const std::array<Corner, 3>& c, float step) {
    Triangle t;
    for (int k = 0; k < 3; ++k)
        t[k] = {std::lround(c[k].x / step), std::lround(c[k].y / step), std::lround(c[k].z / step)};
    int first = 0;
    for (int k = 1; k < 3; ++k)
        if (t[k] < t[first]) first = k;
    return {t[first], t[(first + 1) % 3], t[(first + 2) % 3]};
}

std::multiset<Triangle> objTriangles(float step) {
    std::multiset<Triangle> out;
    for (int j = 0; j + 1 < kSide; ++j)
        for (int i = 0; i + 1 < kSide; ++i) {
            const Corner a = gridCorner(i, j), b = gridCorner(i + 1, j), c = gridCorner(i, j + 1), d = gridCorner(i + 1, j + 1);
            out.insert(canonical({a, c, b}, step));
            out.insert(canonical({b, c, d}, step));
        }
    return out;
}

// Writes the grid as an OBJ and encodes it with draco_encoder; the .drc bytes, or empty.
std::vector<uint8_t> encodeGrid(const fs::path& dir) {
    fs::create_directories(dir);
    const fs::path obj = dir / "grid.obj", drc = dir / "grid.drc";
    std::ofstream f(obj);
    for (int j = 0; j < kSide; ++j)
        for (int i = 0; i < kSide; ++i) {
            const Corner c = gridCorner(i, j);
            f << "v " << c.x << ' ' << c.y << ' ' << c.z << "\nvt " << c.u << ' ' << c.v << '\n';
        }
    for (int j = 0; j + 1 < kSide; ++j)
        for (int i = 0; i + 1 < kSide; ++i) {
            const int a = j * kSide + i + 1, b = a + 1, c = a + kSide, d = c + 1;
            f << "f " << a << '/' << a << ' ' << c << '/' << c << ' ' << b << '/' << b << '\n';
            f << "f " << b << '/' << b << ' ' << c << '/' << c << ' ' << d << '/' << d << '\n';
        }
    f.close();
    const std::string command = "draco_encoder -i '" + obj.string() + "' -o '" + drc.string() +
                                "' -qp 16 -qt 16 -cl 7 >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) return {};
    std::ifstream in(drc, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

class DracoDecode : public ::testing::Test {
protected:
    void SetUp() override {
        if (!dracoAvailable()) GTEST_SKIP() << "this build has no Draco";
        if (std::system("command -v draco_encoder >/dev/null 2>&1") != 0)
            ESVIEW_SKIP_UNLESS_REQUIRED() << "draco_encoder (Debian draco) is not installed";
        // One folder per test: ctest runs this file's tests as parallel processes, and a shared
        // grid.drc could be read while another process's encoder is still writing it.
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_drc = encodeGrid(fs::path(ESVIEW_TEST_OUTPUT_DIR) / "draco" / info->name());
        ASSERT_FALSE(m_drc.empty()) << "draco_encoder failed";
    }
    std::vector<uint8_t> m_drc;
};

// The OBJ reader of Draco gives positions unique id 0 and texture coordinates id 1.
const std::vector<DracoAttributeRequest> kRequests = {{0, 5126, 3, false}, {1, 5126, 2, false}};

TEST_F(DracoDecode, TheEncodersTrianglesComeBackWithinItsQuantisation) {
    DracoMesh mesh;
    std::string error;
    ASSERT_TRUE(decodeDracoMesh(m_drc.data(), m_drc.size(), kRequests, 1u << 30, mesh, error)) << error;
    ASSERT_EQ(mesh.indices.size(), size_t((kSide - 1) * (kSide - 1) * 6));
    ASSERT_EQ(mesh.attributes.size(), 2u);
    ASSERT_EQ(mesh.attributes[0].size(), size_t(mesh.vertexCount) * 12);
    ASSERT_EQ(mesh.attributes[1].size(), size_t(mesh.vertexCount) * 8);
    const auto* p = reinterpret_cast<const float*>(mesh.attributes[0].data());
    const auto* uv = reinterpret_cast<const float*>(mesh.attributes[1].data());
    // 16 bits over the largest extent (4 units): steps of 6.1e-5; compare on a 1e-3 grid after
    // snapping each decoded corner to the nearest source corner's value within 2 steps.
    std::map<std::pair<long, long>, Corner> source;
    for (int j = 0; j < kSide; ++j)
        for (int i = 0; i < kSide; ++i) source[{i, j}] = gridCorner(i, j);
    const float step = 4.0f / 65535.0f;
    std::multiset<Triangle> decoded;
    for (size_t t = 0; t < mesh.indices.size(); t += 3) {
        std::array<Corner, 3> c;
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = mesh.indices[t + size_t(k)];
            ASSERT_LT(v, mesh.vertexCount);
            const Corner got{p[v * 3], p[v * 3 + 1], p[v * 3 + 2], uv[v * 2], uv[v * 2 + 1]};
            // The source corner of this UV (UVs are the grid coordinates).
            const long i = std::lround(got.u * (kSide - 1)), j = std::lround(got.v * (kSide - 1));
            ASSERT_TRUE(source.count({i, j})) << "uv " << got.u << ", " << got.v;
            const Corner& want = source[{i, j}];
            ASSERT_NEAR(got.x, want.x, 2 * step);
            ASSERT_NEAR(got.y, want.y, 2 * step);
            ASSERT_NEAR(got.z, want.z, 2 * step);
            ASSERT_NEAR(got.u, want.u, 2.0f / 65535.0f);
            c[size_t(k)] = want;
        }
        decoded.insert(canonical(c, 1e-3f));
    }
    EXPECT_EQ(decoded, objTriangles(1e-3f)) << "the same triangles, each wound as in the OBJ";
}

TEST_F(DracoDecode, RequestsItCannotMeetFailWithOneSentence) {
    DracoMesh mesh;
    std::string error;
    EXPECT_FALSE(decodeDracoMesh(m_drc.data(), m_drc.size(), {{7, 5126, 3, false}}, 1u << 30, mesh, error));
    EXPECT_EQ(error, "the Draco data has no attribute with id 7");
    EXPECT_FALSE(decodeDracoMesh(m_drc.data(), m_drc.size(), kRequests, 1000, mesh, error));
    EXPECT_EQ(error.rfind("the decoded Draco mesh (", 0), 0u) << error;
    EXPECT_NE(error.find(" vertices, 242 triangles) is over the 1000-byte limit"), std::string::npos) << error;
    EXPECT_FALSE(decodeDracoMesh(m_drc.data(), m_drc.size(), {{0, 5124, 3, false}}, 1u << 30, mesh, error));
    EXPECT_EQ(error, "attribute 0 asks for an unknown component type or count");
}

TEST_F(DracoDecode, DamagedAndTruncatedDataFailsOrDecodesButNeverCrashes) {
    for (size_t cut = 0; cut < m_drc.size(); cut += 3) {
        std::vector<uint8_t> prefix(m_drc.begin(), m_drc.begin() + ptrdiff_t(cut));
        DracoMesh mesh;
        std::string error;
        if (!decodeDracoMesh(prefix.data(), prefix.size(), kRequests, 1u << 26, mesh, error)) {
            EXPECT_FALSE(error.empty());
        }
    }
    for (size_t at = 0; at < m_drc.size(); at += 5) {
        std::vector<uint8_t> damaged = m_drc;
        damaged[at] ^= 0xA5;
        DracoMesh mesh;
        std::string error;
        // Indices out of range in a decoded mesh are the validator's to report.
        if (!decodeDracoMesh(damaged.data(), damaged.size(), kRequests, 1u << 26, mesh, error)) {
            EXPECT_FALSE(error.empty());
        }
    }
}

}  // namespace
}  // namespace esv::gltf
