// File-level tests: every sample POF file in ../shared/models/pof loads (and passes check mode),
// and the scene holds the facts an independent decoder read from the file (pof_sample_facts.h,
// from samples_expected.py): subobjects as nodes, one mesh per subobject with textured polygons
// (corners and fan triangles), materials and textures one per TXTR name, detail levels, debris,
// the game's points, the triangles drawn by default and their box in the file's axes.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"
#include "pof/pof_sample_facts.h"
#include "scene/cpu_reference.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"

namespace esv {
namespace {

using poftest::FileFact;
using poftest::sampleFacts;

std::filesystem::path samplePath(const FileFact& f) {
    return test::modelsDir() / "pof" / f.file;
}

// Close enough for boxes: the decoder sums offsets in doubles, the scene in floats.
void expectNear(const glm::vec3& actual, const glm::vec3& expected, const std::string& what) {
    for (int k = 0; k < 3; ++k) {
        const float tolerance = 1e-5f * std::max(1.0f, std::fabs(expected[k]));
        EXPECT_NEAR(actual[k], expected[k], tolerance) << what << " component " << k;
    }
}

TEST(PofSamples, EveryFileIsInTheTable) {
    ESVIEW_REQUIRE_MODELS("pof");
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir() / "pof"))
        if (entry.path().extension() == ".pof") ++files;
    EXPECT_EQ(files, sampleFacts().size())
        << "a sample was added or removed; rerun samples_expected.py --cpp";
}

TEST(PofSamples, CountsMeshesAndDrawnSet) {
    ESVIEW_REQUIRE_MODELS("pof");
    for (const FileFact& f : sampleFacts()) {
        SCOPED_TRACE(f.file);
        const auto path = samplePath(f);
        ASSERT_EQ(std::filesystem::file_size(path), f.bytes)
            << "the sample changed; rerun samples_expected.py";
        LoadResult r = loadSceneFile(path.string());
        for (const Problem& p : r.problems) ADD_FAILURE() << p.format();
        ASSERT_TRUE(r.scene);
        const Scene& scene = *r.scene;
        ASSERT_TRUE(scene.pof);
        const PofExtras& pof = *scene.pof;
        EXPECT_EQ(scene.format, "pof");
        EXPECT_EQ(pof.version, f.version);
        EXPECT_EQ(scene.nodes.size(), f.nodes);
        EXPECT_EQ(pof.subobjects.size(), f.nodes);
        EXPECT_EQ(scene.textures.size(), f.textures);
        EXPECT_EQ(scene.materials.size(), f.textures);
        EXPECT_EQ(pof.detailLevels, f.detailLevels);
        EXPECT_EQ(pof.debris, f.debris);
        EXPECT_EQ(pof.boundsMin, f.headerMin);
        EXPECT_EQ(pof.boundsMax, f.headerMax);

        ASSERT_EQ(scene.meshes.size(), f.meshes.size());
        for (size_t m = 0; m < f.meshes.size(); ++m) {
            EXPECT_EQ(scene.meshes[m].name, f.meshes[m].name) << "mesh " << m;
            EXPECT_EQ(scene.meshes[m].vertexCount, f.meshes[m].vertices) << "mesh " << m;
            EXPECT_EQ(triangleCount(scene.meshes[m]), f.meshes[m].triangles) << "mesh " << m;
        }

        Pose pose;
        evaluatePose(scene, -1, 0.0f, pose);
        uint64_t drawn = 0;
        for (size_t i = 0; i < scene.nodes.size(); ++i) {
            const Node& n = scene.nodes[i];
            EXPECT_EQ(n.visible, pof.subobjects[i].drawn) << "node " << i;
            EXPECT_EQ(n.name, pof.subobjects[i].name);
            // Offsets are the local translations, Z flipped for display.
            EXPECT_EQ(n.local.translation, glm::vec3(pof.subobjects[i].offset.x, pof.subobjects[i].offset.y,
                                                     -pof.subobjects[i].offset.z));
            if (n.kind == NodeKind::Mesh && pose.visible[i]) drawn += triangleCount(scene.meshes[n.object]);
        }
        EXPECT_EQ(drawn, f.drawnTriangles);
        ASSERT_GE(pof.lod0Node, 0);
        EXPECT_TRUE(scene.nodes[pof.lod0Node].visible);
        EXPECT_EQ(pof.subobjects[pof.lod0Node].number, f.detailLevels.empty() ? 0 : f.detailLevels[0]);
        for (const PofExtras::Subobject& s : pof.subobjects) {
            bool isDebris = false;
            for (int32_t d : f.debris) isDebris |= d == s.number;
            EXPECT_EQ(s.debris, isDebris) << s.name;
            if (isDebris || s.detailLevel > 0) {
                EXPECT_FALSE(s.drawn) << s.name;
            }
        }

        size_t guns = 0, missiles = 0;
        for (const auto& slot : pof.gunSlots) guns += slot.size();
        for (const auto& slot : pof.missileSlots) missiles += slot.size();
        uint64_t polygons = 0, flat = 0;
        for (const PofExtras::Subobject& s : pof.subobjects)
            if (s.drawn) {
                polygons += s.texturedPolygons + s.flatPolygons;
                flat += s.flatPolygons;
            }
        EXPECT_EQ(pof.specialPoints.size(), f.pof.specialPoints);
        EXPECT_EQ(guns, f.pof.gunPoints);
        EXPECT_EQ(missiles, f.pof.missilePoints);
        EXPECT_EQ(pof.docks.size(), f.pof.docks);
        EXPECT_EQ(pof.thrusters.size(), f.pof.thrusters);
        EXPECT_EQ(pof.eyePoints.size(), f.pof.eyePoints);
        EXPECT_EQ(pof.paths.size(), f.pof.paths);
        EXPECT_EQ(pof.turrets.size(), f.pof.turrets);
        EXPECT_EQ(pof.hasShield, f.pof.shieldTriangles >= 0);
        if (pof.hasShield) {
            EXPECT_EQ(int64_t(pof.shieldFaces.size()), f.pof.shieldTriangles);
        }
        EXPECT_EQ(polygons, f.pof.lod0Polygons);
        EXPECT_EQ(flat, f.pof.lod0FlatPolygons);

        // The box of the drawn set, back in the file's axes (none when nothing is drawn: ls_dup's
        // polygons all use an invisible texture).
        Bounds b = sceneBounds(scene, pose);
        if (f.drawnTriangles == 0) {
            EXPECT_FALSE(b.valid());
            continue;
        }
        ASSERT_TRUE(b.valid());
        expectNear({b.min.x, b.min.y, -b.max.z}, f.min, "min");
        expectNear({b.max.x, b.max.y, -b.min.z}, f.max, "max");
    }
}

TEST(PofSamples, CheckModeFindsNothing) {
    ESVIEW_REQUIRE_MODELS("pof");
    for (const FileFact& f : sampleFacts()) {
        LoadOptions options;
        options.collectAll = true;
        LoadResult r = loadSceneFile(samplePath(f).string(), options);
        for (const Problem& p : r.problems) ADD_FAILURE() << p.format();
        EXPECT_TRUE(r.scene) << f.file;
    }
}

// What the header holds beyond the box: radius, mass (from 1903), cross sections and lights.
TEST(PofSamples, HeaderAndPointsOfTheFighter) {
    ESVIEW_REQUIRE_MODELS("pof");
    LoadResult r = loadSceneFile((test::modelsDir() / "pof" / "oih_Fighter2T-01-2.pof").string());
    ASSERT_TRUE(r.scene);
    const PofExtras& pof = *r.scene->pof;
    EXPECT_GT(pof.maxRadius, 0.0f);
    EXPECT_GT(pof.mass, 0.0f);
    EXPECT_FALSE(pof.paths.empty());
    for (const PofExtras::Dock& d : pof.docks) EXPECT_FALSE(d.points.empty());
    for (const PofExtras::Thruster& t : pof.thrusters) EXPECT_FALSE(t.glows.empty());
    for (const PofExtras::ShieldFace& face : pof.shieldFaces)
        for (int32_t v : face.vertices) EXPECT_LT(size_t(v), pof.shieldVertices.size());
    EXPECT_EQ(pof.shieldTreeChunk, "SLDC");
    EXPECT_GT(pof.shieldTreeBytes, 0u);
    EXPECT_EQ(pof.shieldTreeNodes, 159u);  // 79 splits over 80 leaves, one per shield face
    EXPECT_FALSE(pof.info.empty());        // PINF
}

// TXTR names carry no extension: the texture lookup finds the staged images (.dds, .png) by base
// name in any case, and reports the ones that are not there.
TEST(PofSamples, TexturesFoundByBaseName) {
    ESVIEW_REQUIRE_MODELS("pof");
    struct Case {
        const char* file;
        std::vector<std::string> found;  // file names, by texture index; "" = missing
    };
    const Case cases[] = {
        {"oih_chimera.pof", {"ChimeraUV.dds"}},
        {"air_F-14.pof", {"f14.png", "glass-trans.png"}},
        {"ls_dup.pof", {"invisiblebta.dds"}},
        {"hs_destroyer_framework01.pof", {"destroyer_framework_01.dds"}},
        {"air_flat.pof", {""}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        LoadResult r = loadSceneFile((test::modelsDir() / "pof" / c.file).string());
        ASSERT_TRUE(r.scene);
        Scene& scene = *r.scene;
        size_t missing = 0;
        for (const std::string& f : c.found) missing += f.empty() ? 1 : 0;
        EXPECT_EQ(prepareSceneTextures(scene, nullptr), int(missing));
        ASSERT_EQ(scene.textures.size(), c.found.size());
        size_t warnings = 0;
        for (const ReportLine& line : scene.report) warnings += line.severity == Severity::Warning ? 1 : 0;
        EXPECT_EQ(warnings, missing);
        for (size_t t = 0; t < c.found.size(); ++t) {
            EXPECT_EQ(scene.textures[t].placeholder, c.found[t].empty()) << t;
            if (!c.found[t].empty()) {
                EXPECT_EQ(std::filesystem::path(scene.textures[t].resolvedPath).filename().string(),
                          c.found[t])
                    << t;
            }
        }
    }
}

}  // namespace
}  // namespace esv
