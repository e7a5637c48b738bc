// The POF viewer's pure functions on a scene built in code: the drawn set per detail level and
// debris, spins about movement axes and turret normals, markers placed in display axes (model
// points flipped, subobject points through the subobject's world matrix), glow bank blinking and
// the shield's edges; and the `pof` script commands on that scene (state JSON included).
#include <gtest/gtest.h>

#include <memory>

#include <nlohmann/json.hpp>

#include "app/viewer/pof_view.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_script.h"

namespace {

using esv::PofExtras;
using esv::PofMarkerKind;

// Nodes: 0 hull (LOD0 root), 1 turret (child of 0, offset (10, 0, 0), turret base of bank 0),
// 2 barrel (child of 1, offset (0, 0, 5), movement rotate about X), 3 hull LOD1 root, 4 debris.
std::unique_ptr<esv::Scene> fixture() {
    auto scene = std::make_unique<esv::Scene>();
    scene->format = "pof";
    auto pof = std::make_shared<PofExtras>();
    const char* names[] = {"hull", "turret", "barrel", "hull-lod1", "debris-a"};
    const int parents[] = {-1, 0, 1, -1, -1};
    const glm::vec3 offsets[] = {glm::vec3(0, 0, 0), glm::vec3(10, 0, 0), glm::vec3(0, 0, 5),
                                 glm::vec3(0, 0, 0), glm::vec3(0, 3, 0)};
    for (int i = 0; i < 5; ++i) {
        esv::Node node;
        node.name = names[i];
        node.parent = parents[i];
        node.local.translation = esv::pofToDisplay(offsets[i]);
        node.visible = i < 3;
        scene->nodes.push_back(node);
        PofExtras::Subobject o;
        o.number = i;
        o.parent = parents[i];
        o.name = names[i];
        o.offset = offsets[i];
        pof->subobjects.push_back(o);
    }
    pof->subobjects[2].movementType = 1;
    pof->subobjects[2].movementAxis = 0;
    pof->subobjects[4].debris = true;
    pof->detailLevels = {0, 3};
    pof->debris = {4};
    pof->lod0Node = 0;
    auto firingPoint = [](const glm::vec3& position, const glm::vec3& normal) {
        PofExtras::FiringPoint f;
        f.position = position;
        f.normal = normal;
        return f;
    };
    pof->gunSlots.resize(1);
    pof->gunSlots[0].push_back(firingPoint(glm::vec3(1, 2, 3), glm::vec3(0, 0, 1)));
    PofExtras::TurretBank bank;
    bank.subobject = 1;
    bank.physicalParent = 1;
    bank.normal = glm::vec3(0, 1, 0);
    bank.points = {glm::vec3(0, 0, 1)};
    pof->turrets.push_back(bank);
    PofExtras::EyePoint eye;
    eye.subobject = 2;
    eye.offset = glm::vec3(0, 1, 0);
    eye.normal = glm::vec3(0, 0, 1);
    pof->eyePoints.push_back(eye);
    PofExtras::Path path;
    path.name = "$dock01";
    path.vertices.resize(2);
    path.vertices[0].position = glm::vec3(0, 0, 10);
    path.vertices[1].position = glm::vec3(0, 0, 20);
    pof->paths.push_back(path);
    PofExtras::Dock dock;
    dock.properties = "$name=front";
    dock.paths = {0, 7};  // 7: no such path, skipped
    dock.points.push_back(firingPoint(glm::vec3(0, 0, 8), glm::vec3(0, 0, 1)));
    pof->docks.push_back(dock);
    PofExtras::GlowBank glow;
    glow.dispTime = 50;
    glow.onTime = 100;
    glow.offTime = 300;
    glow.parent = 4;  // on the debris: shown only with debris
    glow.points.resize(1);
    glow.points[0].position = glm::vec3(1, 0, 0);
    glow.points[0].radius = 0.5f;
    pof->glowBanks.push_back(glow);
    pof->hasShield = true;
    pof->shieldVertices = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)};
    pof->shieldFaces.resize(2);
    pof->shieldFaces[0].vertices = {0, 1, 3};
    pof->shieldFaces[1].vertices = {0, 1, 9};  // a missing vertex: skipped
    scene->pof = pof;
    return scene;
}

esv::Pose pose(const esv::Scene& scene, const esv::PofViewState& view) {
    esv::Pose p;
    esv::evaluatePose(scene, -1, 0.0f, p);
    esv::applyPofView(scene, view, p);
    return p;
}

void expectNear(const glm::vec3& actual, const glm::vec3& expected) {
    EXPECT_NEAR(actual.x, expected.x, 1e-4f);
    EXPECT_NEAR(actual.y, expected.y, 1e-4f);
    EXPECT_NEAR(actual.z, expected.z, 1e-4f);
}

const esv::PofMarker* find(const std::vector<esv::PofMarker>& markers, PofMarkerKind kind) {
    for (const esv::PofMarker& m : markers)
        if (m.kind == kind) return &m;
    return nullptr;
}

TEST(PofView, DetailLevelAndDebrisChooseTheDrawnNodes) {
    const auto scene = fixture();
    std::vector<uint8_t> drawn;
    esv::pofDrawnNodes(*scene, 0, false, drawn);
    EXPECT_EQ(drawn, (std::vector<uint8_t>{1, 1, 1, 0, 0}));
    esv::pofDrawnNodes(*scene, 1, false, drawn);
    EXPECT_EQ(drawn, (std::vector<uint8_t>{0, 0, 0, 1, 0}));
    esv::pofDrawnNodes(*scene, 1, true, drawn);
    EXPECT_EQ(drawn, (std::vector<uint8_t>{0, 0, 0, 1, 1}));
    esv::pofDrawnNodes(*scene, 5, false, drawn);
    EXPECT_EQ(drawn, (std::vector<uint8_t>{0, 0, 0, 0, 0}));
    esv::PofViewState view;
    view.lod = 1;
    EXPECT_EQ(pose(*scene, view).visible, (std::vector<uint8_t>{0, 0, 0, 1, 0}));
}

TEST(PofView, SpinTurnsAboutTheMovementAxisOrTheTurretNormalInDisplayAxes) {
    const auto scene = fixture();
    glm::vec3 axis;
    ASSERT_TRUE(esv::pofSpinAxis(*scene->pof, 2, axis));  // movement axis 0 = X
    expectNear(axis, {1, 0, 0});
    ASSERT_TRUE(esv::pofSpinAxis(*scene->pof, 1, axis));  // turret base: its normal (file +Y)
    expectNear(axis, {0, 1, 0});
    EXPECT_FALSE(esv::pofSpinAxis(*scene->pof, 0, axis));
    EXPECT_FALSE(esv::pofSpinAxis(*scene->pof, 9, axis));

    esv::PofViewState view;
    view.spinDegrees.assign(5, 0.0f);
    // Unspun: the barrel sits at file (10, 0, 5), display (10, 0, -5).
    expectNear(glm::vec3(pose(*scene, view).world[2][3]), {10, 0, -5});
    // The turret turned 90 degrees about Y carries the barrel from file +Z to file +X of the turret.
    view.spinDegrees[1] = 90.0f;
    const esv::Pose turned = pose(*scene, view);
    expectNear(glm::vec3(turned.world[2][3]), {15, 0, 0});
    expectNear(glm::vec3(turned.world[1][3]), {10, 0, 0});
    // The same turn seen in file axes: the Z flip of a file rotation by the same angle.
    const glm::vec3 fileTurned =
        glm::vec3(esv::pofSpinMatrix(glm::vec3(0, 1, 0), 90.0f) * glm::vec4(0, 0, -5, 1));
    expectNear(esv::pofToDisplay(fileTurned), {5, 0, 0});
}

TEST(PofView, MarkersArePlacedInDisplayAxesThroughTheirSubobjects) {
    const auto scene = fixture();
    esv::PofViewState view;
    view.spinDegrees.assign(5, 0.0f);
    std::vector<esv::PofMarker> markers;
    std::vector<esv::PofPolyline> lines;
    esv::pofMarkers(*scene, pose(*scene, view), view, false, markers, lines);
    EXPECT_TRUE(markers.empty()) << "every kind is off by default";

    esv::pofMarkers(*scene, pose(*scene, view), view, true, markers, lines);
    const esv::PofMarker* gun = find(markers, PofMarkerKind::Guns);
    ASSERT_NE(gun, nullptr);
    expectNear(gun->position, {1, 2, -3});  // model coordinates, Z flipped
    expectNear(gun->normal, {0, 0, -1});
    EXPECT_EQ(gun->label, "gun slot 0 point 0");
    const esv::PofMarker* turret = find(markers, PofMarkerKind::Turrets);
    ASSERT_NE(turret, nullptr);
    expectNear(turret->position, {10, 0, -1});  // the turret's (10, 0, 0) plus its point (0, 0, 1)
    expectNear(turret->normal, {0, 1, 0});
    EXPECT_EQ(turret->label, "gun turret 0 point 0 on 'turret'");
    const esv::PofMarker* eye = find(markers, PofMarkerKind::Eyes);
    ASSERT_NE(eye, nullptr);
    expectNear(eye->position, {10, 1, -5});  // on the barrel at (10, 0, 5)
    const esv::PofMarker* dock = find(markers, PofMarkerKind::Docks);
    ASSERT_NE(dock, nullptr);
    expectNear(dock->position, {0, 0, -8});
    ASSERT_EQ(lines.size(), 1u) << "the dock's missing path is skipped";
    ASSERT_EQ(lines[0].points.size(), 2u);
    expectNear(lines[0].points[1], {0, 0, -20});
    EXPECT_EQ(find(markers, PofMarkerKind::Glows), nullptr) << "the glow bank's parent (debris) is not drawn";

    // Spinning the turret moves its points and the eye on its barrel with it.
    view.spinDegrees[1] = 90.0f;
    view.debris = true;
    esv::pofMarkers(*scene, pose(*scene, view), view, true, markers, lines);
    expectNear(find(markers, PofMarkerKind::Turrets)->position, {11, 0, 0});
    expectNear(find(markers, PofMarkerKind::Eyes)->position, {15, 1, 0});
    expectNear(find(markers, PofMarkerKind::Guns)->position, {1, 2, -3});
    const esv::PofMarker* glow = find(markers, PofMarkerKind::Glows);
    ASSERT_NE(glow, nullptr);
    expectNear(glow->position, {1, 3, 0});  // the debris at (0, 3, 0) plus (1, 0, 0)
    EXPECT_FLOAT_EQ(glow->radius, 0.5f);

    // Only the enabled kinds.
    view.marker(PofMarkerKind::Docks) = true;
    esv::pofMarkers(*scene, pose(*scene, view), view, false, markers, lines);
    ASSERT_EQ(markers.size(), 1u);
    EXPECT_EQ(markers[0].kind, PofMarkerKind::Docks);
    EXPECT_EQ(markers[0].label, "dock 0 $name=front point 0");
}

TEST(PofView, GlowBanksBlinkWithTheirOnAndOffTimes) {
    PofExtras::GlowBank bank;
    bank.dispTime = 50;
    bank.onTime = 100;
    bank.offTime = 300;
    EXPECT_FALSE(esv::pofGlowBankLit(bank, 0.0));    // 350 ms into the period
    EXPECT_TRUE(esv::pofGlowBankLit(bank, 0.06));    // 10 ms
    EXPECT_FALSE(esv::pofGlowBankLit(bank, 0.2));    // 150 ms
    EXPECT_TRUE(esv::pofGlowBankLit(bank, 0.4501));  // the next period
    bank.offTime = 0;
    EXPECT_TRUE(esv::pofGlowBankLit(bank, 0.2)) << "no off time: always on";
}

TEST(PofView, ShieldEdgesAreTheFacesSidesFlipped) {
    const auto scene = fixture();
    std::vector<glm::vec3> segments;
    esv::pofShieldEdges(*scene->pof, segments);
    ASSERT_EQ(segments.size(), 6u) << "one valid face, three edges";
    expectNear(segments[2], {1, 0, 0});
    expectNear(segments[3], {0, 0, -1});
}

// What the renderer gets each frame: nothing with every kind and the shield off; the shield's edges
// in its colour; the guns' point and normal line; x-ray carried over.
TEST(PofView, FrameAnnotationsHoldTheEnabledMarkersAndTheShield) {
    const auto scene = fixture();
    esv::PofViewState view;
    view.spinDegrees.assign(5, 0.0f);
    const esv::Pose p = pose(*scene, view);
    const glm::mat4 camera(1.0f);
    esv::Annotations out;
    out.points.push_back({});  // replaced, not added to
    esv::pofFrameAnnotations(*scene, p, view, camera, 1.0f, out);
    EXPECT_TRUE(out.empty());

    view.shield = true;
    view.xray = true;
    esv::pofFrameAnnotations(*scene, p, view, camera, 1.0f, out);
    ASSERT_EQ(out.lines.size(), 6u) << "one valid face, three edges";
    EXPECT_TRUE(out.points.empty());
    EXPECT_TRUE(out.throughSurfaces);
    for (const esv::OverlayVertex& v : out.lines) EXPECT_EQ(v.color, esv::kPofShieldColor);
    expectNear(out.lines[2].position, {1, 0, 0});

    view.shield = false;
    view.xray = false;
    view.marker(PofMarkerKind::Guns) = true;
    esv::pofFrameAnnotations(*scene, p, view, camera, 2.0f, out);
    ASSERT_EQ(out.points.size(), 1u);
    expectNear(out.points[0].position, {1, 2, -3});
    ASSERT_EQ(out.lines.size(), 2u) << "the gun's normal";
    expectNear(out.lines[1].position, {1, 2, -5});  // 2 units along (0, 0, -1)
    EXPECT_FALSE(out.throughSurfaces);

    esv::Scene plain = *scene;
    plain.pof.reset();
    esv::pofFrameAnnotations(plain, p, view, camera, 1.0f, out);
    EXPECT_TRUE(out.empty()) << "not a POF scene";
}

TEST(PofView, ScriptCommandsSetLodDebrisMarkersShieldAndSpins) {
    esv::ViewerState s;
    s.scene = fixture();
    s.path = "fixture.pof";
    s.pof.spinDegrees.assign(s.scene->nodes.size(), 0.0f);
    esv::updatePose(s);
    esv::Script script;
    std::vector<std::string> errors;
    ASSERT_TRUE(esv::parseScript(
        "pof lod 1\npof debris on\npof markers guns on\npof markers all off\n"
        "pof markers turrets on\npof shield on\npof xray on\npof spin barrel 30\npof spin 1 -45\n",
        "p.txt", script, errors))
        << errors[0];
    esv::ScriptRunner runner(std::move(script));
    esv::ScriptHost host;
    runner.runFrame(s, host);
    ASSERT_FALSE(runner.failed()) << runner.error();
    EXPECT_EQ(s.pof.lod, 1);
    EXPECT_TRUE(s.pof.debris);
    EXPECT_TRUE(s.pof.shield);
    EXPECT_TRUE(s.pof.xray);
    EXPECT_FALSE(s.pof.marker(PofMarkerKind::Guns));
    EXPECT_TRUE(s.pof.marker(PofMarkerKind::Turrets));
    EXPECT_EQ(s.pof.spinDegrees[2], 30.0f);
    EXPECT_EQ(s.pof.spinDegrees[1], -45.0f);
    EXPECT_EQ(s.pose.visible, (std::vector<uint8_t>{0, 0, 0, 1, 1}));
    const nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
    EXPECT_EQ(j["pof"]["lod"], 1);
    EXPECT_EQ(j["pof"]["xray"], true);
    EXPECT_TRUE(j["pof"]["selected_marker"].is_null());
    EXPECT_EQ(j["pof"]["visible_nodes"], (nlohmann::json{"hull-lod1", "debris-a"}));
    EXPECT_EQ(j["pof"]["spin"]["barrel"], 30.0);
    EXPECT_TRUE(j["pof"]["markers"]["turrets"]["on"].get<bool>());
    EXPECT_EQ(j["pof"]["markers"]["turrets"]["shown"], 0) << "the turret is on LOD0, not drawn";

    const std::string help = esv::scriptCommandHelp();
    for (const char* usage :
         {"pof lod N", "pof debris on|off", "pof shield on|off", "pof xray on|off",
          "pof markers KIND|all on|off", "pof spin SUBOBJECT DEGREES", "panel NAME on|off"})
        EXPECT_NE(help.find(usage), std::string::npos) << usage;
    EXPECT_NE(help.find("skinning|pof"), std::string::npos) << "the pof panel is listed";

    // Bad lines are caught when the script is read; bad values when they run.
    esv::Script bad;
    errors.clear();
    EXPECT_FALSE(esv::parseScript("pof lod x\npof markers lasers on\npof fly\npof spin barrel\n", "b.txt",
                                  bad, errors));
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(errors[0], "b.txt:1: pof: expected: pof lod N (0 or more)");
    EXPECT_EQ(errors[2],
              "b.txt:3: pof: unknown pof command 'fly' (lod, debris, shield, xray, markers, spin)");
    ASSERT_TRUE(esv::parseScript("pof lod 2\n", "c.txt", bad, errors));
    esv::ScriptRunner failing(std::move(bad));
    failing.runFrame(s, host);
    EXPECT_EQ(failing.error(), "c.txt:1: pof: no detail level 2 (2 detail levels)");
    std::string error;
    EXPECT_FALSE(esv::setPofSpin(s, 0, 10.0f, error));
    EXPECT_EQ(error, "subobject 'hull' neither rotates nor is a turret (movement type -1, axis -1)");
}

TEST(PofView, HoverFindsTheMarkerUnderThePointer) {
    esv::ViewerState s;
    s.scene = fixture();
    s.pof.spinDegrees.assign(s.scene->nodes.size(), 0.0f);
    s.framebufferWidth = 640;
    s.framebufferHeight = 480;
    esv::updatePose(s);
    s.bounds.add(glm::vec3(-20.0f));
    s.bounds.add(glm::vec3(20.0f));
    esv::frameScene(s);
    std::vector<esv::PofMarker> markers;
    std::vector<esv::PofPolyline> lines;
    esv::pofMarkers(*s.scene, s.pose, s.pof, true, markers, lines);
    ASSERT_GE(markers.size(), 3u);
    int gun = -1, turret = -1;
    for (size_t i = 0; i < markers.size(); ++i) {
        if (markers[i].kind == PofMarkerKind::Guns) gun = int(i);
        if (markers[i].kind == PofMarkerKind::Turrets) turret = int(i);
    }
    glm::vec2 at, other;
    ASSERT_TRUE(esv::projectToScreen(s, markers[gun].position, at));
    ASSERT_TRUE(esv::projectToScreen(s, markers[turret].position, other));
    ASSERT_GT(glm::length(at - other), 12.0f) << "the fixture's gun and turret points are apart on screen";
    EXPECT_EQ(esv::pofMarkerAt(s, markers, at.x + 2.0f, at.y - 2.0f), gun);
    EXPECT_EQ(markers[esv::pofMarkerAt(s, markers, other.x, other.y)].label,
              "gun turret 0 point 0 on 'turret'");
    EXPECT_EQ(esv::pofMarkerAt(s, markers, 2.0f, 2.0f), -1);
}

}  // namespace
