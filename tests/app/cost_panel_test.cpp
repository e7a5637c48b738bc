// The viewer's Cost panel on the headless host: opened by a script, its report in the state dump is
// the cost library's on the same file (for the default device and for one a script chooses), and the
// panel is drawn where the layout puts it, its within-budget figures in green; clicking a mesh's row
// selects the node that draws it.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/hosts/headless_host.h"
#include "app/viewer/scene_source.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "cost/cost_report.h"
#include "loaders/textures/scene_textures.h"
#include "target/device_profiles.h"

namespace {

namespace fs = std::filesystem;

const fs::path kMan = fs::path("pod") / "cocos3d" / "cocos3d_man.pod";

// The cost library's report on the file as the viewer reads it (its textures from its own folder).
esv::CostReport libraryReport(const fs::path& file, const std::string& device) {
    esv::LoadResult loaded = esv::openScene(file.string());
    EXPECT_TRUE(loaded.scene) << file;
    if (!loaded.scene) return {};
    esv::readSceneTextures(*loaded.scene);
    return esv::analyzeCost(*loaded.scene, *esv::findDevice(device));
}

void expectSameReport(const nlohmann::json& cost, const esv::CostReport& r) {
    ASSERT_TRUE(cost.is_object());
    EXPECT_EQ(cost["available"], true);
    EXPECT_EQ(cost["device"], r.device->name);
    EXPECT_EQ(cost["meshes"], r.meshes.size());
    EXPECT_EQ(cost["textures"], r.textures.size());
    EXPECT_EQ(cost["totals"]["vertices"], r.totals.vertices);
    EXPECT_EQ(cost["totals"]["triangles"], r.totals.triangles);
    EXPECT_EQ(cost["totals"]["vertex_bytes"], r.totals.vertexBytes);
    EXPECT_EQ(cost["totals"]["texture_bytes"], r.totals.textureBytes);
    EXPECT_EQ(cost["frame"]["draws"], r.frame.draws);
    EXPECT_EQ(cost["frame"]["triangles"], r.frame.triangles);
    EXPECT_EQ(cost["over_limits"], r.overLimits.size());
}

// Pixels of the box [x0, x1) x [y0, y1) whose colour is within `tolerance` levels of `rgb`.
int countColor(const esv::test::Image& image, const esv::LayoutRect& box, std::array<int, 3> rgb,
               int tolerance) {
    int count = 0;
    for (int y = std::max(int(box.y), 0); y < std::min(int(box.bottom()), image.height); ++y)
        for (int x = std::max(int(box.x), 0); x < std::min(int(box.right()), image.width); ++x) {
            const uint8_t* p = &image.rgba[(size_t(y) * size_t(image.width) + size_t(x)) * 4];
            count += std::abs(p[0] - rgb[0]) <= tolerance && std::abs(p[1] - rgb[1]) <= tolerance &&
                     std::abs(p[2] - rgb[2]) <= tolerance;
        }
    return count;
}

TEST(ViewerCostPanel, ReportInTheDumpIsTheLibrarysAndThePanelIsDrawn) {
    ESVIEW_REQUIRE_MODELS(kMan);
    const fs::path dir = esv::test::viewerWorkDir("cost_panel_", "man");
    const fs::path file = esv::test::modelsDir() / kMan;
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    esv::ViewerOptions options;
    options.file = file.string();
    options.width = 1700;  // wide enough that the bottom region is not folded into the right one
    options.height = 900;
    ASSERT_EQ(viewer.start(host, options), esv::kExitOk);
    ASSERT_TRUE(esv::test::frameUntilLoaded(viewer));
    esv::ViewerState& s = viewer.state();
    EXPECT_FALSE(nlohmann::json::parse(esv::viewerStateJson(s)).contains("cost")) << "closed: no cost object";

    const fs::path first = dir / "ge8320.json", second = dir / "sgx530.json", shot = dir / "panel.png";
    std::string error;
    ASSERT_TRUE(viewer.runScript("panel cost on\nwait 3\ndump " + first.string() + "\nscreenshot " +
                                     shot.string() + "\nwait 1\nset cost-device sgx530\nwait 2\ndump " +
                                     second.string() + "\n",
                                 error))
        << error;
    for (int i = 0; i < 12; ++i) ASSERT_TRUE(viewer.frame());

    const nlohmann::json j = nlohmann::json::parse(esv::test::readText(first));
    EXPECT_EQ(j["panels"]["cost"], true);
    expectSameReport(j["cost"], libraryReport(file, "ge8320"));
    EXPECT_EQ(j["tabs"]["bottom"], "cost") << "the panel that appeared comes to the front";
    expectSameReport(nlohmann::json::parse(esv::test::readText(second))["cost"],
                     libraryReport(file, "sgx530"));

    // Drawn: in its region, text and tables over the window's background, and the totals within the
    // device's budgets in the panel's green.
    ASSERT_TRUE(j["panel_rects"].contains("cost")) << j["panel_rects"].dump();
    const esv::LayoutRect region{j["panel_rects"]["cost"][0], j["panel_rects"]["cost"][1],
                                 j["panel_rects"]["cost"][2], j["panel_rects"]["cost"][3]};
    esv::test::Image image;
    ASSERT_TRUE(esv::test::loadPng(shot.string(), image)) << shot;
    const esv::LayoutRect inside{region.x + 4, region.y + 30, region.w - 8, region.h - 34};
    const int pixels = int(inside.w * inside.h);
    const esv::test::Image window =
        esv::test::crop(image, int(inside.x), int(inside.y), int(inside.right()), int(inside.bottom()));
    const esv::test::Rgb background = esv::test::cornerBackground(window);
    const int plain = countColor(image, inside, {background[0], background[1], background[2]}, 3);
    EXPECT_GT(pixels - plain, pixels / 50) << "the panel's contents cover some of its region";
    EXPECT_GT(countColor(image, inside, {115, 217, 115}, 40), 20) << "figures within the budgets are green";

    // Clicking a mesh's row selects the first node that draws it. The rows with green text are the
    // totals' line, then the meshes' in the file's order (the tables start unsorted).
    ASSERT_TRUE(viewer.runScript("set cost-device ge8320\n", error)) << error;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(viewer.frame());
    std::vector<std::pair<int, int>> bands;  // [first, last] rows of pixels holding green
    for (int y = int(inside.y); y < int(inside.bottom()); ++y) {
        if (countColor(image, {inside.x, float(y), inside.w, 1.0f}, {115, 217, 115}, 40) == 0) continue;
        if (!bands.empty() && bands.back().second >= y - 2)
            bands.back().second = y;
        else
            bands.push_back({y, y});
    }
    ASSERT_GE(bands.size(), 2u) << "the totals' line and the first mesh's row";
    int node = -1;
    for (size_t n = 0; n < s.scene->nodes.size() && node < 0; ++n)
        if (s.scene->nodes[n].kind == esv::NodeKind::Mesh && s.scene->nodes[n].object == 0) node = int(n);
    ASSERT_GE(node, 0);
    EXPECT_NE(s.selection.node, node);
    host.push(esv::Event::mouseMove(inside.x + 20.0, 0.5 * (bands[1].first + bands[1].second)));
    ASSERT_TRUE(viewer.frame());
    host.push(esv::Event::mouseButton(esv::MouseButton::Left, true));
    ASSERT_TRUE(viewer.frame());
    host.push(esv::Event::mouseButton(esv::MouseButton::Left, false));
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.selection.node, node) << "mesh 0's row selects node " << s.scene->nodes[size_t(node)].name;
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

}  // namespace
