// What the 3D view says about its colours, checked by the viewer's own screenshots on the headless
// host: the Weights view's legend bar is the shader's ramp and names the joint (or explains the
// strongest influence), the Batches view's swatches (legend and Skinning panel) are the renderer's
// batch colours, the SkinDiff view's scale is in model units, POF markers hide behind the hull unless
// x-ray is on and carry their colours as swatches in the POF panel, and only the selected or hovered
// marker and joint are labelled.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/hosts/headless_host.h"
#include "app/viewer/legend.h"
#include "app/viewer/pof_view.h"
#include "app/viewer/transport.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "renderer/camera.h"
#include "renderer/view_settings.h"
#include "scene/cpu_reference.h"

namespace {

namespace fs = std::filesystem;
using esv::test::Image;

const fs::path kMan = fs::path("pod") / "cocos3d" / "cocos3d_man.pod";
const fs::path kF14 = fs::path("pof") / "air_F-14.pof";

// One viewer on the headless host, paused at 0 s once the file is shown.
class Session {
public:
    bool start(const std::string& name, const fs::path& model, int height = 720) {
        m_dir = esv::test::viewerWorkDir("legends_", name);
        esv::ViewerOptions options;
        options.file = (esv::test::modelsDir() / model).string();
        options.height = height;
        return esv::test::startPausedAtZero(m_viewer, m_host, options);
    }
    esv::ViewerState& state() { return m_viewer.state(); }
    void frames(int n) {
        for (int i = 0; i < n; ++i) m_viewer.frame();
    }
    void push(const esv::Event& e) { m_host.push(e); }
    // The window as shown (panels included), after two more frames.
    Image shot(const std::string& name) {
        frames(2);
        const fs::path path = m_dir / (name + ".png");
        state().requestScreenshot = path.string();
        m_viewer.frame();
        Image image;
        EXPECT_TRUE(esv::test::loadPng(path.string(), image)) << path;
        return image;
    }
    nlohmann::json dump() { return nlohmann::json::parse(esv::viewerStateJson(state())); }
    // The 3D view's rectangle in window pixels: x0, y0, x1, y1.
    std::array<int, 4> viewport() {
        const esv::LayoutRect& r = state().layout.viewport;
        return {int(r.x), int(r.y), int(r.right()), int(r.bottom())};
    }
    std::array<int, 4> panel(esv::PanelId id) {
        const esv::LayoutRect& r = state().panelRects[size_t(id)];
        return {int(r.x), int(r.y), int(r.right()), int(r.bottom())};
    }
    ~Session() { m_viewer.finish(); }

private:
    fs::path m_dir;
    esv::HeadlessHost m_host;
    esv::ViewerLoop m_viewer;
};

const uint8_t* at(const Image& image, int x, int y) {
    return &image.rgba[(size_t(y) * image.width + x) * 4];
}

std::array<int, 3> bytes(const glm::vec3& c) {
    return {int(std::lround(c.r * 255.0f)), int(std::lround(c.g * 255.0f)), int(std::lround(c.b * 255.0f))};
}

int difference(const uint8_t* p, const std::array<int, 3>& c) {
    return std::max({std::abs(p[0] - c[0]), std::abs(p[1] - c[1]), std::abs(p[2] - c[2])});
}

// Pixels of the box within `tolerance` levels of `color`.
int countColor(const Image& image, const std::array<int, 4>& box, const std::array<int, 3>& color,
               int tolerance) {
    int count = 0;
    for (int y = std::max(box[1], 0); y < std::min(box[3], image.height); ++y)
        for (int x = std::max(box[0], 0); x < std::min(box[2], image.width); ++x)
            count += difference(at(image, x, y), color) <= tolerance;
    return count;
}

// The longest horizontal run in the box that is the heat ramp: it starts at heatColor(0) and pixel i
// of n is heatColor(i / (n - 1)) within 12 levels. Its length; 0 when there is none.
int rampLength(const Image& image, const std::array<int, 4>& box) {
    constexpr int kTolerance = 12;
    std::vector<std::array<int, 3>> ramp;
    for (int i = 0; i <= 255; ++i) ramp.push_back(bytes(esv::heatColor(float(i) / 255.0f)));
    auto onRamp = [&](const uint8_t* p) {
        for (const auto& c : ramp)
            if (difference(p, c) <= kTolerance) return true;
        return false;
    };
    int best = 0;
    const int x0 = std::max(box[0], 0), x1 = std::min(box[2], image.width);
    for (int y = std::max(box[1], 0); y < std::min(box[3], image.height); ++y)
        for (int x = x0; x < x1; ++x) {
            if (difference(at(image, x, y), ramp.front()) > kTolerance) continue;
            if (x > x0 && onRamp(at(image, x - 1, y))) continue;  // not where a run starts
            int end = x;
            while (end + 1 < x1 && onRamp(at(image, end + 1, y))) ++end;
            const int n = end - x + 1;
            if (n <= best || n < 8) continue;
            bool follows = true;
            for (int i = 0; i < n && follows; ++i)
                follows = difference(at(image, x + i, y), bytes(esv::heatColor(float(i) / float(n - 1)))) <=
                          kTolerance;
            if (follows) best = n;
        }
    return best;
}

// The bottom left quarter of the 3D view, where the legend sits.
std::array<int, 4> legendCorner(const std::array<int, 4>& v) {
    return {v[0], (v[1] + v[3]) / 2, (v[0] + v[2]) / 2, v[3]};
}

int reddish(const Image& image, const std::array<int, 4>& box) {
    int count = 0;
    for (int y = box[1]; y < box[3]; ++y)
        for (int x = box[0]; x < box[2]; ++x) {
            const uint8_t* p = at(image, x, y);
            count += p[0] > 200 && p[1] < 90 && p[2] < 90;
        }
    return count;
}

int bluish(const Image& image, const std::array<int, 4>& box) {
    int count = 0;
    for (int y = box[1]; y < box[3]; ++y)
        for (int x = box[0]; x < box[2]; ++x) {
            const uint8_t* p = at(image, x, y);
            count += p[2] > 200 && p[0] < 90 && p[1] < 90;
        }
    return count;
}

// The top half of the 3D view: the model, clear of the legend.
std::array<int, 4> upperHalf(const std::array<int, 4>& v) {
    return {v[0], v[1], v[2], (v[1] + v[3]) / 2};
}

// Weights view: the legend's bar is mesh.frag's ramp from 0 to 1. With no joint chosen the legend
// explains the strongest influence, and the model shows what it says: each vertex its largest
// weight (the man's vertices mostly belong to one joint: red). A joint chosen: its name, and the
// vertices it does not move are blue. Other views have no legend.
TEST(Legends, WeightsBarIsTheShaderRampWithTheJointOrTheStrongestInfluence) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("weights", kMan));
    esv::ViewerState& s = session.state();
    s.view.mode = esv::ViewMode::Weights;
    Image strongest = session.shot("strongest");
    nlohmann::json state = session.dump();
    const auto v = session.viewport();
    ASSERT_FALSE(state["legend"].is_null());
    EXPECT_EQ(state["legend"]["lines"][0], "Weights: strongest influence");
    EXPECT_EQ(state["legend"]["lines"][1], "each vertex: its largest weight, of any joint");
    EXPECT_EQ(state["legend"]["ramp"], nlohmann::json::array({"0", "0.5", "1"}));
    EXPECT_GE(rampLength(strongest, legendCorner(v)), 150) << "a bar 14 em (210 px) wide";
    EXPECT_GT(reddish(strongest, upperHalf(v)), 4 * bluish(strongest, upperHalf(v)));

    int joint = -1;
    for (size_t n = 0; n < s.scene->nodes.size() && joint < 0; ++n)
        if (s.scene->nodes[n].name == "uB_BoneA011") joint = int(n);
    ASSERT_GE(joint, 0);
    ASSERT_TRUE(esv::isJoint(*s.scene, joint));
    s.view.weightBone = joint;
    Image one = session.shot("joint");
    state = session.dump();
    EXPECT_EQ(state["legend"]["lines"][0], "Weights of joint 'uB_BoneA011'");
    EXPECT_GE(rampLength(one, legendCorner(v)), 150);
    EXPECT_GT(bluish(one, upperHalf(v)), 4 * reddish(one, upperHalf(v)));

    s.view.mode = esv::ViewMode::Shaded;
    Image shaded = session.shot("shaded");
    EXPECT_TRUE(session.dump()["legend"].is_null());
    EXPECT_LT(rampLength(shaded, legendCorner(v)), 20);
}

// Batches view: the legend's swatches and the Skinning panel's batch table show batchColor, the
// colours the renderer draws the batches in (the man's body has two batches: its arm is green).
TEST(Legends, BatchSwatchesAreTheRendererColours) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    // A bottom region tall enough for the Skinning panel's batch table.
    ASSERT_TRUE(session.start("batches", kMan, 1000));
    esv::ViewerState& s = session.state();
    s.view.mode = esv::ViewMode::Batches;
    s.layoutSizes.bottom = 0.55f;
    esv::showPanel(s, esv::PanelId::Skinning);
    Image image = session.shot("batches");
    const nlohmann::json state = session.dump();
    ASSERT_EQ(state["legend"]["swatches"].size(), 2u);
    for (size_t b = 0; b < 2; ++b) {
        SCOPED_TRACE("batch " + std::to_string(b));
        const glm::vec3 c = esv::batchColor(b);
        for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(state["legend"]["swatches"][b][i].get<float>(), c[i]);
        // A swatch is 1.3 em square (19 px): exactly the colour, within ImGui's rounding.
        EXPECT_GE(countColor(image, legendCorner(session.viewport()), bytes(c), 1), 250);
        EXPECT_GE(countColor(image, session.panel(esv::PanelId::Skinning), bytes(c), 1), 100)
            << "the batch table's swatch";
    }
    EXPECT_NE(bytes(esv::batchColor(0)), bytes(esv::batchColor(1)));
    EXPECT_EQ(bytes(esv::batchColor(esv::kBatchColorCount)), bytes(esv::batchColor(0)));
}

// SkinDiff view: a scale from 0 to the difference that reads red, in model units: by default 1e-3
// of the drawn box's diagonal (what the renderer colours by), else the range set.
TEST(Legends, SkinDiffScaleIsInModelUnits) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("skindiff", kMan));
    esv::ViewerState& s = session.state();
    s.view.mode = esv::ViewMode::SkinDiff;
    Image image = session.shot("auto");
    nlohmann::json state = session.dump();
    const esv::Bounds bounds = esv::sceneBounds(*s.scene, s.pose);
    const float diagonal = glm::length(bounds.max - bounds.min);
    EXPECT_GT(diagonal, 300.0f) << "the man's box: 114 x 249 x 216";
    EXPECT_NEAR(state["legend"]["skin_diff_range"].get<float>(), 1e-3f * diagonal, 1e-6f * diagonal);
    EXPECT_FLOAT_EQ(esv::resolvedSkinDiffRange(0.0f, diagonal), 1e-3f * diagonal);
    char high[32];
    std::snprintf(high, sizeof(high), "%.3g", 1e-3 * double(diagonal));
    EXPECT_EQ(state["legend"]["ramp"][2], high);
    EXPECT_GE(rampLength(image, legendCorner(session.viewport())), 150);

    s.view.skinDiffRange = 0.25f;
    session.frames(2);
    state = session.dump();
    EXPECT_FLOAT_EQ(state["legend"]["skin_diff_range"].get<float>(), 0.25f);
    EXPECT_EQ(state["legend"]["ramp"], nlohmann::json::array({"0", "0.125", "0.25"}));
    EXPECT_FLOAT_EQ(esv::resolvedSkinDiffRange(0.25f, diagonal), 0.25f);
}

// placeLegend: the corner farthest from the model's box among those where the legend overlaps neither
// it nor another overlay; the bottom left on a tie, with no corner free, or with the box unknown.
TEST(Legends, PlacementKeepsClearOfTheModelWhereAFreeCornerIs) {
    const esv::LayoutRect view{100, 20, 800, 600};
    const float w = 200, h = 80, margin = 10;
    const esv::LayoutRect bottomLeft{110, 530, w, h}, bottomRight{690, 530, w, h}, topLeft{110, 30, w, h},
        topRight{690, 30, w, h};
    auto place = [&](const esv::LayoutRect& subject, const std::vector<esv::LayoutRect>& avoid = {}) {
        return esv::placeLegend(view, w, h, margin, subject, avoid);
    };
    auto same = [](const esv::LayoutRect& a, const esv::LayoutRect& b) {
        return a.x == b.x && a.y == b.y && a.w == b.w && a.h == b.h;
    };
    // A model in the middle leaves every corner free, all as far: the bottom left.
    EXPECT_TRUE(same(place({400, 120, 200, 400}), bottomLeft));
    // A model over the bottom left quarter: the top right is farthest from it.
    EXPECT_TRUE(same(place({100, 320, 400, 300}), topRight));
    // Over the left half: the right corners are as far; the bottom one, or the top one when another
    // overlay (the load error box) sits in the bottom right.
    EXPECT_TRUE(same(place({100, 20, 400, 600}), bottomRight));
    EXPECT_TRUE(same(place({100, 20, 400, 600}, {{600, 500, 300, 120}}), topRight));
    // Over the bottom half and the top right (the stats overlay there): the top left.
    EXPECT_TRUE(same(place({100, 320, 800, 300}, {{700, 20, 200, 150}}), topLeft));
    // No corner free, or the model's place unknown: the bottom left.
    EXPECT_TRUE(same(place({150, 60, 700, 520}), bottomLeft));
    EXPECT_TRUE(same(place({}), bottomLeft));
    // A view too small for the legend in any corner.
    const esv::LayoutRect small = esv::placeLegend({0, 0, 150, 60}, w, h, margin, {0, 0, 10, 10}, {});
    EXPECT_EQ(small.x, 10.0f);
    EXPECT_EQ(small.y, 60.0f - 10.0f - h);
}

// The Weights legend in the viewer keeps clear of the man's box on screen: with the man moved into the
// bottom left of the 3D view, where the legend sat, it goes to a free corner (the dump's rectangle is
// where the ramp is drawn).
TEST(Legends, WeightsLegendAvoidsTheModelOnScreen) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("placement", kMan));
    esv::ViewerState& s = session.state();
    s.view.mode = esv::ViewMode::Weights;
    // Zoomed out to half the size and moved down and left by a quarter of the view: the camera's
    // target goes right and up by that much in the view's plane.
    const esv::ViewportRect v = esv::sceneViewport(s);
    glm::mat4 view, projection;
    esv::cameraMatrices(*s.scene, s.pose, s.view, v.width, v.height, view, projection);
    const glm::mat4 eye = glm::inverse(view);
    s.view.orbit.distance *= 2.0f;
    const float halfHeight = s.view.orbit.distance * std::tan(0.5f * s.view.orbit.yfov);
    const float halfWidth = halfHeight * float(v.width) / float(v.height);
    s.view.orbit.target += glm::vec3(eye[0]) * (0.5f * halfWidth) + glm::vec3(eye[1]) * (0.5f * halfHeight);
    const Image image = session.shot("moved");
    const nlohmann::json state = session.dump();
    ASSERT_FALSE(state["legend"].is_null());
    const auto& r = state["legend"]["rect"];
    const esv::LayoutRect legend{r[0].get<float>(), r[1].get<float>(), r[2].get<float>(), r[3].get<float>()};
    glm::vec2 min, max;
    ASSERT_TRUE(esv::projectBox(s, s.bounds, min, max));
    const esv::LayoutRect model{min.x, min.y, max.x - min.x, max.y - min.y};
    const esv::LayoutRect& area = s.layout.viewport;
    const esv::LayoutRect oldPlace{area.x + 10, area.bottom() - 10 - legend.h, legend.w, legend.h};
    ASSERT_TRUE(oldPlace.overlaps(model)) << "the man where the legend sat";
    EXPECT_FALSE(legend.overlaps(model))
        << "legend at " << legend.x << ", " << legend.y << "; the man's box " << model.x << ", " << model.y
        << " to " << model.right() << ", " << model.bottom();
    EXPECT_GE(legend.x, area.x);
    EXPECT_LE(legend.right(), area.right());
    EXPECT_GE(legend.y, area.y);
    EXPECT_LE(legend.bottom(), area.bottom());
    const std::array<int, 4> drawn{int(legend.x), int(legend.y), int(legend.right()) + 1,
                                   int(legend.bottom()) + 1};
    EXPECT_GE(rampLength(image, drawn), 150) << "the ramp is drawn where the dump says";
}

// The marker colours: one per kind, apart from each other and from the missing-texture checker's
// magenta (turrets were magenta once).
TEST(Legends, MarkerColoursAreApartFromEachOtherAndFromMagenta) {
    const glm::vec3 magenta(1.0f, 0.0f, 1.0f);
    for (size_t a = 0; a < size_t(esv::PofMarkerKind::Count); ++a) {
        const glm::vec3 ca(esv::pofMarkerColor(esv::PofMarkerKind(a)));
        EXPECT_GT(glm::length(ca - magenta), 0.5f) << esv::pofMarkerKindName(esv::PofMarkerKind(a));
        for (size_t b = a + 1; b < size_t(esv::PofMarkerKind::Count); ++b)
            EXPECT_GT(glm::length(ca - glm::vec3(esv::pofMarkerColor(esv::PofMarkerKind(b)))), 0.15f)
                << esv::pofMarkerKindName(esv::PofMarkerKind(a)) << " and "
                << esv::pofMarkerKindName(esv::PofMarkerKind(b));
    }
}

// White label text in the box to the right of a marker or joint at (x, y).
int labelPixels(const Image& image, float x, float y) {
    int count = 0;
    for (int py = int(y) - 12; py < int(y) + 14; ++py)
        for (int px = int(x) + 8; px < int(x) + 160; ++px) {
            if (px < 0 || py < 0 || px >= image.width || py >= image.height) continue;
            const uint8_t* p = at(image, px, py);
            count += p[0] >= 245 && p[1] >= 245 && p[2] >= 245;
        }
    return count;
}

// The F-14 from behind and above its left side (yaw 214, pitch 20): its two thrusters sit behind the
// tail, hidden by the hull, and the mouse over one labels nothing; x-ray draws them through it, and
// labels the one under the mouse. The POF panel shows each kind's colour beside its checkbox.
TEST(Legends, PofMarkersHideBehindTheHullUnlessXray) {
    ESVIEW_REQUIRE_MODELS("pof");
    Session session;
    ASSERT_TRUE(session.start("xray", kF14));
    esv::ViewerState& s = session.state();
    s.pof.markers.fill(false);
    s.pof.marker(esv::PofMarkerKind::Thrusters) = true;
    s.view.camera = -1;
    s.view.orbit.yaw = glm::radians(214.0f);
    s.view.orbit.pitch = glm::radians(20.0f);
    const std::array<int, 3> thruster = bytes(glm::vec3(esv::pofMarkerColor(esv::PofMarkerKind::Thrusters)));
    const Image hidden = session.shot("hidden");
    nlohmann::json state = session.dump();
    EXPECT_EQ(state["pof"]["xray"], false);
    EXPECT_EQ(state["pof"]["markers"]["thrusters"]["shown"], 2);
    const int hiddenPixels = countColor(hidden, session.viewport(), thruster, 8);
    const int x = int(state["pof"]["markers"]["thrusters"]["first"]["x"].get<float>());
    const int y = int(state["pof"]["markers"]["thrusters"]["first"]["y"].get<float>());
    // A hidden marker is not there to point at: no label under the mouse.
    session.push(esv::Event::mouseMove(float(x), float(y)));
    EXPECT_LT(labelPixels(session.shot("hidden_hovered"), float(x), float(y)), 5);

    s.pof.xray = true;
    const Image xray = session.shot("xray");
    state = session.dump();
    EXPECT_EQ(state["pof"]["xray"], true);
    const int xrayPixels = countColor(xray, session.viewport(), thruster, 8);
    EXPECT_GE(xrayPixels, 2 * 49) << "two points 7 px square, and their glow circles";
    EXPECT_LE(10 * hiddenPixels, xrayPixels) << hiddenPixels << " thruster pixels without x-ray";
    EXPECT_GT(labelPixels(xray, float(x), float(y)), 20) << "the hovered marker's label, through the hull";
    // Where the first thruster is, the hull is drawn without x-ray, the marker with it.
    EXPECT_GT(difference(at(hidden, x, y), thruster), 30);
    EXPECT_LE(difference(at(xray, x, y), thruster), 8);

    for (size_t k = 0; k < size_t(esv::PofMarkerKind::Count); ++k)
        EXPECT_GE(countColor(hidden, session.panel(esv::PanelId::Pof),
                             bytes(glm::vec3(esv::pofMarkerColor(esv::PofMarkerKind(k)))), 1),
                  150)
            << "the swatch of " << esv::pofMarkerKindName(esv::PofMarkerKind(k));
}

// No marker is labelled until the mouse is over one; a click keeps the label of the marker clicked.
TEST(Legends, PofLabelsOnlyForTheHoveredOrClickedMarker) {
    ESVIEW_REQUIRE_MODELS("pof");
    Session session;
    ASSERT_TRUE(session.start("labels", kF14));
    esv::ViewerState& s = session.state();
    s.pof.markers.fill(false);
    s.pof.marker(esv::PofMarkerKind::Guns) = true;
    s.pof.marker(esv::PofMarkerKind::Missiles) = true;
    s.pof.xray = true;
    s.view.camera = -1;
    s.view.orbit.yaw = glm::radians(214.0f);
    s.view.orbit.pitch = glm::radians(20.0f);
    const Image none = session.shot("none");
    nlohmann::json state = session.dump();
    const nlohmann::json gun = state["pof"]["markers"]["guns"]["first"];
    const nlohmann::json missile = state["pof"]["markers"]["missiles"]["first"];
    ASSERT_FALSE(gun.is_null());
    ASSERT_FALSE(missile.is_null());
    const float gx = gun["x"], gy = gun["y"], mx = missile["x"], my = missile["y"];
    EXPECT_LT(labelPixels(none, gx, gy), 5);
    EXPECT_LT(labelPixels(none, mx, my), 5);

    session.push(esv::Event::mouseMove(mx, my));
    const Image hovered = session.shot("hovered");
    EXPECT_GT(labelPixels(hovered, mx, my), 20) << "'missile slot 0 point 0'";
    EXPECT_LT(labelPixels(hovered, gx, gy), 5);

    // A click on the gun (pressed and released in place), then the mouse away from both.
    session.push(esv::Event::mouseMove(gx, gy));
    session.frames(1);
    session.push(esv::Event::mouseButton(esv::MouseButton::Left, true));
    session.frames(1);
    session.push(esv::Event::mouseButton(esv::MouseButton::Left, false));
    session.frames(1);
    const auto v = session.viewport();
    session.push(esv::Event::mouseMove(float(v[0] + 5), float(v[1] + 5)));
    const Image clicked = session.shot("clicked");
    state = session.dump();
    EXPECT_EQ(state["pof"]["selected_marker"], gun["label"]);
    EXPECT_GT(labelPixels(clicked, gx, gy), 20) << "'gun slot 0 point 0'";
    EXPECT_LT(labelPixels(clicked, mx, my), 5);
}

// Joint names: none while no joint is selected or under the mouse; then the selected joint's name
// in its colour, and the hovered joint's, and no other.
TEST(Legends, JointNamesOnlyForTheSelectedAndTheHoveredJoint) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("joint_names", kMan));
    esv::ViewerState& s = session.state();
    s.showJointNames = true;
    s.view.showSkeleton = true;
    const std::array<int, 3> selectedColor{255, 120, 90}, hoveredColor{255, 230, 150};
    const auto v = session.viewport();
    const Image none = session.shot("none");
    // Glyph pixels: the name's colour, most of them blended a little with what is behind.
    constexpr int kGlyph = 25;
    // The model has a few pixels of these colours of its own: counts are over what it shows unlabelled.
    const int selectedBase = countColor(none, v, selectedColor, kGlyph);
    const int hoveredBase = countColor(none, v, hoveredColor, kGlyph);
    EXPECT_LT(selectedBase + hoveredBase, 60);

    // Two joints apart on the screen: the head and a foot.
    std::vector<std::pair<int, glm::vec2>> joints;
    for (size_t n = 0; n < s.scene->nodes.size(); ++n) {
        glm::vec2 p;
        if (esv::isJoint(*s.scene, int(n)) && esv::projectToScreen(s, glm::vec3(s.pose.world[n][3]), p))
            joints.push_back({int(n), p});
    }
    ASSERT_GE(joints.size(), 10u);
    const auto top = *std::min_element(joints.begin(), joints.end(),
                                       [](const auto& a, const auto& b) { return a.second.y < b.second.y; });
    const auto bottom = *std::max_element(
        joints.begin(), joints.end(), [](const auto& a, const auto& b) { return a.second.y < b.second.y; });
    esv::selectNode(s, top.first);
    const Image selected = session.shot("selected");
    EXPECT_GT(countColor(selected, v, selectedColor, kGlyph), selectedBase + 20);
    EXPECT_LE(countColor(selected, v, hoveredColor, kGlyph), hoveredBase + 3) << "no other joint's name";

    session.push(esv::Event::mouseMove(bottom.second.x, bottom.second.y));
    const Image hovered = session.shot("hovered");
    EXPECT_GT(countColor(hovered, v, selectedColor, kGlyph), selectedBase + 20);
    const int hoveredPixels = countColor(hovered, v, hoveredColor, kGlyph) - hoveredBase;
    EXPECT_GT(hoveredPixels, 20);
    // Only that name: about as many pixels as one name has, not a skeleton's worth.
    EXPECT_LT(hoveredPixels, 400);
}

}  // namespace
