// File → Compare with… in the headless viewer (app/viewer/compare_view.h), driven by scripts: the
// split view shows A left of the divider and B right of it (against the viewer's pictures of A and B
// alone), the divider follows a drag, side by side shows one camera twice, the difference view of a
// model against itself is dark and alike and against a darkened copy is not, the selection and the
// time follow A by name, Esc and `compare off` close B, and bad commands are one line each.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/hosts/headless_host.h"
#include "app/viewer/transport.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "scene/demo_scene.h"

namespace {

namespace fs = std::filesystem;
using esv::test::Image;

const fs::path kMallet = fs::path("pod") / "cocos3d" / "cocos3d_mallet.pod";
const fs::path kSphere = fs::path("pod") / "nsdk" / "nsdk_sphere.pod";

// Copies of the mallet in their own folders beside a copy of its texture: as it is (`same`), and with
// every colour channel halved (`dark`).
struct MalletCopies {
    fs::path same, dark;
};

MalletCopies malletCopies(const fs::path& dir) {
    const fs::path source = esv::test::modelsDir() / kMallet;
    MalletCopies copies{dir / "same" / source.filename(), dir / "dark" / source.filename()};
    for (const fs::path& model : {copies.same, copies.dark}) {
        fs::create_directories(model.parent_path());
        fs::copy_file(source, model);
        fs::copy_file(source.parent_path() / "mallet.png", model.parent_path() / "mallet.png");
    }
    Image texture;
    EXPECT_TRUE(esv::test::loadPng((copies.dark.parent_path() / "mallet.png").string(), texture));
    for (size_t i = 0; i < texture.rgba.size(); ++i)
        if (i % 4 != 3) texture.rgba[i] = static_cast<uint8_t>(texture.rgba[i] / 2);
    EXPECT_TRUE(esv::test::savePng((copies.dark.parent_path() / "mallet.png").string(), texture));
    return copies;
}

// One viewer on the headless host, paused at 0 s once `model` is shown, driven by script lines.
class Session {
public:
    bool start(const std::string& name, const fs::path& model) {
        m_dir = esv::test::viewerWorkDir("compare_", name);
        esv::ViewerOptions options;
        options.file = model.string();
        return esv::test::startPausedAtZero(m_viewer, m_host, options);
    }
    esv::ViewerState& state() { return m_viewer.state(); }
    const fs::path& dir() const { return m_dir; }
    void frames(int n) {
        for (int i = 0; i < n; ++i) ASSERT_TRUE(m_viewer.frame());
    }
    // Runs script lines to their end (loads included); false with the script's error.
    bool run(const std::string& lines) {
        std::string error;
        if (!m_viewer.runScript(lines, error)) {
            ADD_FAILURE() << error;
            return false;
        }
        for (int i = 0; i < 3000; ++i) {
            if (!m_viewer.frame()) return false;  // a failing script quits
            const esv::ViewerState& s = state();
            if (s.compare.loading || !s.compare.requestOpen.empty() || s.load.active || !s.requestOpen.empty())
                continue;
            // The script is done when another one may start.
            std::string busy;
            if (m_viewer.runScript("", busy)) return true;
        }
        return false;
    }
    // The window as shown (panels included), after two more frames.
    Image shot(const std::string& name) {
        frames(2);
        const fs::path path = m_dir / (name + ".png");
        state().requestScreenshot = path.string();
        state().screenshotWidth = state().screenshotHeight = 0;
        frames(1);
        Image image;
        EXPECT_TRUE(esv::test::loadPng(path.string(), image)) << path;
        return image;
    }
    nlohmann::json dump() { return nlohmann::json::parse(esv::viewerStateJson(state())); }
    void push(const esv::Event& e) { m_host.push(e); }

private:
    esv::HeadlessHost m_host;
    esv::ViewerLoop m_viewer;
    fs::path m_dir;
};

// The part [x0, x1) of the 3D view's rows below its top `top` pixels (the names of A and B are there).
Image part(const Image& image, const esv::ViewportRect& view, int x0, int x1, int top = 40) {
    return esv::golden::crop(image, x0, view.y + top, x1, view.y + view.height);
}

bool alike(const Image& actual, const Image& expected) {
    const esv::golden::GoldenRule rule;
    const esv::golden::CompareResult r = esv::golden::compareImages(actual, expected, rule.tolerance);
    return r.modelPixels > 500 && esv::golden::brokenRules(r, rule).empty();
}

// Pixels of `image` in `view` that the difference picture marks off: red, with no green or blue.
size_t redPixels(const Image& image, const esv::ViewportRect& view) {
    size_t red = 0;
    for (int y = view.y; y < view.y + view.height; ++y)
        for (int x = view.x; x < view.x + view.width; ++x) {
            const uint8_t* p = &image.rgba[(size_t(y) * size_t(image.width) + size_t(x)) * 4];
            red += p[0] >= 120 && p[1] < 16 && p[2] < 16;
        }
    return red;
}

TEST(ViewerCompare, SplitShowsALeftOfTheDividerAndBRightAndTheDividerFollowsADrag) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    const fs::path source = esv::test::modelsDir() / kMallet;
    ASSERT_TRUE(session.start("split", source));
    const MalletCopies copies = malletCopies(session.dir());
    const Image aloneA = session.shot("a_alone");
    // B alone: the darkened copy opened in its place frames the same geometry the same way.
    ASSERT_TRUE(session.run("open " + copies.dark.string() + "\npause\nstart"));
    const Image aloneB = session.shot("b_alone");
    ASSERT_TRUE(session.run("open " + source.string() + "\npause\nstart"));

    ASSERT_TRUE(session.run("compare " + copies.dark.string() + "\ncompare-mode split\ncompare-divider 0.5"));
    esv::ViewerState& s = session.state();
    ASSERT_TRUE(s.compare.active()) << s.compare.error;
    const Image split = session.shot("split");
    const esv::ViewportRect view = s.viewport;
    const int column = view.x + view.width / 2;
    const nlohmann::json j = session.dump();
    EXPECT_EQ(j["compare"]["mode"], "split");
    EXPECT_EQ(j["compare"]["split_column"], column);
    EXPECT_EQ(j["compare"]["path"], copies.dark.string());

    // Left of the divider A's pixels, right of it B's (the divider's own columns left out).
    const Image left = part(split, view, view.x, column - 4), right = part(split, view, column + 4, view.x + view.width);
    EXPECT_TRUE(alike(left, part(aloneA, view, view.x, column - 4)));
    EXPECT_FALSE(alike(left, part(aloneB, view, view.x, column - 4)));
    EXPECT_TRUE(alike(right, part(aloneB, view, column + 4, view.x + view.width)));
    EXPECT_FALSE(alike(right, part(aloneA, view, column + 4, view.x + view.width)));

    // A drag from the divider to a quarter of the view moves it there, and does not orbit.
    const esv::LayoutRect& area = s.layout.viewport;
    const float yaw = s.view.orbit.yaw;
    const double y = area.y + area.h * 0.5, from = area.x + area.w * 0.5, to = area.x + area.w * 0.25;
    ASSERT_TRUE(session.run("drag " + std::to_string(from) + " " + std::to_string(y) + " " + std::to_string(to) +
                            " " + std::to_string(y)));
    EXPECT_NEAR(s.compare.divider, 0.25f, 1.0f / area.w);
    EXPECT_EQ(s.view.orbit.yaw, yaw);
    const Image moved = session.shot("moved");
    const int quarter = splitColumn(view, s.compare.divider);
    EXPECT_TRUE(alike(part(moved, view, quarter + 4, view.x + view.width),
                      part(aloneB, view, quarter + 4, view.x + view.width)));
    EXPECT_TRUE(alike(part(moved, view, view.x, quarter - 4), part(aloneA, view, view.x, quarter - 4)));
}

TEST(ViewerCompare, SideBySideShowsOneCameraTwice) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("side", esv::test::modelsDir() / kMallet));
    const MalletCopies copies = malletCopies(session.dir());
    ASSERT_TRUE(session.run("compare " + copies.same.string() + "\ncompare-mode side"));
    esv::ViewerState& s = session.state();
    ASSERT_TRUE(s.compare.active()) << s.compare.error;
    const esv::ViewportRect view = s.viewport;
    const nlohmann::json j = session.dump();
    const int half = view.width / 2;
    EXPECT_EQ(j["compare"]["a_rect"], nlohmann::json({view.x, view.y, half, view.height}));
    EXPECT_EQ(j["compare"]["b_rect"], nlohmann::json({view.x + half, view.y, half, view.height}));
    // A's half is the scene's viewport now: framing, picking and labels use it.
    EXPECT_EQ(esv::sceneViewport(s).width, half);
    // A point of A's half that picks a node picks nothing at its place in B's half.
    int picked = -1;
    glm::vec2 at;
    for (size_t i = 0; i < s.framingPoints.size() && picked < 0; i += 97)
        if (esv::projectToScreen(s, s.framingPoints[i], at)) picked = esv::pickAt(s, at.x, at.y);
    ASSERT_GE(picked, 0);
    EXPECT_LT(at.x, float(view.x + half));
    EXPECT_EQ(esv::pickAt(s, at.x + float(half), at.y), -1);
    // Zoomed in, A runs past its half: where its vertices would land in B's half, nothing is picked.
    const esv::OrbitCamera before = s.view.orbit;
    s.view.orbit.distance *= 0.25f;
    size_t beyond = 0;
    for (const glm::vec3& p : s.framingPoints)
        if (esv::projectToScreen(s, p, at) && at.x >= float(view.x + half) + 2.0f &&
            at.x < float(view.x + 2 * half) - 2.0f && at.y >= float(view.y) && at.y < float(view.y + view.height)) {
            ++beyond;
            EXPECT_EQ(esv::pickAt(s, at.x, at.y), -1);
            if (beyond > 20) break;
        }
    EXPECT_GT(beyond, 0u);
    s.view.orbit = before;

    // The same model through one camera in two views of one size: the halves are alike.
    const Image same = session.shot("same");
    const Image leftHalf = part(same, view, view.x, view.x + half - 1);
    EXPECT_TRUE(alike(part(same, view, view.x + half, view.x + 2 * half - 1), leftHalf));
    // Against the darkened copy they are not.
    ASSERT_TRUE(session.run("compare " + copies.dark.string()));
    const Image dark = session.shot("dark");
    EXPECT_TRUE(alike(part(dark, view, view.x, view.x + half - 1), leftHalf));
    EXPECT_FALSE(alike(part(dark, view, view.x + half, view.x + 2 * half - 1), leftHalf));
}

TEST(ViewerCompare, DifferenceOfAModelWithItselfIsAlikeAndOfADarkerCopyIsNot) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("diff", esv::test::modelsDir() / kMallet));
    const MalletCopies copies = malletCopies(session.dir());
    ASSERT_TRUE(session.run("compare " + copies.same.string() + "\ncompare-mode diff\nwait 2"));
    esv::ViewerState& s = session.state();
    const esv::ViewportRect view = s.viewport;
    const Image same = session.shot("same");
    nlohmann::json j = session.dump()["compare"];
    ASSERT_TRUE(j["figures"].is_object()) << j.dump();
    EXPECT_TRUE(j["figures"]["alike"].get<bool>());
    EXPECT_EQ(j["figures"]["pixels_off"], 0);
    EXPECT_GT(j["figures"]["model_pixels"].get<int>(), 5000);
    EXPECT_EQ(j["figures"]["size"], nlohmann::json({view.width, view.height}));
    EXPECT_EQ(redPixels(same, view), 0u);
    // The picture is A in grey at half brightness: no channel of the 3D view above 128 but the text's.
    size_t bright = 0;
    for (int y = view.y + 40; y < view.y + view.height; ++y)
        for (int x = view.x; x < view.x + view.width; ++x)
            bright += same.rgba[(size_t(y) * size_t(same.width) + size_t(x)) * 4 + 1] > 130;
    EXPECT_EQ(bright, 0u);
    // Idle, the picture is kept (no offscreen draws, no readback; at most one refresh in these
    // frames); a turn of the camera draws it again in the next frame.
    int draws = s.compare.diffDraws;
    session.frames(4);
    EXPECT_LE(s.compare.diffDraws - draws, 1);
    draws = s.compare.diffDraws;
    s.view.orbit.yaw += 0.5f;
    session.frames(1);
    EXPECT_EQ(s.compare.diffDraws, draws + 1);

    ASSERT_TRUE(session.run("compare " + copies.dark.string() + "\nwait 2"));
    const Image dark = session.shot("dark");
    j = session.dump()["compare"];
    EXPECT_FALSE(j["figures"]["alike"].get<bool>());
    EXPECT_GT(j["figures"]["share_off"].get<double>(), 0.2);
    EXPECT_GT(j["figures"]["mean_difference"].get<double>(), 3.0);
    const size_t red = redPixels(dark, view);
    EXPECT_GT(red, size_t(j["figures"]["pixels_off"].get<int>()) / 2);
    EXPECT_GT(red, 2000u);

    // B is watched as A is: the alike copy's texture replaced by the darkened one and its model
    // touched, B is loaded again and the figures say so.
    ASSERT_TRUE(session.run("compare " + copies.same.string() + "\nwait 2"));
    ASSERT_TRUE(session.dump()["compare"]["figures"]["alike"].get<bool>());
    const int loads = s.compare.loads;
    fs::copy_file(copies.dark.parent_path() / "mallet.png", copies.same.parent_path() / "mallet.png",
                  fs::copy_options::overwrite_existing);
    ASSERT_TRUE(session.run("touch " + copies.same.string()));
    // The viewer (not started with a script) looks at its files every 15 frames; the reload is on a
    // worker: frames until it is installed (at most 300).
    for (int i = 0; i < 300 && (s.compare.loads == loads || s.compare.loading); ++i) session.frames(1);
    session.frames(2);
    j = session.dump()["compare"];
    EXPECT_EQ(j["loads"], loads + 1);
    EXPECT_EQ(j["path"], copies.same.string());
    EXPECT_FALSE(j["figures"]["alike"].get<bool>());
}

// A camera still where framing put it frames A (the unit sphere) and B (the mallet, some thousand units
// across) together while B is open (as `esview compare`
// frames both), and A alone again once B is closed; a camera the user moved stays where it is.
TEST(ViewerCompare, FramingTakesInBothUntilTheCameraIsMoved) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("framing", esv::test::modelsDir() / kSphere));
    esv::ViewerState& s = session.state();
    const esv::OrbitCamera alone = s.view.orbit;
    ASSERT_TRUE(session.run("compare " + (esv::test::modelsDir() / kMallet).string()));
    ASSERT_TRUE(s.compare.active()) << s.compare.error;
    ASSERT_TRUE(s.compare.bounds.valid());
    EXPECT_GT(s.view.orbit.distance, 10.0f * alone.distance) << "the mallet is far larger than the sphere";
    const esv::ViewportRect view = esv::sceneViewport(s);
    // Every point framing fits, of A and of B, is on screen (framing fits the points, not the boxes).
    ASSERT_FALSE(s.compare.framingPoints.empty());
    for (const std::vector<glm::vec3>* points : {&s.framingPoints, &s.compare.framingPoints}) {
        size_t outside = 0;
        for (const glm::vec3& p : *points) {
            glm::vec2 pixel;
            outside += !esv::projectToScreen(s, p, pixel) || pixel.x < float(view.x) - 1.0f ||
                       pixel.y < float(view.y) - 1.0f || pixel.x > float(view.x + view.width) + 1.0f ||
                       pixel.y > float(view.y + view.height) + 1.0f;
        }
        EXPECT_EQ(outside, 0u);
    }
    ASSERT_TRUE(session.run("compare off"));
    EXPECT_NEAR(s.view.orbit.distance, alone.distance, 1e-4f * alone.distance);
    EXPECT_EQ(s.view.orbit.target, alone.target);

    ASSERT_TRUE(session.run("orbit 30 10 7"));
    const esv::OrbitCamera moved = s.view.orbit;
    ASSERT_TRUE(session.run("compare " + (esv::test::modelsDir() / kMallet).string()));
    EXPECT_EQ(s.view.orbit.distance, moved.distance);
    EXPECT_EQ(s.view.orbit.target, moved.target);
}

// B comes back after the GL context is lost (made again from B in memory) and after the ES2 limits
// are switched on (prepared again for the new renderer): the halves are alike again each time.
TEST(ViewerCompare, BSurvivesAContextLossAndTheEs2Switch) {
    ESVIEW_REQUIRE_MODELS("pod");
    Session session;
    ASSERT_TRUE(session.start("restore", esv::test::modelsDir() / kMallet));
    const MalletCopies copies = malletCopies(session.dir());
    ASSERT_TRUE(session.run("compare " + copies.same.string() + "\ncompare-mode side"));
    esv::ViewerState& s = session.state();
    const esv::ViewportRect view = s.viewport;
    const int half = view.width / 2;
    auto halvesAlike = [&](const std::string& name) {
        const Image shot = session.shot(name);
        return alike(part(shot, view, view.x + half, view.x + 2 * half - 1), part(shot, view, view.x, view.x + half - 1));
    };
    ASSERT_TRUE(halvesAlike("before"));
    ASSERT_TRUE(session.run("context lost\nwait 2"));
    EXPECT_EQ(s.context.restores, 1);
    ASSERT_TRUE(s.compare.active());
    EXPECT_TRUE(halvesAlike("restored"));
    ASSERT_TRUE(session.run("set gles2 on\nwait 2"));
    ASSERT_TRUE(s.compare.active()) << s.status;
    EXPECT_FALSE(s.compare.renderer->info().es3);
    EXPECT_TRUE(halvesAlike("gles2"));
}

// Two glTF files of the same two nodes and clip in another order: `left` and `right` (one triangle
// each, 2 units apart), and the clip `slide` moving `left` by 4 units along x over 2 s. B lists the
// nodes the other way round and has a clip `idle` before `slide`.
void writeNodesGltf(const fs::path& path, bool reversed) {
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float times[2] = {0.0f, 2.0f};
    const float slide[6] = {-1, 0, 0, 3, 0, 0};
    std::vector<char> bytes(sizeof(positions) + sizeof(times) + sizeof(slide));
    std::memcpy(bytes.data(), positions, sizeof(positions));
    std::memcpy(bytes.data() + sizeof(positions), times, sizeof(times));
    std::memcpy(bytes.data() + sizeof(positions) + sizeof(times), slide, sizeof(slide));
    const fs::path bin = path.parent_path() / (path.stem().string() + ".bin");
    std::ofstream(bin, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    const nlohmann::json left = {{"name", "left"}, {"mesh", 0}, {"translation", {-1, 0, 0}}};
    const nlohmann::json right = {{"name", "right"}, {"mesh", 0}, {"translation", {1, 0, 0}}};
    const int leftIndex = reversed ? 1 : 0;
    const nlohmann::json slideClip = {
        {"name", "slide"},
        {"samplers", {{{"input", 1}, {"output", 2}, {"interpolation", "LINEAR"}}}},
        {"channels", {{{"sampler", 0}, {"target", {{"node", leftIndex}, {"path", "translation"}}}}}}};
    const nlohmann::json idleClip = {
        {"name", "idle"},
        {"samplers", {{{"input", 1}, {"output", 2}, {"interpolation", "STEP"}}}},
        {"channels", {{{"sampler", 0}, {"target", {{"node", 1 - leftIndex}, {"path", "translation"}}}}}}};
    const nlohmann::json gltf = {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0, 1}}}}},
        {"nodes", reversed ? nlohmann::json{right, left} : nlohmann::json{left, right}},
        {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}}}}}}}}},
        {"animations", reversed ? nlohmann::json{idleClip, slideClip} : nlohmann::json{slideClip}},
        {"buffers", {{{"uri", bin.filename().string()}, {"byteLength", bytes.size()}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", sizeof(positions)}},
          {{"buffer", 0}, {"byteOffset", sizeof(positions)}, {"byteLength", sizeof(times)}},
          {{"buffer", 0}, {"byteOffset", sizeof(positions) + sizeof(times)}, {"byteLength", sizeof(slide)}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}, {"min", {0, 0, 0}}, {"max", {1, 1, 0}}},
          {{"bufferView", 1}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}, {"min", {0.0}}, {"max", {2.0}}},
          {{"bufferView", 2}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}}}}};
    std::ofstream(path) << gltf.dump(1);
}

TEST(ViewerCompare, SelectionAndTimeFollowAByName) {
    const fs::path dir = esv::test::viewerWorkDir("compare_", "names_files");
    writeNodesGltf(dir / "a.gltf", false);
    writeNodesGltf(dir / "b.gltf", true);
    Session session;
    ASSERT_TRUE(session.start("names", dir / "a.gltf"));
    ASSERT_TRUE(session.run("compare " + (dir / "b.gltf").string() + "\nselect right\nclip slide\npause\ntime 0.5"));
    esv::ViewerState& s = session.state();
    ASSERT_TRUE(s.compare.active()) << s.compare.error;
    session.frames(1);
    const esv::Scene &a = *s.scene, &b = *s.compare.scene;
    const int rightA = esv::findNode(a, "right"), rightB = esv::findNode(b, "right");
    const int leftA = esv::findNode(a, "left"), leftB = esv::findNode(b, "left");
    ASSERT_TRUE(rightA >= 0 && rightB >= 0 && leftA >= 0 && leftB >= 0);
    ASSERT_NE(rightA, rightB) << "the files list the nodes in another order";
    nlohmann::json j = session.dump();
    EXPECT_EQ(j["selected"], "right");
    EXPECT_EQ(j["selected_index"], rightA);
    EXPECT_EQ(j["compare"]["selected"], "right");
    EXPECT_EQ(j["compare"]["selected_index"], rightB);
    EXPECT_EQ(j["compare"]["highlight"], rightB) << "B's node of that name is highlighted";
    EXPECT_EQ(j["clip_index"], 0);
    ASSERT_EQ(b.animation.clips.size(), 2u);
    EXPECT_EQ(j["compare"]["clip"], "slide") << "B's clip of A's clip's name (index 1 there)";
    EXPECT_EQ(s.compare.transport.clip, 1);
    EXPECT_FLOAT_EQ(j["compare"]["time"].get<float>(), 0.5f);
    // At 0.5 s of 2 `left` has moved a quarter of the way from -1 to 3: x = 0, in A and in B.
    EXPECT_NEAR(s.pose.world[size_t(leftA)][3].x, 0.0f, 1e-5f);
    EXPECT_NEAR(s.compare.pose.world[size_t(leftB)][3].x, 0.0f, 1e-5f);

    // Played, B keeps A's time.
    ASSERT_TRUE(session.run("play\nwait 7\npause"));
    session.frames(1);
    EXPECT_GT(s.transport.time, 0.6f);
    EXPECT_FLOAT_EQ(s.compare.transport.time, s.transport.time);
    EXPECT_NEAR(s.compare.pose.world[size_t(leftB)][3].x, s.pose.world[size_t(leftA)][3].x, 1e-5f);
    EXPECT_GT(s.pose.world[size_t(leftA)][3].x, 0.2f);

    // Esc clears A's selection (and so B's), then closes B.
    ASSERT_TRUE(session.run("select right\npress escape\nwait 1"));
    EXPECT_EQ(s.selection.node, -1);
    EXPECT_EQ(s.compare.selected, -1);
    EXPECT_TRUE(s.compare.active());
    ASSERT_TRUE(session.run("press escape\nwait 1"));
    EXPECT_FALSE(s.compare.active());
    EXPECT_TRUE(session.dump()["compare"].is_null());
}

TEST(ViewerCompare, CompareOffClosesAndBadInputIsOneLine) {
    Session session;
    ASSERT_TRUE(session.start("off", "demo"));
    ASSERT_TRUE(session.run("compare demo\ncompare-mode side"));
    esv::ViewerState& s = session.state();
    ASSERT_TRUE(s.compare.active());
    ASSERT_TRUE(session.run("compare off"));
    EXPECT_FALSE(s.compare.active());
    EXPECT_EQ(esv::sceneViewport(s).width, s.viewport.width) << "A has the whole view again";

    // A file that cannot be opened: B stays closed and the error is one line, in the dump too.
    ASSERT_TRUE(session.run("compare " + (session.dir() / "missing.pod").string()));
    EXPECT_FALSE(s.compare.active());
    EXPECT_NE(s.compare.error.find("missing.pod"), std::string::npos) << s.compare.error;
    EXPECT_EQ(s.compare.error.find('\n'), std::string::npos) << s.compare.error;
    EXPECT_EQ(session.dump()["compare"]["error"], s.compare.error);

    esv::Script script;
    std::vector<std::string> errors;
    EXPECT_FALSE(esv::parseScript("compare-mode fancy\ncompare-divider 1.5\ncompare-divider x\ncompare\n", "c.txt",
                                  script, errors));
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(errors[0], "c.txt:1: compare-mode: expected split, side or diff");
    EXPECT_EQ(errors[1], "c.txt:2: compare-divider: expected a number from 0 to 1");
    EXPECT_EQ(errors[2], "c.txt:3: compare-divider: argument 1 'x' is not a number");
    EXPECT_EQ(errors[3].rfind("c.txt:4: expected: compare PATH|off", 0), 0u) << errors[3];

}

// `compare off` with nothing compared fails the script, naming the line.
TEST(ViewerCompare, CompareOffWithNothingComparedFails) {
    esv::ViewerState s;
    s.scene = std::make_unique<esv::Scene>(esv::makeDemoScene());
    esv::Script script;
    std::vector<std::string> errors;
    ASSERT_TRUE(esv::parseScript("compare off\n", "t.txt", script, errors));
    esv::ScriptRunner runner(std::move(script));
    esv::ScriptHost host;
    runner.runFrame(s, host);  // the first frame waits for the command line's file
    runner.runFrame(s, host);
    EXPECT_TRUE(runner.failed());
    EXPECT_EQ(runner.error(), "t.txt:1: compare: no model is compared");
}

}  // namespace
