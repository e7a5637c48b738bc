// `esview convert FILE OUT.glb` compared triangle by triangle with the scene esview loaded from
// FILE. The output is read by assimp (Debian's libassimp, a reader esview did not write) with its
// node transforms applied to the vertices (aiProcess_PreTransformVertices); the source's triangles
// are esview's own at rest (scene/cpu_reference.h: worldVertices, expandTriangles), turned to Y up
// as glTF is when the source is Z up. Every source triangle must have one read triangle with the
// same corners in the same cyclic order (so the same winding, the same facing) and the same UVs,
// and no read triangle may be left over. Counts and bounds, which the other glTF tests compare,
// cannot tell a triangle wound the other way, a V flipped or a transform applied to the wrong node.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include "app/cli/commands.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"
#include "convert_gltf/glb_reader.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

struct Corner {
    glm::vec3 position{0.0f};
    glm::vec2 uv{0.0f};
};

struct Triangle {
    Corner corners[3];
    bool hasUv = false;
};

// The nodes of the output's default scene: all of them, except for a POF model with detail levels,
// whose default scene is the tree of the first level (the writer's other levels are other scenes).
std::vector<uint8_t> defaultSceneNodes(const Scene& scene) {
    const size_t n = scene.nodes.size();
    std::vector<uint8_t> included(n, 1);
    if (!scene.pof || scene.pof->detailLevels.empty()) return included;
    int lod0 = -1;
    for (size_t s = 0; s < scene.pof->subobjects.size() && s < n; ++s)
        if (scene.pof->subobjects[s].number == scene.pof->detailLevels[0]) lod0 = int(s);
    if (lod0 < 0) return included;
    while (scene.nodes[size_t(lod0)].parent >= 0) lod0 = scene.nodes[size_t(lod0)].parent;
    for (size_t i = 0; i < n; ++i) {
        int a = int(i);
        while (a >= 0 && a != lod0) a = scene.nodes[size_t(a)].parent;
        included[i] = a == lod0;
    }
    return included;
}

// The source's triangles in world space at rest (hidden nodes too: the writer keeps them, marked in
// extras, as glTF has no visibility), UV set 0 as stored, turned (x, y, z) to
// (x, z, -y) when the scene is Z up. `placed` counts the triangles of mesh instances whose world
// transform is not the identity, `nested` those under a parent whose world transform is not: the
// ones a transform left out or applied to the wrong node would move.
std::vector<Triangle> sourceTriangles(const Scene& scene, size_t& placed, size_t& nested) {
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    const std::vector<uint8_t> included = defaultSceneNodes(scene);
    const bool zUp = scene.up == UpAxis::Z;
    std::vector<Triangle> out;
    placed = nested = 0;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& node = scene.nodes[i];
        if (!included[i] || node.kind != NodeKind::Mesh || node.object < 0) continue;
        const Mesh& mesh = scene.meshes[size_t(node.object)];
        std::vector<glm::vec3> positions;
        worldVertices(scene, pose, int(i), positions);
        std::vector<uint32_t> indices;
        expandTriangles(mesh, indices);
        const VertexStream* uvStream = nullptr;
        const VertexAttribute* uvAttribute = findAttribute(mesh, Semantic::TexCoord, 0, &uvStream);
        const bool moved = pose.objectWorld[i] != glm::mat4(1.0f);
        const bool underParent = node.parent >= 0 && pose.world[size_t(node.parent)] != glm::mat4(1.0f);
        for (size_t t = 0; t + 3 <= indices.size(); t += 3) {
            Triangle tri;
            tri.hasUv = uvAttribute != nullptr;
            bool inRange = true;
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = indices[t + size_t(k)];
                if (v >= positions.size()) {
                    inRange = false;
                    break;
                }
                const glm::vec3 p = positions[v];
                tri.corners[k].position = zUp ? glm::vec3(p.x, p.z, -p.y) : p;
                if (uvAttribute) {
                    float uv[4];
                    readAttribute(*uvStream, *uvAttribute, v, uv);
                    tri.corners[k].uv = glm::vec2(uv[0], uv[1]);
                }
            }
            if (!inRange) continue;
            out.push_back(tri);
            placed += moved;
            nested += underParent;
        }
    }
    return out;
}

// The output's triangles as assimp reads them, with node transforms applied. assimp turns glTF's
// texture coordinates (origin at the image's top left) to its own (bottom left), v' = 1 - v; the
// turn is undone here so that they compare with the stored ones. Points and lines are left out.
bool assimpTriangles(const std::string& path, std::vector<Triangle>& out, std::string& error) {
    Assimp::Importer importer;
    const aiScene* read = importer.ReadFile(path, aiProcess_PreTransformVertices);
    if (!read) {
        error = importer.GetErrorString();
        return false;
    }
    for (unsigned m = 0; m < read->mNumMeshes; ++m) {
        const aiMesh* mesh = read->mMeshes[m];
        const aiVector3D* uvs = mesh->mTextureCoords[0];
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const aiFace& face = mesh->mFaces[f];
            if (face.mNumIndices != 3) continue;
            Triangle tri;
            tri.hasUv = uvs != nullptr;
            for (int k = 0; k < 3; ++k) {
                const unsigned v = face.mIndices[k];
                const aiVector3D& p = mesh->mVertices[v];
                tri.corners[k].position = glm::vec3(p.x, p.y, p.z);
                if (uvs) tri.corners[k].uv = glm::vec2(uvs[v].x, 1.0f - uvs[v].y);
            }
            out.push_back(tri);
        }
    }
    return true;
}

struct Matches {
    size_t matched = 0;        // same corners, same cyclic order
    size_t reversed = 0;       // same corners, the other winding
    size_t uvDifferent = 0;    // matched, but a corner's UV differs
    size_t uvCompared = 0;     // matched with UVs on both sides
    size_t sourceMissing = 0;  // no read triangle has its corners
    size_t leftOver = 0;       // read triangles no source triangle took
};

// Whether read triangle `r`, its corners taken from `first` on in order `step` (1: as read, 2: the
// other way round), has the positions of `s` within `tolerance`.
bool samePositions(const Triangle& s, const Triangle& r, int first, int step, float tolerance) {
    for (int k = 0; k < 3; ++k) {
        const glm::vec3 d = s.corners[k].position - r.corners[(first + step * k) % 3].position;
        if (std::max({std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)}) > tolerance) return false;
    }
    return true;
}

bool sameUvs(const Triangle& s, const Triangle& r, int first, float tolerance) {
    for (int k = 0; k < 3; ++k) {
        const glm::vec2 d = s.corners[k].uv - r.corners[(first + k) % 3].uv;
        if (std::max(std::fabs(d.x), std::fabs(d.y)) > tolerance) return false;
    }
    return true;
}

// Pairs each source triangle with an unused read triangle of the same corners: first one in the
// same cyclic order with the same UVs, then one in the same order, then one the other way round.
// Read triangles are found by their centroid in a grid of cells 16 tolerances wide (a centroid
// within the tolerance lies in the same cell or a neighbouring one).
Matches matchTriangles(const std::vector<Triangle>& source, const std::vector<Triangle>& read,
                       float tolerance, float uvTolerance) {
    const float cell = 16.0f * tolerance;
    auto cellOf = [&](const Triangle& t) {
        const glm::vec3 c = (t.corners[0].position + t.corners[1].position + t.corners[2].position) / 3.0f;
        return glm::ivec3(glm::floor(c / cell));
    };
    auto key = [](const glm::ivec3& c) {
        return (uint64_t(uint32_t(c.x) & 0x1FFFFF) << 42) | (uint64_t(uint32_t(c.y) & 0x1FFFFF) << 21) |
               uint64_t(uint32_t(c.z) & 0x1FFFFF);
    };
    std::unordered_map<uint64_t, std::vector<size_t>> grid;
    for (size_t r = 0; r < read.size(); ++r) grid[key(cellOf(read[r]))].push_back(r);
    std::vector<uint8_t> used(read.size(), 0);
    Matches m;
    for (const Triangle& s : source) {
        const glm::ivec3 home = cellOf(s);
        // Best candidate so far: 3 same order and UVs, 2 same order, 1 the other way round.
        int bestRank = 0;
        size_t best = 0;
        for (int dx = -1; dx <= 1 && bestRank < 3; ++dx)
            for (int dy = -1; dy <= 1 && bestRank < 3; ++dy)
                for (int dz = -1; dz <= 1 && bestRank < 3; ++dz) {
                    auto found = grid.find(key(home + glm::ivec3(dx, dy, dz)));
                    if (found == grid.end()) continue;
                    for (size_t r : found->second) {
                        if (used[r]) continue;
                        for (int first = 0; first < 3 && bestRank < 3; ++first) {
                            int rank = 0;
                            if (samePositions(s, read[r], first, 1, tolerance)) {
                                const bool uvs =
                                    !s.hasUv || !read[r].hasUv || sameUvs(s, read[r], first, uvTolerance);
                                rank = uvs ? 3 : 2;
                            } else if (samePositions(s, read[r], first, 2, tolerance)) {
                                rank = 1;
                            }
                            if (rank > bestRank) {
                                bestRank = rank;
                                best = r;
                            }
                        }
                    }
                }
        if (bestRank == 0) {
            ++m.sourceMissing;
            continue;
        }
        used[best] = 1;
        if (bestRank == 1) {
            ++m.reversed;
            continue;
        }
        ++m.matched;
        if (s.hasUv && read[best].hasUv) {
            ++m.uvCompared;
            m.uvDifferent += bestRank == 2;
        }
    }
    m.leftOver = size_t(std::count(used.begin(), used.end(), 0));
    return m;
}

// Converts `path` to `out` with the command line, in this process.
int convert(const std::string& path, const std::string& out) {
    std::vector<std::string> args = {"esview", "convert", path, out};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return runCommandLine(int(argv.size()), argv.data());
}

// Rigid scenes only: assimp's pre-transform applies node transforms and ignores skins and morph
// targets, so a skinned or morphed mesh's rest pose is not what it reads.
bool rigid(const Scene& scene) {
    if (!scene.skins.empty()) return false;
    for (const Mesh& mesh : scene.meshes)
        if (!mesh.morphTargets.empty()) return false;
    return true;
}

}  // namespace

TEST(GltfTriangles, EveryRigidSampleMatchesTriangleByTriangle) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path dir = test::outputDir() / "gltf_triangles";
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir);
    std::map<std::string, size_t> texturedByFormat, placedByFormat, nestedByFormat;
    size_t zUpCompared = 0, samples = 0;
    for (const fs::path& file : test::sharedModelFiles()) {
        LoadResult loaded = loadSceneFile(file.string());
        ASSERT_TRUE(loaded.scene) << file;
        if (!rigid(*loaded.scene)) {
            std::printf("%s: skinned or morphed, not compared\n", file.filename().string().c_str());
            continue;
        }
        const Scene& scene = *loaded.scene;
        const std::string name = file.filename().string();
        size_t placed = 0, nested = 0;
        const std::vector<Triangle> source = sourceTriangles(scene, placed, nested);
        if (source.empty()) {
            std::printf("%s: no triangles\n", name.c_str());
            continue;
        }
        const std::string out = (dir / (file.stem().string() + "_" + scene.format + ".glb")).string();
        ASSERT_EQ(convert(file.string(), out), kExitOk) << name;
        // assimp 5.2 has no KHR_mesh_quantization: it reads int16 positions as the bits of floats.
        // No shared sample is written quantised today (`convert --quantize` makes such files).
        test::Glb glb;
        ASSERT_TRUE(test::readGlb(out, glb)) << out;
        const auto required = glb.doc.value("extensionsRequired", std::vector<std::string>());
        if (std::find(required.begin(), required.end(), "KHR_mesh_quantization") != required.end()) {
            std::printf("%s: quantised output, not compared\n", name.c_str());
            continue;
        }
        std::vector<Triangle> read;
        std::string error;
        ASSERT_TRUE(assimpTriangles(out, read, error)) << name << ": " << error;
        Bounds box;
        for (const Triangle& t : source)
            for (const Corner& c : t.corners) box.add(c.position);
        const float tolerance = 1e-4f * std::max(1e-3f, glm::length(box.max - box.min));
        const Matches m = matchTriangles(source, read, tolerance, 1e-4f);
        std::printf(
            "%s: %zu source triangles, %zu read; %zu matched (%zu with UVs, %zu placed by a transform, "
            "%zu under a moved parent), "
            "%zu wound the other way, %zu with other UVs, %zu missing, %zu left over\n",
            name.c_str(), source.size(), read.size(), m.matched, m.uvCompared, placed, nested, m.reversed,
            m.uvDifferent, m.sourceMissing, m.leftOver);
        EXPECT_EQ(m.matched, source.size()) << name;
        EXPECT_EQ(m.reversed, 0u) << name << ": triangles wound the other way";
        EXPECT_EQ(m.uvDifferent, 0u) << name << ": triangles with other UVs";
        EXPECT_EQ(m.sourceMissing, 0u) << name << ": source triangles assimp does not find";
        EXPECT_EQ(m.leftOver, 0u) << name << ": triangles assimp reads that the source does not have";
        ++samples;
        if (m.uvCompared > 0) texturedByFormat[scene.format] += 1;
        if (placed > 0) placedByFormat[scene.format] += 1;
        if (nested > 0) nestedByFormat[scene.format] += 1;
        if (scene.up == UpAxis::Z) ++zUpCompared;
    }
    std::printf("%zu samples compared; %zu Z up\n", samples, zUpCompared);
    for (const char* format : {"pod", "awd", "ogex", "pof"}) {
        EXPECT_GE(texturedByFormat[format], 1u) << format << ": a sample with UVs compared";
        EXPECT_GE(placedByFormat[format], 1u) << format << ": a sample with meshes placed by transforms";
    }
    // No rigid OpenGEX sample has a mesh under a moved parent (squareys_PhysicsConstraints.ogex
    // places its eight at the root).
    for (const char* format : {"pod", "awd", "pof"})
        EXPECT_GE(nestedByFormat[format], 1u) << format << ": a sample with meshes under moved parents";
    EXPECT_GE(zUpCompared, 1u) << "a Z-up sample compared";
}

}  // namespace esv
