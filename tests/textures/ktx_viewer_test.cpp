// A KTX texture array in the headless viewer: a shared POD model whose texture is found as the
// fixture script's three-layer ETC1 array. Materials draw layer 0; the Textures list's layer slider
// (Selection::textureLayer) has the frame loop decode the chosen layer's base level and upload it
// for the inspector, whose picture is then the script's blocks of that layer, decoded; `info`
// counts the layers. A cube map found the same way has its chosen face decoded and uploaded the same
// way (Selection::textureFace), since a cube map object cannot be drawn as a 2D picture.
#include <glad/gles2.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/hosts/headless_host.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "loaders/textures/decode.h"

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

Bytes fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The RGBA8 pixels of GL texture `object` (width x height), read through a framebuffer.
Bytes readTexture(unsigned object, int width, int height) {
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, object, 0);
    Bytes rgba(size_t(width) * size_t(height) * 4);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE) {
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    } else {
        rgba.clear();
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    return rgba;
}

// The shared gnome POD opened paused in the headless viewer, its texture found as KTX fixture
// `fixture` (copied beside it as gnome_texture.ktx), in a folder of the test's own (`name`).
struct GnomeSession {
    esv::HeadlessHost host;
    esv::ViewerLoop viewer;
    bool open(const std::string& name, const std::string& fixture) {
        const fs::path dir = esv::test::viewerWorkDir("ktx_viewer_", name);
        fs::copy_file(esv::test::modelsDir() / "pod/nsdk/nsdk_gnome6.pod", dir / "nsdk_gnome6.pod");
        fs::copy_file(esv::test::outputDir() / "ktx" / fixture, dir / "gnome_texture.ktx");
        esv::ViewerOptions options;
        options.file = (dir / "nsdk_gnome6.pod").string();
        return esv::test::startPausedAtZero(viewer, host, options);
    }
};

TEST(KtxViewer, TheInspectorShowsTheChosenLayerOfAnArray) {
    ESVIEW_REQUIRE_MODELS("pod/nsdk/nsdk_gnome6.pod");
    const fs::path fixtures = esv::test::outputDir() / "ktx";
    if (!fs::exists(fixtures / "etc1_array.ktx")) ESVIEW_SKIP_UNLESS_REQUIRED() << "the KTX fixtures were not generated";
    const Bytes raw = fileBytes(fixtures / "etc1_array.raw");  // three layers of 8x8 ETC1, 32 bytes each
    ASSERT_EQ(raw.size(), 96u);

    GnomeSession session;
    ASSERT_TRUE(session.open("layers", "etc1_array.ktx"));
    esv::ViewerLoop& viewer = session.viewer;
    esv::ViewerState& s = viewer.state();
    int t = -1;
    for (size_t i = 0; i < s.scene->textures.size(); ++i)
        if (s.scene->textures[i].image.layers == 3) t = int(i);
    ASSERT_GE(t, 0) << "no texture read as the three-layer array";
    const esv::Pose& pose = s.pose;
    const nlohmann::json info = esv::sceneInfoJson(*s.scene, pose, esv::ResolvedTime{});
    EXPECT_EQ(info["texture_files"][size_t(t)]["layers"], 3);

    s.selection.texture = t;
    for (int layer : {2, 1}) {
        SCOPED_TRACE(layer);
        s.selection.textureLayer = layer;
        ASSERT_TRUE(viewer.frame());
        const esv::LayerPreview& p = s.layerPreview;
        EXPECT_EQ(p.texture, t);
        EXPECT_EQ(p.layer, layer);
        EXPECT_TRUE(p.error.empty()) << p.error;
        ASSERT_NE(p.object, 0u);
        Bytes expected(8 * 8 * 4);
        esv::decodeEtc(esv::PixelFormat::Etc1_Rgb, raw.data() + 32 * layer, 8, 8, expected.data());
        EXPECT_EQ(readTexture(p.object, 8, 8), expected);
    }
    // Back to layer 0 (what the materials draw, the renderer's own texture): the picture goes.
    s.selection.textureLayer = 0;
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.layerPreview.object, 0u);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

// The fixture script's ETC2 RGBA cube map (8x8, faces +X..-Z, each face's base level 4 blocks of 16
// bytes, level-major in etc2_cube.raw) as the gnome's texture: each face chosen is that face's
// blocks decoded; selecting another texture drops the picture.
TEST(KtxViewer, TheInspectorShowsTheChosenFaceOfACubeMap) {
    ESVIEW_REQUIRE_MODELS("pod/nsdk/nsdk_gnome6.pod");
    const fs::path fixtures = esv::test::outputDir() / "ktx";
    if (!fs::exists(fixtures / "etc2_cube.ktx")) ESVIEW_SKIP_UNLESS_REQUIRED() << "the KTX fixtures were not generated";
    const Bytes raw = fileBytes(fixtures / "etc2_cube.raw");
    ASSERT_GE(raw.size(), 6u * 64u);

    GnomeSession session;
    ASSERT_TRUE(session.open("faces", "etc2_cube.ktx"));
    esv::ViewerLoop& viewer = session.viewer;
    esv::ViewerState& s = viewer.state();
    int t = -1;
    for (size_t i = 0; i < s.scene->textures.size(); ++i)
        if (s.scene->textures[i].image.isCube()) t = int(i);
    ASSERT_GE(t, 0) << "no texture read as the cube map";

    s.selection.texture = t;
    Bytes previous;
    for (int face : {0, 3, 5}) {
        SCOPED_TRACE(face);
        s.selection.textureFace = face;
        ASSERT_TRUE(viewer.frame());
        const esv::LayerPreview& p = s.layerPreview;
        EXPECT_EQ(p.texture, t);
        EXPECT_EQ(p.face, face);
        EXPECT_TRUE(p.error.empty()) << p.error;
        ASSERT_NE(p.object, 0u);
        Bytes expected(8 * 8 * 4);
        esv::decodeEtc(esv::PixelFormat::Etc2_Rgba, raw.data() + 64 * face, 8, 8, expected.data());
        const Bytes shown = readTexture(p.object, 8, 8);
        EXPECT_EQ(shown, expected);
        EXPECT_NE(shown, previous) << "each face its own picture";
        previous = shown;
    }
    s.selection.texture = -1;
    ASSERT_TRUE(viewer.frame());
    EXPECT_EQ(s.layerPreview.object, 0u);
    EXPECT_EQ(viewer.finish(), esv::kExitOk);
}

}  // namespace
