// POF fixtures written with the test writer (pof_writer.h) from the spec: the FreeSpace 1 field
// orders (OHDR, SOBJ; versions 1900..2014, of which no public file exists), FS2 2117 with every
// chunk, FSO 2301 (translation fields, gun angle offsets, TMAP2POLY under SORTNORM2), detail
// levels and debris, n-gons and FLATPOLY, unknown chunks, and the violations check mode reports
// (one problem each, with the chunk id and the byte offset).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loaders/byte_reader.h"
#include "loaders/load.h"
#include "loaders/textures/scene_textures.h"
#include "pof/pof_writer.h"
#include "scene/cpu_reference.h"
#include "scene/pof_extras.h"
#include "scene/sampler.h"

namespace esv {
namespace {

using poftest::Bytes;
using poftest::PofWriter;

LoadResult load(const std::vector<uint8_t>& bytes, bool check = false) {
    LoadOptions options;
    options.collectAll = check;
    return loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(bytes), "fixture.pof", options);
}

std::string problemsText(const LoadResult& r) {
    std::string s;
    for (const Problem& p : r.problems) s += p.format() + "\n";
    return s;
}

// A one-subobject square model (2 triangles) with texture "hull".
poftest::Subobject square(const PofWriter& w, int32_t number, int32_t parent, const glm::vec3& offset,
                          const std::string& name, int32_t texture = 0) {
    poftest::Subobject s;
    s.number = number;
    s.parent = parent;
    s.offset = offset;
    s.name = name;
    s.bsp = poftest::bspData(w.version(), poftest::quadPositions(), poftest::quadPolygons(texture, false));
    return s;
}

uint64_t drawnTriangles(const Scene& scene) {
    uint64_t n = 0;
    for (const Node& node : scene.nodes)
        if (node.visible && node.kind == NodeKind::Mesh) n += triangleCount(scene.meshes[node.object]);
    return n;
}

// FS1: OHDR (subobject count, radius, flags) and SOBJ (parent, offset, radius), with the header
// fields each version has: mass from 1903, muzzle lights from 2007, cross sections from 2014.
TEST(PofFixtures, FreeSpace1FieldOrders) {
    for (int32_t version : {1900, 1903, 2007, 2014}) {
        SCOPED_TRACE(version);
        PofWriter w(version);
        poftest::Header h;
        h.maxRadius = 7.5f;
        h.flags = 1;
        h.subobjects = 2;
        h.min = {-1.0f, -1.0f, -1.0f};
        h.max = {1.0f, 3.0f, 1.0f};
        h.mass = 42.0f;
        h.crossSections = {{1.0f, 2.0f}, {3.0f, 4.0f}};
        h.lights = {{glm::vec3(1.0f, 2.0f, 3.0f), 5}};
        w.chunk("OHDR", w.header(h));
        w.chunk("TXTR", PofWriter::textures({"hull"}));
        poftest::Subobject root = square(w, 0, -1, {0.0f, 0.0f, 0.0f}, "hull");
        root.radius = 3.25f;
        w.chunk("SOBJ", w.subobject(root));
        poftest::Subobject child = square(w, 1, 0, {0.0f, 2.0f, 0.5f}, "radar");
        child.radius = 1.5f;
        child.movementType = 1;
        child.movementAxis = 2;
        w.chunk("SOBJ", w.subobject(child));
        LoadResult r = load(w.finish(), true);
        ASSERT_TRUE(r.scene) << problemsText(r);
        const PofExtras& pof = *r.scene->pof;
        EXPECT_EQ(pof.version, version);
        EXPECT_EQ(pof.maxRadius, 7.5f);
        EXPECT_EQ(pof.flags, 1);
        EXPECT_EQ(pof.boundsMax, glm::vec3(1.0f, 3.0f, 1.0f));
        EXPECT_EQ(pof.mass, version >= 1903 ? 42.0f : 0.0f);
        EXPECT_EQ(pof.muzzleLights.size(), version >= 2007 ? 1u : 0u);
        EXPECT_EQ(pof.crossSections.size(), version >= 2014 ? 2u : 0u);
        ASSERT_EQ(pof.subobjects.size(), 2u);
        EXPECT_EQ(pof.subobjects[0].radius, 3.25f);
        EXPECT_EQ(pof.subobjects[1].radius, 1.5f);
        EXPECT_EQ(pof.subobjects[1].parent, 0);
        EXPECT_EQ(pof.subobjects[1].offset, glm::vec3(0.0f, 2.0f, 0.5f));
        EXPECT_EQ(pof.subobjects[1].movementType, 1);
        EXPECT_EQ(pof.subobjects[1].movementAxis, 2);
        const Scene& scene = *r.scene;
        ASSERT_EQ(scene.nodes.size(), 2u);
        EXPECT_EQ(scene.nodes[1].parent, 0);
        EXPECT_EQ(scene.nodes[1].name, "radar");
        EXPECT_EQ(scene.nodes[1].local.translation, glm::vec3(0.0f, 2.0f, -0.5f));
        // The subobject's own fields are shown in the inspector as the node's attributes.
        auto attribute = [&](const std::string& name) {
            for (const UserAttribute& at : scene.nodes[1].attributes)
                if (at.name == name) return at.value;
            return std::string("(none)");
        };
        EXPECT_EQ(attribute("radius"), "1.5");
        EXPECT_EQ(attribute("movement"), "1 axis 2");
        EXPECT_EQ(attribute("subobject"), "1");
        EXPECT_EQ(drawnTriangles(scene), 4u);
        Pose pose;
        evaluatePose(scene, -1, 0.0f, pose);
        const Bounds b = sceneBounds(scene, pose);
        EXPECT_EQ(b.min, glm::vec3(-1.0f, -1.0f, -0.5f));  // display axes: z flipped
        EXPECT_EQ(b.max, glm::vec3(1.0f, 3.0f, 0.0f));
    }
}

// With version 2014 the OHDR cross-section count -1 means none; 0 is kept as 0.
TEST(PofFixtures, CrossSectionCountMinusOne) {
    PofWriter w(2014);
    w.chunk("OHDR", w.header(poftest::Header{}));
    w.chunk("TXTR", PofWriter::textures({"hull"}));
    w.chunk("SOBJ", w.subobject(square(w, 0, -1, {}, "hull")));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.scene) << problemsText(r);
    EXPECT_EQ(r.scene->pof->crossSectionCount, -1);
}

// FS2: every chunk the spec lists, with the counts `info` reports.
TEST(PofFixtures, FreeSpace2AllChunks) {
    PofWriter w(2117);
    poftest::Header h;
    h.subobjects = 3;
    h.detailLevels = {0};
    h.debris = {2};
    w.chunk("HDR2", w.header(h));
    w.chunk("TXTR", PofWriter::textures({"hull", "glass-trans"}));
    w.chunk("PINF", Bytes().raw({'a', 'b', 0, 'c', 0}));
    w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
    w.chunk("OBJ2", w.subobject(square(w, 1, 0, {0.0f, 0.0f, 4.0f}, "turret01", 1)));
    w.chunk("OBJ2", w.subobject(square(w, 2, -1, {}, "debris01")));
    w.chunk("SPCL", PofWriter::specialPoints({"$engine01", "$sensors"}));
    w.chunk("GPNT", w.firingPoints({{{}, {}}, {{}}}));
    w.chunk("MPNT", w.firingPoints({{{}}}));
    w.chunk("TGUN", PofWriter::turrets(1, 1, {{0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 1.0f}}));
    w.chunk("TMIS", PofWriter::turrets(1, 1, {{0.0f, 1.0f, 0.0f}}));
    w.chunk("DOCK", PofWriter::docks({{{}, {}}}));
    w.chunk("FUEL", w.thrusters({{{}, {}}, {{}}}));
    w.chunk("SHLD", PofWriter::shield(poftest::quadPositions(), {{0, 1, 2}, {0, 2, 3}}));
    w.chunk("EYE ", PofWriter::eyes({0}));
    w.chunk(" EYE", PofWriter::eyes({0}));
    w.chunk("PATH", PofWriter::paths({{"$path01", 3}, {"$path02", 2}}));
    w.chunk("ACEN", Bytes().vec({1.0f, 2.0f, 3.0f}));
    Bytes glow;
    glow.i32(1).i32(0).i32(500).i32(250).i32(0).i32(0).i32(0).i32(1).str("$glow_texture=glow", true);
    glow.vec({}).vec({}).f32(0.25f);
    w.chunk("GLOW", glow);
    Bytes insignia;
    insignia.i32(1).i32(0).i32(1).i32(3).vec({}).vec({1, 0, 0}).vec({0, 1, 0}).vec({});
    for (int k = 0; k < 3; ++k) insignia.i32(k).f32(0.0f).f32(1.0f);
    w.chunk("INSG", insignia);
    Bytes tree;  // one split node over two leaves of one shield face each
    tree.u32(37 + 37 + 37).u8(0).u32(37).vec({}).vec({}).u32(37).u32(74);
    for (uint32_t face : {0u, 1u}) tree.u8(1).u32(37).vec({}).vec({}).u32(1).u32(face);
    w.chunk("SLDC", tree);
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.scene) << problemsText(r);
    const Scene& scene = *r.scene;
    const PofExtras& pof = *scene.pof;
    EXPECT_EQ(pof.info, (std::vector<std::string>{"ab", "c"}));
    EXPECT_EQ(pof.specialPoints.size(), 2u);
    EXPECT_EQ(pof.specialPoints[1].name, "$sensors");
    EXPECT_EQ(pof.gunSlots.size(), 2u);
    EXPECT_EQ(pof.gunSlots[0].size(), 2u);
    EXPECT_EQ(pof.missileSlots.size(), 1u);
    ASSERT_EQ(pof.turrets.size(), 2u);
    EXPECT_FALSE(pof.turrets[0].missile);
    EXPECT_TRUE(pof.turrets[1].missile);
    EXPECT_EQ(pof.turrets[0].points.size(), 2u);
    ASSERT_EQ(pof.docks.size(), 1u);
    EXPECT_EQ(pof.docks[0].properties, "$name=dock");
    EXPECT_EQ(pof.docks[0].points.size(), 2u);
    ASSERT_EQ(pof.thrusters.size(), 2u);
    EXPECT_EQ(pof.thrusters[0].properties, "$engine_subsystem=engine");
    EXPECT_EQ(pof.thrusters[0].glows.size(), 2u);
    EXPECT_TRUE(pof.hasShield);
    EXPECT_EQ(pof.shieldFaces.size(), 2u);
    EXPECT_EQ(pof.eyePoints.size(), 2u);  // both spellings
    ASSERT_EQ(pof.paths.size(), 2u);
    EXPECT_EQ(pof.paths[0].vertices.size(), 3u);
    EXPECT_TRUE(pof.hasAutoCenter);
    EXPECT_EQ(pof.autoCenter, glm::vec3(1.0f, 2.0f, 3.0f));
    ASSERT_EQ(pof.glowBanks.size(), 1u);
    EXPECT_EQ(pof.glowBanks[0].onTime, 500);
    EXPECT_EQ(pof.glowBanks[0].properties, "$glow_texture=glow");
    ASSERT_EQ(pof.insignia.size(), 1u);
    EXPECT_EQ(pof.insignia[0].faces.size(), 1u);
    EXPECT_EQ(pof.shieldTreeChunk, "SLDC");
    EXPECT_EQ(pof.shieldTreeNodes, 3u);
    // Materials one per TXTR name; "-trans" names blend.
    ASSERT_EQ(scene.materials.size(), 2u);
    EXPECT_EQ(scene.textures[1].path, "glass-trans");
    EXPECT_TRUE(scene.materials[1].blend.enabled);
    // Debris is not drawn.
    EXPECT_TRUE(scene.nodes[1].visible);
    EXPECT_FALSE(scene.nodes[2].visible);
    EXPECT_TRUE(pof.subobjects[2].debris);
    EXPECT_EQ(drawnTriangles(scene), 4u);
}

// FSO 2301: OBJ2 translation fields, gun points with angle offsets, TMAP2POLY under SORTNORM2.
TEST(PofFixtures, Version2301) {
    PofWriter w(2301);
    w.chunk("HDR2", w.header(poftest::Header{}));
    poftest::Subobject s = square(w, 0, -1, {1.0f, 2.0f, 3.0f}, "hull");
    s.translationType = 4;
    s.translationAxis = 1;
    w.chunk("OBJ2", w.subobject(s));
    w.chunk("TXTR", PofWriter::textures({"hull"}));  // after the subobjects, as FSO writes it
    w.chunk("GPNT", w.firingPoints({{{}, {}}}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.scene) << problemsText(r);
    const PofExtras& pof = *r.scene->pof;
    EXPECT_EQ(pof.subobjects[0].translationType, 4);
    EXPECT_EQ(pof.subobjects[0].translationAxis, 1);
    EXPECT_EQ(pof.gunSlots[0].size(), 2u);
    EXPECT_EQ(pof.subobjects[0].texturedPolygons, 2u);
    EXPECT_EQ(drawnTriangles(*r.scene), 2u);
    EXPECT_EQ(r.scene->nodes[0].materials, std::vector<int32_t>{0});
}

// LOD0 is the subobject the header names (here number 2), with its children; other LODs and
// debris are hidden. N-gons fan out; FLATPOLY is counted, not drawn.
TEST(PofFixtures, DetailLevelsDebrisAndPolygons) {
    PofWriter w(2117);
    poftest::Header h;
    h.subobjects = 4;
    h.detailLevels = {2, 0};
    h.debris = {1};
    w.chunk("HDR2", w.header(h));
    w.chunk("TXTR", PofWriter::textures({"a"}));
    w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "detail1")));
    w.chunk("OBJ2", w.subobject(square(w, 1, -1, {}, "debris")));
    poftest::Subobject lod0 = square(w, 2, -1, {0.0f, 0.0f, 10.0f}, "detail0");
    std::vector<poftest::Polygon> polygons = poftest::quadPolygons(0, true);
    polygons.push_back({0, true, {{0, 0}, {1, 1}, {2, 2}}});
    lod0.bsp = poftest::bspData(2117, poftest::quadPositions(), polygons);
    w.chunk("OBJ2", w.subobject(lod0));
    w.chunk("OBJ2", w.subobject(square(w, 3, 2, {0.0f, 5.0f, 0.0f}, "turret")));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.scene) << problemsText(r);
    const Scene& scene = *r.scene;
    const PofExtras& pof = *scene.pof;
    EXPECT_EQ(pof.lod0Node, 2);
    EXPECT_FALSE(scene.nodes[0].visible);
    EXPECT_FALSE(scene.nodes[1].visible);
    EXPECT_TRUE(scene.nodes[2].visible);
    EXPECT_TRUE(scene.nodes[3].visible);
    EXPECT_EQ(pof.subobjects[2].texturedPolygons, 1u);
    EXPECT_EQ(pof.subobjects[2].flatPolygons, 1u);
    EXPECT_EQ(pof.subobjects[0].detailLevel, 1);
    EXPECT_EQ(drawnTriangles(scene), 4u);  // the quad's 2 + the turret's 2
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    const Bounds b = sceneBounds(scene, pose);
    EXPECT_EQ(b.min, glm::vec3(-1.0f, -1.0f, -10.0f));
    EXPECT_EQ(b.max, glm::vec3(1.0f, 6.0f, -10.0f));
}

// FreeSpace loads no image for a texture whose name contains "invisible" (any case) and draws no
// polygon using it (fs2open model_load_texture): those polygons are left out of the mesh like
// FLATPOLY, still counted in the subobject, and one info line says so. A subobject with nothing
// else has no mesh; its missing texture is information, not a warning.
TEST(PofFixtures, InvisibleTexturesAreNotDrawn) {
    PofWriter w(2117);
    poftest::Header h;
    h.subobjects = 2;
    w.chunk("HDR2", w.header(h));
    w.chunk("TXTR", PofWriter::textures({"hull", "INVISIBLE", "helper-invisible-box"}));
    poftest::Subobject hull = square(w, 0, -1, {}, "hull");
    std::vector<poftest::Polygon> polygons = poftest::quadPolygons(0, false);  // drawn: 2 triangles
    for (const poftest::Polygon& p : poftest::quadPolygons(1, true)) polygons.push_back(p);
    for (const poftest::Polygon& p : poftest::quadPolygons(2, false)) polygons.push_back(p);
    hull.bsp = poftest::bspData(2117, poftest::quadPositions(), polygons);
    w.chunk("OBJ2", w.subobject(hull));
    w.chunk("OBJ2", w.subobject(square(w, 1, 0, {0.0f, 2.0f, 0.0f}, "marker", 1)));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.scene) << problemsText(r);
    Scene& scene = *r.scene;
    const PofExtras& pof = *scene.pof;
    ASSERT_EQ(scene.meshes.size(), 1u);
    EXPECT_EQ(triangleCount(scene.meshes[0]), 2u);
    ASSERT_EQ(scene.meshes[0].submeshes.size(), 1u);
    EXPECT_EQ(scene.meshes[0].submeshes[0].materialSlot, 0u);
    EXPECT_EQ(scene.nodes[1].kind, NodeKind::Empty);
    EXPECT_EQ(pof.subobjects[0].texturedPolygons, 5u);  // counted, as the file has them
    EXPECT_EQ(drawnTriangles(scene), 2u);
    EXPECT_EQ(scene.textures.size(), 3u);
    EXPECT_FALSE(scene.textures[0].notDrawn);
    EXPECT_TRUE(scene.textures[1].notDrawn);
    EXPECT_TRUE(scene.textures[2].notDrawn);
    size_t lines = 0;
    for (const ReportLine& l : scene.report)
        if (l.text.find("invisible (") != std::string::npos) {
            ++lines;
            EXPECT_EQ(l.severity, Severity::Info);
            EXPECT_EQ(l.text,
                      "textures 'INVISIBLE', 'helper-invisible-box' are invisible (the name contains "
                      "\"invisible\"; "
                      "FreeSpace draws no polygon using it): 5 polygons in 2 subobjects not drawn");
        }
    EXPECT_EQ(lines, 1u);
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    const Bounds b = sceneBounds(scene, pose);
    EXPECT_EQ(b.max.y, 1.0f) << "the marker square at y 2 is not drawn";

    // Textures (none of them on disk): the drawn one is a warning, the invisible ones information.
    EXPECT_EQ(prepareSceneTextures(scene, nullptr), 3);
    size_t warnings = 0, notDrawn = 0;
    for (const ReportLine& l : scene.report) {
        warnings += l.severity == Severity::Warning ? 1 : 0;
        notDrawn +=
            l.severity == Severity::Info && l.text.find("nothing draws it") != std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(warnings, 1u);
    EXPECT_EQ(notDrawn, 2u);
}

TEST(PofFixtures, UnknownChunksAreSkipped) {
    PofWriter w(2117);
    w.chunk("HDR2", w.header(poftest::Header{}));
    w.chunk("ZZZZ", Bytes().zeros(13));
    w.chunk("TXTR", PofWriter::textures({"hull"}));
    w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.scene) << problemsText(r);
    EXPECT_EQ(r.scene->pof->skippedChunks, std::vector<std::string>{"ZZZZ"});
    EXPECT_EQ(r.scene->nodes.size(), 1u);
}

// The caps are the other readers' (loaders/diagnostics.h): 200 problems in check mode and 200
// warnings when loading, each followed by one line.
TEST(PofFixtures, ManyViolationsStopAtTheCaps) {
    PofWriter w(2117);
    w.chunk("HDR2", w.header(poftest::Header{}));
    w.chunk("TXTR", PofWriter::textures({"hull"}));
    w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
    const uint64_t first = w.finish().size();
    const Bytes again = PofWriter::textures({"hull"});
    for (int i = 0; i < 250; ++i) w.chunk("TXTR", again);
    const uint64_t step = 8 + again.size();
    const std::vector<uint8_t> bytes = w.finish();

    LoadResult checked = load(bytes, true);
    ASSERT_EQ(checked.problems.size(), 201u) << problemsText(checked);
    EXPECT_EQ(checked.problems[199].offset, int64_t(first + 199 * step));
    EXPECT_EQ(checked.problems[199].message, "a second texture list is ignored");
    EXPECT_EQ(checked.problems[200].format(), "fixture.pof: further problems are not listed");

    LoadResult loaded = load(bytes);
    ASSERT_TRUE(loaded.scene) << problemsText(loaded);
    std::vector<std::string> warnings;
    for (const ReportLine& line : loaded.scene->report)
        if (line.severity == Severity::Warning) warnings.push_back(line.text);
    ASSERT_EQ(warnings.size(), 201u);
    EXPECT_EQ(warnings[199],
              "offset " + hexNumber(first + 199 * step) + ": chunk TXTR: a second texture list is ignored");
    EXPECT_EQ(warnings[200], "further warnings are not listed");
}

// One problem per violation, naming the chunk and the offset of the bad field.
struct Violation {
    const char* what;
    std::vector<uint8_t> bytes;
    std::string expected;  // in the one problem's text
    uint64_t offset;
    bool fatal;  // the load fails too
};

std::vector<Violation> violations() {
    std::vector<Violation> out;
    auto base = [](PofWriter& w, int32_t subobjects = 1) {
        poftest::Header h;
        h.subobjects = subobjects;
        w.chunk("HDR2", w.header(h));
        w.chunk("TXTR", PofWriter::textures({"hull"}));
    };
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        std::vector<uint8_t> b = w.finish();
        const uint64_t at = b.size();
        b.insert(b.end(), {'S', 'P', 'C', 'L', 100, 0, 0, 0, 1, 0, 0, 0});
        out.push_back({"chunk past the end", b, "chunk SPCL: length 100 runs past the end", at, true});
    }
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        const uint64_t at = w.finish().size() + 8;
        w.chunk("SPCL", Bytes().i32(1000000));
        out.push_back(
            {"special point count", w.finish(), "chunk SPCL: special point count 1000000 needs", at, false});
    }
    {
        PofWriter w(2117);
        base(w);
        poftest::Subobject s = square(w, 0, -1, {}, "hull");
        s.reserved = 7;
        const uint64_t at = w.finish().size() + 8 + 4 + 4 + 4 + 12 * 4 + 4 + 5 + 4 + 1 + 8;
        w.chunk("OBJ2", w.subobject(s));
        out.push_back(
            {"reserved field", w.finish(), "subobject 0 'hull': the reserved field is 7", at, false});
    }
    {
        PofWriter w(2117);
        poftest::Header h;
        h.detailLevels = {0, 5};
        w.chunk("HDR2", w.header(h));
        w.chunk("TXTR", PofWriter::textures({"hull"}));
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        out.push_back({"missing LOD", w.finish(), "chunk HDR2: detail level 1 names subobject 5", 8, false});
    }
    {
        PofWriter w(2117);
        base(w, 2);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        const uint64_t at = w.finish().size();
        w.chunk("OBJ2", w.subobject(square(w, 1, 9, {}, "lost")));
        out.push_back(
            {"missing parent", w.finish(), "subobject 1 'lost': parent 9 is not a subobject", at, false});
    }
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull", 3)));
        out.push_back({"texture index", w.finish(), "texture 3 is not in the texture list", 0, false});
    }
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        const uint64_t at = w.finish().size() + 8 + 12;
        w.chunk("ACEN", Bytes().vec({}).i32(0));
        out.push_back(
            {"trailing bytes", w.finish(), "chunk ACEN: 4 bytes after the chunk's fields", at, false});
    }
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        w.chunk("SHLD", PofWriter::shield(poftest::quadPositions(), {{0, 1, 9}}));
        out.push_back(
            {"shield vertex", w.finish(), "chunk SHLD: shield face 0 uses vertex 9 of 4", 0, false});
    }
    {
        PofWriter w(2117);
        base(w, 2);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        const uint64_t at = w.finish().size();
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "again")));
        out.push_back({"duplicate number", w.finish(), "subobject number 0 is used twice", at, false});
    }
    {
        PofWriter w(2117);
        poftest::Header h;
        h.subobjects = 3;
        h.detailLevels = {0};
        w.chunk("HDR2", w.header(h));
        w.chunk("TXTR", PofWriter::textures({"hull"}));
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        const uint64_t at = w.finish().size();
        w.chunk("OBJ2", w.subobject(square(w, 1, 2, {}, "a")));
        w.chunk("OBJ2", w.subobject(square(w, 2, 1, {}, "b")));
        out.push_back({"parent loop", w.finish(), "its parent chain loops", at, false});
    }
    {
        PofWriter w(2117);
        w.chunk("TXTR", PofWriter::textures({"hull"}));
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        out.push_back({"no header", w.finish(), "the file has no header chunk", 8, true});
    }
    {
        PofWriter w(2117);
        base(w);
        poftest::Subobject s = square(w, 0, -1, {}, "hull");
        s.bspSizeOverride = 100000;
        w.chunk("OBJ2", w.subobject(s));
        out.push_back({"BSP size", w.finish(), "BSP size 100000 does not fit", 0, true});
    }
    {
        PofWriter w(2117);
        w.chunk("HDR2", w.header(poftest::Header{}));
        const uint64_t at = w.finish().size() + 8;
        w.chunk("TXTR", Bytes().i32(2).str("a"));
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        out.push_back(
            {"texture list", w.finish(), "chunk TXTR: texture count 2 needs at least 8 bytes", at, true});
    }
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        const uint64_t at = w.finish().size() + 8;
        w.chunk("PATH", Bytes().i32(-3));
        out.push_back({"negative count", w.finish(), "chunk PATH: path count -3 is negative", at, false});
    }
    {
        PofWriter w(2117);
        base(w);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        w.chunk("SHLD", PofWriter::shield(poftest::quadPositions(), {{0, 1, 2}}));
        const uint64_t at = w.finish().size() + 8 + 4;
        w.chunk("SLDC", Bytes().u32(37).u8(1).u32(37).vec({}).vec({}).u32(1).u32(5));
        out.push_back(
            {"shield tree face", w.finish(), "chunk SLDC: leaf node uses shield face 5 of 1", at, false});
    }
    {
        PofWriter w(2117);
        base(w, 3);
        w.chunk("OBJ2", w.subobject(square(w, 0, -1, {}, "hull")));
        out.push_back({"subobject count", w.finish(),
                       "chunk HDR2: the header counts 3 subobjects; the file has 1", 8, false});
    }
    return out;
}

TEST(PofFixtures, ViolationsCheckReports) {
    for (const Violation& v : violations()) {
        SCOPED_TRACE(v.what);
        LoadResult checked = load(v.bytes, true);
        ASSERT_EQ(checked.problems.size(), 1u) << problemsText(checked);
        const Problem& p = checked.problems[0];
        EXPECT_NE(p.format().find(v.expected), std::string::npos) << p.format();
        if (v.offset != 0) {
            EXPECT_EQ(p.offset, int64_t(v.offset)) << p.format();
        }
        EXPECT_GE(p.offset, 0) << p.format();
        EXPECT_FALSE(checked.scene);

        // A plain load keeps going past violations (with a warning) and stops at fatal problems.
        LoadResult loaded = load(v.bytes, false);
        if (v.fatal) {
            EXPECT_FALSE(loaded.scene);
            EXPECT_EQ(loaded.problems.size(), 1u) << problemsText(loaded);
        } else {
            ASSERT_TRUE(loaded.scene) << problemsText(loaded);
            bool warned = false;
            for (const ReportLine& line : loaded.scene->report)
                warned |=
                    line.severity == Severity::Warning && line.text.find(v.expected) != std::string::npos;
            EXPECT_TRUE(warned);
        }
    }
}

}  // namespace
}  // namespace esv
