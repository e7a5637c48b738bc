// Hand-written OpenGEX fixtures (tests/opengex/fixtures) checked against the OpenGEX 3.0
// specification, for what the public sample files lack: morph targets, TCB/Bezier/constant curves,
// several clips with time and angle metrics, every primitive kind, every OpenDDL literal form,
// transform kinds and object transforms, skinning with more than four bones, LODs, lights, cameras,
// materials, and check-mode problems with their line numbers.
//
// Every expected number comes from the specification's formulas; fixtures/expected.py computes
// them and each fixture's header comment lists them. Only observable facts are asserted (counts,
// names, triangles, clip durations, world-space boxes of what is drawn at given times, light types,
// problem lines), not how the reader lays out streams or morph targets.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/formats.h"
#include "loaders/load.h"
#include "loaders/opengex/openddl/openddl.h"
#include "loaders/textures/scene_textures.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {
namespace {

constexpr float kTol = 1e-4f;

std::string fixturePath(const std::string& name) { return std::string(ESVIEW_OGEX_FIXTURES) + "/" + name; }

std::string allProblems(const LoadResult& r) {
    std::string s;
    for (const Problem& p : r.problems) s += p.format() + "\n";
    return s;
}

// Loads a fixture the ordinary way (not check mode). Null, with the problems printed, on failure.
std::unique_ptr<Scene> load(const std::string& name) {
    LoadResult r = loadSceneFile(fixturePath(name));
    EXPECT_TRUE(r.scene) << name << ":\n" << allProblems(r);
    return std::move(r.scene);
}

int nodeIndex(const Scene& s, const std::string& name) {
    for (size_t i = 0; i < s.nodes.size(); ++i)
        if (s.nodes[i].name == name) return static_cast<int>(i);
    ADD_FAILURE() << "no node named \"" << name << "\"";
    return -1;
}

const Mesh* nodeMesh(const Scene& s, const std::string& name) {
    const int n = nodeIndex(s, name);
    if (n < 0) return nullptr;
    const Node& node = s.nodes[n];
    if (node.kind != NodeKind::Mesh || node.object < 0 || static_cast<size_t>(node.object) >= s.meshes.size()) {
        ADD_FAILURE() << "node \"" << name << "\" has no mesh";
        return nullptr;
    }
    return &s.meshes[node.object];
}

int clipIndex(const Scene& s, const std::string& name) {
    for (size_t i = 0; i < s.animation.clips.size(); ++i)
        if (s.animation.clips[i].name == name) return static_cast<int>(i);
    ADD_FAILURE() << "no clip named \"" << name << "\"";
    return -1;
}

Pose restPose(const Scene& s) {
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    return pose;
}

// The pose `seconds` after the beginning of clip `clip`.
Pose clipPose(const Scene& s, int clip, float seconds) {
    Pose pose;
    if (clip < 0 || static_cast<size_t>(clip) >= s.animation.clips.size()) {
        ADD_FAILURE() << "no clip " << clip;
        evaluatePose(s, -1, 0.0f, pose);
        return pose;
    }
    evaluatePose(s, clip, s.animation.clips[clip].start + seconds, pose);
    return pose;
}

// World-space box of what node `name` draws at `pose`: the vertices its triangles use, after
// morphing and skinning (the same rule as sceneBounds, for one node).
Bounds nodeBox(const Scene& s, const Pose& pose, const std::string& name) {
    Bounds b;
    const int n = nodeIndex(s, name);
    const Mesh* mesh = nodeMesh(s, name);
    if (!mesh) return b;
    std::vector<uint32_t> triangles;
    expandTriangles(*mesh, triangles);
    std::vector<glm::vec3> positions;
    worldVertices(s, pose, n, positions);
    for (uint32_t v : triangles)
        if (v < positions.size()) b.add(positions[v]);
    return b;
}

// World-space box of the vertices node `name`'s line and point submeshes draw at `pose`.
Bounds primitiveBox(const Scene& s, const Pose& pose, const std::string& name) {
    Bounds b;
    const int n = nodeIndex(s, name);
    const Mesh* mesh = nodeMesh(s, name);
    if (!mesh) return b;
    std::vector<uint32_t> lines, points;
    expandLines(*mesh, lines);
    expandPoints(*mesh, points);
    std::vector<glm::vec3> positions;
    worldVertices(s, pose, n, positions);
    for (const std::vector<uint32_t>* list : {&lines, &points})
        for (uint32_t v : *list)
            if (v < positions.size()) b.add(positions[v]);
    return b;
}

std::string str(const glm::vec3& v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

::testing::AssertionResult boxIs(const Bounds& b, const glm::vec3& lo, const glm::vec3& hi, float tol = kTol) {
    if (!b.valid()) return ::testing::AssertionFailure() << "empty box, expected " << str(lo) << "-" << str(hi);
    for (int i = 0; i < 3; ++i) {
        if (!(std::fabs(b.min[i] - lo[i]) <= tol) || !(std::fabs(b.max[i] - hi[i]) <= tol))
            return ::testing::AssertionFailure()
                   << "box " << str(b.min) << "-" << str(b.max) << ", expected " << str(lo) << "-" << str(hi);
    }
    return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// Every valid fixture passes check mode with no problem at all; every invalid one gives a problem
// on the right line. A fixture in neither list fails FixtureLists.EveryFileIsListed.

const std::vector<std::string> kValidFixtures = {
    "morph.ogex",         "curves.ogex",         "clips.ogex",      "primitives.ogex",
    "restart_value.ogex", "literals.ogex",       "transforms.ogex", "skin.ogex",
    "up_y.ogex",          "up_z.ogex",           "lods.ogex",       "lights_materials.ogex",
    "visibility.ogex",    "two_component.ogex",  "nonindexed.ogex", "texture_transforms.ogex",
    "points_lines.ogex",  "projected_spot.ogex",
};

// Each fixture holds `lines.size()` independent violations: check mode reports one problem for
// each, on its line, and no follow-on problem about structures that are themselves valid.
struct InvalidCase {
    const char* file;
    std::vector<int> lines;  // each must carry a problem
    bool syntax;             // an OpenDDL error: loading fails in ordinary mode too
};

const std::vector<InvalidCase> kInvalidFixtures = {
    {"invalid_missing_objectref.ogex", {9}, false},
    {"invalid_unresolved_ref.ogex", {10}, false},
    {"invalid_vertex_count.ogex", {17}, false},
    {"invalid_bone_count.ogex", {23}, false},
    {"invalid_bone_index.ogex", {24}, false},
    {"invalid_index_range.ogex", {15}, false},
    {"invalid_transform_size.ogex", {11}, false},
    {"invalid_syntax.ogex", {18}, true},
    {"invalid_syntax_crlf.ogex", {8}, true},
    {"invalid_metric_order.ogex", {9}, false},
    {"invalid_track_target.ogex", {15}, false},
    {"invalid_material_ref.ogex", {10}, false},
    {"invalid_key_count.ogex", {15}, false},
    {"invalid_time_order.ogex", {15}, false},
    {"invalid_track_other_node.ogex", {21}, false},
    {"invalid_morph_base.ogex", {19}, false},
    {"invalid_duplicate_lod.ogex", {16}, false},
    {"invalid_index_subarray.ogex", {14}, false},
    {"invalid_duplicate_materialref.ogex", {11}, false},
    {"invalid_bezier_controls.ogex", {16}, false},
    {"invalid_tcb_keys.ogex", {15}, false},
    {"invalid_integer_overflow.ogex", {14}, true},
    {"invalid_duplicate_global_name.ogex", {14}, true},
    {"invalid_duplicate_local_name.ogex", {12}, true},
    {"invalid_property_type.ogex", {14}, false},
    {"invalid_two_problems.ogex", {9, 16}, false},
    {"invalid_texture_properties.ogex", {16, 17, 18, 24}, false},
};

// Test names from file names: "invalid_syntax.ogex" -> "invalid_syntax" -> "invalidSyntax".
std::string testName(const std::string& file) {
    std::string name;
    bool upper = false;
    for (char c : file.substr(0, file.find('.'))) {
        if (c == '_') {
            upper = true;
            continue;
        }
        name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return name;
}
std::string validName(const ::testing::TestParamInfo<std::string>& param) { return testName(param.param); }
std::string invalidName(const ::testing::TestParamInfo<InvalidCase>& param) { return testName(param.param.file); }

TEST(OpenGexFixtureLists, EveryFileIsListed) {
    std::set<std::string> listed(kValidFixtures.begin(), kValidFixtures.end());
    for (const InvalidCase& c : kInvalidFixtures) listed.insert(c.file);
    size_t found = 0;
    for (const auto& entry : std::filesystem::directory_iterator(ESVIEW_OGEX_FIXTURES)) {
        if (entry.path().extension() != ".ogex") continue;
        ++found;
        EXPECT_TRUE(listed.count(entry.path().filename().string())) << entry.path() << " is in no list";
    }
    EXPECT_EQ(found, listed.size());
}

class OpenGexValidFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(OpenGexValidFixture, ChecksWithoutProblems) {
    LoadOptions check;
    check.collectAll = true;
    LoadResult r = loadSceneFile(fixturePath(GetParam()), check);
    EXPECT_TRUE(r.scene) << allProblems(r);
    EXPECT_TRUE(r.problems.empty()) << allProblems(r);
    LoadResult plain = loadSceneFile(fixturePath(GetParam()));
    EXPECT_TRUE(plain.ok()) << allProblems(plain);
    if (plain.scene) {
        EXPECT_EQ(plain.scene->format, "ogex");
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, OpenGexValidFixture, ::testing::ValuesIn(kValidFixtures), validName);

void PrintTo(const InvalidCase& c, std::ostream* os) { *os << c.file; }

class OpenGexInvalidFixture : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(OpenGexInvalidFixture, ProblemOnTheRightLine) {
    const InvalidCase& c = GetParam();
    LoadOptions check;
    check.collectAll = true;
    LoadResult r = loadSceneFile(fixturePath(c.file), check);
    EXPECT_FALSE(r.ok());
    ASSERT_FALSE(r.problems.empty()) << c.file << " loaded in check mode without a problem";
    for (int line : c.lines) {
        bool found = false;
        for (const Problem& p : r.problems) {
            if (p.line != line) continue;
            found = true;
            EXPECT_NE(p.format().find("line " + std::to_string(line)), std::string::npos) << p.format();
            EXPECT_NE(p.format().find(c.file), std::string::npos) << p.format();
        }
        EXPECT_TRUE(found) << "no problem on line " << line << "; got:\n" << allProblems(r);
    }
    EXPECT_EQ(r.problems.size(), c.lines.size()) << "one problem per violation; got:\n" << allProblems(r);
    if (c.syntax) {
        LoadResult plain = loadSceneFile(fixturePath(c.file));
        EXPECT_FALSE(plain.scene) << "an OpenDDL error must fail the load";
        ASSERT_FALSE(plain.problems.empty());
        EXPECT_EQ(plain.problems.front().line, c.lines.front()) << allProblems(plain);
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, OpenGexInvalidFixture, ::testing::ValuesIn(kInvalidFixtures), invalidName);

// ---------------------------------------------------------------------------------------------
// morph.ogex: A = sum_i w_i M_i (MorphWeight, Morphing)

TEST(OpenGexMorph, Counts) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->nodes.size(), 8u);
    for (const Node& n : s->nodes) EXPECT_EQ(n.kind, NodeKind::Mesh) << n.name;
    ASSERT_EQ(s->meshes.size(), 1u);
    EXPECT_EQ(s->meshes[0].vertexCount, 4u);
    EXPECT_EQ(triangleCount(s->meshes[0]), 2u);
    ASSERT_EQ(s->animation.clips.size(), 1u);
    EXPECT_NEAR(s->animation.clips[0].duration(), 1.0f, kTol);
}

TEST(OpenGexMorph, TargetNamesFromMorphStructures) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->meshes.size(), 1u);
    std::set<std::string> names;
    for (const MorphTarget& t : s->meshes[0].morphTargets) names.insert(t.name);
    EXPECT_TRUE(names.count("Stretch")) << "Morph (index = 1) is named \"Stretch\"";
    EXPECT_TRUE(names.count("Lift")) << "Morph (index = 2, base = 0) is named \"Lift\"";
    EXPECT_TRUE(names.count("Bend")) << "Morph (base = 1, index = 3) is named \"Bend\"";
}

// "If a geometry node contains no morph weight data, then the weight for the morph target having
// index 0 shall be one, and the weights for all other morph targets shall be zero."
TEST(OpenGexMorph, NoMorphWeightShowsTargetZero) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    EXPECT_TRUE(boxIs(nodeBox(*s, restPose(*s), "Plain"), {10, 0, 0}, {11, 1, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 0.5f), "Plain"), {10, 0, 0}, {11, 1, 0}));
}

// Rest pose: the MorphWeight values as written (w0 = 1, w1 = w2 = 0).
TEST(OpenGexMorph, RestPoseUsesWrittenWeights) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    EXPECT_TRUE(boxIs(nodeBox(*s, restPose(*s), "Animated"), {0, 0, 0}, {1, 1, 0}));
}

// Tracks on the MorphWeight structures: w0 = 1 - t, w1 = t, w2 = t.
//   t = 0.25: 0.75 A0 + 0.25 A1 + 0.25 M2 -> v1 (1.25,0,0), v2 (1.25,1,0.75)
//   t = 0.5:  0.5 A0 + 0.5 A1 + 0.5 M2    -> v1 (1.5,0,0),  v2 (1.5,1,1.5)
//   t = 1:    A1 + M2                      -> v1 (2,0,0),    v2 (2,1,3)
TEST(OpenGexMorph, AnimatedWeights) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 0.25f), "Animated"), {0, 0, 0}, {1.25f, 1, 0.75f})) << "t = 0.25";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 0.5f), "Animated"), {0, 0, 0}, {1.5f, 1, 1.5f})) << "t = 0.5";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 1.0f), "Animated"), {0, 0, 0}, {2, 1, 3})) << "t = 1";
}

// "If a geometry node contains any morph weight data at all, then the weight for any unreferenced
// morph target shall be assumed to be zero": w0 = 0 here, so the base is not added.
TEST(OpenGexMorph, UnreferencedTargetsWeighZero) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    const Pose rest = restPose(*s);
    // Only the relative target: A = M2 = A2 - A0 (vertices 0, 1 at the origin, 2, 3 at z = 3).
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "OnlyLift"), {20, 0, 0}, {20, 0, 3}));
    // Only the absolute target 1: A = A1.
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "OnlyStretch"), {30, 0, 0}, {32, 1, 0}));
    // No track animates these nodes: the clip leaves them as they are.
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 0.5f), "OnlyLift"), {20, 0, 0}, {20, 0, 3}));
}

// The weighted sum is taken as written, weights are not normalised.
TEST(OpenGexMorph, WeightsAreNotNormalised) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Doubled"), {40, 0, 0}, {43, 2, 0})) << "A0 + A1";
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "HalfLift"), {50, 0, 0}, {51, 1, 1.5f})) << "A0 + 0.5 (A2 - A0)";
}

// A relative target is the difference from its own base: M3 = A3 - A1 (base = 1), whatever the
// node's other weights.
TEST(OpenGexMorph, RelativeTargetOnAnotherBase) {
    auto s = load("morph.ogex");
    ASSERT_TRUE(s);
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "OnStretch"), {60, 0, 0}, {62, 1, 2})) << "A1 + (A3 - A1)";
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "BendOnBase"), {70, 0, 0}, {71, 1, 1})) << "A0 + 0.5 (A3 - A1)";
}

// ---------------------------------------------------------------------------------------------
// curves.ogex: Track interpolation. Triangle (0,0,0) (1,0,0) (0,1,0); boxes from expected.py.

class OpenGexCurves : public ::testing::Test {
protected:
    void SetUp() override {
        s = load("curves.ogex");
        ASSERT_TRUE(s);
        ASSERT_EQ(s->animation.clips.size(), 1u);
    }
    Bounds at(const std::string& node, float t) { return nodeBox(*s, clipPose(*s, 0, t), node); }
    std::unique_ptr<Scene> s;
};

TEST_F(OpenGexCurves, ClipSpansAllKeys) {
    EXPECT_NEAR(s->animation.clips[0].duration(), 4.0f, kTol);  // keys from 0 to 4 s (TcbUneven)
    EXPECT_EQ(s->nodes.size(), 12u);
    EXPECT_EQ(s->meshes.size(), 1u);
}

// Clip -1 is the file as written: the tracks' keys do not apply.
TEST_F(OpenGexCurves, RestPoseIgnoresTracks) {
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "TcbEven"), {7, 0, 0}, {8, 1, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "RotZConstant"), {-0.247404f, 0, 0}, {0.968912f, 0.968912f, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "RotAxis"), {-0.295520f, 0, 0}, {0.955336f, 0.955336f, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Ordered"), {-1, 0, 0}, {0, 1, 0}));
}

// Hermite curve with the spec's TCB tangents u1, u2; keys evenly spaced.
TEST_F(OpenGexCurves, TcbEvenlySpacedKeys) {
    const float cases[][2] = {{0.5f, 2.195312f}, {1.25f, 3.775391f}, {1.5f, 3.218750f}, {2.75f, 5.243164f}};
    for (const auto& c : cases)
        EXPECT_TRUE(boxIs(at("TcbEven", c[0]), {c[1], 0, 0}, {c[1] + 1, 1, 0})) << "t = " << c[0];
}

// Keys at 0, 1, 4: the spec uses s = (t - t1) / (t2 - t1) directly in the Hermite curve and its
// tangent formulas carry no factor for uneven spacing. (With the common speed-matching factor
// 2 h_prev / (h_prev + h_next), y(0.5) would be 1.578125 instead of 1.46875.)
TEST_F(OpenGexCurves, TcbUnevenlySpacedKeysUseTheParameterAsIs) {
    EXPECT_TRUE(boxIs(at("TcbUneven", 0.5f), {0, 1.46875f, 0}, {1, 2.46875f, 0})) << "t = 0.5";
    EXPECT_TRUE(boxIs(at("TcbUneven", 2.5f), {0, 3.4375f, 0}, {1, 4.4375f, 0})) << "t = 2.5";
}

// Bezier time curve solved for s (Newton), then a Bezier value curve at s.
TEST_F(OpenGexCurves, BezierTimeAndValueCurves) {
    EXPECT_TRUE(boxIs(at("BezierXYZ", 0.5f), {1.147617f, 0.204767f, 0}, {2.147617f, 1.204767f, 0})) << "t = 0.5";
    EXPECT_TRUE(boxIs(at("BezierXYZ", 1.0f), {2, 1, 0}, {3, 2, 0})) << "t = 1";
    EXPECT_TRUE(boxIs(at("BezierXYZ", 1.5f), {2.852383f, 1.795233f, 0}, {3.852383f, 2.795233f, 0})) << "t = 1.5";
}

// A Bezier time curve with a linear value curve: "Once the parameter s has been calculated, it is
// exclusively used to interpolate key values".
TEST_F(OpenGexCurves, BezierTimeCurveWithLinearValues) {
    EXPECT_TRUE(boxIs(at("BezierTime", 0.25f), {0, 0, 1.499431f}, {1, 1, 1.499431f})) << "t = 0.25";
    EXPECT_TRUE(boxIs(at("BezierTime", 0.5f), {0, 0, 3.303362f}, {1, 1, 3.303362f})) << "t = 0.5";
}

// "constant": v(s) = v1 until the next key.
TEST_F(OpenGexCurves, ConstantCurves) {
    EXPECT_TRUE(boxIs(at("RotZConstant", 0.5f), {0, 0, 0}, {1, 1, 0})) << "angle 0";
    EXPECT_TRUE(boxIs(at("RotZConstant", 1.5f), {-0.479426f, 0, 0}, {0.877583f, 0.877583f, 0})) << "angle 0.5";
    EXPECT_TRUE(boxIs(at("ScaleConstant", 0.5f), {0, 0, 0}, {1, 1, 0})) << "scale (1,1,1)";
    EXPECT_TRUE(boxIs(at("ScaleConstant", 1.5f), {0, 0, 0}, {2, 3, 0})) << "scale (2,3,1)";
}

// Rotation "axis" keys {angle, axis} interpolate componentwise; the axis is normalised when used.
TEST_F(OpenGexCurves, AxisAngleRotationTrack) {
    EXPECT_TRUE(boxIs(at("RotAxis", 0.5f), {-0.564642f, 0, 0}, {0.825336f, 0.825336f, 0}));  // 0.6 rad
}

// "For vectors, interpolated values are calculated componentwise", and a quaternion is unitised
// before use: 0.75 (0,0,0,1) + 0.25 (0,0,.7071,.7071) -> 0.376959 rad about z (slerp: 0.392699).
TEST_F(OpenGexCurves, QuaternionTrackInterpolatesComponentwise) {
    EXPECT_TRUE(boxIs(at("RotQuat", 0.25f), {-0.368095f, 0, 0}, {0.929788f, 0.929788f, 0}));
}

TEST_F(OpenGexCurves, SingleAxisScaleTrack) {
    EXPECT_TRUE(boxIs(at("ScaleY", 0.5f), {0, 0, 0}, {1, 2, 0}));  // 1 -> 5 over 0..2 s
}

// Matrix keys interpolate componentwise too: halfway between the identity and a 90 degree turn
// plus (2,0,0) the matrix is columns (.5,.5,0) (-.5,.5,0) (0,0,1) (1,0,0), not a 45 degree turn.
TEST_F(OpenGexCurves, MatrixTrackInterpolatesComponentwise) {
    EXPECT_TRUE(boxIs(at("MatrixLinear", 0.5f), {0.5f, 0, 0}, {1.5f, 0.5f, 0})) << "t = 0.5";
    EXPECT_TRUE(boxIs(at("MatrixLinear", 1.0f), {1, 0, 0}, {2, 1, 0})) << "t = 1";
}

// "A structure may contain multiple Animation structures belonging to the same animation clip":
// the tracks of both apply.
TEST_F(OpenGexCurves, TwoAnimationStructuresOfOneClip) {
    EXPECT_TRUE(boxIs(at("TwoAnimations", 0.5f), {1, 2, 0}, {2, 3, 0}));
}

// The track replaces one factor of the node transform R * T in place.
TEST_F(OpenGexCurves, TrackTargetsOneTransformInOrder) {
    EXPECT_TRUE(boxIs(at("Ordered", 0.5f), {-1, 2, 0}, {0, 3, 0}));
}

// ---------------------------------------------------------------------------------------------
// clips.ogex: Clip and Animation with a time metric of 0.001 and angles in degrees.

TEST(OpenGexClips, NamesDurationsAndRates) {
    auto s = load("clips.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->animation.clips.size(), 4u);
    const int idle = clipIndex(*s, "Idle"), walk = clipIndex(*s, "Walk"), spin = clipIndex(*s, "Spin");
    const int tail = clipIndex(*s, "Tail");
    ASSERT_GE(idle, 0);
    ASSERT_GE(walk, 0);
    ASSERT_GE(spin, 0);
    ASSERT_GE(tail, 0);
    const auto& clips = s->animation.clips;
    EXPECT_NEAR(clips[idle].duration(), 1.0f, kTol);  // begin 0, end 1000 ms
    EXPECT_NEAR(clips[walk].duration(), 2.0f, kTol);  // begin 500, end 2500 ms
    EXPECT_NEAR(clips[spin].duration(), 2.0f, kTol);  // keys 1000..3000 ms
    EXPECT_NEAR(clips[tail].duration(), 0.75f, kTol); // begin 250 ms, end from the last key
    // Param "rate" is divided by the time metric: 0.03 / 0.001, 0.024 / 0.001.
    EXPECT_NEAR(clips[idle].fps, 30.0f, 1e-3f);
    EXPECT_NEAR(clips[walk].fps, 24.0f, 1e-3f);
}

TEST(OpenGexClips, BoundsWithinEachClip) {
    auto s = load("clips.ogex");
    ASSERT_TRUE(s);
    const int idle = clipIndex(*s, "Idle"), walk = clipIndex(*s, "Walk"), spin = clipIndex(*s, "Spin");
    ASSERT_TRUE(idle >= 0 && walk >= 0 && spin >= 0);
    // Idle: Mover x 0 -> 10 over 1 s.
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, idle, 0.25f), "Mover"), {2.5f, 0, 0}, {3.5f, 1, 0})) << "Idle +0.25";
    // Walk: keys 0, 500, 2500, 4000 ms -> 0, 2, 6, 100; the clip begins at 500 ms.
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, walk, 0.5f), "Mover"), {3, 0, 0}, {4, 1, 0})) << "Walk +0.5";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, walk, 1.5f), "Mover"), {5, 0, 0}, {6, 1, 0})) << "Walk +1.5";
    // Walk: Turner 0 -> 180 degrees over 500..2500 ms.
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, walk, 0.5f), "Turner"), {-0.707107f, 0, 0}, {0.707107f, 0.707107f, 0}))
        << "Walk +0.5: 45 degrees";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, walk, 1.0f), "Turner"), {-1, 0, 0}, {0, 1, 0})) << "Walk +1: 90 degrees";
    // Spin: Spinner 0 -> 90 degrees over 1000..3000 ms.
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 0.5f), "Spinner"), {-0.382683f, 0, 0}, {0.923880f, 0.923880f, 0}))
        << "Spin +0.5: 22.5 degrees";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 1.0f), "Spinner"), {-0.707107f, 0, 0}, {0.707107f, 0.707107f, 0}))
        << "Spin +1: 45 degrees";
    // Tail: keys 0, 1000 ms -> 0, 8; the clip begins at 250 ms, so +0.25 s is 500 ms.
    const int tail = clipIndex(*s, "Tail");
    ASSERT_GE(tail, 0);
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, tail, 0.25f), "Tailer"), {4, 0, 0}, {5, 1, 0})) << "Tail +0.25";
}

// A node with no Animation of a clip keeps its transforms as written during that clip.
TEST(OpenGexClips, NodesWithoutAnimationInAClipStayAtRest) {
    auto s = load("clips.ogex");
    ASSERT_TRUE(s);
    const int idle = clipIndex(*s, "Idle"), walk = clipIndex(*s, "Walk"), spin = clipIndex(*s, "Spin");
    ASSERT_TRUE(idle >= 0 && walk >= 0 && spin >= 0);
    EXPECT_TRUE(boxIs(nodeBox(*s, restPose(*s), "Spinner"), {-1, 0, 0}, {0, 1, 0})) << "rest: 90 degrees";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, idle, 0.5f), "Spinner"), {-1, 0, 0}, {0, 1, 0})) << "Idle";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, walk, 0.5f), "Spinner"), {-1, 0, 0}, {0, 1, 0})) << "Walk";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 0.5f), "Mover"), {0, 0, 0}, {1, 1, 0})) << "Spin";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, idle, 0.5f), "Turner"), {0, 0, 0}, {1, 1, 0})) << "Idle";
}

// Bezier control points are times and values like the keys: the time metric applies to the
// -control/+control times, the angle metric to the control values of a rotation.
TEST(OpenGexClips, BezierControlPointsUseTheMetrics) {
    auto s = load("clips.ogex");
    ASSERT_TRUE(s);
    const int spin = clipIndex(*s, "Spin");
    ASSERT_GE(spin, 0);
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 0.5f), "Eased"), {0, 0, 2.343109f}, {1, 1, 2.343109f})) << "+0.5";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 1.5f), "Eased"), {0, 0, 6.542252f}, {1, 1, 6.542252f})) << "+1.5";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 0.5f), "EasedTurn"), {-0.575808f, 0, 0}, {0.817585f, 0.817585f, 0}))
        << "+0.5: 35.15625 degrees";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, spin, 1.0f), "EasedTurn"), {-0.831470f, 0, 0}, {0.555570f, 0.831470f, 0}))
        << "+1: 56.25 degrees";
}

TEST(OpenGexClips, AngleMetricInDegrees) {
    auto s = load("clips.ogex");
    ASSERT_TRUE(s);
    // Rotation axis {90, 1, 0, 0}: 90 degrees about x.
    EXPECT_TRUE(boxIs(nodeBox(*s, restPose(*s), "Tilted"), {0, 0, 0}, {1, 0, 1}));
    const int eye = nodeIndex(*s, "Eye");
    ASSERT_GE(eye, 0);
    const Node& n = s->nodes[eye];
    ASSERT_EQ(n.kind, NodeKind::Camera);
    ASSERT_TRUE(n.object >= 0 && static_cast<size_t>(n.object) < s->cameras.size());
    const Camera& c = s->cameras[n.object];
    EXPECT_NEAR(c.yfov, 1.0471976f, kTol);  // fovy 60 degrees
    EXPECT_NEAR(c.nearZ, 0.5f, kTol);
    EXPECT_NEAR(c.farZ, 500.0f, 1e-3f);
}

// ---------------------------------------------------------------------------------------------
// primitives.ogex and restart_value.ogex

TEST(OpenGexPrimitives, CountsPerNode) {
    auto s = load("primitives.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->nodes.size(), 9u);
    EXPECT_EQ(s->meshes.size(), 8u);
    EXPECT_EQ(s->materials.size(), 3u);
    struct Expect {
        const char* node;
        uint32_t vertices, triangles;
    };
    const Expect expects[] = {
        {"Quads", 8, 4},      {"Strip", 7, 3},      {"LineStrip", 5, 0}, {"Lines", 4, 0}, {"Points", 3, 0},
        {"NonIndexed", 6, 2}, {"Winding", 4, 2},    {"Multi", 8, 6},     {"MultiSwapped", 8, 6},
    };
    for (const Expect& e : expects) {
        const Mesh* m = nodeMesh(*s, e.node);
        if (!m) continue;
        EXPECT_EQ(m->vertexCount, e.vertices) << e.node;
        EXPECT_EQ(triangleCount(*m), e.triangles) << e.node;
    }
}

TEST(OpenGexPrimitives, BoundsOfWhatIsDrawn) {
    auto s = load("primitives.ogex");
    ASSERT_TRUE(s);
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Quads"), {0, 0, 0}, {3, 1, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Strip"), {0, 2, 0}, {4, 3, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "NonIndexed"), {0, 4, 0}, {3, 5, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Winding"), {0, 6, 0}, {1, 7, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Multi"), {0, 8, 0}, {3, 9, 1}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "MultiSwapped"), {0, 10, 0}, {3, 11, 1}));
    // Lines and points (|coordinates| >= 100) draw no triangles, but they are drawn: their
    // vertices widen the scene box (restart markers are no vertices).
    EXPECT_TRUE(boxIs(primitiveBox(*s, rest, "LineStrip"), {100, 0, 0}, {102, 101, 0}));
    EXPECT_TRUE(boxIs(primitiveBox(*s, rest, "Lines"), {-101, -100, -100}, {0, 0, 0}));
    EXPECT_TRUE(boxIs(primitiveBox(*s, rest, "Points"), {-200, 0, 0}, {0, 200, 100}));
    EXPECT_TRUE(boxIs(sceneBounds(*s, rest), {-200, -100, -100}, {102, 200, 100}));
}

// points_lines.ogex: what the renderer test draws (tests/gles_render/primitives_test.cpp).
TEST(OpenGexPrimitives, PointsAndLinesFixture) {
    auto s = load("points_lines.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->meshes.size(), 3u);
    const struct {
        const char* node;
        Primitive primitive;
        size_t segments, points;
    } expects[] = {{"Lines", Primitive::Lines, 2, 0}, {"Strip", Primitive::LineStrip, 3, 0}, {"Dots", Primitive::Points, 0, 3}};
    for (const auto& e : expects) {
        const Mesh* m = nodeMesh(*s, e.node);
        if (!m) continue;
        ASSERT_EQ(m->submeshes.size(), 1u) << e.node;
        EXPECT_EQ(m->submeshes[0].primitive, e.primitive) << e.node;
        EXPECT_EQ(triangleCount(*m), 0u) << e.node;
        std::vector<uint32_t> lines, points;
        expandLines(*m, lines);
        expandPoints(*m, points);
        EXPECT_EQ(lines.size(), 2 * e.segments) << e.node;
        EXPECT_EQ(points.size(), e.points) << e.node;
    }
    if (const Mesh* strip = nodeMesh(*s, "Strip")) {
        std::vector<uint32_t> lines;
        expandLines(*strip, lines);
        EXPECT_EQ(lines, (std::vector<uint32_t>{0, 1, 1, 2, 3, 4}));
    }
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(sceneBounds(*s, rest), {-0.8f, -0.8f, 0}, {0.8f, 0.6f, 0}));
}

// What the renderer draws for lines, strips (split at the restart) and points.
TEST(OpenGexPrimitives, LineSegmentsAndPoints) {
    auto s = load("primitives.ogex");
    ASSERT_TRUE(s);
    std::vector<uint32_t> lines, points, starts;
    if (const Mesh* strip = nodeMesh(*s, "LineStrip")) {
        expandLines(*strip, lines, &starts);
        EXPECT_EQ(lines, (std::vector<uint32_t>{0, 1, 1, 2, 3, 4}));
        EXPECT_EQ(starts, (std::vector<uint32_t>{0}));
        expandPoints(*strip, points);
        EXPECT_TRUE(points.empty());
    }
    if (const Mesh* segments = nodeMesh(*s, "Lines")) {
        expandLines(*segments, lines);
        EXPECT_EQ(lines, (std::vector<uint32_t>{0, 1, 2, 3}));
    }
    if (const Mesh* dots = nodeMesh(*s, "Points")) {
        expandPoints(*dots, points, &starts);
        EXPECT_EQ(points, (std::vector<uint32_t>{0, 1, 2}));
        EXPECT_EQ(starts, (std::vector<uint32_t>{0}));
        expandLines(*dots, lines);
        EXPECT_TRUE(lines.empty());
    }
    if (const Mesh* quads = nodeMesh(*s, "Quads")) {
        expandLines(*quads, lines);
        expandPoints(*quads, points);
        EXPECT_TRUE(lines.empty() && points.empty());
    }
}

std::map<std::string, uint32_t> trianglesByMaterial(const Scene& s, const std::string& nodeName) {
    std::map<std::string, uint32_t> out;
    const int n = nodeIndex(s, nodeName);
    const Mesh* mesh = nodeMesh(s, nodeName);
    if (!mesh) return out;
    const Node& node = s.nodes[n];
    for (const Submesh& sm : mesh->submeshes) {
        std::string name = "(no material)";
        if (sm.materialSlot < node.materials.size()) {
            const int32_t m = node.materials[sm.materialSlot];
            if (m >= 0 && static_cast<size_t>(m) < s.materials.size()) name = s.materials[m].name;
        }
        out[name] += triangleCount(sm);
    }
    return out;
}

// IndexArray material i is drawn with the node's MaterialRef (index = i), per instance.
TEST(OpenGexPrimitives, MaterialIndicesMatchMaterialRefs) {
    auto s = load("primitives.ogex");
    ASSERT_TRUE(s);
    const std::map<std::string, uint32_t> multi = {{"Blue", 2}, {"Red", 1}, {"Green", 3}};
    const std::map<std::string, uint32_t> swapped = {{"Red", 2}, {"Green", 1}, {"Blue", 3}};
    EXPECT_EQ(trianglesByMaterial(*s, "Multi"), multi);
    EXPECT_EQ(trianglesByMaterial(*s, "MultiSwapped"), swapped);
}

// IndexArray front = "cw": the reader may keep the flag or reorder indices; either way both
// triangles of "Winding" show their front face to +z.
TEST(OpenGexPrimitives, ClockwiseFrontFaces) {
    auto s = load("primitives.ogex");
    ASSERT_TRUE(s);
    const int n = nodeIndex(*s, "Winding");
    const Mesh* mesh = nodeMesh(*s, "Winding");
    ASSERT_TRUE(mesh);
    std::vector<uint32_t> triangles, starts;
    expandTriangles(*mesh, triangles, &starts);
    std::vector<glm::vec3> p;
    worldVertices(*s, restPose(*s), n, p);
    ASSERT_EQ(triangles.size(), 6u);
    ASSERT_EQ(starts.size(), mesh->submeshes.size());
    for (size_t t = 0; t < triangles.size() / 3; ++t) {
        size_t sub = 0;
        while (sub + 1 < starts.size() && starts[sub + 1] <= t) ++sub;
        const uint32_t a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
        ASSERT_TRUE(a < p.size() && b < p.size() && c < p.size());
        glm::vec3 front = glm::cross(p[b] - p[a], p[c] - p[a]);  // counterclockwise = front
        if (mesh->submeshes[sub].frontFaceCW) front = -front;
        EXPECT_GT(front.z, 0.0f) << "triangle " << t;
    }
}

// A restart index that is not all ones (restart = 7, uint8 indices) still splits the strip, and
// index 7 adds no vertex: vertex 7 at (50,50,50) is not drawn.
TEST(OpenGexPrimitives, RestartIndexOfAnyValue) {
    auto s = load("restart_value.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->meshes.size(), 1u);
    EXPECT_EQ(triangleCount(s->meshes[0]), 3u);
    EXPECT_TRUE(boxIs(sceneBounds(*s, restPose(*s)), {0, 0, 0}, {4, 1, 0}));
}

// Without an IndexArray the indices are 0 .. n-1 in order, for strips and quads too.
TEST(OpenGexPrimitives, NonIndexedStripAndQuads) {
    auto s = load("nonindexed.ogex");
    ASSERT_TRUE(s);
    const Mesh* strip = nodeMesh(*s, "Strip");
    const Mesh* quads = nodeMesh(*s, "Quads");
    ASSERT_TRUE(strip && quads);
    EXPECT_EQ(triangleCount(*strip), 3u);
    EXPECT_EQ(triangleCount(*quads), 4u);
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Strip"), {0, 0, 0}, {2, 1, 0}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Quads"), {10, 0, 0}, {13, 1, 0}));
    EXPECT_TRUE(boxIs(sceneBounds(*s, rest), {0, 0, 0}, {13, 1, 0}));
}

// visible = false on the object hides its nodes unless a node says visible = true; a node's
// visible = false hides it.
TEST(OpenGexPrimitives, VisibleProperty) {
    auto s = load("visibility.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->nodes.size(), 3u);
    EXPECT_TRUE(boxIs(sceneBounds(*s, restPose(*s)), {0, 0, 0}, {1, 1, 0}));
}

// float[2] positions: z is implicitly 0.
TEST(OpenGexPrimitives, TwoComponentPositions) {
    auto s = load("two_component.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->meshes.size(), 1u);
    EXPECT_EQ(s->meshes[0].vertexCount, 3u);
    EXPECT_EQ(triangleCount(s->meshes[0]), 1u);
    EXPECT_TRUE(boxIs(sceneBounds(*s, restPose(*s)), {0, 0, 2}, {3, 2, 2}));
}

// ---------------------------------------------------------------------------------------------
// literals.ogex: OpenDDL literal forms

TEST(OpenGexLiterals, NamesWithEscapesAndConcatenation) {
    auto s = load("literals.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->nodes.size(), 3u);
    EXPECT_EQ(s->nodes[0].name,
              "Esc\"aped\\Tab\tEnd\xC3\xA9\xF0\x9F\x98\x80"
              "A//not a comment/*");
    EXPECT_EQ(s->nodes[1].name, "Half");
    EXPECT_EQ(s->nodes[2].name, "Double");
    ASSERT_EQ(s->materials.size(), 1u);
    EXPECT_EQ(s->materials[0].name, "Mat");
    EXPECT_TRUE(s->materials[0].twoSided) << "a bare bool property means true";
}

TEST(OpenGexLiterals, NumbersInEveryForm) {
    auto s = load("literals.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->nodes.size(), 3u);
    ASSERT_EQ(s->meshes.size(), 3u);
    const Mesh* lit = nodeMesh(*s, s->nodes[0].name);
    const Mesh* half = nodeMesh(*s, "Half");
    const Mesh* dbl = nodeMesh(*s, "Double");
    ASSERT_TRUE(lit && half && dbl);
    EXPECT_EQ(lit->vertexCount, 6u);
    EXPECT_EQ(triangleCount(*lit), 3u) << "primitive = \"triangles\" is the last value given";
    EXPECT_EQ(half->vertexCount, 3u);
    EXPECT_EQ(triangleCount(*half), 1u);
    EXPECT_EQ(dbl->vertexCount, 3u);
    EXPECT_EQ(triangleCount(*dbl), 1u);
    const Pose rest = restPose(*s);
    // Triangles (0,1,2) (0,2,3) (5,1,3) from hex/octal/binary/character/signed indices; vertex 4
    // (100,0,0) is unused.
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, s->nodes[0].name), {-15, -1, -2}, {10.25f, 3, 2.5f}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Half"), {-2, -0.25f, -2}, {1, 2048, 10}));
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Double"), {-0.5f, 0, 2}, {2, 0.1f, 9}, 1e-4f));
    EXPECT_TRUE(boxIs(sceneBounds(*s, rest), {-15, -1, -2}, {10.25f, 2048, 10}));
}

// ---------------------------------------------------------------------------------------------
// transforms.ogex

TEST(OpenGexTransforms, NodeOrderParentsAndKinds) {
    auto s = load("transforms.ogex");
    ASSERT_TRUE(s);
    const std::vector<std::string> names = {
        "Root",   "Child",      "GrandChild", "Matrix16",   "Matrix12",          "Matrix9",
        "Matrix6", "Matrix4",   "Sequence",   "Quaternion", "RotX",              "RotY",
        "ScaleKinds", "ObjectInterleaved", "ObjectChild", "Cam", "UnderCamera"};
    ASSERT_EQ(s->nodes.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(s->nodes[i].name, names[i]) << "node " << i;
    const std::map<std::string, int> parents = {{"Child", 0}, {"GrandChild", 1}, {"ObjectChild", 13}, {"UnderCamera", 15}};
    for (size_t i = 0; i < s->nodes.size(); ++i) {
        const auto it = parents.find(s->nodes[i].name);
        EXPECT_EQ(s->nodes[i].parent, it == parents.end() ? -1 : it->second) << s->nodes[i].name;
        const NodeKind kind = i == 0 ? NodeKind::Empty : i == 15 ? NodeKind::Camera : NodeKind::Mesh;
        EXPECT_EQ(s->nodes[i].kind, kind) << s->nodes[i].name;
    }
    EXPECT_EQ(s->meshes.size(), 1u);
    EXPECT_EQ(s->cameras.size(), 1u);
}

TEST(OpenGexTransforms, WorldBoxes) {
    auto s = load("transforms.ogex");
    ASSERT_TRUE(s);
    const Pose rest = restPose(*s);
    struct Expect {
        const char* node;
        glm::vec3 lo, hi;
    };
    const Expect expects[] = {
        {"Child", {7, 0, 0}, {8, 1, 4}},             // its own object Scale z 4; Root's object scale not inherited
        {"GrandChild", {7, 0, 10}, {8, 1, 11}},      // Child's object scale not inherited
        {"Matrix16", {0, -1, 5}, {2, 0, 6}},         // column-major 4x4
        {"Matrix12", {2, 4, 5}, {3, 5, 6}},          // 3 rows
        {"Matrix9", {0, 0, 0}, {2, 1, 2}},           // upper-left 3x3
        {"Matrix6", {6, 8, 0}, {7, 9, 1}},           // {a,b,c,d,e,f}
        {"Matrix4", {0, 0, 0}, {3, 1, 1}},           // upper-left 2x2
        {"Sequence", {0, 2, 3}, {1, 4, 4}},          // T * R(axis (0,0,3) normalised) * S, file order
        {"Quaternion", {-1, 0, 0}, {0, 1, 1}},       // (0,0,2,2) unitised
        {"RotX", {0, -1, 0}, {1, 0, 1}},
        {"RotY", {0, 0, -1}, {1, 1, 0}},
        {"ScaleKinds", {0, 0, -1}, {2, 3, 0}},
        {"ObjectInterleaved", {5, 1, 0}, {7, 3, 2}}, // node T(5,0,0) T(0,1,0), object S(2)
        {"ObjectChild", {5, 1, 0}, {6, 2, 1}},       // the object scale is not inherited
        {"UnderCamera", {0, 0, 20}, {1, 1, 21}},
    };
    for (const Expect& e : expects) EXPECT_TRUE(boxIs(nodeBox(*s, rest, e.node), e.lo, e.hi)) << e.node;
}

// ---------------------------------------------------------------------------------------------
// skin.ogex: P = sum_i w_i M_k(i) B_k(i)^-1 T_bind P_bind, without the geometry node's transform.

TEST(OpenGexSkin, NodesAndJoints) {
    auto s = load("skin.ogex");
    ASSERT_TRUE(s);
    const std::vector<std::string> names = {"Armature", "B0", "B1", "B2", "B3", "B4", "B5", "Skinned"};
    ASSERT_EQ(s->nodes.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(s->nodes[i].name, names[i]);
    EXPECT_EQ(s->nodes[0].kind, NodeKind::Empty);
    for (size_t i = 1; i <= 6; ++i) EXPECT_EQ(s->nodes[i].kind, NodeKind::Bone) << names[i];
    EXPECT_EQ(s->nodes[2].parent, 1) << "B1 is inside B0";
    EXPECT_EQ(s->nodes[7].kind, NodeKind::Mesh);
    const int skin = s->nodes[7].skin;
    ASSERT_TRUE(skin >= 0 && static_cast<size_t>(skin) < s->skins.size());
    EXPECT_EQ(s->skins[skin].joints, (std::vector<int32_t>{1, 2, 3, 4, 5, 6})) << "BoneRefArray order";
    ASSERT_EQ(s->meshes.size(), 1u);
    EXPECT_EQ(s->meshes[0].vertexCount, 4u);
    EXPECT_EQ(triangleCount(s->meshes[0]), 2u);
}

// Rest pose: v0 (0,0,1), v1 (1.5,0,1), v2 (1.25,1,1), v3 (1,1,1); not moved by the node's x + 100.
TEST(OpenGexSkin, RestPose) {
    auto s = load("skin.ogex");
    ASSERT_TRUE(s);
    const Pose rest = restPose(*s);
    EXPECT_TRUE(boxIs(nodeBox(*s, rest, "Skinned"), {0, 0, 1}, {1.5f, 1, 1}));
    EXPECT_TRUE(boxIs(sceneBounds(*s, rest), {0, 0, 1}, {1.5f, 1, 1}));
}

// All six influences of v2 count (B4 and B5 carry 0.13 of it): at t = 0.5, v2 = (1.05,1.732843,1);
// at t = 1, v2 = (0.85,2.3,1). Four influences renormalised would leave v2 at y = 1 at t = 1.
TEST(OpenGexSkin, AnimatedBonesWithSixInfluences) {
    auto s = load("skin.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->animation.clips.size(), 1u);
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 0.5f), "Skinned"), {0, 0, 1}, {1.5f, 1.732843f, 1})) << "t = 0.5";
    EXPECT_TRUE(boxIs(nodeBox(*s, clipPose(*s, 0, 1.0f), "Skinned"), {0, 0, 1}, {1.5f, 2.3f, 1})) << "t = 1";
}

// Indices and influences are read in the file's own integer types when they are unsigned and at
// most 32 bits wide, and widened otherwise: the same file with 64-bit integers and double weights
// must give the same mesh, byte for byte.
TEST(OpenGexSkin, WideIntegerTypesGiveTheSameMesh) {
    std::ifstream in(fixturePath("skin.ogex"), std::ios::binary);
    const std::string narrow((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string wide = narrow;
    for (auto [from, to] : {std::pair<std::string, std::string>{"IndexArray {uint16[3]", "IndexArray {uint64[3]"},
                            {"BoneCountArray {uint8", "BoneCountArray {unsigned_int64"},
                            {"BoneIndexArray {uint16", "BoneIndexArray {uint64"},
                            {"BoneWeightArray {float", "BoneWeightArray {double"}}) {
        const size_t at = wide.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        wide.replace(at, from.size(), to);
    }
    auto loadText = [](const std::string& text) {
        return loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end()), "skin.ogex");
    };
    LoadResult a = loadText(narrow), b = loadText(wide);
    ASSERT_TRUE(a.scene && b.scene);
    ASSERT_EQ(a.scene->meshes.size(), 1u);
    ASSERT_EQ(b.scene->meshes.size(), 1u);
    const Mesh& x = a.scene->meshes[0];
    const Mesh& y = b.scene->meshes[0];
    ASSERT_EQ(x.streams.size(), y.streams.size());
    EXPECT_EQ(x.streams.size(), 3u) << "position, and two sets of four influences (v2 has six)";
    auto bytesOf = [](const ByteView& v) { return std::vector<uint8_t>(v.data, v.data + v.size); };
    for (size_t i = 0; i < x.streams.size(); ++i) {
        EXPECT_EQ(x.streams[i].stride, y.streams[i].stride);
        EXPECT_EQ(bytesOf(x.streams[i].bytes), bytesOf(y.streams[i].bytes)) << "stream " << i;
    }
    EXPECT_EQ(x.indices.type, ComponentType::UInt8);
    EXPECT_EQ(y.indices.type, ComponentType::UInt8);
    EXPECT_EQ(bytesOf(x.indices.bytes), bytesOf(y.indices.bytes));
    EXPECT_EQ(bytesOf(x.indices.bytes), (std::vector<uint8_t>{0, 1, 2, 0, 2, 3}));
}

// A file of several MiB is mapped, its long arrays are converted on a second thread and its
// parsed tree is freed on another while the scene is validated: it must load as the same text
// does from memory, with the values the text holds.
TEST(OpenGexLargeFile, MappedFileLoadsAsFromMemory) {
    const uint32_t rings = 400, segments = 300;  // 120 000 vertices, 238 800 triangles
    std::string text = "GeometryNode {ObjectRef {ref {$g}}}\nGeometryObject $g {Mesh {\n"
                       "VertexArray (attrib = \"position\") {float[3] {\n";
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t k = 0; k < segments; ++k) {
            const float a = 6.2831853f * float(k) / float(segments);
            char buffer[96];
            std::snprintf(buffer, sizeof buffer, "%s{%.6g, %.6g, %.6g}", r + k ? ",\n" : "", std::cos(a), std::sin(a),
                          0.01 * r - 1.5);
            text += buffer;
        }
    text += "}}\nIndexArray {uint32[3] {\n";
    bool first = true;
    for (uint32_t r = 0; r + 1 < rings; ++r)
        for (uint32_t k = 0; k + 1 < segments; ++k) {
            const uint32_t v = r * segments + k;
            for (const auto& t : {std::array<uint32_t, 3>{v, v + 1, v + segments}, std::array<uint32_t, 3>{v + 1, v + segments + 1, v + segments}}) {
                text += (first ? "{" : ", {") + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " +
                        std::to_string(t[2]) + "}";
                first = false;
            }
        }
    text += "}}\n}}\n";
    ASSERT_GT(text.size(), size_t(4) << 20);
    // A folder of this run's own (parallel runs and other checkouts never share it), removed at the end.
    struct RunDir {
        std::filesystem::path path = test::outputDir() / ("opengex_large_" + std::to_string(::getpid()));
        RunDir() { std::filesystem::create_directories(path); }
        ~RunDir() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    } dir;
    const std::filesystem::path path = dir.path / "large.ogex";
    {
        std::ofstream out(path, std::ios::binary);
        out << text;
    }
    ASSERT_EQ(std::filesystem::file_size(path), text.size());
    LoadResult mapped = loadSceneFile(path.string());
    LoadResult memory = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end()), "large.ogex");
    ASSERT_TRUE(mapped.scene && memory.scene);
    ASSERT_EQ(mapped.scene->meshes.size(), 1u);
    const Mesh& a = mapped.scene->meshes[0];
    const Mesh& b = memory.scene->meshes[0];
    EXPECT_EQ(a.vertexCount, rings * segments);
    EXPECT_EQ(triangleCount(a), 2 * (rings - 1) * (segments - 1));
    EXPECT_EQ(a.indices.type, ComponentType::UInt32);
    ASSERT_EQ(a.streams.size(), b.streams.size());
    auto bytesOf = [](const ByteView& v) { return std::vector<uint8_t>(v.data, v.data + v.size); };
    EXPECT_EQ(bytesOf(a.streams[0].bytes), bytesOf(b.streams[0].bytes));
    EXPECT_EQ(bytesOf(a.indices.bytes), bytesOf(b.indices.bytes));
    // The last vertex: ring 399 at z = 2.49, k = 299 at angle 2 pi 299/300.
    float last[3];
    std::memcpy(last, a.streams[0].bytes.data + size_t(a.vertexCount - 1) * a.streams[0].stride, sizeof last);
    EXPECT_NEAR(last[0], std::cos(6.2831853f * 299 / 300), 1e-5f);
    EXPECT_NEAR(last[1], std::sin(6.2831853f * 299 / 300), 1e-5f);
    EXPECT_FLOAT_EQ(last[2], 2.49f);
    EXPECT_TRUE(boxIs(sceneBounds(*mapped.scene, restPose(*mapped.scene)), {-1, -1, -1.5f}, {1, 1, 2.49f}));

    // The reader lends its parse a thread of its own: both long arrays (positions and indices)
    // were converted apart from the parse and kept, not parsed again on one thread.
    auto bytes = std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end());
    std::shared_ptr<void> parsed;
    LoadResult viewed = loadOpenGex(bytes, bytes->data(), bytes->size(), "large.ogex", {}, &parsed);
    ASSERT_TRUE(viewed.scene && parsed);
    const auto& doc = *static_cast<const ddl::Document*>(parsed.get());
    EXPECT_EQ(doc.deferredLists(), 2u);
    EXPECT_LE(doc.secondThreadLists(), doc.deferredLists());
    EXPECT_FALSE(doc.reparsedOnOneThread());
    // A text under 1 MiB is parsed on one thread.
    const std::string small = "GeometryNode {ObjectRef {ref {$g}}}\nGeometryObject $g {Mesh {\n"
                              "VertexArray (attrib = \"position\") {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}\n"
                              "IndexArray {uint32[3] {{0, 1, 2}}}\n}}\n";
    auto smallBytes = std::make_shared<const std::vector<uint8_t>>(small.begin(), small.end());
    LoadResult smallResult = loadOpenGex(smallBytes, smallBytes->data(), smallBytes->size(), "small.ogex", {}, &parsed);
    ASSERT_TRUE(smallResult.scene && parsed) << (smallResult.problems.empty() ? "" : smallResult.problems[0].format());
    EXPECT_EQ(static_cast<const ddl::Document*>(parsed.get())->deferredLists(), 0u);
}

// ---------------------------------------------------------------------------------------------
// up_y.ogex, up_z.ogex, lods.ogex: metrics and levels of detail

TEST(OpenGexMetrics, UpAxisAndDistanceAreRecordedNotApplied) {
    auto y = load("up_y.ogex");
    auto z = load("up_z.ogex");
    ASSERT_TRUE(y && z);
    EXPECT_EQ(y->up, UpAxis::Y);
    EXPECT_EQ(z->up, UpAxis::Z);
    EXPECT_NEAR(y->metersPerUnit, 0.01f, 1e-6f);
    EXPECT_NEAR(z->metersPerUnit, 2.5f, 1e-6f);
    // Both report the file's own axes and units.
    EXPECT_TRUE(boxIs(sceneBounds(*y, restPose(*y)), {0, 5, 0}, {1, 6, 1}));
    EXPECT_TRUE(boxIs(sceneBounds(*z, restPose(*z)), {0, 5, 0}, {1, 6, 1}));
}

TEST(OpenGexMetrics, DefaultsWithoutMetricStructures) {
    auto s = load("lods.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->up, UpAxis::Z) << "the default up direction is \"z\"";
    EXPECT_NEAR(s->metersPerUnit, 1.0f, 1e-6f);
}

TEST(OpenGexLods, OnlyLevelZeroIsDrawn) {
    auto s = load("lods.ogex");
    ASSERT_TRUE(s);
    ASSERT_EQ(s->meshes.size(), 1u);
    EXPECT_EQ(s->meshes[0].vertexCount, 4u);
    EXPECT_EQ(triangleCount(s->meshes[0]), 2u);
    EXPECT_TRUE(boxIs(sceneBounds(*s, restPose(*s)), {0, 0, 0}, {1, 1, 0}));
}

// ---------------------------------------------------------------------------------------------
// lights_materials.ogex

const Light* nodeLight(const Scene& s, const std::string& name) {
    const int n = nodeIndex(s, name);
    if (n < 0) return nullptr;
    const Node& node = s.nodes[n];
    if (node.kind != NodeKind::Light || node.object < 0 || static_cast<size_t>(node.object) >= s.lights.size()) {
        ADD_FAILURE() << "node \"" << name << "\" has no light";
        return nullptr;
    }
    return &s.lights[node.object];
}

const Camera* nodeCamera(const Scene& s, const std::string& name) {
    const int n = nodeIndex(s, name);
    if (n < 0) return nullptr;
    const Node& node = s.nodes[n];
    if (node.kind != NodeKind::Camera || node.object < 0 || static_cast<size_t>(node.object) >= s.cameras.size()) {
        ADD_FAILURE() << "node \"" << name << "\" has no camera";
        return nullptr;
    }
    return &s.cameras[node.object];
}

const Material* material(const Scene& s, const std::string& name) {
    for (const Material& m : s.materials)
        if (m.name == name) return &m;
    ADD_FAILURE() << "no material named \"" << name << "\"";
    return nullptr;
}

void expectColor(const glm::vec3& got, const glm::vec3& want, const std::string& what) {
    EXPECT_NEAR(got.r, want.r, kTol) << what;
    EXPECT_NEAR(got.g, want.g, kTol) << what;
    EXPECT_NEAR(got.b, want.b, kTol) << what;
}

TEST(OpenGexLights, TypesColoursAndIntensities) {
    auto s = load("lights_materials.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->nodes.size(), 8u);
    const struct {
        const char* node;
        const char* type;
        glm::vec3 color;
        float intensity;
    } expects[] = {
        {"Sun", "directional", {1, 0.9f, 0.8f}, 3},  // infinite; illuminance
        {"Bulb", "point", {0.5f, 0.25f, 1}, 100},    // colour from float[4]
        {"Spot", "spot", {1, 1, 1}, 50},             // no Color: white
        {"Spot2", "spot", {1, 1, 1}, 1},             // default intensity 1 cd
        {"BulbAgain", "point", {0.5f, 0.25f, 1}, 100},
    };
    for (const auto& e : expects) {
        const Light* l = nodeLight(*s, e.node);
        if (!l) continue;
        EXPECT_STREQ(lightTypeName(l->type), e.type) << e.node;
        expectColor(l->color, e.color, e.node);
        EXPECT_NEAR(l->intensity, e.intensity, kTol) << e.node;
    }
}

// projected_spot.ogex: the spot's Texture (attrib "projection") becomes a scene texture the light
// refers to, found next to the file and decoded like a material's map.
TEST(OpenGexLights, ProjectionTexture) {
    auto s = load("projected_spot.ogex");
    ASSERT_TRUE(s);
    const Light* spot = nodeLight(*s, "Spot");
    ASSERT_TRUE(spot);
    EXPECT_EQ(spot->type, LightType::Spot);
    EXPECT_NEAR(spot->outerCone, 0.45f, kTol);
    ASSERT_EQ(s->textures.size(), 1u);
    ASSERT_EQ(spot->projection.texture, 0);
    EXPECT_EQ(s->textures[0].path, "projection_quadrants.png");
    EXPECT_EQ(spot->projection.uvTransform, -1);
    for (const ReportLine& line : s->report)
        EXPECT_EQ(line.text.find("not projected"), std::string::npos) << line.text;
    EXPECT_EQ(prepareSceneTextures(*s, nullptr), 0);
    const Texture& t = s->textures[0];
    EXPECT_FALSE(t.placeholder);
    EXPECT_EQ(std::filesystem::path(t.resolvedPath).filename(), "projection_quadrants.png");
    ASSERT_EQ(t.image.width, 16u);
    ASSERT_EQ(t.image.height, 16u);
    ASSERT_EQ(t.image.format, PixelFormat::Rgba8);
    ASSERT_FALSE(t.image.surfaces.empty());
    // Top row first: top left red, top right green; bottom left blue, bottom right white.
    const uint8_t* p = t.image.surfaces[0].data;
    auto pixel = [&](int x, int y) {
        const uint8_t* q = p + (size_t(y) * 16 + size_t(x)) * 4;
        return glm::ivec3(q[0], q[1], q[2]);
    };
    EXPECT_EQ(pixel(0, 0), glm::ivec3(255, 0, 0));
    EXPECT_EQ(pixel(15, 0), glm::ivec3(0, 255, 0));
    EXPECT_EQ(pixel(0, 15), glm::ivec3(0, 0, 255));
    EXPECT_EQ(pixel(15, 15), glm::ivec3(255, 255, 255));
}

// Atten: inverse_square with scale 1 is 1 / (k_c + k_l d + k_q d^2); an "angle" linear curve is full
// inside `begin` and zero beyond `end` (half angles from -z); "cos_angle" takes cosines.
TEST(OpenGexLights, Attenuation) {
    auto s = load("lights_materials.ogex");
    ASSERT_TRUE(s);
    if (const Light* bulb = nodeLight(*s, "Bulb")) {
        EXPECT_NEAR(bulb->constantAttenuation, 1.0f, kTol);
        EXPECT_NEAR(bulb->linearAttenuation, 0.5f, kTol);
        EXPECT_NEAR(bulb->quadraticAttenuation, 0.25f, kTol);
    }
    if (const Light* spot = nodeLight(*s, "Spot")) {
        EXPECT_NEAR(spot->innerCone, 0.25f, kTol);
        EXPECT_NEAR(spot->outerCone, 0.5f, kTol);
    }
    if (const Light* spot2 = nodeLight(*s, "Spot2")) {
        EXPECT_NEAR(spot2->innerCone, 0.451027f, kTol);  // acos(0.9)
        EXPECT_NEAR(spot2->outerCone, 0.643501f, kTol);  // acos(0.8)
    }
}

TEST(OpenGexLights, Cameras) {
    auto s = load("lights_materials.ogex");
    ASSERT_TRUE(s);
    if (const Camera* cam = nodeCamera(*s, "Cam")) {
        EXPECT_NEAR(cam->yfov, 0.9f, kTol);
        EXPECT_NEAR(cam->nearZ, 0.25f, kTol);
        EXPECT_NEAR(cam->farZ, 250.0f, 1e-3f);
    }
    if (const Camera* wide = nodeCamera(*s, "WideCam")) {
        EXPECT_NEAR(wide->nearZ, 1.0f, kTol);
        EXPECT_NEAR(wide->farZ, 100.0f, 1e-3f);
    }
}

TEST(OpenGexMaterials, AttributesAndTextures) {
    auto s = load("lights_materials.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->materials.size(), 3u);
    const Material* m = material(*s, "Painted");
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->twoSided);
    expectColor(m->diffuse, {0.5f, 0.25f, 0.125f}, "diffuse");
    expectColor(m->specular, {0.1f, 0.2f, 0.3f}, "specular");
    expectColor(m->emissive, {0, 0.5f, 0}, "emission");
    EXPECT_NEAR(m->shininess, 32.0f, kTol);
    EXPECT_NEAR(m->opacity, 0.75f, kTol);
    EXPECT_NEAR(m->roughness, 0.4f, kTol);
    EXPECT_NEAR(m->metallic, 0.6f, kTol);
    EXPECT_NEAR(m->ior, 1.33f, kTol);
    const TextureRef& diffuse = m->texture(TextureSlot::Diffuse);
    ASSERT_TRUE(diffuse.texture >= 0 && static_cast<size_t>(diffuse.texture) < s->textures.size());
    EXPECT_EQ(s->textures[diffuse.texture].path, "textures/paint.png");
    EXPECT_EQ(diffuse.uvSet, 1);
    EXPECT_EQ(diffuse.wrapS, Wrap::Clamp);
    EXPECT_EQ(diffuse.wrapT, Wrap::Mirror);
    const TextureRef& normal = m->texture(TextureSlot::Normal);
    ASSERT_TRUE(normal.texture >= 0 && static_cast<size_t>(normal.texture) < s->textures.size());
    EXPECT_EQ(s->textures[normal.texture].path, "textures/paint_n.png");
    if (const Material* plain = material(*s, "Plain")) {
        EXPECT_FALSE(plain->twoSided);
    }
}

// "The default values used by a reader for any attributes that are not present must match the
// default values listed in Table 2.1."
TEST(OpenGexMaterials, SpecDefaults) {
    auto s = load("lights_materials.ogex");
    ASSERT_TRUE(s);
    const Material* m = material(*s, "Defaults");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->twoSided);
    expectColor(m->diffuse, {1, 1, 1}, "diffuse");
    expectColor(m->specular, {0, 0, 0}, "specular");
    expectColor(m->emissive, {0, 0, 0}, "emission");
    EXPECT_NEAR(m->shininess, 1.0f, kTol) << "specular_power";
    EXPECT_NEAR(m->opacity, 1.0f, kTol);
    EXPECT_NEAR(m->roughness, 0.0f, kTol);
    EXPECT_NEAR(m->metallic, 0.0f, kTol) << "metalness";
    EXPECT_NEAR(m->ior, 1.0f, kTol);
    EXPECT_LT(m->texture(TextureSlot::Diffuse).texture, 0);
}

// Table 2.1's index of refraction, 1.0, is kept on a classic material (above). On a metal/rough one
// that names none it would make the dielectric F0 esview draws from it 0 (no highlight at all), so
// there it is glTF's 1.5 (F0 0.04); one the file names is kept (Painted's 1.33).
TEST(OpenGexMaterials, MetalRoughWithoutAnIndexOfRefractionDrawsGltfsF0) {
    const std::filesystem::path dir = test::outputDir() / "opengex_ior";
    std::filesystem::create_directories(dir);
    const std::filesystem::path file = dir / "ior.ogex";
    std::ofstream(file) << R"(
Material $rough { Param (attrib = "roughness") {float {0.5}} }
Material $named { Param (attrib = "metalness") {float {0.5}} Param (attrib = "ior") {float {2.0}} }
Material $classic { Color (attrib = "specular") {float[3] {{0.5, 0.5, 0.5}}} }
)";
    LoadResult r = loadSceneFile(file.string());
    ASSERT_TRUE(r.scene) << allProblems(r);
    ASSERT_EQ(r.scene->materials.size(), 3u);
    const std::vector<Material>& m = r.scene->materials;
    EXPECT_EQ(m[0].model, ShadingModel::MetalRough);
    EXPECT_FLOAT_EQ(m[0].ior, 1.5f);
    EXPECT_FLOAT_EQ(dielectricF0(m[0].ior), 0.04f);
    EXPECT_FLOAT_EQ(m[1].ior, 2.0f);
    EXPECT_EQ(m[2].model, ShadingModel::Classic);
    EXPECT_FLOAT_EQ(m[2].ior, 1.0f);
}

// ---------------------------------------------------------------------------------------------
// texture_transforms.ogex: texture coordinate transforms, their tracks, addressing, swizzle, border

const TextureRef* textureRef(const Scene& s, const std::string& materialName, TextureSlot slot) {
    const Material* m = material(s, materialName);
    if (!m) return nullptr;
    const TextureRef& ref = m->texture(slot);
    if (ref.texture < 0 || static_cast<size_t>(ref.texture) >= s.textures.size()) {
        ADD_FAILURE() << materialName << " has no " << textureSlotName(slot) << " texture";
        return nullptr;
    }
    return &ref;
}

// The uv matrix of `ref` at `pose`, checked against the images of (0,0), (1,0) and (0,1).
void expectUvMap(const Scene& s, const Pose& pose, const TextureRef& ref, const glm::vec2 (&images)[3],
                 const std::string& what) {
    ASSERT_TRUE(ref.uvTransform >= 0 && static_cast<size_t>(ref.uvTransform) < s.uvTransforms.size()) << what;
    ASSERT_EQ(pose.uvMatrices.size(), s.uvTransforms.size()) << what;
    const glm::mat4& m = pose.uvMatrices[ref.uvTransform];
    const glm::vec2 points[3] = {{0, 0}, {1, 0}, {0, 1}};
    for (int i = 0; i < 3; ++i) {
        const glm::vec4 p = m * glm::vec4(points[i], 0.0f, 1.0f);
        EXPECT_NEAR(p.x, images[i].x, kTol) << what << ", point " << i;
        EXPECT_NEAR(p.y, images[i].y, kTol) << what << ", point " << i;
    }
}

void expectRgba(const glm::vec4& got, const glm::vec4& want, const std::string& what) {
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], want[c], kTol) << what << " channel " << c;
}

TEST(OpenGexTextures, StaticTransformsInFileOrderWithTheObjectFlagIgnored) {
    auto s = load("texture_transforms.ogex");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->uvTransforms.size(), 3u);
    EXPECT_EQ(s->textures.size(), 4u);
    const Pose rest = restPose(*s);
    const TextureRef* diffuse = textureRef(*s, "Static", TextureSlot::Diffuse);
    ASSERT_TRUE(diffuse);
    ASSERT_GE(diffuse->uvTransform, 0);
    const UvTransform& uv = s->uvTransforms[diffuse->uvTransform];
    ASSERT_EQ(uv.elements.size(), 3u);
    EXPECT_EQ(uv.elements[0].kind, ElementKind::Translate);
    EXPECT_EQ(uv.elements[1].kind, ElementKind::RotateZ);
    EXPECT_NEAR(uv.elements[1].value[0], 1.5707963f, kTol) << "90 degrees in radians";
    EXPECT_EQ(uv.elements[2].kind, ElementKind::ScaleX);
    EXPECT_FALSE(uv.elements[2].object);
    expectUvMap(*s, rest, *diffuse, {{0.5f, 0.25f}, {0.5f, 2.25f}, {-0.5f, 0.25f}}, "Static diffuse");
    const TextureRef* normal = textureRef(*s, "Static", TextureSlot::Normal);
    ASSERT_TRUE(normal);
    expectUvMap(*s, rest, *normal, {{0.1f, 0.2f}, {2.1f, 0.2f}, {0.1f, 3.2f}}, "Static normal (matrix)");
    EXPECT_NE(normal->uvTransform, diffuse->uvTransform);
}

TEST(OpenGexTextures, AddressingModesSwizzlesAndBorders) {
    auto s = load("texture_transforms.ogex");
    ASSERT_TRUE(s);
    const TextureRef* diffuse = textureRef(*s, "Static", TextureSlot::Diffuse);
    const TextureRef* normal = textureRef(*s, "Static", TextureSlot::Normal);
    const TextureRef* plain = textureRef(*s, "Static", TextureSlot::Specular);
    const TextureRef* moving = textureRef(*s, "Animated", TextureSlot::Diffuse);
    ASSERT_TRUE(diffuse && normal && plain && moving);
    EXPECT_EQ(diffuse->wrapS, Wrap::Border);
    EXPECT_EQ(diffuse->wrapT, Wrap::MirrorClamp);
    expectRgba(diffuse->border, {1, 1, 1, 1}, "white border");
    EXPECT_EQ(swizzleText(diffuse->swizzle), "bgr1");
    EXPECT_EQ(normal->wrapS, Wrap::Mirror);
    EXPECT_EQ(normal->wrapT, Wrap::Clamp);
    EXPECT_EQ(plain->uvTransform, -1);
    EXPECT_EQ(plain->wrapS, Wrap::Repeat);
    EXPECT_EQ(plain->wrapT, Wrap::Repeat);
    EXPECT_EQ(plain->swizzle, kIdentitySwizzle);
    expectRgba(plain->border, {0, 0, 0, 0}, "zero border");
    EXPECT_EQ(s->textures[plain->texture].path, "plain.png");
    EXPECT_EQ(moving->wrapS, Wrap::MirrorBorder);
    EXPECT_EQ(moving->wrapT, Wrap::Border);
    expectRgba(moving->border, {0, 0, 0, 1}, "black border");
    EXPECT_EQ(swizzleText(moving->swizzle), "rrrr");
    // What now works is no longer reported as ignored.
    for (const ReportLine& line : s->report) {
        EXPECT_EQ(line.text.find("not applied"), std::string::npos) << line.text;
        EXPECT_EQ(line.text.find("shown as clamp"), std::string::npos) << line.text;
        EXPECT_EQ(line.text.find("not played"), std::string::npos) << line.text;
    }
}

TEST(OpenGexTextures, AnimationsInsideATextureBecomeUvTracks) {
    auto s = load("texture_transforms.ogex");
    ASSERT_TRUE(s);
    const int uvClip = clipIndex(*s, "uv");
    ASSERT_GE(uvClip, 0);
    const Clip& clip = s->animation.clips[uvClip];
    const TextureRef* moving = textureRef(*s, "Animated", TextureSlot::Diffuse);
    ASSERT_TRUE(moving);
    size_t uvTracks = 0, nodeTracks = 0;
    for (const Track& t : clip.tracks) {
        if (t.channel == Channel::UvElement) {
            ++uvTracks;
            EXPECT_EQ(t.node, -1);
            EXPECT_EQ(t.uvTransform, moving->uvTransform);
            EXPECT_LT(t.element, 3u);
        } else {
            ++nodeTracks;
            EXPECT_EQ(t.node, nodeIndex(*s, "Board"));
        }
    }
    EXPECT_EQ(uvTracks, 3u);
    EXPECT_EQ(nodeTracks, 1u);
    // The clip spans every key, the texture's included.
    EXPECT_NEAR(clip.start, 0.0f, kTol);
    EXPECT_NEAR(clip.duration(), 2.0f, kTol);
    const Pose rest = restPose(*s);
    expectUvMap(*s, rest, *moving, {{0, 0}, {1, 0}, {0, 1}}, "rest");
    expectUvMap(*s, clipPose(*s, uvClip, 0.5f), *moving, {{0.25f, 0}, {1.75f, 0}, {0.25f, 1.25f}}, "t = 0.5");
    expectUvMap(*s, clipPose(*s, uvClip, 1.0f), *moving, {{0.5f, 0}, {0.5f, 2}, {-1, 0}}, "t = 1");
    expectUvMap(*s, clipPose(*s, uvClip, 2.0f), *moving, {{1, 0}, {1, 3}, {-1, 0}}, "t = 2");
    // The node track of the same clip still moves the node.
    const Pose half = clipPose(*s, uvClip, 0.5f);
    EXPECT_NEAR(half.world[nodeIndex(*s, "Board")][3].z, 2.0f, kTol);
}

TEST(OpenGexTextures, TextureAnimationOfAnotherClipWithBeginAndEnd) {
    auto s = load("texture_transforms.ogex");
    ASSERT_TRUE(s);
    const int window = clipIndex(*s, "window");
    ASSERT_GE(window, 0);
    const Clip& clip = s->animation.clips[window];
    EXPECT_NEAR(clip.start, 0.5f, kTol);
    EXPECT_NEAR(clip.end, 1.5f, kTol);
    ASSERT_EQ(clip.tracks.size(), 1u);
    EXPECT_EQ(clip.tracks[0].channel, Channel::UvElement);
    const TextureRef* moving = textureRef(*s, "Animated", TextureSlot::Diffuse);
    ASSERT_TRUE(moving);
    // 0.5 s after the clip's beginning is 1 s: tx = 10, the other elements at rest.
    expectUvMap(*s, clipPose(*s, window, 0.5f), *moving, {{10, 0}, {11, 0}, {10, 1}}, "window at 1 s");
}

}  // namespace
}  // namespace esv
