// Animation sampler: interpolation values computed by hand, clamping, hierarchy composition in any
// node order, matrix channel, morph weights, camera FOV, visibility, skin palettes, and texture
// coordinate transforms (rest matrices, UvElement tracks, blending).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/sampler.h"

namespace esv {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kEps = 1e-5f;

Track scalarTrack(Interpolation interpolation, std::vector<float> times, std::vector<float> values) {
    Track t;
    t.node = 0;
    t.channel = Channel::Translation;
    t.interpolation = interpolation;
    t.components = 1;
    t.times = std::move(times);
    t.values = std::move(values);
    return t;
}

float sample1(const Track& t, float seconds) {
    float v = -999.0f;
    sampleTrack(t, seconds, &v);
    return v;
}

Track rotationTrack(const glm::quat& a, const glm::quat& b) {
    Track t;
    t.channel = Channel::Rotation;
    t.interpolation = Interpolation::Linear;
    t.components = 4;
    t.times = {0.0f, 1.0f};
    t.values = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    return t;
}

void expectQuat(const float* v, const glm::quat& q) {
    EXPECT_NEAR(v[0], q.x, kEps);
    EXPECT_NEAR(v[1], q.y, kEps);
    EXPECT_NEAR(v[2], q.z, kEps);
    EXPECT_NEAR(v[3], q.w, kEps);
}

void expectMat(const glm::mat4& a, const glm::mat4& b, float eps = kEps) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], eps) << "column " << c << " row " << r;
}

void expectVec(const glm::vec3& a, const glm::vec3& b, float eps = kEps) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
    EXPECT_NEAR(a.z, b.z, eps);
}

TEST(SampleTrack, StepHoldsTheEarlierKey) {
    const Track t = scalarTrack(Interpolation::Step, {0.0f, 1.0f, 2.0f}, {0.0f, 10.0f, 20.0f});
    EXPECT_EQ(sample1(t, 0.5f), 0.0f);
    EXPECT_EQ(sample1(t, 0.999f), 0.0f);
    EXPECT_EQ(sample1(t, 1.0f), 10.0f);
    EXPECT_EQ(sample1(t, 1.7f), 10.0f);
    EXPECT_EQ(sample1(t, 2.0f), 20.0f);
}

TEST(SampleTrack, LinearInterpolatesEachComponent) {
    Track t = scalarTrack(Interpolation::Linear, {0.0f, 2.0f, 3.0f},
                          {1.0f, 2.0f, 3.0f, 5.0f, 6.0f, 7.0f, 0.0f, 0.0f, 0.0f});
    t.components = 3;
    float v[3];
    sampleTrack(t, 0.5f, v);  // a quarter of the way from key 0 to key 1
    EXPECT_FLOAT_EQ(v[0], 2.0f);
    EXPECT_FLOAT_EQ(v[1], 3.0f);
    EXPECT_FLOAT_EQ(v[2], 4.0f);
    sampleTrack(t, 2.5f, v);
    EXPECT_FLOAT_EQ(v[0], 2.5f);
    EXPECT_FLOAT_EQ(v[1], 3.0f);
    EXPECT_FLOAT_EQ(v[2], 3.5f);
}

TEST(SampleTrack, ClampsOutsideTheKeysAndHandlesZeroAndOneKey) {
    const Track t = scalarTrack(Interpolation::Linear, {1.0f, 2.0f}, {4.0f, 8.0f});
    EXPECT_EQ(sample1(t, -3.0f), 4.0f);
    EXPECT_EQ(sample1(t, 1.0f), 4.0f);
    EXPECT_EQ(sample1(t, 2.0f), 8.0f);
    EXPECT_EQ(sample1(t, 100.0f), 8.0f);
    EXPECT_EQ(sample1(t, NAN), 4.0f);
    for (Interpolation i :
         {Interpolation::Step, Interpolation::Linear, Interpolation::Bezier, Interpolation::Tcb}) {
        const Track one = scalarTrack(i, {0.5f}, {7.0f});
        EXPECT_EQ(sample1(one, 0.0f), 7.0f);
        EXPECT_EQ(sample1(one, 3.0f), 7.0f);
        const Track none = scalarTrack(i, {}, {});
        EXPECT_EQ(sample1(none, 1.0f), 0.0f);
    }
}

TEST(SampleTrack, SlerpHalfwayBetweenZeroAndNinetyDegreesIsFortyFive) {
    const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, 2.0f, 2.0f));
    const Track t = rotationTrack(glm::quat(1, 0, 0, 0), glm::angleAxis(kPi / 2, axis));
    float v[4];
    sampleTrack(t, 0.5f, v);
    const float s = std::sin(kPi / 8), c = std::cos(kPi / 8);  // 45 degrees: half angle 22.5
    expectQuat(v, glm::quat(c, axis.x * s, axis.y * s, axis.z * s));
    sampleTrack(t, 0.25f, v);
    const float s2 = std::sin(kPi / 16), c2 = std::cos(kPi / 16);
    expectQuat(v, glm::quat(c2, axis.x * s2, axis.y * s2, axis.z * s2));
}

TEST(SampleTrack, SlerpTakesTheShortestPath) {
    // The second key stored negated (same rotation): still 45 degrees halfway, not a detour.
    const glm::quat ninety = glm::angleAxis(kPi / 2, glm::vec3(0, 0, 1));
    const Track negated = rotationTrack(glm::quat(1, 0, 0, 0), -ninety);
    float v[4];
    sampleTrack(negated, 0.5f, v);
    glm::quat q(v[3], v[0], v[1], v[2]);
    if (q.w < 0) q = -q;
    expectQuat(&glm::vec4(q.x, q.y, q.z, q.w)[0], glm::angleAxis(kPi / 4, glm::vec3(0, 0, 1)));

    // 270 degrees about +Z is -90 degrees the short way: halfway is -45 degrees.
    const Track longWay =
        rotationTrack(glm::quat(1, 0, 0, 0), glm::angleAxis(1.5f * kPi, glm::vec3(0, 0, 1)));
    sampleTrack(longWay, 0.5f, v);
    q = glm::quat(v[3], v[0], v[1], v[2]);
    if (q.w < 0) q = -q;
    const glm::quat expected = glm::angleAxis(-kPi / 4, glm::vec3(0, 0, 1));
    EXPECT_NEAR(q.z, expected.z, kEps);
    EXPECT_NEAR(q.w, expected.w, kEps);
    EXPECT_LT(q.z, 0.0f);
}

TEST(SampleTrack, BezierWithControlValues) {
    // P0 = 0, P1 = 2 (out of key 0), P2 = 2 (in of key 1), P3 = 1; without control times s = u.
    Track t = scalarTrack(Interpolation::Bezier, {0.0f, 2.0f}, {0.0f, 1.0f});
    t.outValues = {2.0f, 0.0f};
    t.inValues = {0.0f, 2.0f};
    // B(0.5) = (0 + 3*2 + 3*2 + 1) / 8 = 1.625
    EXPECT_NEAR(sample1(t, 1.0f), 1.625f, kEps);
    // B(0.25) = 3*0.5625*0.25*2 + 3*0.75*0.0625*2 + 0.015625 = 1.140625
    EXPECT_NEAR(sample1(t, 0.5f), 1.140625f, kEps);
}

TEST(SampleTrack, BezierSolvesTheTimeCurveForControlTimes) {
    Track t = scalarTrack(Interpolation::Bezier, {0.0f, 2.0f}, {0.0f, 1.0f});
    t.outValues = {2.0f, 0.0f};
    t.inValues = {0.0f, 2.0f};
    // Both control times at 0: x(s) = 2 s^3, so t = 0.25 means s = 0.5 and the value is B(0.5).
    t.outTimes = {0.0f, 2.0f};
    t.inTimes = {0.0f, 0.0f};
    EXPECT_NEAR(sample1(t, 0.25f), 1.625f, 1e-4f);
    // t = 0.054 means s = 0.3: B(0.3) = 3*0.49*0.3*2 + 3*0.7*0.09*2 + 0.027 = 0.882 + 0.378 + 0.027
    EXPECT_NEAR(sample1(t, 2.0f * 0.027f), 1.287f, 1e-4f);
    // Control times at the thirds make x(s) linear: same as no control times.
    t.outTimes = {2.0f / 3.0f, 0.0f};
    t.inTimes = {0.0f, 4.0f / 3.0f};
    EXPECT_NEAR(sample1(t, 1.0f), 1.625f, 1e-4f);
}

TEST(SampleTrack, TcbWithZeroParametersIsCatmullRom) {
    // Keys on y = t^2 at uniform spacing: Catmull-Rom reproduces the parabola between inner keys.
    Track t = scalarTrack(Interpolation::Tcb, {0.0f, 1.0f, 2.0f, 3.0f}, {0.0f, 1.0f, 4.0f, 9.0f});
    t.tension = t.continuity = t.bias = {0.0f, 0.0f, 0.0f, 0.0f};
    EXPECT_NEAR(sample1(t, 1.5f), 2.25f, kEps);
    EXPECT_NEAR(sample1(t, 1.25f), 1.5625f, kEps);
    EXPECT_NEAR(sample1(t, 2.0f), 4.0f, kEps);
    // Missing parameters mean zero parameters.
    Track bare = t;
    bare.tension.clear();
    bare.continuity.clear();
    bare.bias.clear();
    EXPECT_NEAR(sample1(bare, 1.5f), 2.25f, kEps);
    // Tension 1 flattens both tangents: h00 * 1 + h01 * 4 at u = 0.5.
    t.tension = {1.0f, 1.0f, 1.0f, 1.0f};
    EXPECT_NEAR(sample1(t, 1.5f), 2.5f, kEps);
}

TEST(SampleTrack, TcbKeepsLinearDataLinearAtUnevenKeySpacing) {
    Track t = scalarTrack(Interpolation::Tcb, {0.0f, 1.0f, 3.0f, 4.0f}, {0.0f, 2.0f, 6.0f, 8.0f});
    t.tension = t.continuity = t.bias = {0.0f, 0.0f, 0.0f, 0.0f};
    EXPECT_NEAR(sample1(t, 2.0f), 4.0f, kEps);
    EXPECT_NEAR(sample1(t, 1.5f), 3.0f, kEps);
    EXPECT_NEAR(sample1(t, 2.75f), 5.5f, kEps);
}

// A three-node scene: parent (translate (1,0,0), rotate 90 degrees about Z), child (translate
// (1,0,0)), grandchild (translate (0,2,0)), stored in the given order.
Scene chain(const int order[3]) {
    Scene scene;
    scene.nodes.resize(3);
    Node& parent = scene.nodes[order[0]];
    Node& child = scene.nodes[order[1]];
    Node& grandchild = scene.nodes[order[2]];
    parent.name = "parent";
    parent.local.translation = glm::vec3(1, 0, 0);
    parent.local.rotation = glm::angleAxis(kPi / 2, glm::vec3(0, 0, 1));
    child.name = "child";
    child.parent = order[0];
    child.local.translation = glm::vec3(1, 0, 0);
    grandchild.name = "grandchild";
    grandchild.parent = order[1];
    grandchild.local.translation = glm::vec3(0, 2, 0);
    return scene;
}

TEST(EvaluatePose, ComposesParentTranslationAndRotationInAnyNodeOrder) {
    const int orders[][3] = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};
    for (const auto& order : orders) {
        const Scene scene = chain(order);
        Pose pose;
        evaluatePose(scene, -1, 0.0f, pose);
        // Child origin: (1,0,0) + R(90 z) (1,0,0) = (1,1,0); grandchild: + R (0,2,0) = (-1,1,0).
        expectVec(glm::vec3(pose.world[order[0]][3]), glm::vec3(1, 0, 0));
        expectVec(glm::vec3(pose.world[order[1]][3]), glm::vec3(1, 1, 0));
        expectVec(glm::vec3(pose.world[order[2]][3]), glm::vec3(-1, 1, 0));
        // The grandchild's x axis is the parent's rotated x axis.
        expectVec(glm::vec3(pose.world[order[2]][0]), glm::vec3(0, 1, 0));
    }
}

TEST(EvaluatePose, ObjectTransformIsNotInherited) {
    int order[3] = {0, 1, 2};
    Scene scene = chain(order);
    scene.nodes[1].objectTransform = glm::scale(glm::mat4(1.0f), glm::vec3(3.0f));
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    expectMat(pose.objectWorld[1], pose.world[1] * scene.nodes[1].objectTransform);
    expectMat(pose.objectWorld[2], pose.world[2]);
    expectVec(glm::vec3(pose.world[2][3]), glm::vec3(-1, 1, 0));
}

TEST(EvaluatePose, ParentCyclesEndAndInvalidParentsAreRoots) {
    Scene scene;
    scene.nodes.resize(3);
    scene.nodes[0].parent = 1;
    scene.nodes[1].parent = 0;
    scene.nodes[2].parent = 57;
    for (Node& n : scene.nodes) n.local.translation = glm::vec3(1, 0, 0);
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    ASSERT_EQ(pose.world.size(), 3u);
    for (const glm::mat4& m : pose.world) EXPECT_TRUE(std::isfinite(m[3][0]));
    expectVec(glm::vec3(pose.world[2][3]), glm::vec3(1, 0, 0));
}

Scene animatedChain() {
    const int order[3] = {0, 1, 2};
    Scene scene = chain(order);
    Clip clip;
    clip.name = "move";
    clip.start = 1.0f;
    clip.end = 3.0f;
    Track move = scalarTrack(Interpolation::Linear, {0.0f, 4.0f}, {0, 0, 0, 8, 0, 0});
    move.components = 3;
    move.node = 1;
    clip.tracks.push_back(move);
    scene.animation.clips.push_back(clip);
    return scene;
}

TEST(EvaluatePose, TracksOverrideChannelsAndClipTimeIsClamped) {
    const Scene scene = animatedChain();
    Pose pose;
    evaluatePose(scene, 0, 2.0f, pose);
    // Child translation (4,0,0) replaces (1,0,0); rotation and scale keep the node's values.
    expectVec(pose.local[1].translation, glm::vec3(4, 0, 0));
    expectVec(glm::vec3(pose.world[1][3]), glm::vec3(1, 4, 0));
    evaluatePose(scene, 0, 10.0f, pose);  // clamped to the clip end, 3 s
    expectVec(pose.local[1].translation, glm::vec3(6, 0, 0));
    evaluatePose(scene, 0, -10.0f, pose);  // clamped to the clip start, 1 s
    expectVec(pose.local[1].translation, glm::vec3(2, 0, 0));
    // Rest pose: the node as written, whatever the time.
    evaluatePose(scene, -1, 2.0f, pose);
    expectVec(pose.local[1].translation, glm::vec3(1, 0, 0));
    // A clip index out of range is the rest pose too.
    evaluatePose(scene, 5, 2.0f, pose);
    expectVec(pose.local[1].translation, glm::vec3(1, 0, 0));
}

TEST(EvaluatePose, RotationAndScaleTracks) {
    Scene scene;
    scene.nodes.resize(1);
    scene.nodes[0].local.translation = glm::vec3(0, 0, 5);
    Clip clip;
    clip.end = 1.0f;
    Track rot = rotationTrack(glm::quat(1, 0, 0, 0), glm::angleAxis(kPi / 2, glm::vec3(0, 1, 0)));
    rot.node = 0;
    Track scale = scalarTrack(Interpolation::Linear, {0.0f, 1.0f}, {1, 1, 1, 3, 3, 3});
    scale.channel = Channel::Scale;
    scale.components = 3;
    clip.tracks = {rot, scale};
    scene.animation.clips.push_back(clip);
    Pose pose;
    evaluatePose(scene, 0, 1.0f, pose);
    // T * R(90 y) * S(3): local x axis -> (0,0,-3).
    expectVec(glm::vec3(pose.world[0][0]), glm::vec3(0, 0, -3));
    expectVec(glm::vec3(pose.world[0][3]), glm::vec3(0, 0, 5));
}

TEST(EvaluatePose, MatrixChannelReplacesTrs) {
    Scene scene;
    scene.nodes.resize(2);
    scene.nodes[0].local.translation = glm::vec3(9, 9, 9);
    scene.nodes[1].parent = 0;
    scene.nodes[1].local.translation = glm::vec3(1, 0, 0);
    const glm::mat4 a = glm::translate(glm::mat4(1.0f), glm::vec3(0, 2, 0));
    const glm::mat4 b =
        glm::translate(glm::mat4(1.0f), glm::vec3(0, 4, 0)) * glm::scale(glm::mat4(1.0f), glm::vec3(3.0f));
    Track t;
    t.node = 0;
    t.channel = Channel::Matrix;
    t.interpolation = Interpolation::Step;
    t.components = 16;
    t.times = {0.0f, 1.0f};
    for (const glm::mat4* m : {&a, &b})
        for (int i = 0; i < 16; ++i) t.values.push_back((&(*m)[0][0])[i]);
    Clip clip;
    clip.end = 1.0f;
    clip.tracks.push_back(t);
    scene.animation.clips.push_back(clip);
    Pose pose;
    evaluatePose(scene, 0, 0.5f, pose);
    EXPECT_TRUE(pose.local[0].useMatrix);
    expectMat(pose.world[0], a);
    expectVec(glm::vec3(pose.world[1][3]), glm::vec3(1, 2, 0));
    evaluatePose(scene, 0, 1.0f, pose);
    expectMat(pose.world[0], b);
    expectVec(glm::vec3(pose.world[1][3]), glm::vec3(3, 4, 0));
}

TEST(EvaluatePose, MorphWeightsCameraFovAndVisibility) {
    Scene scene;
    Mesh mesh;
    mesh.morphTargets.resize(2);
    mesh.defaultMorphWeights = {0.25f, 0.5f};
    scene.meshes.push_back(mesh);
    scene.meshes.push_back(Mesh{});
    Camera cam;
    cam.yfov = 0.9f;
    scene.cameras.push_back(cam);
    scene.nodes.resize(4);
    scene.nodes[0].kind = NodeKind::Mesh;
    scene.nodes[0].object = 0;
    scene.nodes[1].kind = NodeKind::Mesh;
    scene.nodes[1].object = 1;
    scene.nodes[2].kind = NodeKind::Camera;
    scene.nodes[2].object = 0;
    scene.nodes[3].visible = false;

    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    EXPECT_EQ(pose.morphWeights[0], (std::vector<float>{0.25f, 0.5f}));
    EXPECT_TRUE(pose.morphWeights[1].empty());
    EXPECT_FLOAT_EQ(pose.cameraFov[2], 0.9f);
    EXPECT_EQ(pose.cameraFov[0], 0.0f);
    EXPECT_EQ(pose.visible[0], 1);
    EXPECT_EQ(pose.visible[3], 0);

    Clip clip;
    clip.end = 1.0f;
    Track weights = scalarTrack(Interpolation::Linear, {0.0f, 1.0f}, {0.0f, 1.0f, 1.0f, 0.0f});
    weights.channel = Channel::MorphWeights;
    weights.components = 2;
    Track fov = scalarTrack(Interpolation::Linear, {0.0f, 1.0f}, {0.5f, 1.5f});
    fov.channel = Channel::CameraFov;
    fov.node = 2;
    Track show = scalarTrack(Interpolation::Step, {0.0f, 0.5f}, {0.0f, 1.0f});
    show.channel = Channel::Visibility;
    show.node = 3;
    clip.tracks = {weights, fov, show};
    scene.animation.clips.push_back(clip);
    evaluatePose(scene, 0, 0.25f, pose);
    ASSERT_EQ(pose.morphWeights[0].size(), 2u);
    EXPECT_FLOAT_EQ(pose.morphWeights[0][0], 0.25f);
    EXPECT_FLOAT_EQ(pose.morphWeights[0][1], 0.75f);
    EXPECT_FLOAT_EQ(pose.cameraFov[2], 0.75f);
    EXPECT_EQ(pose.visible[3], 0);
    evaluatePose(scene, 0, 0.75f, pose);
    EXPECT_EQ(pose.visible[3], 1);
    // Reusing the pose for the rest pose restores the defaults.
    evaluatePose(scene, -1, 0.75f, pose);
    EXPECT_EQ(pose.morphWeights[0], (std::vector<float>{0.25f, 0.5f}));
    EXPECT_FLOAT_EQ(pose.cameraFov[2], 0.9f);
    EXPECT_EQ(pose.visible[3], 0);
}

TEST(EvaluatePose, TracksWithTooFewComponentsAreIgnored) {
    Scene scene;
    scene.nodes.resize(1);
    scene.nodes[0].local.translation = glm::vec3(1, 2, 3);
    Clip clip;
    clip.end = 1.0f;
    clip.tracks.push_back(scalarTrack(Interpolation::Linear, {0.0f}, {7.0f}));  // 1 float for a translation
    scene.animation.clips.push_back(clip);
    Pose pose;
    evaluatePose(scene, 0, 0.0f, pose);
    expectVec(pose.local[0].translation, glm::vec3(1, 2, 3));
}

// ---------------------------------------------------------------------------------------------
// Texture coordinate transforms: M = T(t) * R_z(r) * S(s) applied to (u, v, 0, 1).

TransformElement uvElement(ElementKind kind, std::initializer_list<float> values, const char* name) {
    TransformElement e;
    e.kind = kind;
    e.name = name;
    std::copy(values.begin(), values.end(), e.value.begin());
    return e;
}

glm::vec2 mapUv(const glm::mat4& m, float u, float v) {
    const glm::vec4 p = m * glm::vec4(u, v, 0.0f, 1.0f);
    return glm::vec2(p.x, p.y);
}

void expectUv(const glm::vec2& a, const glm::vec2& b, float eps = 1e-5f) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
}

// Scene with one uv transform (translate (0.25, 0.5), rotate z 0, scale (1, 1)) and a clip whose
// tracks animate its elements: translation linear to (1.25, -0.5) at 2 s, rotation constant
// (0 until 1 s, then 90 degrees), scale linear to (2, 4) at 2 s. Node 0 is a plain node at (7, 0, 0).
Scene uvScene() {
    Scene scene;
    scene.nodes.resize(1);
    scene.nodes[0].local.translation = glm::vec3(7, 0, 0);
    UvTransform uv;
    uv.name = "uv";
    uv.elements = {uvElement(ElementKind::Translate, {0.25f, 0.5f, 0.0f}, "t"),
                   uvElement(ElementKind::RotateZ, {0.0f}, "r"), uvElement(ElementKind::Scale, {1, 1, 1}, "s")};
    scene.uvTransforms.push_back(uv);
    Clip clip;
    clip.end = 2.0f;
    Track t;
    t.channel = Channel::UvElement;
    t.uvTransform = 0;
    t.element = 0;
    t.components = 3;
    t.interpolation = Interpolation::Linear;
    t.times = {0.0f, 2.0f};
    t.values = {0.25f, 0.5f, 0.0f, 1.25f, -0.5f, 0.0f};
    Track r = t;
    r.element = 1;
    r.components = 1;
    r.interpolation = Interpolation::Step;
    r.times = {0.0f, 1.0f};
    r.values = {0.0f, kPi / 2};
    Track sc = t;
    sc.element = 2;
    sc.values = {1, 1, 1, 2, 4, 1};
    clip.tracks = {t, r, sc};
    scene.animation.clips.push_back(clip);
    return scene;
}

TEST(UvTransforms, RestMatrixIsTheElementsAsWritten) {
    Scene scene = uvScene();
    scene.uvTransforms[0].elements[1].value[0] = kPi / 2;  // rotate 90 degrees at rest
    scene.uvTransforms[0].elements[2].value = {2, 3, 1};
    Pose pose;
    evaluatePose(scene, -1, 1.0f, pose);
    ASSERT_EQ(pose.uvMatrices.size(), 1u);
    // (1, 0) -> scale (2, 0) -> rotate (0, 2) -> translate (0.25, 2.5); (0, 1) -> (0, 3) -> (-3, 0) -> (-2.75, 0.5).
    expectUv(mapUv(pose.uvMatrices[0], 1, 0), {0.25f, 2.5f});
    expectUv(mapUv(pose.uvMatrices[0], 0, 1), {-2.75f, 0.5f});
    expectUv(mapUv(pose.uvMatrices[0], 0, 0), {0.25f, 0.5f});
    expectMat(pose.uvMatrices[0], scene.uvTransforms[0].matrix());
}

TEST(UvTransforms, LinearAndConstantTracksAtSeveralTimes) {
    const Scene scene = uvScene();
    Pose pose;
    struct Expect {
        float time;
        glm::vec2 origin, unitU, unitV;  // images of (0,0), (1,0), (0,1)
    };
    // t(time) = (0.25 + 0.5 time, 0.5 - 0.5 time); s(time) = (1 + time / 2, 1 + 1.5 time);
    // r = 0 before 1 s, 90 degrees from 1 s (constant curve holds the earlier key).
    const Expect expects[] = {
        {0.0f, {0.25f, 0.5f}, {1.25f, 0.5f}, {0.25f, 1.5f}},
        {0.5f, {0.5f, 0.25f}, {1.75f, 0.25f}, {0.5f, 2.0f}},           // s (1.25, 1.75), no rotation
        {1.0f, {0.75f, 0.0f}, {0.75f, 1.5f}, {-1.75f, 0.0f}},          // s (1.5, 2.5), rotated 90
        {1.5f, {1.0f, -0.25f}, {1.0f, 1.5f}, {-2.25f, -0.25f}},        // s (1.75, 3.25)
        {2.0f, {1.25f, -0.5f}, {1.25f, 1.5f}, {-2.75f, -0.5f}},        // s (2, 4)
        {5.0f, {1.25f, -0.5f}, {1.25f, 1.5f}, {-2.75f, -0.5f}},        // clamped to the clip end
    };
    for (const Expect& e : expects) {
        SCOPED_TRACE(e.time);
        evaluatePose(scene, 0, e.time, pose);
        ASSERT_EQ(pose.uvMatrices.size(), 1u);
        expectUv(mapUv(pose.uvMatrices[0], 0, 0), e.origin);
        expectUv(mapUv(pose.uvMatrices[0], 1, 0), e.unitU);
        expectUv(mapUv(pose.uvMatrices[0], 0, 1), e.unitV);
        // The node is not a target of these tracks (Track::node is -1).
        expectVec(pose.local[0].translation, glm::vec3(7, 0, 0));
    }
    // The rest pose after an animated one: the elements as written again.
    evaluatePose(scene, -1, 1.5f, pose);
    expectMat(pose.uvMatrices[0], scene.uvTransforms[0].matrix());
    expectUv(mapUv(pose.uvMatrices[0], 1, 0), {1.25f, 0.5f});
}

TEST(UvTransforms, TracksWithBadTargetsAreIgnored) {
    Scene scene = uvScene();
    Clip& clip = scene.animation.clips[0];
    clip.tracks[0].uvTransform = 3;  // no such transform
    clip.tracks[1].element = 9;      // no such element
    clip.tracks[2].components = 1;   // too few floats for a scale
    Pose pose;
    evaluatePose(scene, 0, 2.0f, pose);
    expectMat(pose.uvMatrices[0], scene.uvTransforms[0].matrix());
    expectVec(pose.local[0].translation, glm::vec3(7, 0, 0));
}

TEST(UvTransforms, BlendedPosesBlendTheMatrices) {
    const Scene scene = uvScene();
    Pose a, b, out;
    evaluatePose(scene, 0, 0.0f, a);  // translate (0.25, 0.5), scale 1
    evaluatePose(scene, 0, 0.5f, b);  // translate (0.5, 0.25), scale (1.25, 1.75)
    blendPoses(scene, a, b, 0.5f, out);
    ASSERT_EQ(out.uvMatrices.size(), 1u);
    // Translation and scale lerp: (0.375, 0.375) and (1.125, 1.375).
    expectUv(mapUv(out.uvMatrices[0], 0, 0), {0.375f, 0.375f});
    expectUv(mapUv(out.uvMatrices[0], 1, 0), {1.5f, 0.375f});
    expectUv(mapUv(out.uvMatrices[0], 0, 1), {0.375f, 1.75f});
    blendPoses(scene, a, b, 1.0f, out);
    expectMat(out.uvMatrices[0], b.uvMatrices[0]);
    // A pose without uv matrices (not evaluated for this scene) blends from the rest matrices.
    Pose bare = a;
    bare.uvMatrices.clear();
    blendPoses(scene, bare, b, 0.0f, out);
    expectMat(out.uvMatrices[0], scene.uvTransforms[0].matrix());
}

TEST(SkinPalette, WorldTimesInverseBindIsIdentityAtRestAndFollowsTheBone) {
    Scene scene;
    scene.nodes.resize(3);
    scene.nodes[0].kind = NodeKind::Bone;
    scene.nodes[0].local.translation = glm::vec3(0, 1, 0);
    scene.nodes[0].local.rotation = glm::angleAxis(0.3f, glm::vec3(1, 0, 0));
    scene.nodes[1].kind = NodeKind::Bone;
    scene.nodes[1].parent = 0;
    scene.nodes[1].local.translation = glm::vec3(0, 2, 0);
    scene.nodes[2].kind = NodeKind::Mesh;
    scene.nodes[2].skin = 0;
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    Skin skin;
    skin.joints = {1, 0};
    skin.inverseBind = {glm::inverse(pose.world[1]), glm::inverse(pose.world[0])};
    scene.skins.push_back(skin);

    std::vector<glm::mat4> palette;
    skinPalette(scene, pose, 2, palette);
    ASSERT_EQ(palette.size(), 2u);
    for (const glm::mat4& m : palette) expectMat(m, glm::mat4(1.0f));

    // Move the root bone: both palette entries become that same rigid motion.
    scene.nodes[0].local.translation = glm::vec3(5, 1, 0);
    evaluatePose(scene, -1, 0.0f, pose);
    skinPalette(scene, pose, 2, palette);
    const glm::mat4 shift = glm::translate(glm::mat4(1.0f), glm::vec3(5, 0, 0));
    for (const glm::mat4& m : palette) expectMat(m, shift);

    skinPalette(scene, pose, 0, palette);  // a node without a skin
    EXPECT_TRUE(palette.empty());
    skinPalette(scene, pose, 99, palette);
    EXPECT_TRUE(palette.empty());
}

}  // namespace
}  // namespace esv
