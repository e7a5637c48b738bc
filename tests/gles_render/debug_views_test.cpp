// The renderer's debugging aids, checked by their pixels in ES3 and ES2 mode: the wireframe
// overlay, forced two-sided drawing, the light switches and camera rig, the selection outline,
// one joint's influence, joint axes and the bind-pose skeleton, the SkinDiff view, the shared
// camera matrices, the orbit camera's near and far planes, and the frame statistics.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <glad/gles2.h>

#include "common/image_compare.h"
#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"
#include "target/binding_plan.h"
#include "renderer/camera.h"
#include "renderer/shader_program.h"
#include "scene/cpu_reference.h"
#include "scene/demo_scene.h"
#include "scene/sampler.h"

namespace {

using esv::test::Image;


// The demo's nodes (scene/demo_scene.cpp): the skinned tentacle, the morphing blob, a light.
constexpr int kTentacle = 1;
constexpr int kBlob = 2;
constexpr int kKeyLight = 3;

struct Frame {
    Image image;
    esv::FrameStats stats;

    const uint8_t* at(int x, int y) const { return &image.rgba[(size_t(y) * image.width + x) * 4]; }
};

// The harness keeps its context, renderer and prepared scene across frames, so tests can edit the
// scene or the view between draws. Each frame here is drawn with the orbit camera framing the scene
// at `pose` and must be free of GL errors.
Frame draw(esv::test::RenderHarness& harness, const esv::Pose& pose, const esv::ViewSettings& view) {
    esv::test::Rendered r = harness.drawFramed(pose, view);
    EXPECT_EQ(r.stats.glErrors, 0u);
    return {std::move(r.image), r.stats};
}

// The screen box of mesh node n's CPU-skinned vertices.
void screenBox(const esv::test::RenderHarness& harness, const esv::Pose& pose, const esv::ViewSettings& view,
               int n, glm::vec2& lo, glm::vec2& hi) {
    std::vector<glm::vec3> positions;
    esv::worldVertices(harness.scene(), pose, n, positions);
    lo = glm::vec2(1e9f);
    hi = glm::vec2(-1e9f);
    for (const glm::vec3& p : positions) {
        const glm::vec2 s = harness.project(pose, view, p);
        lo = glm::min(lo, s);
        hi = glm::max(hi, s);
    }
}

esv::Pose poseAt(const esv::Scene& scene, float seconds) {
    esv::Pose pose;
    esv::evaluatePose(scene, seconds < 0.0f ? -1 : 0, std::max(seconds, 0.0f), pose);
    return pose;
}

const char* modeName(bool gles2) {
    return gles2 ? "ES2" : "ES3";
}

bool near(const uint8_t* p, const glm::vec3& color, int tolerance) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(int(p[c]) - int(std::lround(color[c] * 255.0f))) > tolerance) return false;
    return true;
}

bool samePixel(const uint8_t* a, const uint8_t* b) {
    return std::memcmp(a, b, 3) == 0;
}

// Pixels of `after` that differ from `before` and satisfy `match`, and the box around them.
struct Added {
    int count = 0;
    int outside = 0;  // of those, outside the box given to addedPixels
};
Added addedPixels(const Frame& before, const Frame& after, const std::function<bool(const uint8_t*)>& match,
                  glm::vec2 lo = glm::vec2(-1e9f), glm::vec2 hi = glm::vec2(1e9f)) {
    Added added;
    for (int y = 0; y < after.image.height; ++y)
        for (int x = 0; x < after.image.width; ++x) {
            if (samePixel(before.at(x, y), after.at(x, y)) || !match(after.at(x, y))) continue;
            ++added.count;
            if (x + 0.5f < lo.x || x + 0.5f > hi.x || y + 0.5f < lo.y || y + 0.5f > hi.y) ++added.outside;
        }
    return added;
}

// Colours the renderer uses (gl_renderer.cpp), as a test sees them.
const glm::vec3 kEdge(0.9f, 0.9f, 0.9f);
const glm::vec3 kAccent(1.0f, 0.75f, 0.0f);
const glm::vec3 kJoint(1.0f, 0.35f, 0.1f);
const glm::vec3 kBindBone(0.1f, 0.8f, 0.75f);
const glm::vec3 kBindJoint(0.1f, 0.6f, 0.95f);
const glm::vec3 kAxes[3] = {{1.0f, 0.1f, 0.1f}, {0.1f, 1.0f, 0.1f}, {0.15f, 0.3f, 1.0f}};

// The Weights ramp (mesh.frag): blue at 0, green at 0.5, red at 1.
glm::vec3 heat(float w) {
    return glm::clamp(glm::vec3(2.0f * w - 0.5f, 1.0f - std::abs(2.0f * w - 1.0f), 1.5f - 2.0f * w), 0.0f,
                      1.0f);
}
bool onHeatRamp(const uint8_t* p) {
    for (int i = 0; i <= 256; ++i)
        if (near(p, heat(float(i) / 256.0f), 4)) return true;
    return false;
}

class DebugViews : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_demo = std::make_unique<esv::Scene>(esv::makeDemoScene()); }
    static void TearDownTestSuite() { s_demo.reset(); }
    static std::unique_ptr<esv::Scene> s_demo;
};
std::unique_ptr<esv::Scene> DebugViews::s_demo;

TEST(ViewModeNames, SkinDiffIsAddedAfterTheExistingModes) {
    EXPECT_EQ(int(esv::ViewMode::VertexColors), 7);
    EXPECT_EQ(int(esv::ViewMode::SkinDiff), 8);
    EXPECT_STREQ(esv::viewModeName(esv::ViewMode::SkinDiff), "skindiff");
    esv::ViewMode mode = esv::ViewMode::Shaded;
    EXPECT_TRUE(esv::parseViewMode("skindiff", mode));
    EXPECT_EQ(mode, esv::ViewMode::SkinDiff);
}

// Edges in the edge colour over the shaded surfaces; everything else stays as it was, since
// only the depth of the filled pass moves (polygon offset).
TEST_F(DebugViews, WireframeOverlayDrawsEdgesOverTheShadedScene) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    esv::ViewSettings overlay;
    overlay.wireframeOverlay = true;
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame plain = draw(session, pose, {});
        const Frame edges = draw(session, pose, overlay);
        // One more draw per (submesh, bone batch) range: the tentacle's two batches and the blob.
        EXPECT_EQ(edges.stats.drawCalls, plain.stats.drawCalls + 3) << modeName(gles2);
        const Added added = addedPixels(plain, edges, [](const uint8_t* p) { return near(p, kEdge, 2); });
        const Added changed = addedPixels(plain, edges, [](const uint8_t*) { return true; });
        EXPECT_GT(added.count, 1500) << modeName(gles2);
        EXPECT_EQ(changed.count, added.count) << modeName(gles2) << ": only edge pixels change";
        // Edges lie on the meshes: on the background only where a silhouette edge's line spills
        // into the next pixel.
        const uint8_t* background = plain.at(0, 0);
        int offMesh = 0;
        for (int y = 1; y + 1 < plain.image.height; ++y)
            for (int x = 1; x + 1 < plain.image.width; ++x) {
                if (!samePixel(plain.at(x, y), background) || samePixel(edges.at(x, y), background)) continue;
                bool besideMesh = false;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        besideMesh |= !samePixel(plain.at(x + dx, y + dy), background);
                offMesh += !besideMesh;
            }
        EXPECT_EQ(offMesh, 0) << modeName(gles2);
    }
}

// A quad whose triangles wind clockwise as the camera sees it: culled unless forced two-sided.
TEST(DebugViewsSynthetic, ForceTwoSidedShowsCulledBackFaces) {
    esv::Scene scene;
    scene.format = "test";
    // Facing -Z, normals included: the camera on +Z sees its back.
    const float vertices[4][6] = {
        {-1, -1, 0, 0, 0, -1}, {1, -1, 0, 0, 0, -1}, {1, 1, 0, 0, 0, -1}, {-1, 1, 0, 0, 0, -1}};
    std::vector<uint8_t> bytes(sizeof vertices);
    std::memcpy(bytes.data(), vertices, sizeof vertices);
    esv::Mesh mesh;
    mesh.name = "backwards quad";
    mesh.vertexCount = 4;
    esv::VertexStream stream;
    stream.bytes = esv::makeOwnedBytes(std::move(bytes));
    stream.stride = 24;
    stream.count = 4;
    stream.attributes = {
        {esv::Semantic::Position, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 0},
        {esv::Semantic::Normal, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 12}};
    mesh.streams.push_back(stream);
    const uint16_t indices[6] = {0, 2, 1, 0, 3, 2};  // clockwise seen from +Z, where the camera is
    std::vector<uint8_t> indexBytes(sizeof indices);
    std::memcpy(indexBytes.data(), indices, sizeof indices);
    mesh.indices.count = 6;
    mesh.indices.bytes = esv::makeOwnedBytes(std::move(indexBytes));
    esv::Submesh sub;
    sub.indexCount = 6;
    mesh.submeshes.push_back(sub);
    scene.meshes.push_back(mesh);
    scene.materials.push_back(esv::Material());
    esv::Node node;
    node.kind = esv::NodeKind::Mesh;
    node.object = 0;
    node.materials = {0};
    scene.nodes.push_back(node);

    const esv::Pose pose = poseAt(scene, -1.0f);
    esv::ViewSettings view;
    view.orbit.yaw = view.orbit.pitch = 0.0f;  // looking down -Z at the quad
    esv::ViewSettings forced = view;
    forced.forceTwoSided = true;
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2, 64, 64);
        ASSERT_TRUE(session.setScene(scene));
        const Frame culled = draw(session, pose, view);
        const Frame shown = draw(session, pose, forced);
        const Added added = addedPixels(culled, shown, [](const uint8_t*) { return true; });
        int covered = 0;
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x) covered += !samePixel(culled.at(x, y), culled.at(0, 0));
        EXPECT_EQ(covered, 0) << modeName(gles2) << ": the back faces are culled";
        EXPECT_GT(added.count, 64 * 64 / 4) << modeName(gles2);
        // The back face is lit from the camera's side (the shader flips its normal).
        EXPECT_GT(shown.at(32, 32)[0], 100) << modeName(gles2);
    }
}

// The panel's thumbnails take the renderer's texture names: a live texture for an uploaded image,
// 0 for an index the scene does not have.
TEST(DebugViewsSynthetic, TextureObjectNamesTheUploadedTexture) {
    esv::Scene scene = esv::makeDemoScene();
    esv::Texture texture;
    texture.name = "checker";
    texture.image.width = texture.image.height = 2;
    texture.image.container = "test";
    texture.image.surfaces.push_back(esv::makeOwnedBytes(std::vector<uint8_t>(16, 200)));
    scene.textures.push_back(texture);
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2, 16, 16);
        ASSERT_TRUE(session.setScene(scene));
        const unsigned name = session.renderer().textureObject(0);
        EXPECT_NE(name, 0u) << modeName(gles2);
        EXPECT_TRUE(glIsTexture(name)) << modeName(gles2);
        EXPECT_EQ(session.renderer().textureObject(1), 0u);
        EXPECT_EQ(session.renderer().textureObject(-1), 0u);
    }
}

// The three lightings differ: the file's lights alone, the studio rig alone, and both (the
// default: the rig adds to the file's lights, its highlights rolled off); the headlight adds light; with the file's lights all
// off the headlight pair stands in; edits to Scene::lights show in the next frame of the same
// renderer.
TEST_F(DebugViews, LightSwitchesRigAndPerLightEdits) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    auto brightness = [](const Frame& f) {
        double sum = 0.0;
        for (int y = 0; y < f.image.height; ++y)
            for (int x = 0; x < f.image.width; ++x)
                if (!samePixel(f.at(x, y), f.at(0, 0))) sum += f.at(x, y)[0] + f.at(x, y)[1] + f.at(x, y)[2];
        return sum;
    };
    esv::ViewSettings fileLights, studio, both;
    fileLights.lighting = esv::Lighting::File;
    studio.lighting = esv::Lighting::Studio;
    both.lighting = esv::Lighting::Both;
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame lit = draw(session, pose, fileLights);
        const Frame rig = draw(session, pose, studio);
        EXPECT_GT(esv::test::compareImages(rig.image, lit.image, 8).differingFraction, 0.05) << modeName(gles2);
        const Frame together = draw(session, pose, both);
        EXPECT_GT(esv::test::compareImages(together.image, lit.image, 8).differingFraction, 0.05)
            << modeName(gles2);
        // The demo's sun gives the side in view about 1.3, more than the rig's target: beside the
        // rig it is exposed down to 0.49 of a unit light, the rig adds its least strength and the
        // studio response (the display gamma) lifts the result, so both together are about as
        // bright as the sun alone, neither much darker nor brighter.
        EXPECT_EQ(lit.stats.fileLightExposure, 1.0f) << "the file's lights alone are as they are";
        EXPECT_LT(together.stats.fileLightExposure, 0.45f) << modeName(gles2);
        EXPECT_GT(together.stats.fileLightExposure, 0.3f) << modeName(gles2);
        EXPECT_GT(brightness(together), 0.8 * brightness(lit)) << modeName(gles2);
        EXPECT_LT(brightness(together), 1.1 * brightness(lit)) << modeName(gles2);
        EXPECT_EQ(esv::test::compareImages(draw(session, pose, {}).image, together.image, 0).differingFraction, 0.0)
            << "the default is File + Studio";
        esv::ViewSettings headlight = fileLights;
        headlight.headlight = true;
        EXPECT_GT(brightness(draw(session, pose, headlight)), 1.1 * brightness(lit)) << modeName(gles2);

        // Every light of the file off: the headlight pair stands in.
        for (esv::Light& l : session.scene().lights) l.enabled = false;
        const Frame standIn = draw(session, pose, fileLights);
        EXPECT_GT(esv::test::compareImages(standIn.image, lit.image, 8).differingFraction, 0.05) << modeName(gles2);
        EXPECT_GT(brightness(standIn), 0.3 * brightness(lit)) << modeName(gles2);
        for (esv::Light& l : session.scene().lights) l.enabled = true;

        // Per-light edits between frames: disabling equals zero intensity, restoring restores.
        session.scene().lights[0].enabled = false;
        const Frame disabled = draw(session, pose, fileLights);
        EXPECT_GT(esv::test::compareImages(disabled.image, lit.image, 8).differingFraction, 0.05)
            << modeName(gles2);
        session.scene().lights[0].enabled = true;
        session.scene().lights[0].intensity = 0.0f;
        EXPECT_EQ(
            esv::test::compareImages(draw(session, pose, fileLights).image, disabled.image, 0).differingFraction,
            0.0);
        session.scene().lights[0].intensity = 1.0f;
        session.scene().lights[0].color = glm::vec3(1.0f, 0.0f, 0.0f);
    }
}

// The selected mesh: a thin accent-coloured outline around its silhouette, its surface as it was
// and its axis tripod, for the morphing blob and the skinned tentacle (two bone batches), at a cost
// of one draw per drawn range of the node. A selected light gets the tripod alone.
TEST_F(DebugViews, SelectionOutlinesTheNodeAndLeavesItsSurface) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    auto accent = [](const uint8_t* p) { return near(p, kAccent, 8); };
    auto axis = [](int a) { return [a](const uint8_t* p) { return near(p, kAxes[a], 8); }; };
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame plain = draw(session, pose, {});
        const int w = plain.image.width, h = plain.image.height;
        for (int node : {kBlob, kTentacle}) {
            const std::string what = std::string(modeName(gles2)) + (node == kBlob ? " blob" : " tentacle");
            esv::ViewSettings view;
            view.highlightNode = node;
            const Frame selected = draw(session, pose, view);
            // The node alone, seen by the same camera: its draws, triangles and silhouette.
            esv::Pose alone = pose;
            for (size_t n = 0; n < alone.visible.size(); ++n) alone.visible[n] = int(n) == node;
            esv::test::Rendered drawn = session.draw(alone, session.framed(pose, {}));
            const Frame only{std::move(drawn.image), drawn.stats};
            ASSERT_GT(only.stats.drawCalls, 0u) << what;
            // The outline repeats each of the node's draws once; the tripod is one line draw.
            EXPECT_EQ(selected.stats.drawCalls, plain.stats.drawCalls + only.stats.drawCalls + 1) << what;
            EXPECT_EQ(selected.stats.triangles, plain.stats.triangles + only.stats.triangles) << what;
            if (node == kTentacle) {
                EXPECT_EQ(only.stats.drawCalls, 2u) << what;  // one per bone batch
            }

            // Distance (in pixels, Chebyshev) of each pixel from the node's silhouette, up to 8.
            std::vector<int> inside(size_t(w) * h), outside(size_t(w) * h);
            auto covered = [&](int x, int y) { return !samePixel(only.at(x, y), only.at(0, 0)); };
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    int in = 8, out = 8;
                    for (int dy = -8; dy <= 8; ++dy)
                        for (int dx = -8; dx <= 8; ++dx) {
                            const int xx = x + dx, yy = y + dy, d = std::max(std::abs(dx), std::abs(dy));
                            const bool c = xx >= 0 && yy >= 0 && xx < w && yy < h && covered(xx, yy);
                            if (c) out = std::min(out, d);
                            else in = std::min(in, d);
                        }
                    inside[size_t(y) * w + x] = covered(x, y) ? in : 0;
                    outside[size_t(y) * w + x] = covered(x, y) ? 0 : out;
                }
            // Inside the silhouette, away from its border: the node's own colours, unchanged (but
            // where the tripod crosses).
            int interior = 0, changed = 0, ring = 0, stray = 0;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    const size_t i = size_t(y) * w + x;
                    const uint8_t* p = selected.at(x, y);
                    if (inside[i] >= 3) {
                        if (axis(0)(p) || axis(1)(p) || axis(2)(p)) continue;
                        ++interior;
                        changed += !samePixel(p, plain.at(x, y));
                    } else if (outside[i] > 0 && accent(p) && !samePixel(p, plain.at(x, y))) {
                        // The outline: just outside the silhouette, a few pixels wide.
                        if (outside[i] <= 3) ++ring;
                        else ++stray;
                    }
                }
            EXPECT_GT(interior, 200) << what;
            EXPECT_EQ(changed, 0) << what;
            EXPECT_GT(ring, 60) << what;
            EXPECT_EQ(stray, 0) << what;
        }

        esv::ViewSettings view;
        view.highlightNode = kBlob;
        const Frame selected = draw(session, pose, view);
        const glm::vec2 centre = session.project(pose, view, glm::vec3(pose.world[kBlob][3]));
        for (int a = 0; a < 3; ++a) {
            // Each axis starts at the node's origin and is drawn through the blob.
            const Added tripod = addedPixels(plain, selected, axis(a), centre - 40.0f, centre + 40.0f);
            EXPECT_GT(tripod.count, 5) << modeName(gles2) << " axis " << a;
            EXPECT_EQ(tripod.outside, 0) << modeName(gles2) << " axis " << a;
        }

        view.highlightNode = kKeyLight;
        const Frame light = draw(session, pose, view);
        EXPECT_EQ(light.stats.drawCalls, plain.stats.drawCalls + 1) << modeName(gles2);
        EXPECT_EQ(addedPixels(plain, light, accent).count, 0) << modeName(gles2);
        const glm::vec2 at = session.project(pose, view, glm::vec3(pose.world[kKeyLight][3]));
        if (at.x >= 0 && at.y >= 0 && at.x < 192 && at.y < 192) {
            int axes = 0;
            for (int a = 0; a < 3; ++a)
                axes += addedPixels(plain, light, axis(a), at - 40.0f, at + 40.0f).count;
            EXPECT_GT(axes, 10) << modeName(gles2);
        }
    }
}

// Every vertex a joint moves, as a heat-coloured point over the tentacle (the only skinned mesh),
// plus the joint's marker.
TEST_F(DebugViews, InfluenceJointPointsLieOnTheSkinnedMesh) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame plain = draw(session, pose, {});
        esv::ViewSettings view;
        view.influenceJoint = s_demo->skins[0].joints[3];
        const Frame influence = draw(session, pose, view);
        EXPECT_EQ(influence.stats.drawCalls, plain.stats.drawCalls + 2) << modeName(gles2);  // points, marker
        glm::vec2 lo, hi;
        screenBox(session, pose, view, kTentacle, lo, hi);
        const Added points = addedPixels(plain, influence, onHeatRamp, lo - 3.0f, hi + 3.0f);
        EXPECT_GT(points.count, 200) << modeName(gles2);
        EXPECT_EQ(points.outside, 0) << modeName(gles2);
        // Everything added is a heat colour or the joint marker, which sits on the joint.
        const glm::vec2 joint = session.project(pose, view, glm::vec3(pose.world[view.influenceJoint][3]));
        EXPECT_TRUE(near(influence.at(int(joint.x), int(joint.y)), kJoint, 8)) << modeName(gles2);
        const Added other = addedPixels(
            plain, influence, [](const uint8_t* p) { return !onHeatRamp(p) && !near(p, kJoint, 8); });
        EXPECT_EQ(other.count, 0) << modeName(gles2);
        // A joint at the tip moves none of the bottom vertices: its points stay in the upper part.
        view.influenceJoint = s_demo->skins[0].joints[5];
        const Frame tip = draw(session, pose, view);
        const glm::vec2 base =
            session.project(pose, view, glm::vec3(pose.world[s_demo->skins[0].joints[0]][3]));
        EXPECT_EQ(
            addedPixels(plain, tip, onHeatRamp, glm::vec2(-1e9f), glm::vec2(1e9f, base.y - 20.0f)).outside, 0)
            << modeName(gles2);
    }
}

// The app's annotations (ViewSettings::annotations: the POF markers): depth-tested, a point inside
// the blob hides behind its surface and a point in front of it shows; drawn through surfaces (x-ray)
// the point inside shows too. The points take one draw. The legends' ramp is this file's heat().
TEST_F(DebugViews, AnnotationsHideBehindSurfacesUnlessDrawnThrough) {
    for (int i = 0; i <= 16; ++i) {
        const glm::vec3 a = esv::heatColor(float(i) / 16.0f), b = heat(float(i) / 16.0f);
        EXPECT_LT(glm::length(a - b), 1e-6f) << i;
    }
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    const glm::vec3 magenta(1.0f, 0.0f, 1.0f);
    auto magentaPixels = [&](const Frame& f) {
        int count = 0;
        for (int y = 0; y < f.image.height; ++y)
            for (int x = 0; x < f.image.width; ++x) count += near(f.at(x, y), magenta, 8);
        return count;
    };
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(modeName(gles2));
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame plain = draw(session, pose, {});
        std::vector<glm::vec3> positions;
        esv::worldVertices(session.scene(), pose, kBlob, positions);
        ASSERT_FALSE(positions.empty());
        glm::vec3 centre(0.0f);
        for (const glm::vec3& p : positions) centre += p / float(positions.size());
        float radius = 0.0f;
        for (const glm::vec3& p : positions) radius = std::max(radius, glm::length(p - centre));
        glm::mat4 viewMatrix, projection;
        esv::cameraMatrices(session.scene(), pose, session.framed(pose, {}), 192, 192, viewMatrix,
                            projection);
        const glm::vec3 eye(glm::inverse(viewMatrix)[3]);

        esv::Annotations inside;
        inside.points = {{centre, glm::vec4(magenta, 1.0f)}};
        inside.pointSize = 9.0f;
        esv::ViewSettings view;
        view.annotations = &inside;
        const Frame hidden = draw(session, pose, view);
        EXPECT_EQ(hidden.stats.drawCalls, plain.stats.drawCalls + 1);
        EXPECT_EQ(magentaPixels(hidden), 0) << "inside the blob";
        inside.throughSurfaces = true;
        const Frame xray = draw(session, pose, view);
        EXPECT_GE(magentaPixels(xray), 70) << "a 9 px square";
        const glm::vec2 at = session.project(pose, view, centre);
        EXPECT_TRUE(near(xray.at(int(at.x), int(at.y)), magenta, 8));

        esv::Annotations front = inside;
        front.throughSurfaces = false;
        front.points[0].position = centre + 1.5f * radius * glm::normalize(eye - centre);
        view.annotations = &front;
        EXPECT_GE(magentaPixels(draw(session, pose, view)), 70) << "in front of the blob";
    }
}

// Joint axes in red, green and blue; the bind-pose skeleton in cyan at the rest pose, which is
// the demo's bind pose, while the animated skeleton has moved away.
TEST_F(DebugViews, JointAxesAndBindPoseSkeleton) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    const esv::Pose rest = poseAt(*s_demo, -1.0f);
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame plain = draw(session, pose, {});
        esv::ViewSettings view;
        view.showJointAxes = true;
        const Frame axes = draw(session, pose, view);
        for (int a = 0; a < 3; ++a)
            EXPECT_GT(addedPixels(plain, axes, [a](const uint8_t* p) { return near(p, kAxes[a], 8); }).count,
                      20)
                << modeName(gles2) << " axis " << a;
        esv::ViewSettings bind;
        bind.showSkeleton = true;
        bind.showBindPose = true;
        const Frame both = draw(session, pose, bind);
        EXPECT_GT(addedPixels(plain, both, [](const uint8_t* p) { return near(p, kBindBone, 8); }).count, 20)
            << modeName(gles2);
        for (int32_t j : s_demo->skins[0].joints) {
            const glm::vec2 at = session.project(pose, bind, glm::vec3(rest.world[j][3]));
            EXPECT_TRUE(near(both.at(int(at.x), int(at.y)), kBindJoint, 8))
                << modeName(gles2) << " joint " << j;
        }
        // The tip joint of the animated skeleton is elsewhere at this time, in the skeleton's colour.
        const int32_t tip = s_demo->skins[0].joints.back();
        const glm::vec2 animated = session.project(pose, bind, glm::vec3(pose.world[tip][3]));
        EXPECT_GT(glm::length(animated - session.project(pose, bind, glm::vec3(rest.world[tip][3]))), 8.0f);
        EXPECT_TRUE(near(both.at(int(animated.x), int(animated.y)), kJoint, 8)) << modeName(gles2);
    }
}

// SkinDiff: the tentacle in the heat colour of its tiny GPU/CPU difference (blue), the blob grey;
// ES2 mode cannot capture, draws everything grey and says so with -1.
TEST_F(DebugViews, SkinDiffComparesGpuAndCpuSkinning) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    const esv::Bounds bounds = esv::sceneBounds(*s_demo, pose);
    const float diagonal = glm::length(bounds.max - bounds.min);
    esv::ViewSettings view;
    view.mode = esv::ViewMode::SkinDiff;
    auto blue = [](const uint8_t* p) { return near(p, heat(0.0f), 12); };
    // Grey as the scene's tinted lights shade it: bright enough, and far from saturated.
    auto grey = [](const uint8_t* p) {
        return p[0] > 40 && std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) < 48;
    };
    auto count = [](const Frame& f, const std::function<bool(const uint8_t*)>& match) {
        int n = 0;
        for (size_t i = 0; i < f.image.rgba.size(); i += 4) n += match(&f.image.rgba[i]);
        return n;
    };
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame shaded = draw(session, pose, {});
        EXPECT_EQ(shaded.stats.skinDiffMax, -1.0f);
        const Frame diff = draw(session, pose, view);
        EXPECT_GT(count(diff, grey), 400) << modeName(gles2);
        if (gles2) {
            EXPECT_EQ(diff.stats.skinDiffMax, -1.0f);
            EXPECT_EQ(count(diff, blue), 0);
            continue;
        }
        EXPECT_GE(diff.stats.skinDiffMax, 0.0f);
        EXPECT_LT(diff.stats.skinDiffMax, 1e-3f * diagonal);
        EXPECT_GT(count(diff, blue), 1000);
        // One draw per range: the tentacle's one submesh from the reference positions, the blob.
        EXPECT_EQ(diff.stats.drawCalls, 2u);
        EXPECT_EQ(diff.stats.boneBatchesDrawn, 0u);
        // A range below the largest difference turns the worst vertices red.
        if (diff.stats.skinDiffMax > 0.0f) {
            esv::ViewSettings tight = view;
            tight.skinDiffRange = diff.stats.skinDiffMax * 0.5f;
            const Frame red = draw(session, pose, tight);
            EXPECT_GT(count(red, [](const uint8_t* p) { return p[0] > 200 && p[2] < 60; }), 0);
        }
        // Many frames reuse the same GL objects and stay error-free.
        for (int i = 0; i < 20; ++i) EXPECT_EQ(draw(session, pose, view).stats.glErrors, 0u);
        EXPECT_EQ(esv::test::matchGolden("demo_skindiff", diff.image), "");
    }
}

// The skinned sample PODs through SkinDiff: the GPU matches the CPU reference to far less than the
// heat ramp's default range. Their bind pose is frame 0 (POD folds the mesh node's frame-0 world
// matrix into the inverse binds), so there the bind skeleton's joints sit on the animated ones.
TEST(DebugViewsPod, SkinDiffAndBindPoseOnSkinnedSamples) {
    ESVIEW_REQUIRE_MODELS("pod");
    for (const char* file :
         {"cocos3d/cocos3d_man.pod", "cocos3d/cocos3d_mallet.pod", "oolong/oolong_model_fixed.pod",
          "oolong/oolong_model_float_noninterleaved.pod"}) {
        esv::LoadResult loaded = esv::loadSceneFile((esv::test::modelsDir() / "pod" / file).string());
        ASSERT_NE(loaded.scene, nullptr) << file;
        const esv::Scene& scene = *loaded.scene;
        esv::test::RenderHarness session(false);
        ASSERT_TRUE(session.setScene(scene));
        const float end = scene.animation.clips.empty() ? 0.0f : scene.animation.clips[0].duration();
        float worst = 0.0f;
        for (float t : {0.0f, 0.5f * end}) {
            const esv::Pose pose = poseAt(scene, t);
            const esv::Bounds bounds = esv::sceneBounds(scene, pose);
            esv::ViewSettings view;
            view.mode = esv::ViewMode::SkinDiff;
            const Frame diff = draw(session, pose, view);
            EXPECT_GE(diff.stats.skinDiffMax, 0.0f) << file;
            EXPECT_LT(diff.stats.skinDiffMax, 1e-3f * glm::length(bounds.max - bounds.min)) << file;
            worst = std::max(worst, diff.stats.skinDiffMax / glm::length(bounds.max - bounds.min));
        }
        std::printf("%s: SkinDiff max %.2e of the scene diagonal\n", file, double(worst));

        const esv::Pose first = poseAt(scene, 0.0f);
        esv::ViewSettings bind;
        bind.showBindPose = true;
        const Frame frame = draw(session, first, bind);
        int checked = 0, onJoint = 0;
        for (const esv::Skin& skin : scene.skins)
            for (int32_t j : skin.joints) {
                const glm::vec2 at = session.project(first, bind, glm::vec3(first.world[j][3]));
                if (at.x < 1 || at.y < 1 || at.x >= 191 || at.y >= 191) continue;
                ++checked;
                onJoint += near(frame.at(int(at.x), int(at.y)), kBindJoint, 8);
            }
        EXPECT_GT(checked, 0) << file;
        EXPECT_EQ(onJoint, checked) << file;
    }
}

// Every overlay at once, against a reference image in both modes.
TEST_F(DebugViews, OverlaysTogetherMatchGolden) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    esv::ViewSettings view;
    view.showSkeleton = true;
    view.showBindPose = true;
    view.showJointAxes = true;
    view.highlightNode = kBlob;
    view.influenceJoint = s_demo->skins[0].joints[2];
    view.lighting = esv::Lighting::Both;
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const Frame frame = draw(session, pose, view);
        if (gles2 && esv::test::updatingGoldens()) continue;
        EXPECT_EQ(esv::test::matchGolden(esv::test::lineGolden("demo_debug_overlays"), frame.image), "")
            << modeName(gles2);
    }
}

// cameraMatrices is what draw() uses: skeleton joints projected with it land on their markers, for
// the orbit camera and the file camera, on a non-square viewport.
TEST_F(DebugViews, CameraMatricesProjectWhereDrawPutsThings) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    for (int camera : {-1, 0}) {
        esv::test::RenderHarness session(false, 240, 160);
        ASSERT_TRUE(session.setScene(*s_demo));
        esv::ViewSettings view;
        view.camera = camera;
        view.showSkeleton = true;
        const Frame frame = draw(session, pose, view);
        int checked = 0;
        for (int32_t j : s_demo->skins[0].joints) {
            const glm::vec2 at = session.project(pose, view, glm::vec3(pose.world[j][3]));
            ASSERT_TRUE(at.x >= 0 && at.y >= 0 && at.x < 240 && at.y < 160) << "joint " << j;
            EXPECT_TRUE(near(frame.at(int(at.x), int(at.y)), kJoint, 8))
                << "camera " << camera << " joint " << j;
            ++checked;
        }
        EXPECT_EQ(checked, 6);
    }
}

// Near and far enclose the framed sphere tightly; without one they keep the distance ratios.
TEST(OrbitCamera, NearAndFarHugTheFramedScene) {
    auto planes = [](const esv::OrbitCamera& orbit, float& nearZ, float& farZ) {
        glm::mat4 v, p;
        esv::orbitMatrices(orbit, 1.0f, v, p);
        // glm::perspective (right-handed, clip z in -1..1).
        nearZ = p[3][2] / (p[2][2] - 1.0f);
        farZ = p[3][2] / (p[2][2] + 1.0f);
    };
    esv::OrbitCamera orbit;
    float nearZ, farZ;
    planes(orbit, nearZ, farZ);
    EXPECT_NEAR(nearZ, 0.01f * orbit.distance, 1e-4f);
    EXPECT_NEAR(farZ, 100.0f * orbit.distance, 1e-3f * farZ);

    esv::frameBounds(orbit, glm::vec3(-1.0f, 0.0f, -2.0f), glm::vec3(3.0f, 4.0f, 2.0f), 1.0f);
    const float radius = 0.5f * glm::length(glm::vec3(4.0f));
    EXPECT_FLOAT_EQ(orbit.sceneRadius, radius);
    planes(orbit, nearZ, farZ);
    const glm::vec3 eye = orbit.target + orbit.distance * esv::orbitDirection(orbit);
    const float eyeToCentre = glm::length(eye - orbit.sceneCenter);
    EXPECT_LT(nearZ, eyeToCentre - radius);
    EXPECT_GT(farZ, eyeToCentre + radius);
    EXPECT_NEAR(nearZ, eyeToCentre - 1.5f * radius, 1e-3f);
    EXPECT_LT(farZ / nearZ, 20.0f);  // was 10000 with the distance ratios

    // Panned away from the centre, the planes still enclose the sphere.
    orbit.target += glm::vec3(2.0f, 0.0f, 0.0f);
    planes(orbit, nearZ, farZ);
    glm::mat4 v, p;
    esv::orbitMatrices(orbit, 1.0f, v, p);
    const float centreDepth = -(v * glm::vec4(orbit.sceneCenter, 1.0f)).z;
    EXPECT_LT(nearZ, centreDepth - radius);
    EXPECT_GT(farZ, centreDepth + radius);

    // Inside the sphere near falls to a thousandth of the distance: nothing close is clipped.
    orbit.target = orbit.sceneCenter;
    orbit.distance = 0.1f;
    planes(orbit, nearZ, farZ);
    EXPECT_NEAR(nearZ, 1e-4f, 1e-6f);
    EXPECT_GT(farZ, 0.1f + radius);
}

// Framing fits the projected box, not its sphere: all eight corners land inside the picture (or
// the region asked for) less the margin, and the box spans 1 - 2 margins of the width or the height,
// for long, flat and cubic boxes seen from several directions, in wide, square and tall pictures.
TEST(OrbitCamera, FramingFitsTheProjectedBoxToTheRegion) {
    const std::vector<std::pair<glm::vec3, glm::vec3>> boxes = {
        {glm::vec3(-1.0f), glm::vec3(1.0f)},
        {glm::vec3(-10.0f, -0.5f, -1.0f), glm::vec3(10.0f, 0.5f, 1.0f)},  // long
        {glm::vec3(-3.0f, 0.0f, -3.0f), glm::vec3(3.0f, 0.01f, 3.0f)},    // flat
        {glm::vec3(5.0f, 100.0f, -2.0f), glm::vec3(5.5f, 140.0f, 2.0f)},  // tall, off the origin
    };
    const std::vector<esv::ViewRegion> regions = {esv::ViewRegion{}, esv::ViewRegion{0.27f, 0.0f, 0.73f, 0.6f},
                                                  esv::ViewRegion{0.0f, 0.5f, 0.5f, 1.0f}};
    const float m = esv::kFrameMargin;
    int cases = 0;
    for (const auto& [lo, hi] : boxes)
        for (float aspect : {16.0f / 9.0f, 1.0f, 0.6f})
            for (float yaw : {0.0f, 0.6f, 2.2f})
                for (float pitch : {0.0f, 0.35f, -1.2f})
                    for (const esv::ViewRegion& region : regions) {
                        esv::OrbitCamera orbit;
                        orbit.yaw = yaw;
                        orbit.pitch = pitch;
                        esv::frameBounds(orbit, lo, hi, aspect, region);
                        glm::mat4 v, p;
                        esv::orbitMatrices(orbit, aspect, v, p);
                        // Corners in picture fractions from the top left, as the region is given.
                        float x0 = 2, y0 = 2, x1 = -2, y1 = -2;
                        for (int i = 0; i < 8; ++i) {
                            const glm::vec3 c((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
                            const glm::vec4 clip = p * v * glm::vec4(c, 1.0f);
                            ASSERT_GT(clip.w, 0.0f);
                            ASSERT_LE(std::abs(clip.z), clip.w * 1.0001f) << "between near and far";
                            const float fx = 0.5f + 0.5f * clip.x / clip.w, fy = 0.5f - 0.5f * clip.y / clip.w;
                            x0 = std::min(x0, fx), x1 = std::max(x1, fx), y0 = std::min(y0, fy), y1 = std::max(y1, fy);
                        }
                        const float w = region.x1 - region.x0, h = region.y1 - region.y0;
                        const float eps = 1e-3f;
                        EXPECT_GE(x0, region.x0 + m * w - eps);
                        EXPECT_LE(x1, region.x1 - m * w + eps);
                        EXPECT_GE(y0, region.y0 + m * h - eps);
                        EXPECT_LE(y1, region.y1 - m * h + eps);
                        const float spanX = (x1 - x0) / w, spanY = (y1 - y0) / h;
                        EXPECT_NEAR(std::max(spanX, spanY), 1.0f - 2.0f * m, 2e-3f)
                            << "aspect " << aspect << " yaw " << yaw << " pitch " << pitch;
                        // Centred in the region along the direction that binds.
                        if (spanX >= spanY) {
                            EXPECT_NEAR(x0 - region.x0, region.x1 - x1, 2e-3f);
                        } else {
                            EXPECT_NEAR(y0 - region.y0, region.y1 - y1, 2e-3f);
                        }
                        ++cases;
                    }
    EXPECT_EQ(cases, 4 * 3 * 3 * 3 * 3);
}

// Bone batches drawn and palette vectors uploaded follow the demo's batches: the tentacle's two
// batches (4 and 3 bones) as two skinned draws, the larger palette 4 matrices of 4 vectors.
TEST_F(DebugViews, FrameStatsCountBoneBatchesAndPaletteVectors) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    const esv::Mesh& tentacle = s_demo->meshes[s_demo->nodes[kTentacle].object];
    size_t largest = 0;
    for (const esv::BoneBatch& b : tentacle.boneBatches) largest = std::max(largest, b.bones.size());
    ASSERT_EQ(tentacle.boneBatches.size(), 2u);
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const esv::RendererInfo info = session.renderer().info();
        EXPECT_EQ(info.vectorsPerBone, 4);
        EXPECT_EQ(info.reservedVertexVectors, 16);
        EXPECT_LE(info.paletteCapacity * info.vectorsPerBone + info.reservedVertexVectors,
                  info.maxVertexUniformVectors);
        const Frame frame = draw(session, pose, {});
        EXPECT_EQ(frame.stats.boneBatchesDrawn, tentacle.boneBatches.size()) << modeName(gles2);
        EXPECT_EQ(frame.stats.paletteVectorsMax, uint32_t(info.vectorsPerBone * largest)) << modeName(gles2);
        // The edge overlay skins the tentacle again, batch by batch.
        esv::ViewSettings overlay;
        overlay.wireframeOverlay = true;
        EXPECT_EQ(draw(session, pose, overlay).stats.boneBatchesDrawn, 2 * tentacle.boneBatches.size());
    }
}

// The selection outline's program keeps the ES2 vertex uniform budget: with the largest ES2 palette,
// skinning and morph targets, the vertex stage's other uniforms, counted without packing, fit the
// 16 vectors the palette size leaves.
TEST(SelectionOutline, Es2ProgramFitsTheReservedVertexVectors) {
    esv::test::RenderHarness session(true);
    ASSERT_TRUE(session.ok());
    const int palette = esv::paletteCapacity(128, 16);
    EXPECT_LE(palette * 4 + 16, 128);
    esv::ProgramCache cache(esv::GlslVersion::Es100, 8);
    for (int morphs : {0, 1, 2}) {
        esv::ShaderFeatures f;
        f.skinned = true;
        f.boneCount = palette;
        f.influences = 4;
        f.normal = f.color = f.uv = true;
        f.morphTargets = morphs;
        f.mode = esv::ViewMode::Unlit;
        f.outline = true;
        std::string error;
        const esv::MeshProgram* p = cache.get(f, error);
        ASSERT_TRUE(p) << error;
        EXPECT_GE(p->outline, 0);
        GLint count = 0;
        glGetProgramiv(p->program.get(), GL_ACTIVE_UNIFORMS, &count);
        int bones = 0, others = 0;
        for (GLint i = 0; i < count; ++i) {
            char name[128] = {};
            GLint size = 0;
            GLenum type = 0;
            glGetActiveUniform(p->program.get(), GLuint(i), sizeof name, nullptr, &size, &type, name);
            const std::string n = name;
            const int rows = (type == GL_FLOAT_MAT4 ? 4 : type == GL_FLOAT_MAT3 ? 3 : 1) * size;
            if (n.rfind("u_bones", 0) == 0) {
                bones += rows;
            } else if (n == "u_model" || n == "u_viewProjection" || n == "u_positionUnpack" ||
                       n.rfind("u_morph", 0) == 0 || n == "u_outline" || n == "u_weightBone" || n == "u_pointSize") {
                others += rows;
            }
        }
        EXPECT_EQ(bones, palette * 4) << morphs << " morph targets";
        EXPECT_LE(others, 16) << morphs << " morph targets";
    }
}

// With GL_EXT_disjoint_timer_query (llvmpipe and softpipe list it) a time arrives a frame or more
// later, never from the frame itself; without it gpuMs stays -1.
TEST_F(DebugViews, GpuTimerReportsAnEarlierFrame) {
    const esv::Pose pose = poseAt(*s_demo, 0.5f);
    for (bool gles2 : {false, true}) {
        esv::test::RenderHarness session(gles2);
        ASSERT_TRUE(session.setScene(*s_demo));
        const bool timer = session.renderer().info().gpuTimer;
        // Each frame's wall-clock time, its read-back (which waits for the drawing) included: the
        // GPU time of any of them cannot be longer. The bound follows the machine (llvmpipe's times
        // are tens of nanoseconds, softpipe's the drawing itself, seconds a frame under emulation).
        double longestFrameMs = 0.0;
        auto timedFrame = [&] {
            const auto start = std::chrono::steady_clock::now();
            const float gpuMs = draw(session, pose, {}).stats.gpuMs;
            const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
            longestFrameMs = std::max(longestFrameMs, took.count());
            return gpuMs;
        };
        EXPECT_EQ(timedFrame(), -1.0f) << modeName(gles2);
        float ms = -1.0f;
        for (int frame = 0; frame < 8 && ms < 0.0f; ++frame) {
            glFinish();
            ms = timedFrame();
        }
        if (timer) {
            EXPECT_GE(ms, 0.0f) << modeName(gles2);
            EXPECT_LE(ms, longestFrameMs) << modeName(gles2) << ": no frame took longer";
        } else {
            EXPECT_EQ(ms, -1.0f) << modeName(gles2);
        }
    }
}

}  // namespace
