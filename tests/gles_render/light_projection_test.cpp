// Spot light projection textures (OpenGEX LightObject, Texture attrib "projection") rendered
// headless in ES3 and ES2 mode: tests/opengex/fixtures/projected_spot.ogex lights a white plane
// from straight in front with a four-quadrant image (top left red, top right green, bottom left
// blue, bottom right white); seen through the file's camera from behind the light, each quadrant
// of the lit disc takes its colour, image up on screen up. The same light without its projection
// lights all four white. A golden image records the projected frame.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/image_compare.h"
#include "common/render_harness.h"
#include "common/test_paths.h"
#include "loaders/load.h"

namespace {

constexpr int kSize = 96;

struct Frame {
    esv::test::Image image;
    esv::FrameStats stats;
    std::vector<esv::ReportLine> report;

    glm::ivec3 at(int x, int y) const {
        const uint8_t* p = &image.rgba[(size_t(y) * size_t(image.width) + size_t(x)) * 4];
        return glm::ivec3(p[0], p[1], p[2]);
    }
};

std::unique_ptr<esv::Scene> loadFixture() {
    esv::LoadResult r =
        esv::loadSceneFile((esv::test::sourceDir() / "tests/opengex/fixtures/projected_spot.ogex").string());
    EXPECT_TRUE(r.scene);
    return std::move(r.scene);
}

// Renders `scene` at rest through its camera 0, prepared for the context (the projected image is
// read there).
Frame render(const esv::Scene& scene, bool gles2) {
    Frame out;
    esv::test::RenderHarness harness(gles2, kSize, kSize);
    if (!harness.setScene(scene)) return out;
    out.report = harness.report();
    int placeholders = 0;
    for (const esv::Texture& texture : harness.scene().textures) placeholders += texture.placeholder;
    EXPECT_EQ(placeholders, 0);
    esv::ViewSettings view;
    view.camera = 0;
    view.lighting = esv::Lighting::File;  // the projected spot alone: black outside its frustum
    esv::test::Rendered r = harness.draw(harness.poseAt(-1.0f), view);
    out.image = std::move(r.image);
    out.stats = r.stats;
    return out;
}

// Pixels over the plane points (+-0.3, +-0.3), well inside the spot's full-strength cone (radius
// 0.62): the camera at distance 3 with fovy 0.8 puts 0.3 at 0.3 / (3 tan 0.4) = 0.237 NDC, so
// 48 +- 11 pixels.
constexpr int kLeft = 37, kRight = 59, kTop = 37, kBottom = 59;

void expectProjected(const Frame& f, const char* what) {
    EXPECT_EQ(f.stats.glErrors, 0u) << what;
    EXPECT_GT(f.stats.drawCalls, 0u) << what;
    const glm::ivec3 tl = f.at(kLeft, kTop), tr = f.at(kRight, kTop);
    const glm::ivec3 bl = f.at(kLeft, kBottom), br = f.at(kRight, kBottom);
    EXPECT_TRUE(tl.r > 120 && tl.g < 30 && tl.b < 30)
        << what << " top left " << tl.r << " " << tl.g << " " << tl.b;
    EXPECT_TRUE(tr.g > 120 && tr.r < 30 && tr.b < 30)
        << what << " top right " << tr.r << " " << tr.g << " " << tr.b;
    EXPECT_TRUE(bl.b > 120 && bl.r < 30 && bl.g < 30)
        << what << " bottom left " << bl.r << " " << bl.g << " " << bl.b;
    EXPECT_TRUE(br.r > 120 && br.g > 120 && br.b > 120)
        << what << " bottom right " << br.r << " " << br.g << " " << br.b;
    // The corners of the plane lie outside the cone: dark.
    const glm::ivec3 corner = f.at(48 - 35, 48 - 35);
    EXPECT_LT(std::max({corner.r, corner.g, corner.b}), 30) << what << " corner";
}

TEST(LightProjection, FixtureQuadrantsInEs3AndEs2) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    ASSERT_EQ(scene->lights.size(), 1u);
    ASSERT_GE(scene->lights[0].projection.texture, 0);
    const Frame es3 = render(*scene, false);
    expectProjected(es3, "ES3");
    EXPECT_EQ(esv::test::matchGolden("ogex_projected_spot", es3.image), "");
    const Frame es2 = render(*scene, true);
    expectProjected(es2, "ES2");
    if (!esv::test::updatingGoldens()) {
        EXPECT_EQ(esv::test::matchGolden("ogex_projected_spot", es2.image), "") << "ES2 mode";
    }
}

TEST(LightProjection, WithoutTheTextureTheSpotIsWhite) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    const Frame projected = render(*scene, false);
    scene->lights[0].projection.texture = -1;
    for (bool gles2 : {false, true}) {
        const Frame plain = render(*scene, gles2);
        const char* what = gles2 ? "ES2" : "ES3";
        EXPECT_EQ(plain.stats.glErrors, 0u) << what;
        for (int y : {kTop, kBottom})
            for (int x : {kLeft, kRight}) {
                const glm::ivec3 c = plain.at(x, y);
                EXPECT_TRUE(c.r > 120 && std::abs(c.r - c.g) < 8 && std::abs(c.r - c.b) < 8)
                    << what << " at " << x << "," << y << ": " << c.r << " " << c.g << " " << c.b;
            }
        // Where the image is red, green or blue the projection removes the other two channels.
        EXPECT_GT(plain.at(kLeft, kTop).g - projected.at(kLeft, kTop).g, 90) << what;
        EXPECT_GT(plain.at(kRight, kTop).r - projected.at(kRight, kTop).r, 90) << what;
        EXPECT_GT(plain.at(kLeft, kBottom).r - projected.at(kLeft, kBottom).r, 90) << what;
        // Where it is white nothing changes.
        const glm::ivec3 d = plain.at(kRight, kBottom) - projected.at(kRight, kBottom);
        EXPECT_LE(std::max({std::abs(d.r), std::abs(d.g), std::abs(d.b)}), 8) << what;
        // Outside the lit disc both are equally dark.
        EXPECT_EQ(plain.at(48 - 35, 48 - 35), projected.at(48 - 35, 48 - 35)) << what;
    }
}

// A spot without a cone (the spec's default: no angular Atten) projects across 45 degrees: with the
// light 0.5 in front of the plane its frustum covers |x|, |y| < 0.5 there. Outside that square the
// projected light gives nothing; the same light without its texture lights the whole plane.
TEST(LightProjection, NothingOutsideTheFrustum) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    esv::Light& spot = scene->lights[0];
    spot.innerCone = spot.outerCone = 3.14159265f;
    esv::Node* node = nullptr;
    for (esv::Node& n : scene->nodes)
        if (n.kind == esv::NodeKind::Light) node = &n;
    ASSERT_TRUE(node);
    ASSERT_EQ(node->elements.size(), 1u);
    ASSERT_EQ(node->elements[0].kind, esv::ElementKind::Translate);
    node->elements[0].value[2] = 0.5f;
    node->local = esv::Transform{};  // the rest pose reads the composed elements from here
    node->local.translation = glm::vec3(0.0f, 0.0f, 0.5f);
    const Frame projected = render(*scene, false);
    scene->lights[0].projection.texture = -1;
    const Frame plain = render(*scene, false);
    // World (0.8, 0) and (0, -0.8): 0.8 / (3 tan 0.4) = 0.63 NDC, 30 pixels from the centre.
    for (const glm::ivec2& p : {glm::ivec2(78, 48), glm::ivec2(48, 78)}) {
        const glm::ivec3 lit = plain.at(p.x, p.y), off = projected.at(p.x, p.y);
        EXPECT_GT(std::min({lit.r, lit.g, lit.b}), 80) << p.x << "," << p.y;
        EXPECT_LT(std::max({off.r, off.g, off.b}), 30) << p.x << "," << p.y;
    }
    // Inside: world (0.2, 0.2) lies in the green quadrant.
    const glm::ivec3 in = projected.at(48 + 8, 48 - 8);
    EXPECT_TRUE(in.g > 120 && in.r < 30 && in.b < 30) << in.r << " " << in.g << " " << in.b;
}

// One projection per frame: a second projected spot lights unfiltered, and setScene says so.
TEST(LightProjection, SecondProjectedSpotIsReported) {
    auto scene = loadFixture();
    ASSERT_TRUE(scene);
    esv::Light second = scene->lights[0];
    second.name = "second";
    scene->lights.push_back(second);
    const Frame f = render(*scene, false);
    bool warned = false;
    for (const esv::ReportLine& line : f.report)
        warned |= line.severity == esv::Severity::Warning &&
                  line.text.find("only the first enabled one in node order") != std::string::npos &&
                  line.text.find("('Spot', 'second')") != std::string::npos;
    EXPECT_TRUE(warned);
    // The file's own spot is still projected.
    expectProjected(f, "two projected spots");
}

}  // namespace
