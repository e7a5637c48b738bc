// The viewer's window layout and first view over the headless host: docked panels leave the 3D
// view free at common window sizes and the scene is drawn in it, the layout is kept between runs,
// each format opens on a framed three-quarter view of its front, and a new file resets the orbit.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/hosts/headless_host.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "app/viewer/viewer_state.h"
#include "common/shared_samples.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "renderer/camera.h"
#include "scene/cpu_reference.h"

namespace {

namespace fs = std::filesystem;

fs::path workDir(const std::string& name) { return esv::test::viewerWorkDir("viewer_layout_", name); }

using esv::test::frameUntilLoaded;

// [x, y, w, h] of the dump as a rectangle.
esv::LayoutRect rectOf(const nlohmann::json& j) {
    return {j[0].get<float>(), j[1].get<float>(), j[2].get<float>(), j[3].get<float>()};
}

// At 1280x720 and 1600x900, with every panel open (a POF model, so that its panel shows too): the
// dump's panel rectangles, the menu bar and the status bar leave the 3D view alone, the view keeps
// over 40% of the window (at 1280x720, where the bottom panels are tabs of the right region, at least
// 55% with the default panels), and the scene is drawn in it.
TEST(ViewerLayout, DockedPanelsLeaveTheViewportFree) {
    ESVIEW_REQUIRE_MODELS("pof/oih_Fighter2T-01-2.pof");
    for (const auto& [width, height] : {std::pair{1280, 720}, std::pair{1600, 900}}) {
        SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
        workDir("layout_" + std::to_string(width));
        esv::HeadlessHost host;
        esv::ViewerLoop viewer;
        esv::ViewerOptions options;
        options.file = (esv::test::modelsDir() / "pof" / "oih_Fighter2T-01-2.pof").string();
        options.width = width;
        options.height = height;
        ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
        ASSERT_TRUE(frameUntilLoaded(viewer));
        esv::ViewerState& s = viewer.state();
        ASSERT_TRUE(viewer.frame());
        const float area = float(width) * float(height);
        const bool folded = width < 1600;
        {
            const nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
            const esv::LayoutRect view = rectOf(j["viewport"]);
            EXPECT_GE(view.w * view.h, (folded ? 0.55f : 0.45f) * area)
                << j["viewport"].dump() << " with the default panels";
            std::printf("[ viewport ] %dx%d, a POF model, default panels: %.1f%% of the window\n", width,
                        height, 100.0 * view.w * view.h / area);
            EXPECT_TRUE(j["panel_rects"].contains("tree"));
            EXPECT_TRUE(j["panel_rects"].contains("pof")) << "the POF panel shows for a POF model";
            EXPECT_FALSE(j["panel_rects"].contains("report"));
            EXPECT_EQ(j["bottom_folded"], folded);
            if (folded) {
                EXPECT_EQ(j["panel_rects"]["pof"], j["panel_rects"]["main"]) << "a tab of the right region";
                EXPECT_EQ(j["tabs"]["right"], "pof") << "the panel that appeared comes to the front";
            } else {
                EXPECT_EQ(j["tabs"]["bottom"], "pof");
                EXPECT_EQ(j["tabs"]["right"], "main");
            }
        }
        // The default panels of other formats (no POF panel): over 55% of the window.
        s.panel(esv::PanelId::Pof) = false;
        ASSERT_TRUE(viewer.frame());
        EXPECT_GE(s.layout.viewport.w * s.layout.viewport.h, 0.55f * area);
        for (size_t i = 0; i < size_t(esv::PanelId::Count); ++i) s.panels[i] = true;
        ASSERT_TRUE(viewer.frame());
        ASSERT_TRUE(viewer.frame());
        const nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
        const esv::LayoutRect view = rectOf(j["viewport"]);
        EXPECT_GT(view.w * view.h, 0.4f * area) << j["viewport"].dump();
        EXPECT_FALSE(view.overlaps(rectOf(j["menu_bar"])));
        EXPECT_FALSE(view.overlaps(rectOf(j["status_bar"])));
        EXPECT_EQ(rectOf(j["status_bar"]).bottom(), float(height));
        size_t docked = 0;
        for (const auto& [name, rect] : j["panel_rects"].items()) {
            ++docked;
            EXPECT_FALSE(view.overlaps(rectOf(rect)))
                << name << " " << rect.dump() << " over " << j["viewport"].dump();
            EXPECT_FALSE(rectOf(rect).empty()) << name;
        }
        EXPECT_EQ(docked, size_t(esv::PanelId::Count) - 1) << "every panel but the stats overlay is docked";
        EXPECT_EQ(j["tabs"].size(), folded ? 2u : 3u);
        // The scene is drawn in that rectangle (framebuffer and window pixels coincide here).
        EXPECT_EQ(s.viewport, (esv::ViewportRect{int(view.x), int(view.y), int(view.w), int(view.h)}));
        EXPECT_GT(s.stats.drawCalls, 0u);
        EXPECT_EQ(viewer.finish(), esv::kExitOk);
    }
}

// The acceptance: every shared sample, opened in a 1280x720 window with the default panels
// (the POF panel for POF files), leaves the 3D view at least 55% of the window, and no panel, bar or
// menu covers it. A skinned scene's Skinning panel, opened too, becomes a tab of the right region and
// changes nothing. One viewer opens the files in turn (a few frames each).
TEST(ViewerLayout, EverySampleKeepsOver55PercentOfA1280x720WindowForTheView) {
    const std::vector<fs::path> files = esv::test::sharedModelFiles();
    if (files.empty()) ESVIEW_REQUIRE_MODELS("pof/air_F-14.pof");
    workDir("every_sample");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.width = 1280;
    options.height = 720;
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    const float area = 1280.0f * 720.0f;
    float least = 1.0f;
    std::string leastFile;
    const auto check = [&](const std::string& name, const char* what) {
        const nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
        const esv::LayoutRect view = rectOf(j["viewport"]);
        const float share = view.w * view.h / area;
        EXPECT_GE(share, 0.55f) << name << " " << what << ": " << j["viewport"].dump();
        if (share < least) least = share, leastFile = name;
        EXPECT_FALSE(view.overlaps(rectOf(j["menu_bar"]))) << name;
        EXPECT_FALSE(view.overlaps(rectOf(j["status_bar"]))) << name;
        for (const auto& [panel, rect] : j["panel_rects"].items())
            EXPECT_FALSE(view.overlaps(rectOf(rect)))
                << name << " " << what << ": " << panel << " " << rect.dump();
        return j;
    };
    for (const fs::path& file : files) {
        const std::string name = fs::relative(file, esv::test::modelsDir()).string();
        SCOPED_TRACE(name);
        s.requestOpen = file.string();
        ASSERT_TRUE(frameUntilLoaded(viewer));
        ASSERT_TRUE(viewer.frame());  // the panels of the new scene laid out
        EXPECT_TRUE(s.load.error.empty()) << s.load.error;
        const nlohmann::json j = check(name, "default panels");
        EXPECT_EQ(j["panel_rects"].contains("pof"), s.scene->pof != nullptr)
            << "POF files open the POF panel";
        if (!s.scene->skins.empty()) {
            esv::showPanel(s, esv::PanelId::Skinning);
            ASSERT_TRUE(viewer.frame());
            const nlohmann::json k = check(name, "with the Skinning panel");
            EXPECT_EQ(k["panel_rects"]["skinning"], k["panel_rects"]["main"]) << "a tab of the right region";
            EXPECT_EQ(k["tabs"]["right"], "skinning");
            s.panel(esv::PanelId::Skinning) = false;
        }
    }
    std::printf(
        "[ viewport ] %zu samples at 1280x720: the 3D view keeps at least %.1f%% of the window (%s)\n",
        files.size(), 100.0 * least, leastFile.c_str());
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// The tabs keep their meaning across the 1600-pixel fold: each region keeps its own choice, and the
// right column in a narrow window shows the one chosen last of the right's and the bottom's. The
// layout file keeps them both.
TEST(ViewerLayout, TabChoicesSurviveFoldingAndUnfolding) {
    ESVIEW_REQUIRE_MODELS("pof/air_F-14.pof");
    const fs::path dir = workDir("fold_tabs");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.file = (esv::test::modelsDir() / "pof" / "air_F-14.pof").string();
    options.width = 1280;
    options.height = 720;
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    const auto frames = [&](int n) {
        for (int i = 0; i < n; ++i) ASSERT_TRUE(viewer.frame());
    };
    const auto tabs = [&]() { return nlohmann::json::parse(esv::viewerStateJson(s))["tabs"]; };
    frames(2);
    EXPECT_TRUE(s.layout.bottomFolded);
    EXPECT_EQ(tabs(), (nlohmann::json{{"left", "tree"}, {"right", "pof"}}));
    // The inspector chosen in the folded column; in a wide window the POF panel is back at the bottom.
    esv::showPanel(s, esv::PanelId::Inspector);
    frames(2);
    EXPECT_EQ(tabs()["right"], "inspector");
    host.push(esv::Event::resize(1920, 1080));
    frames(2);
    EXPECT_FALSE(s.layout.bottomFolded);
    EXPECT_EQ(tabs(), (nlohmann::json{{"left", "tree"}, {"right", "inspector"}, {"bottom", "pof"}}));
    EXPECT_FALSE(s.panelRects[size_t(esv::PanelId::Pof)].overlaps(s.layout.viewport));
    EXPECT_EQ(s.panelRects[size_t(esv::PanelId::Pof)].y, s.layout.viewport.bottom());
    // Narrow again: the inspector, chosen last, is still in front; choosing the POF tab there keeps
    // the right region's own choice for the wide window.
    host.push(esv::Event::resize(1280, 720));
    frames(2);
    EXPECT_EQ(tabs()["right"], "inspector");
    esv::showPanel(s, esv::PanelId::Pof);
    frames(2);
    EXPECT_EQ(tabs()["right"], "pof");
    EXPECT_EQ(s.tabs[size_t(esv::Region::Right)], esv::PanelId::Inspector);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
    const std::string saved = esv::test::readText(dir / "layout.txt");
    EXPECT_NE(saved.find("tab right inspector\n"), std::string::npos) << saved;
    EXPECT_NE(saved.find("tab bottom pof\n"), std::string::npos) << saved;
    EXPECT_NE(saved.find("tab folded bottom\n"), std::string::npos) << saved;
}

// The open panels, region sizes and selected tabs of a run are those of the next.
TEST(ViewerLayout, TheLayoutIsKeptBetweenRuns) {
    const fs::path dir = workDir("layout_file");
    {
        esv::HeadlessHost host;
        esv::ViewerLoop viewer;
        ASSERT_EQ(viewer.start(host, esv::ViewerOptions{}), esv::kExitOk);
        ASSERT_TRUE(frameUntilLoaded(viewer));
        esv::ViewerState& s = viewer.state();
        esv::showPanel(s, esv::PanelId::Report);
        esv::showPanel(s, esv::PanelId::Inspector);
        s.panel(esv::PanelId::Tree) = false;
        s.layoutSizes.right = 0.3f;
        ASSERT_TRUE(viewer.frame());
        ASSERT_TRUE(viewer.frame());
        EXPECT_EQ(s.tabs[size_t(esv::Region::Right)], esv::PanelId::Inspector);
        EXPECT_TRUE(s.layout.regions[size_t(esv::Region::Left)].empty()) << "no open panel on the left";
        EXPECT_EQ(s.layout.viewport.x, 0.0f);
        EXPECT_EQ(viewer.finish(), esv::kExitOk);
    }
    ASSERT_TRUE(fs::exists(dir / "layout.txt"));
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    ASSERT_EQ(viewer.start(host, esv::ViewerOptions{}), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    ASSERT_TRUE(viewer.frame());
    const esv::ViewerState& s = viewer.state();
    EXPECT_TRUE(s.panel(esv::PanelId::Report));
    EXPECT_FALSE(s.panel(esv::PanelId::Tree));
    EXPECT_FLOAT_EQ(s.layoutSizes.right, 0.3f);
    EXPECT_EQ(s.tabs[size_t(esv::Region::Right)], esv::PanelId::Inspector);
    EXPECT_NEAR(s.layout.regions[size_t(esv::Region::Right)].w, 0.3f * 1280, 0.5f);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// The first view of one file of each format and the demo: from the file's camera where it has one
// (the demo, the POD man), else the model's front toward the camera (three-quarter view), and what is drawn fills the 3D view (at least 60% of its binding dimension)
// without leaving it.
TEST(ViewerLayout, EachFormatOpensOnAFramedThreeQuarterFrontView) {
    workDir("first_view");
    const std::vector<std::string> files = {"demo", "pod/cocos3d/cocos3d_man.pod", "awd/PolarBear.awd",
                                            "ogex/lengyel_Example.ogex", "pof/air_F-14.pof"};
    for (const std::string& name : files) {
        SCOPED_TRACE(name);
        if (name != "demo") ESVIEW_REQUIRE_MODELS(name);
        esv::HeadlessHost host;
        esv::ViewerLoop viewer;
        esv::ViewerOptions options;
        options.file = name == "demo" ? name : (esv::test::modelsDir() / name).string();
        ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
        ASSERT_TRUE(frameUntilLoaded(viewer));
        esv::ViewerState& s = viewer.state();
        s.transport.playing = false;
        ASSERT_TRUE(viewer.frame());
        const esv::Scene& scene = *s.scene;
        const glm::vec3 eye = esv::orbitDirection(s.view.orbit);
        glm::vec3 toCamera;
        if (esv::fileCameraDirection(scene, toCamera)) {
            // The demo and the POD man have a camera: the view looks from its side.
            EXPECT_GT(glm::dot(eye, toCamera), 0.999f) << "from the file's camera";
        } else {
            EXPECT_GT(glm::dot(eye, scene.front), 0.7f) << "the front faces the camera";
            EXPECT_GT(std::abs(glm::dot(eye, glm::cross(scene.front, esv::orbitUp(s.view.orbit)))), 0.4f)
                << "from a side: a three-quarter view";
            EXPECT_GT(glm::dot(eye, esv::orbitUp(s.view.orbit)), 0.2f) << "from above";
        }

        // Every drawn vertex at this time, projected.
        float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
        std::vector<glm::vec3> positions;
        for (size_t n = 0; n < scene.nodes.size(); ++n) {
            if (scene.nodes[n].kind != esv::NodeKind::Mesh || !s.pose.visible[n]) continue;
            esv::worldVertices(scene, s.pose, int(n), positions);
            for (const glm::vec3& p : positions) {
                glm::vec2 at;
                if (!esv::projectToScreen(s, p, at)) continue;
                x0 = std::min(x0, at.x), y0 = std::min(y0, at.y), x1 = std::max(x1, at.x),
                y1 = std::max(y1, at.y);
            }
        }
        const esv::ViewportRect v = s.viewport;
        ASSERT_FALSE(v.empty());
        const float slack = 0.01f * float(std::max(v.width, v.height));
        EXPECT_GE(x0, float(v.x) - slack);
        EXPECT_GE(y0, float(v.y) - slack);
        EXPECT_LE(x1, float(v.x + v.width) + slack);
        EXPECT_LE(y1, float(v.y + v.height) + slack);
        const float fill = std::max((x1 - x0) / float(v.width), (y1 - y0) / float(v.height));
        EXPECT_GE(fill, 0.6f) << "box " << x0 << " " << y0 << " " << x1 << " " << y1;
        EXPECT_EQ(viewer.finish(), esv::kExitOk);
    }
}

// A new file starts from its format's first view, whatever the camera did before; a reload keeps it.
TEST(ViewerLayout, OpeningAnotherFileResetsTheOrbit) {
    ESVIEW_REQUIRE_MODELS("pof/air_F-14.pof");
    workDir("reset");
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    ASSERT_EQ(viewer.start(host, esv::ViewerOptions{}), esv::kExitOk);
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    s.view.orbit.yaw += 2.0f;
    s.view.orbit.pitch = -0.5f;
    s.view.orbit.yfov = 0.4f;
    s.requestOpen = (esv::test::modelsDir() / "pof" / "air_F-14.pof").string();
    ASSERT_TRUE(viewer.frame());
    ASSERT_TRUE(frameUntilLoaded(viewer));
    esv::OrbitCamera first;
    esv::firstView(first, s.scene->front, s.scene->up == esv::UpAxis::Z);
    EXPECT_FLOAT_EQ(s.view.orbit.yaw, first.yaw);
    EXPECT_FLOAT_EQ(s.view.orbit.pitch, first.pitch);
    EXPECT_FLOAT_EQ(s.view.orbit.yfov, esv::OrbitCamera{}.yfov);
    EXPECT_NE(first.yaw, esv::OrbitCamera{}.yaw) << "POF ships face the other way from POD models";
    EXPECT_TRUE(s.framed);

    s.view.orbit.yaw += 1.0f;
    const esv::OrbitCamera turned = s.view.orbit;
    s.requestReload = true;
    ASSERT_TRUE(viewer.frame());
    ASSERT_TRUE(frameUntilLoaded(viewer));
    EXPECT_EQ(s.loadsCompleted, 3);
    EXPECT_EQ(s.view.orbit.yaw, turned.yaw) << "a reload keeps the view";
    EXPECT_EQ(s.view.orbit.distance, turned.distance);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

}  // namespace
