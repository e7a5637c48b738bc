// Line, line strip and point meshes drawn headless (EGL on llvmpipe) in ES3 and ES2 mode, from the
// OpenGEX fixture tests/opengex/fixtures/points_lines.ogex: each segment and point lands where its
// vertices project, in its material's colour, in the shaded, unlit and wireframe views; nothing is
// drawn across a strip's restart; the selection's flat pass covers lines too.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"

namespace {

constexpr int kSize = 128;
const glm::ivec4 kClear(20, 20, 20, 255);

struct Frame {
    std::vector<uint8_t> rgba;
    esv::FrameStats stats;

    glm::ivec4 at(int x, int y) const {
        const uint8_t* p = &rgba[(size_t(y) * kSize + size_t(x)) * 4];
        return glm::ivec4(p[0], p[1], p[2], p[3]);
    }
    // True when some pixel within `radius` of (x, y) satisfies `test` (lines are one pixel wide
    // and land within a pixel of their projection).
    bool near(int x, int y, int radius, const std::function<bool(const glm::ivec4&)>& test) const {
        for (int dy = -radius; dy <= radius; ++dy)
            for (int dx = -radius; dx <= radius; ++dx) {
                const int px = x + dx, py = y + dy;
                if (px >= 0 && py >= 0 && px < kSize && py < kSize && test(at(px, py))) return true;
            }
        return false;
    }
};

std::unique_ptr<esv::Scene> loadFixture() {
    const std::string path = (esv::test::sourceDir() / "tests/opengex/fixtures/points_lines.ogex").string();
    esv::LoadResult r = esv::loadSceneFile(path);
    EXPECT_TRUE(r.scene) << path;
    return std::move(r.scene);
}

// The scene head-on from +Z at distance 3 (45 degree field of view): world (x, y, 0) lands at pixel
// (64 + 51.5 x, 64 - 51.5 y).
Frame render(const esv::Scene& scene, bool gles2, esv::ViewMode mode, int highlight = -1) {
    Frame out;
    esv::test::RenderHarness harness(gles2, kSize, kSize);
    if (!harness.setScene(scene)) return out;
    esv::ViewSettings view = esv::test::headOnView(3.0f);
    view.mode = mode;
    view.clearColor = glm::vec4(kClear) / 255.0f;
    view.highlightNode = highlight;
    view.pointSize = 5.0f;
    esv::test::Rendered r = harness.draw(harness.poseAt(-1.0f), view);
    out.stats = r.stats;
    EXPECT_EQ(out.stats.glErrors, 0u);
    out.rgba = std::move(r.image.rgba);
    return out;
}

glm::ivec2 pixel(float x, float y) { return glm::ivec2(int(64.0f + 51.5f * x), int(64.0f - 51.5f * y)); }

// The colour's channel `c` dominates: above 120 (lit or not), the others below 60.
std::function<bool(const glm::ivec4&)> mostly(int c) {
    return [c](const glm::ivec4& p) {
        for (int k = 0; k < 3; ++k)
            if (k == c ? p[k] < 120 : p[k] > 60) return false;
        return true;
    };
}
bool background(const glm::ivec4& p) { return glm::all(glm::lessThanEqual(glm::abs(p - kClear), glm::ivec4(2))); }

TEST(PrimitivesRender, LinesStripsAndPointsInTheirColours) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    struct Spot {
        float x, y;
        int channel;  // 0 red (lines), 1 green (strip), 2 blue (points)
        const char* what;
    };
    const Spot spots[] = {
        {0.0f, 0.6f, 0, "horizontal line"},       {-0.6f, -0.4f, 0, "vertical line"},
        {0.5f, -0.2f, 1, "strip, first segment"}, {0.8f, -0.5f, 1, "strip, second segment"},
        {0.3f, -0.8f, 1, "strip after the restart"},
        {0.0f, 0.0f, 2, "point at the origin"},   {-0.3f, -0.5f, 2, "point"}, {0.5f, 0.3f, 2, "point"},
    };
    for (bool gles2 : {false, true})
        for (esv::ViewMode mode : {esv::ViewMode::Shaded, esv::ViewMode::Unlit, esv::ViewMode::Wireframe}) {
            SCOPED_TRACE(std::string(esv::viewModeName(mode)) + (gles2 ? ", ES2" : ", ES3"));
            Frame f = render(*scene, gles2, mode);
            EXPECT_EQ(f.stats.triangles, 0u);
            EXPECT_EQ(f.stats.lines, 5u);
            EXPECT_EQ(f.stats.points, 3u);
            EXPECT_EQ(f.stats.drawCalls, 3u);
            for (const Spot& s : spots) {
                const glm::ivec2 p = pixel(s.x, s.y);
                EXPECT_TRUE(f.near(p.x, p.y, 1, mostly(s.channel))) << s.what << " at " << p.x << ", " << p.y;
            }
            // Points are 5 pixels across: solid two pixels from their centre, gone at four.
            const glm::ivec2 origin = pixel(0.0f, 0.0f);
            EXPECT_TRUE(mostly(2)(f.at(origin.x + 1, origin.y + 1)));
            EXPECT_TRUE(f.near(origin.x + 5, origin.y, 0, background));
            // Nothing joins the strip's runs across the restart, nothing between the lines.
            const glm::ivec2 gap = pixel(0.65f, -0.8f);
            EXPECT_FALSE(f.near(gap.x, gap.y, 2, [](const glm::ivec4& p) { return !background(p); })) << "restart gap";
            EXPECT_TRUE(background(f.at(pixel(-0.2f, 0.3f).x, pixel(-0.2f, 0.3f).y)));
        }
}

// Unlit lines carry the material colour exactly; shaded ones with normals are lit by the headlight
// (dimmer than unlit, still red), and the strip without normals stays unlit in the shaded view.
TEST(PrimitivesRender, LitWithNormalsUnlitWithout) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    const glm::ivec2 line = pixel(0.0f, 0.6f), strip = pixel(0.5f, -0.2f);
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        Frame unlit = render(*scene, gles2, esv::ViewMode::Unlit);
        Frame shaded = render(*scene, gles2, esv::ViewMode::Shaded);
        auto exact = [](glm::ivec4 want) {
            return [want](const glm::ivec4& p) { return glm::all(glm::lessThanEqual(glm::abs(p - want), glm::ivec4(2))); };
        };
        EXPECT_TRUE(unlit.near(line.x, line.y, 1, exact({255, 0, 0, 255})));
        EXPECT_TRUE(shaded.near(line.x, line.y, 1, [](const glm::ivec4& p) { return p.r > 150 && p.r < 250 && p.g < 10; }));
        EXPECT_TRUE(shaded.near(strip.x, strip.y, 1, exact({0, 255, 0, 255})));
    }
}

// Selecting a line node draws its lines again in the accent colour (lines have no surface to outline).
TEST(PrimitivesRender, SelectionCoversLines) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    int lines = -1;
    for (size_t n = 0; n < scene->nodes.size(); ++n)
        if (scene->nodes[n].name == "Lines") lines = int(n);
    ASSERT_GE(lines, 0);
    const glm::ivec2 p = pixel(0.0f, 0.6f);
    for (bool gles2 : {false, true}) {
        Frame f = render(*scene, gles2, esv::ViewMode::Shaded, lines);
        EXPECT_TRUE(f.near(p.x, p.y, 1, [](const glm::ivec4& c) { return c.r > 200 && c.g > 150 && c.g < 230 && c.b < 60; }))
            << (gles2 ? "ES2" : "ES3");
    }
}

}  // namespace
