// Materials, textures and lights on a synthetic quad, checked pixel by pixel in ES3 and ES2 mode:
// texture sampling and wrap modes, alpha test, compressed upload, tangent-space normal maps, the
// metal/rough model's image-based ambient, the choice of the strongest four lights, texture
// coordinate transforms (static and animated), the emulated border / mirror_clamp / mirror_border
// addressing, and swizzles (GL state on ES3, permuted pixels on ES2).
#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include <glad/gles2.h>
#include <glm/gtx/quaternion.hpp>

#include "app/hosts/egl_context.h"
#include "common/render_harness.h"
#include "renderer/renderer.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace {

constexpr int kSize = 64;

struct QuadVertex {
    float position[3];
    float normal[3];
    float uv[2];
};

// A 2x2 quad in the XY plane facing +Z, UVs 0..uvScale, one material (index 0), one mesh node.
esv::Scene quadScene(float uvScale = 1.0f) {
    esv::Scene scene;
    scene.format = "test";
    const QuadVertex vertices[4] = {{{-1, -1, 0}, {0, 0, 1}, {0, uvScale}},
                                    {{1, -1, 0}, {0, 0, 1}, {uvScale, uvScale}},
                                    {{1, 1, 0}, {0, 0, 1}, {uvScale, 0}},
                                    {{-1, 1, 0}, {0, 0, 1}, {0, 0}}};
    std::vector<uint8_t> bytes(sizeof vertices);
    std::memcpy(bytes.data(), vertices, sizeof vertices);
    esv::Mesh mesh;
    mesh.name = "quad";
    mesh.vertexCount = 4;
    esv::VertexStream stream;
    stream.bytes = esv::makeOwnedBytes(std::move(bytes));
    stream.stride = sizeof(QuadVertex);
    stream.count = 4;
    stream.attributes = {
        {esv::Semantic::Position, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 0},
        {esv::Semantic::Normal, 0, esv::ComponentType::Float32, 3, false, esv::Swizzle::Identity, 12},
        {esv::Semantic::TexCoord, 0, esv::ComponentType::Float32, 2, false, esv::Swizzle::Identity, 24}};
    mesh.streams.push_back(stream);
    const uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
    std::vector<uint8_t> indexBytes(sizeof indices);
    std::memcpy(indexBytes.data(), indices, sizeof indices);
    mesh.indices.type = esv::ComponentType::UInt16;
    mesh.indices.count = 6;
    mesh.indices.bytes = esv::makeOwnedBytes(std::move(indexBytes));
    esv::Submesh sub;
    sub.indexCount = 6;
    mesh.submeshes.push_back(sub);
    scene.meshes.push_back(mesh);
    esv::Material material;
    material.name = "quad";
    material.diffuse = glm::vec3(1.0f);
    material.ambient = glm::vec3(0.0f);
    scene.materials.push_back(material);
    esv::Node node;
    node.name = "quad";
    node.kind = esv::NodeKind::Mesh;
    node.object = 0;
    node.materials = {0};
    scene.nodes.push_back(node);
    return scene;
}

esv::Image rgbaImage(uint32_t w, uint32_t h, const std::vector<uint8_t>& rgba) {
    esv::Image image;
    image.width = w;
    image.height = h;
    image.container = "test";
    image.surfaces.push_back(esv::makeOwnedBytes(rgba));
    return image;
}

int addTexture(esv::Scene& scene, esv::Image image) {
    esv::Texture t;
    t.name = "t" + std::to_string(scene.textures.size());
    t.image = std::move(image);
    scene.textures.push_back(t);
    return int(scene.textures.size()) - 1;
}

void addLight(esv::Scene& scene, esv::LightType type, const glm::vec3& color, const glm::vec3& position,
              const glm::vec3& direction = glm::vec3(0, 0, -1)) {
    esv::Light light;
    light.type = type;
    light.color = color;
    scene.lights.push_back(light);
    esv::Node node;
    node.name = "light" + std::to_string(scene.lights.size());
    node.kind = esv::NodeKind::Light;
    node.object = int(scene.lights.size()) - 1;
    node.local.translation = position;
    // Lights shine down their -Z: rotate -Z onto `direction`.
    node.local.rotation = glm::rotation(glm::vec3(0, 0, -1), glm::normalize(direction));
    scene.nodes.push_back(node);
}

struct Frame {
    std::vector<uint8_t> rgba;
    esv::FrameStats stats;
    esv::RendererInfo info;
    std::vector<esv::ReportLine> report;

    // Pixel at (x, y) counted from the top left.
    glm::ivec4 at(int x, int y) const {
        const uint8_t* p = &rgba[(size_t(y) * kSize + x) * 4];
        return glm::ivec4(p[0], p[1], p[2], p[3]);
    }
};

// Renders the quad head-on (orbit camera on +Z, the quad filling the middle of the frame), at
// `seconds` into clip `clip` (-1: the rest pose), prepared for the context as the app prepares it.
Frame render(const esv::Scene& scene, bool gles2, esv::ViewMode mode = esv::ViewMode::Shaded, int clip = -1,
             float seconds = 0.0f, esv::MissingTexture missing = esv::kDefaultMissingTexture) {
    Frame out;
    esv::test::RenderHarness harness(gles2, kSize, kSize);
    if (!harness.setScene(scene)) return out;
    out.info = harness.info();
    out.report = harness.report();
    esv::Pose pose;
    esv::evaluatePose(harness.scene(), clip, seconds, pose);
    // The 2x2 quad spans about 60% of the 45 degree view.
    esv::ViewSettings view = esv::test::headOnView(3.0f);
    view.mode = mode;
    view.clearColor = glm::vec4(0, 0, 0, 1);
    // The fixtures' own lights alone (or the headlight pair without any): the expected values are
    // the material maths under them, without the studio rig.
    view.lighting = esv::Lighting::File;
    view.missingTexture = missing;
    const esv::test::Rendered r = harness.draw(pose, view);
    out.stats = r.stats;
    EXPECT_EQ(out.stats.glErrors, 0u);
    out.rgba = r.image.rgba;
    return out;
}

void expectNear(const glm::ivec4& actual, const glm::ivec4& expected, int tolerance, const char* what) {
    for (int c = 0; c < 4; ++c)
        EXPECT_NEAR(actual[c], expected[c], tolerance)
            << what << " channel " << c << " (" << actual.r << ", " << actual.g << ", " << actual.b << ", "
            << actual.a << ")";
}

// A texture that is not found draws neutral grey by default (the shape stays readable), the magenta
// checker when asked for; a missing normal map leaves the surface flat.
TEST(MaterialRender, MissingTextureIsGreyOrTheChecker) {
    esv::Scene scene = quadScene();
    esv::Texture missing;
    missing.name = missing.path = "no_such_texture_anywhere.png";
    scene.textures.push_back(missing);
    scene.materials[0].texture(esv::TextureSlot::Diffuse).texture = 0;
    scene.materials[0].texture(esv::TextureSlot::Normal).texture = 0;
    for (bool gles2 : {false, true}) {
        const Frame grey = render(scene, gles2, esv::ViewMode::Unlit);
        bool placeholder = false;
        for (const esv::ReportLine& line : grey.report)
            placeholder |= line.text.find("no_such_texture_anywhere.png") != std::string::npos;
        EXPECT_TRUE(placeholder) << "the missing file is reported";
        for (const glm::ivec2& p : {glm::ivec2(12, 12), glm::ivec2(20, 40), glm::ivec2(32, 32), glm::ivec2(50, 17)})
            expectNear(grey.at(p.x, p.y), {180, 180, 180, 255}, 2, "grey");
        const Frame checker =
            render(scene, gles2, esv::ViewMode::Unlit, -1, 0.0f, esv::MissingTexture::Checker);
        int magenta = 0, dark = 0;
        for (int y = 8; y < 56; ++y)
            for (int x = 8; x < 56; ++x) {
                const glm::ivec4 c = checker.at(x, y);
                magenta += c.r > 200 && c.g < 40 && c.b > 200;
                dark += c.r < 90 && c.g < 90 && c.b < 90 && std::abs(c.r - c.g) < 8;
            }
        EXPECT_GT(magenta, 600) << (gles2 ? "ES2" : "ES3");
        EXPECT_GT(dark, 600) << (gles2 ? "ES2" : "ES3");
        // Shaded: the grey quad lit head-on, the missing normal map left out (flat, evenly lit).
        const Frame shaded = render(scene, gles2);
        expectNear(shaded.at(16, 16), shaded.at(48, 48), 2, "flat");
        EXPECT_GT(shaded.at(32, 32).r, 100);
        EXPECT_NEAR(shaded.at(32, 32).r, shaded.at(32, 32).b, 2);
    }
}

// The four texels of a 2x2 texture land in the four quadrants of the quad.
TEST(MaterialRender, DiffuseTextureTexelsLandInTheirQuadrants) {
    esv::Scene scene = quadScene();
    // 4x4 texels, each quadrant 2x2 of one colour, so linear filtering leaves a plateau in each.
    const uint8_t colours[4][4] = {
        {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
    std::vector<uint8_t> rgba;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            rgba.insert(rgba.end(), colours[(y / 2) * 2 + x / 2], colours[(y / 2) * 2 + x / 2] + 4);
    const int t = addTexture(scene, rgbaImage(4, 4, rgba));
    scene.materials[0].texture(esv::TextureSlot::Diffuse).texture = t;
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2, esv::ViewMode::Unlit);
        // The quad spans pixels 6..58; row 0 of the texture (v = 0) is at the top of the quad.
        expectNear(f.at(19, 19), {255, 0, 0, 255}, 3, "top left red");
        expectNear(f.at(45, 19), {0, 255, 0, 255}, 3, "top right green");
        expectNear(f.at(19, 45), {0, 0, 255, 255}, 3, "bottom left blue");
        expectNear(f.at(45, 45), {255, 255, 255, 255}, 3, "bottom right white");
        expectNear(f.at(2, 2), {0, 0, 0, 255}, 0, "background");
    }
}

// Two submeshes of one mesh node with materials that need different programs (plain red, and a
// green texture): each draws with its own program, textures and colour, not the first one's.
TEST(MaterialRender, EachSubmeshDrawsWithItsOwnMaterialsProgram) {
    esv::Scene scene = quadScene();
    esv::Mesh& mesh = scene.meshes[0];
    mesh.submeshes[0].indexCount = 3;  // 0 1 2: the lower right triangle
    esv::Submesh upper;
    upper.firstIndex = 3;  // 0 2 3: the upper left one
    upper.indexCount = 3;
    upper.materialSlot = 1;
    mesh.submeshes.push_back(upper);
    scene.materials[0].diffuse = glm::vec3(1.0f, 0.0f, 0.0f);
    esv::Material textured = scene.materials[0];
    textured.name = "green texture";
    textured.diffuse = glm::vec3(1.0f);
    textured.texture(esv::TextureSlot::Diffuse).texture = addTexture(scene, rgbaImage(1, 1, {0, 255, 0, 255}));
    scene.materials.push_back(textured);
    scene.nodes[0].materials = {0, 1};
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2, esv::ViewMode::Unlit);
        EXPECT_EQ(f.stats.drawCalls, 2u);
        expectNear(f.at(45, 45), {255, 0, 0, 255}, 3, "lower right: the red material");
        expectNear(f.at(19, 19), {0, 255, 0, 255}, 3, "upper left: the green texture");
    }
}

// The texture views on the quad, which spans about 52 pixels for UVs 0..1: a texture of N texels a
// side is sampled at log2(N / 52) levels, rounded (mip), and N / 52 texels a pixel (texel density).
esv::Scene quadWithTexture(uint32_t size) {
    esv::Scene scene = quadScene();
    scene.materials[0].texture(esv::TextureSlot::Diffuse).texture =
        addTexture(scene, rgbaImage(size, size, std::vector<uint8_t>(size_t(size) * size * 4, 200)));
    return scene;
}

TEST(TextureViews, MipLevelColoursFollowTheTexelsPerPixel) {
    // 64 texels: level 0 (blue); 256: log2(4.9) = 2.3, level 2 (green); 1024: 4.3, level 4 (orange).
    const std::vector<std::pair<uint32_t, glm::ivec4>> cases = {
        {64, {26, 51, 255, 255}}, {256, {26, 230, 26, 255}}, {1024, {255, 128, 0, 255}}};
    for (bool gles2 : {false, true})
        for (const auto& [size, colour] : cases) {
            SCOPED_TRACE(std::to_string(size) + (gles2 ? " ES2" : " ES3"));
            const Frame f = render(quadWithTexture(size), gles2, esv::ViewMode::Mip);
            expectNear(f.at(32, 32), colour, 2, "the level's colour");
        }
    // No diffuse map: grey.
    const Frame none = render(quadScene(), false, esv::ViewMode::Mip);
    expectNear(none.at(32, 32), {128, 128, 128, 255}, 2, "no map");
    // The strict profile lists no extension, so no derivatives: the view says so and draws unlit
    // (the texture's own grey of 200).
    esv::test::RenderHarness strict(true, kSize, kSize, true, true);
    ASSERT_TRUE(strict.setScene(quadWithTexture(256)));
    esv::ViewSettings view = esv::test::headOnView(3.0f);
    view.mode = esv::ViewMode::Mip;
    const esv::test::Rendered drawn = strict.draw(strict.poseAt(-1.0f), view);
    ASSERT_EQ(drawn.stats.notes.size(), 1u);
    EXPECT_NE(drawn.stats.notes[0].find("need screen-space derivatives"), std::string::npos) << drawn.stats.notes[0];
    const uint8_t* centre = &drawn.image.rgba[(size_t(32) * kSize + 32) * 4];
    EXPECT_NEAR(centre[0], 200, 3);
    EXPECT_NEAR(centre[2], 200, 3);
}

TEST(TextureViews, TexelDensityIsBlueMagnifiedWhiteAtOneRedMinified) {
    const Frame magnified = render(quadWithTexture(16), false, esv::ViewMode::TexelDensity);
    const Frame even = render(quadWithTexture(64), false, esv::ViewMode::TexelDensity);
    const Frame minified = render(quadWithTexture(512), false, esv::ViewMode::TexelDensity);
    const glm::ivec4 m = magnified.at(32, 32), e = even.at(32, 32), n = minified.at(32, 32);
    // 16 / 52: log2 = -1.7, 0.57 of the way to blue; 64 / 52: 0.1 of the way to red; 512 / 52: 1.1
    // of the 3 steps to red.
    EXPECT_GT(m.b, 250);
    EXPECT_LT(m.r, 160);
    EXPECT_GT(e.r, 250);
    EXPECT_GT(e.g, 200);
    EXPECT_GT(e.b, 200);
    EXPECT_GT(n.r, 250);
    EXPECT_LT(n.g, 180);
    EXPECT_LT(n.g, e.g);
}

// shaded-wire: the shaded picture with the edges over it, the same draws as the wireframe overlay.
TEST(TextureViews, ShadedWireIsTheShadedViewWithItsEdges) {
    const esv::Scene scene = quadScene();
    const Frame shaded = render(scene, false, esv::ViewMode::Shaded);
    const Frame wire = render(scene, false, esv::ViewMode::ShadedWire);
    EXPECT_EQ(wire.stats.drawCalls, 2 * shaded.stats.drawCalls);
    int differing = 0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) differing += shaded.at(x, y) != wire.at(x, y) ? 1 : 0;
    EXPECT_GT(differing, 100) << "the edges";
    EXPECT_LT(differing, kSize * kSize / 4) << "only the edges";
}

// Quads of the one mesh stacked toward the camera, each with its own material: the first at z = 0,
// the next 0.1 closer, and so on.
esv::Scene stackedQuads(const std::vector<esv::Material>& materials) {
    esv::Scene scene = quadScene();
    scene.materials = materials;
    scene.nodes.clear();
    for (size_t i = 0; i < materials.size(); ++i) {
        esv::Node node;
        node.name = "layer" + std::to_string(i);
        node.kind = esv::NodeKind::Mesh;
        node.object = 0;
        node.materials = {int(i)};
        node.local.translation = glm::vec3(0.0f, 0.0f, 0.1f * float(i));
        scene.nodes.push_back(node);
    }
    return scene;
}

esv::Material layerMaterial(float opacity = 1.0f, float alphaCutoff = 0.0f) {
    esv::Material m;
    m.name = "layer";
    m.diffuse = glm::vec3(1.0f);
    m.opacity = opacity;
    m.alphaCutoff = alphaCutoff;
    return m;
}

// Overdraw counts on scenes with known layers. `overdraw` (hidden surface removal): the nearest
// opaque layer once, then each blended or alpha-tested layer in front of it; `overdraw-all`: every
// layer. The quad alone covers P pixels, so a lone quad shades exactly P fragments.
TEST(OverdrawViews, CountsAreExactOnKnownLayers) {
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        const Frame one = render(stackedQuads({layerMaterial()}), gles2, esv::ViewMode::Overdraw);
        ASSERT_GT(one.stats.overdrawCovered, 1000u);
        EXPECT_EQ(one.stats.overdrawShaded, one.stats.overdrawCovered);
        EXPECT_EQ(one.stats.overdrawMax, 1u);
        // Two opaque quads: the hidden one costs nothing under HSR, a layer without depth testing.
        const esv::Scene opaque = stackedQuads({layerMaterial(), layerMaterial()});
        const Frame hsr = render(opaque, gles2, esv::ViewMode::Overdraw);
        EXPECT_EQ(hsr.stats.overdrawMax, 1u);
        EXPECT_EQ(hsr.stats.overdrawShaded, hsr.stats.overdrawCovered);
        const Frame all = render(opaque, gles2, esv::ViewMode::OverdrawAll);
        EXPECT_EQ(all.stats.overdrawMax, 2u);
        EXPECT_EQ(all.stats.overdrawCovered, hsr.stats.overdrawCovered);
        EXPECT_EQ(all.stats.overdrawShaded, one.stats.overdrawShaded + uint64_t(hsr.stats.overdrawCovered));
        // An opaque quad under 3 blended ones: 4 layers where all overlap, in both views.
        const esv::Scene blended = stackedQuads({layerMaterial(), layerMaterial(0.5f), layerMaterial(0.5f), layerMaterial(0.5f)});
        EXPECT_EQ(render(blended, gles2, esv::ViewMode::Overdraw).stats.overdrawMax, 4u);
        EXPECT_EQ(render(blended, gles2, esv::ViewMode::OverdrawAll).stats.overdrawMax, 4u);
        // An alpha-tested quad in front: shaded (2 layers) though every fragment of it may be discarded.
        const esv::Scene tested = stackedQuads({layerMaterial(), layerMaterial(1.0f, 0.5f)});
        EXPECT_EQ(render(tested, gles2, esv::ViewMode::Overdraw).stats.overdrawMax, 2u);
        // A blended quad behind the opaque one: hidden, so not shaded under HSR.
        esv::Scene behind = stackedQuads({layerMaterial(0.5f), layerMaterial()});
        const Frame hidden = render(behind, gles2, esv::ViewMode::Overdraw);
        EXPECT_EQ(hidden.stats.overdrawMax, 1u);
        EXPECT_EQ(render(behind, gles2, esv::ViewMode::OverdrawAll).stats.overdrawMax, 2u);
        // The heat scale: one layer dark blue, four yellow (shaders/overdraw.frag), at the centre.
        expectNear(one.at(32, 32), {13, 26, 115, 255}, 2, "one layer");
        expectNear(render(blended, gles2, esv::ViewMode::Overdraw).at(32, 32), {255, 242, 26, 255}, 2, "four layers");
    }
}

// UVs 0..2: repeat shows the texture twice across the quad, clamp stretches the edge texels.
TEST(MaterialRender, WrapModesFollowTheMaterial) {
    esv::Scene scene = quadScene(2.0f);
    // 4x1 texture: red, green, blue, white columns.
    const int t = addTexture(
        scene, rgbaImage(4, 1, {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}));
    esv::TextureRef& ref = scene.materials[0].texture(esv::TextureSlot::Diffuse);
    ref.texture = t;
    for (bool gles2 : {false, true}) {
        ref.wrapS = ref.wrapT = esv::Wrap::Repeat;
        Frame repeat = render(scene, gles2, esv::ViewMode::Unlit);
        // The quad spans pixels 6..58, so u = 2 * (x - 6) / 52: x = 34 gives u ~ 1.1, which repeats to
        // 0.1 (the red column) and clamps to 1 (the white edge).
        expectNear(repeat.at(34, 32), {255, 0, 0, 255}, 40, "repeat wraps to red");
        ref.wrapS = ref.wrapT = esv::Wrap::Clamp;
        Frame clamp = render(scene, gles2, esv::ViewMode::Unlit);
        expectNear(clamp.at(34, 32), {255, 255, 255, 255}, 40, "clamp holds the white edge");
        expectNear(clamp.at(48, 32), {255, 255, 255, 255}, 3, "clamp far side");
    }
}

TEST(MaterialRender, AlphaTestDiscardsBelowTheCutoff) {
    esv::Scene scene = quadScene();
    // Left two columns opaque, right two alpha 0 (two texels each, so filtering leaves plateaus).
    std::vector<uint8_t> rgba;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) rgba.insert(rgba.end(), {255, 255, 0, uint8_t(x < 2 ? 255 : 0)});
    const int t = addTexture(scene, rgbaImage(4, 4, rgba));
    scene.materials[0].texture(esv::TextureSlot::Diffuse).texture = t;
    scene.materials[0].alphaCutoff = 0.5f;
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2, esv::ViewMode::Unlit);
        expectNear(f.at(19, 32), {255, 255, 0, 255}, 3, "opaque half drawn");
        expectNear(f.at(45, 32), {0, 0, 0, 255}, 0, "transparent half discarded");
    }
}

// A BC1 block of solid red uploads as stored where the context has S3TC; elsewhere the preparation
// stage decodes it, and says so.
TEST(MaterialRender, CompressedTextureUploadsAsStoredOrDecoded) {
    esv::Scene scene = quadScene();
    esv::Image image;
    image.format = esv::PixelFormat::Bc1_Rgb;
    image.width = image.height = 4;
    image.container = "test";
    // c0 = c1 = pure red in 565, every index 0.
    image.surfaces.push_back(esv::makeOwnedBytes({0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0}));
    scene.materials[0].texture(esv::TextureSlot::Diffuse).texture = addTexture(scene, image);
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2, esv::ViewMode::Unlit);
        bool decoded = false;
        for (const esv::ReportLine& line : f.report) decoded |= line.text.find("decoded to RGBA8 in software") != std::string::npos;
        EXPECT_EQ(decoded, !f.info.supports(esv::PixelFormat::Bc1_Rgb)) << (gles2 ? "ES2" : "ES3");
        expectNear(f.at(32, 32), {255, 0, 0, 255}, 3, "BC1 red");
        EXPECT_GT(f.info.textureBytes, 0u);
    }
}

TEST(MaterialRender, Es2ModeNeverUsesEs3CompressedFormats) {
    esv::Scene scene = quadScene();
    Frame es2 = render(scene, true);
    Frame es3 = render(scene, false);
    EXPECT_FALSE(es2.info.supports(esv::PixelFormat::Etc2_Rgba));
    EXPECT_FALSE(es2.info.npotTextures);
    EXPECT_TRUE(es3.info.supports(esv::PixelFormat::Etc2_Rgba));
    EXPECT_TRUE(es3.info.supports(esv::PixelFormat::Etc1_Rgb));
    EXPECT_TRUE(es3.info.npotTextures);
}

// A flat normal map shades like no map; one tilted toward +U brightens the side a light from +X hits.
TEST(MaterialRender, NormalMapTiltsTheShadingNormal) {
    esv::Scene scene = quadScene();
    scene.materials[0].diffuse = glm::vec3(1.0f);
    // A directional light travelling along -X and -Z at 60 degrees from the normal.
    addLight(scene, esv::LightType::Directional, glm::vec3(1.0f), glm::vec3(0, 0, 2),
             glm::vec3(-std::sin(1.047f), 0.0f, -std::cos(1.047f)));
    Frame none = render(scene, false);
    const int flat = addTexture(scene, rgbaImage(1, 1, {128, 128, 255, 255}));
    const int tilted = addTexture(scene, rgbaImage(1, 1, {218, 128, 218, 255}));  // ~45 degrees toward +U
    scene.materials[0].texture(esv::TextureSlot::Normal).texture = flat;
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2);
        expectNear(f.at(32, 32), none.at(32, 32), 3, "flat normal map");
        bool computed = false;
        for (const esv::ReportLine& line : f.report)
            computed |= line.text.find("computed from UV set 0") != std::string::npos;
        EXPECT_TRUE(computed) << "tangents are computed from the UVs and reported";
    }
    scene.materials[0].texture(esv::TextureSlot::Normal).texture = tilted;
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2);
        // cos(60) = 0.5 without the map; tilted 45 degrees toward the light: cos(15) ~ 0.97.
        EXPECT_GT(f.at(32, 32).r, none.at(32, 32).r + 60) << (gles2 ? "ES2" : "ES3");
    }
}

// With no light reaching it, a metal still shows the environment through the image-based ambient.
TEST(MaterialRender, MetalRoughMetalsAreNotBlack) {
    esv::Scene scene = quadScene();
    esv::Material& m = scene.materials[0];
    m.model = esv::ShadingModel::MetalRough;
    m.diffuse = glm::vec3(0.9f, 0.6f, 0.2f);  // gold-ish base colour
    m.metallic = 1.0f;
    m.roughness = 0.4f;
    // A light behind the quad: no direct light on the front face.
    addLight(scene, esv::LightType::Directional, glm::vec3(1.0f), glm::vec3(0, 0, -2), glm::vec3(0, 0, 1));
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2);
        const glm::ivec4 p = f.at(32, 32);
        EXPECT_GT(p.r, 40) << "metal lit by the environment";
        EXPECT_GT(p.r, p.b) << "tinted by the base colour (F0 = base for metals)";
        m.metallic = 0.0f;
        Frame dielectric = render(scene, gles2);
        EXPECT_GT(dielectric.at(32, 32).r, 20) << "dielectric diffuse ambient";
        m.metallic = 1.0f;
    }
}

// Five point lights: four dim blue ones listed first, one bright red one last and closest. The
// draw takes the strongest four at the object, so the red light is among them.
TEST(MaterialRender, StrongestFourLightsAreChosen) {
    esv::Scene scene = quadScene();
    for (int i = 0; i < 4; ++i)
        addLight(scene, esv::LightType::Point, glm::vec3(0.0f, 0.0f, 0.15f),
                 glm::vec3(-3.0f + 2.0f * i, 0.0f, 6.0f));
    addLight(scene, esv::LightType::Point, glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f));
    for (bool gles2 : {false, true}) {
        Frame f = render(scene, gles2);
        EXPECT_GT(f.at(32, 32).r, 150) << "the red light is one of the four drawn";
        EXPECT_GT(f.at(32, 32).b, 10) << "three blue lights are drawn too";
    }
}

// ---------------------------------------------------------------------------------------------
// Texture coordinate transforms, emulated addressing and swizzles. The quad spans pixels 6..58:
// u = (x + 0.5 - 6) / 52 across, v likewise down (v = 0 at the top).

// 16x16 texels in four 8x8 quadrants (top left red, top right green, bottom left blue, bottom right
// white), so linear filtering leaves wide plateaus.
esv::Image quadrantImage(const uint8_t (&colours)[4][4]) {
    std::vector<uint8_t> rgba;
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) rgba.insert(rgba.end(), colours[(y / 8) * 2 + x / 8], colours[(y / 8) * 2 + x / 8] + 4);
    return rgbaImage(16, 16, rgba);
}
const uint8_t kQuadrants[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
const glm::ivec4 kRed(255, 0, 0, 255), kGreen(0, 255, 0, 255), kBlue(0, 0, 255, 255), kWhite(255, 255, 255, 255);

esv::TransformElement element(esv::ElementKind kind, std::initializer_list<float> values) {
    esv::TransformElement e;
    e.kind = kind;
    std::copy(values.begin(), values.end(), e.value.begin());
    return e;
}

// The quad with the quadrant texture as its diffuse map through uv transform 0 (`elements`).
esv::Scene transformedQuad(std::vector<esv::TransformElement> elements) {
    esv::Scene scene = quadScene();
    esv::TextureRef& ref = scene.materials[0].texture(esv::TextureSlot::Diffuse);
    ref.texture = addTexture(scene, quadrantImage(kQuadrants));
    esv::UvTransform uv;
    uv.name = "test";
    uv.elements = std::move(elements);
    scene.uvTransforms.push_back(uv);
    ref.uvTransform = 0;
    return scene;
}

// T(0.5, 0) * S(0.5, 1): u' = 0.5 + u / 2, so the quad shows the texture's right half only.
TEST(TextureTransformRender, TranslationAndScaleMoveTheTexture) {
    esv::Scene scene = transformedQuad({element(esv::ElementKind::Translate, {0.5f, 0.0f, 0.0f}),
                                        element(esv::ElementKind::Scale, {0.5f, 1.0f, 1.0f})});
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        Frame f = render(scene, gles2, esv::ViewMode::Unlit);
        expectNear(f.at(19, 19), kGreen, 3, "top left shows the top right quadrant");
        expectNear(f.at(45, 19), kGreen, 3, "top right");
        expectNear(f.at(19, 45), kWhite, 3, "bottom left shows the bottom right quadrant");
        expectNear(f.at(45, 45), kWhite, 3, "bottom right");
    }
    // Without the transform the same spots show all four quadrants.
    scene.materials[0].texture(esv::TextureSlot::Diffuse).uvTransform = -1;
    Frame plain = render(scene, false, esv::ViewMode::Unlit);
    expectNear(plain.at(19, 19), kRed, 3, "untransformed top left");
    expectNear(plain.at(45, 45), kWhite, 3, "untransformed bottom right");
}

// An animated translation: u' = u + tx, tx linear 0 -> 0.5 over one second, texture repeating.
TEST(TextureTransformRender, TheDrawFollowsAnimatedUvMatrices) {
    esv::Scene scene = transformedQuad({element(esv::ElementKind::TranslateX, {0.0f})});
    esv::Track track;
    track.channel = esv::Channel::UvElement;
    track.uvTransform = 0;
    track.element = 0;
    track.components = 1;
    track.times = {0.0f, 1.0f};
    track.values = {0.0f, 0.5f};
    esv::Clip clip;
    clip.name = "slide";
    clip.end = 1.0f;
    clip.tracks.push_back(track);
    scene.animation.clips.push_back(clip);
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        Frame start = render(scene, gles2, esv::ViewMode::Unlit, 0, 0.0f);
        expectNear(start.at(19, 19), kRed, 3, "t = 0: as stored");
        expectNear(start.at(45, 19), kGreen, 3, "t = 0: as stored");
        Frame end = render(scene, gles2, esv::ViewMode::Unlit, 0, 1.0f);
        expectNear(end.at(19, 19), kGreen, 3, "t = 1: u 0.25 reads 0.75");
        expectNear(end.at(45, 19), kRed, 3, "t = 1: u 0.75 reads 1.25, repeated to 0.25");
        expectNear(end.at(45, 45), kBlue, 3, "t = 1: bottom right reads bottom left");
    }
}

// One axis at a time: c' = 5 c - 2.5 over a texture whose first half (along that axis) is red and
// second half green, the other axis clamped. Samples at 14, 24, 32, 40, 50 px along the axis read
// c' = -1.68, -0.72, 0.05, 0.82, 1.78. Expected per mode (M = the border colour, magenta):
//   border         M  M  R  G  M
//   mirror_clamp   G  G  R  G  G      (sat(|c'|))
//   mirror_border  M  G  R  G  M      (|c'| inside [0, 1] or the border)
//   clamp (GL)     R  R  R  G  G
TEST(TextureTransformRender, BorderMirrorClampAndMirrorBorderPerAxis) {
    const glm::ivec4 magenta(255, 0, 255, 255);
    const int at[5] = {14, 24, 32, 40, 50};
    struct Case {
        esv::Wrap wrap;
        glm::ivec4 expect[5];
    };
    const Case cases[] = {
        {esv::Wrap::Border, {magenta, magenta, kRed, kGreen, magenta}},
        {esv::Wrap::MirrorClamp, {kGreen, kGreen, kRed, kGreen, kGreen}},
        {esv::Wrap::MirrorBorder, {magenta, kGreen, kRed, kGreen, magenta}},
        {esv::Wrap::Clamp, {kRed, kRed, kRed, kGreen, kGreen}},
    };
    for (int axis = 0; axis < 2; ++axis) {
        // Red then green along the axis (columns for s, rows for t).
        std::vector<uint8_t> rgba;
        for (int y = 0; y < 16; ++y)
            for (int x = 0; x < 16; ++x) {
                const bool second = (axis == 0 ? x : y) >= 8;
                rgba.insert(rgba.end(), {uint8_t(second ? 0 : 255), uint8_t(second ? 255 : 0), 0, 255});
            }
        esv::Scene scene = quadScene();
        esv::TextureRef& ref = scene.materials[0].texture(esv::TextureSlot::Diffuse);
        ref.texture = addTexture(scene, rgbaImage(16, 16, rgba));
        ref.border = glm::vec4(1.0f, 0.0f, 1.0f, 1.0f);
        esv::UvTransform uv;
        uv.elements = {element(axis == 0 ? esv::ElementKind::TranslateX : esv::ElementKind::TranslateY, {-2.5f}),
                       element(axis == 0 ? esv::ElementKind::ScaleX : esv::ElementKind::ScaleY, {5.0f})};
        scene.uvTransforms.push_back(uv);
        ref.uvTransform = 0;
        for (const Case& c : cases) {
            (axis == 0 ? ref.wrapS : ref.wrapT) = c.wrap;
            (axis == 0 ? ref.wrapT : ref.wrapS) = esv::Wrap::Clamp;
            for (bool gles2 : {false, true}) {
                SCOPED_TRACE(std::string(esv::wrapName(c.wrap)) + (axis == 0 ? " on s" : " on t") + (gles2 ? ", ES2" : ", ES3"));
                Frame f = render(scene, gles2, esv::ViewMode::Unlit);
                for (int i = 0; i < 5; ++i)
                    expectNear(axis == 0 ? f.at(at[i], 32) : f.at(32, at[i]), c.expect[i], 3,
                               ("sample " + std::to_string(i)).c_str());
            }
        }
    }
}

// Emulated addressing on a material's other maps too: an emissive map in the border mode lights
// the quad only inside [0, 1] (the border colour is zero there, so nothing is emitted outside).
TEST(TextureTransformRender, EveryMapUsesItsOwnTransform) {
    esv::Scene scene = quadScene();
    esv::Material& m = scene.materials[0];
    m.diffuse = glm::vec3(0.0f);
    m.emissive = glm::vec3(1.0f);
    const int white = addTexture(scene, rgbaImage(1, 1, {255, 255, 255, 255}));
    m.texture(esv::TextureSlot::Diffuse).texture = white;  // untransformed
    esv::TextureRef& emissive = m.texture(esv::TextureSlot::Emissive);
    emissive.texture = addTexture(scene, quadrantImage(kQuadrants));
    emissive.wrapS = emissive.wrapT = esv::Wrap::Border;
    esv::UvTransform uv;
    uv.elements = {element(esv::ElementKind::Translate, {-0.5f, -0.5f, 0.0f}), element(esv::ElementKind::Scale, {2, 2, 1})};
    scene.uvTransforms.push_back(uv);
    emissive.uvTransform = 0;
    for (bool gles2 : {false, true}) {
        SCOPED_TRACE(gles2 ? "ES2" : "ES3");
        Frame f = render(scene, gles2);
        // c' = 2 c - 0.5: the texture fills the middle half of the quad, the border (zero) the rest.
        expectNear(f.at(26, 26), kRed, 3, "emissive top left quadrant");
        expectNear(f.at(38, 26), kGreen, 3, "emissive top right quadrant");
        expectNear(f.at(26, 38), kBlue, 3, "emissive bottom left quadrant");
        expectNear(f.at(10, 32), {0, 0, 0, 255}, 3, "outside: border zero, black diffuse");
        expectNear(f.at(54, 54), {0, 0, 0, 255}, 3, "outside, far corner");
    }
}

// Swizzles: a texel (200, 100, 50, 128) read through "b0r1" is (50, 0, 200, 255); 'i' keeps the
// position's own channel.
TEST(TextureSwizzleRender, SwizzlePermutesChannelsOnEs3AndEs2) {
    esv::Scene scene = quadScene();
    std::vector<uint8_t> rgba;
    for (int i = 0; i < 16; ++i) rgba.insert(rgba.end(), {200, 100, 50, 128});
    esv::TextureRef& ref = scene.materials[0].texture(esv::TextureSlot::Diffuse);
    ref.texture = addTexture(scene, rgbaImage(4, 4, rgba));
    struct Case {
        const char* swizzle;
        glm::ivec4 expect;
    };
    const Case cases[] = {{"b0r1", {50, 0, 200, 255}}, {"iig1", {200, 100, 100, 255}}, {"a", {128, 128, 128, 128}},
                          {"i", {200, 100, 50, 128}}};
    for (const Case& c : cases) {
        ASSERT_TRUE(esv::parseSwizzle(c.swizzle, ref.swizzle));
        for (bool gles2 : {false, true}) {
            SCOPED_TRACE(std::string(c.swizzle) + (gles2 ? " ES2" : " ES3"));
            Frame f = render(scene, gles2, esv::ViewMode::Unlit);
            expectNear(f.at(32, 32), c.expect, 2, "swizzled texel");
        }
    }
}

// A compressed texture cannot be permuted on the CPU: ES2 mode draws it unswizzled and says so in
// the report; ES3 swizzles it with the texture state.
TEST(TextureSwizzleRender, CompressedTexturesAreSwizzledOnEs3AndReportedOnEs2) {
    esv::Scene scene = quadScene();
    esv::Image image;
    image.format = esv::PixelFormat::Bc1_Rgb;
    image.width = image.height = 4;
    image.container = "test";
    image.surfaces.push_back(esv::makeOwnedBytes({0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0}));  // solid red
    esv::TextureRef& ref = scene.materials[0].texture(esv::TextureSlot::Diffuse);
    ref.texture = addTexture(scene, image);
    ASSERT_TRUE(esv::parseSwizzle("bgr1", ref.swizzle));
    auto reported = [](const Frame& f) {
        for (const esv::ReportLine& line : f.report)
            if (line.severity == esv::Severity::Warning && line.text.find("swizzle \"bgr1\" not applied") != std::string::npos)
                return true;
        return false;
    };
    Frame es3 = render(scene, false, esv::ViewMode::Unlit);
    if (!es3.info.supports(esv::PixelFormat::Bc1_Rgb)) GTEST_SKIP() << "no S3TC in this context";
    expectNear(es3.at(32, 32), {0, 0, 255, 255}, 3, "ES3: red read through bgr1");
    EXPECT_FALSE(reported(es3));
    Frame es2 = render(scene, true, esv::ViewMode::Unlit);
    if (!es2.info.supports(esv::PixelFormat::Bc1_Rgb)) return;
    expectNear(es2.at(32, 32), {255, 0, 0, 255}, 3, "ES2: stored red");
    EXPECT_TRUE(reported(es2));
}

}  // namespace
