// Texture lookup with VP archives: a model inside an archive finds its textures in that archive
// first, then loose beside it, then in the other archives there in the game's order; a loose
// FreeSpace model finds them in data/maps and in the archives of the game folder and data/.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "archive/vp_writer.h"
#include "common/test_paths.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/textures/scene_textures.h"
#include "loaders/textures/texture_lookup.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> bytesOf(const std::string& text) {
    return std::vector<uint8_t>(text.begin(), text.end());
}

void touch(const fs::path& path, const std::string& text = "x") {
    vptest::writeFile(path, bytesOf(text));
}

// A 2x2 uncompressed 32-bit TGA (stb_image reads it): red, green, blue, white.
std::vector<uint8_t> tinyTga() {
    std::vector<uint8_t> t = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 8};
    const uint8_t bgra[] = {0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 255, 255, 255, 255};
    t.insert(t.end(), std::begin(bgra), std::end(bgra));
    return t;
}

TEST(VpLookup, ModelInAnArchive_OwnArchiveThenLooseThenOtherArchivesByName) {
    const fs::path root = test::outputDir() / "vp_lookup_archive";
    fs::remove_all(root);
    const fs::path ships = root / "ships.vp";
    vptest::writeFile(ships, vptest::archiveOf({{"data/models/ship.pof", bytesOf("PSPO")},
                                                {"data/models/own.png", bytesOf("own")},
                                                {"data/maps/hull.dds", bytesOf("hull")},
                                                {"data/maps/Sub/Deep.tga", bytesOf("deep")}}));
    // 'a' sorts before 'B' when case is ignored (and after it byte by byte): the game ignores case.
    vptest::writeFile(root / "a_extra.vp",
                      vptest::archiveOf({{"data/maps/both.png", bytesOf("a")},
                                         {"data/maps/second.png", bytesOf("second")},
                                         {"data/maps/packed_and_loose.png", bytesOf("p")}}));
    vptest::writeFile(root / "B_extra.vp",
                      vptest::archiveOf({{"data/maps/both.png", bytesOf("B")},
                                         {"data/maps/hull.dds", bytesOf("other hull")},
                                         {"data/models/only_in_models.png", bytesOf("m")}}));
    touch(root / "Data" / "Maps" / "loose.png");
    touch(root / "Data" / "Maps" / "packed_and_loose.dds");
    touch(root / "Data" / "Maps" / "hull.png");
    touch(root / "beside.png");

    const std::string model = ships.string() + ":data/models/ship.pof";
    const std::string a = (root / "a_extra.vp").string(), b = (root / "B_extra.vp").string();
    EXPECT_EQ(resolveTexturePath(model, "hull"),
              ships.string() + ":data/maps/hull.dds");  // own archive first
    EXPECT_EQ(resolveTexturePath(model, "HULL.pcx"), ships.string() + ":data/maps/hull.dds");
    EXPECT_EQ(resolveTexturePath(model, "own"),
              ships.string() + ":data/models/own.png");  // the model's folder
    EXPECT_EQ(resolveTexturePath(model, "sub\\deep"), ships.string() + ":data/maps/Sub/Deep.tga");
    EXPECT_EQ(resolveTexturePath(model, "..\\maps\\sub\\DEEP.TGA"),
              ships.string() + ":data/maps/Sub/Deep.tga");
    EXPECT_EQ(resolveTexturePath(model, "loose"), (root / "Data" / "Maps" / "loose.png").string());
    EXPECT_EQ(resolveTexturePath(model, "packed_and_loose"),  // loose files before packs, as the game
              (root / "Data" / "Maps" / "packed_and_loose.dds").string());
    EXPECT_EQ(resolveTexturePath(model, "beside"), (root / "beside.png").string());
    EXPECT_EQ(resolveTexturePath(model, "second"), a + ":data/maps/second.png");
    EXPECT_EQ(resolveTexturePath(model, "both"), a + ":data/maps/both.png");
    EXPECT_EQ(resolveTexturePath(model, "only_in_models"), "");  // other archives: data/maps only

    std::vector<std::string> searched;
    EXPECT_EQ(resolveTexturePath(model, "missing", &searched), "");
    const std::vector<std::string> expected = {ships.string() + ":data/maps/missing.*",
                                               ships.string() + ":data/models/missing.*",
                                               (root / "Data" / "Maps" / "missing.*").string(),
                                               (root / "missing.*").string(),
                                               a + ":data/maps/missing.*",
                                               b + ":data/maps/missing.*"};
    EXPECT_EQ(searched, expected);

    // The model at the top of an archive, textures at the top too.
    vptest::writeFile(root / "flat" / "flat.vp",
                      vptest::archiveOf({{"m.pof", bytesOf("PSPO")}, {"skin.dds", bytesOf("s")}}));
    EXPECT_EQ(resolveTexturePath((root / "flat" / "flat.vp").string() + ":m.pof", "skin"),
              (root / "flat" / "flat.vp").string() + ":skin.dds");
}

TEST(VpLookup, LooseFreeSpaceModel_MapsBesideThenGameFolderArchivesThenData) {
    const fs::path game = test::outputDir() / "vp_lookup_loose";
    fs::remove_all(game);
    const fs::path model = game / "data" / "models" / "ship.pof";
    touch(model, "PSPO");
    touch(game / "data" / "maps" / "shadowed.png");
    touch(game / "data" / "models" / "own.dds");
    vptest::writeFile(game / "root.vp", vptest::archiveOf({{"data/maps/packed.dds", bytesOf("root")},
                                                           {"data/maps/shadowed.dds", bytesOf("packed")}}));
    vptest::writeFile(game / "data" / "data.vp",
                      vptest::archiveOf({{"data/maps/packed.dds", bytesOf("data")},
                                         {"data/maps/only_data.png", bytesOf("d")}}));
    vptest::writeFile(game / "data" / "models" / "models.vp",
                      vptest::archiveOf({{"data/maps/only_models.png", bytesOf("m")}}));

    const std::string m = model.string();
    EXPECT_EQ(resolveTexturePath(m, "own"), (game / "data" / "models" / "own.dds").string());
    EXPECT_EQ(resolveTexturePath(m, "shadowed"), (game / "data" / "maps" / "shadowed.png").string());
    EXPECT_EQ(resolveTexturePath(m, "packed"), (game / "root.vp").string() + ":data/maps/packed.dds");
    EXPECT_EQ(resolveTexturePath(m, "only_data"),
              (game / "data" / "data.vp").string() + ":data/maps/only_data.png");
    EXPECT_EQ(resolveTexturePath(m, "only_models"),
              (game / "data" / "models" / "models.vp").string() + ":data/maps/only_models.png");

    std::vector<std::string> searched;
    EXPECT_EQ(resolveTexturePath(m, "none", &searched), "");
    const std::vector<std::string> expected = {
        (game / "data" / "models" / "none.*").string(), (game / "data" / "maps" / "none.*").string(),
        (game / "root.vp").string() + ":data/maps/none.*",
        (game / "data" / "data.vp").string() + ":data/maps/none.*",
        (game / "data" / "models" / "models.vp").string() + ":data/maps/none.*"};
    EXPECT_EQ(searched, expected);

    // A model outside a data/ tree looks at the archives beside it only.
    touch(game / "loose" / "m.pof");
    vptest::writeFile(game / "loose" / "beside.vp", vptest::archiveOf({{"data/maps/b.png", bytesOf("b")}}));
    EXPECT_EQ(resolveTexturePath((game / "loose" / "m.pof").string(), "b"),
              (game / "loose" / "beside.vp").string() + ":data/maps/b.png");
    EXPECT_EQ(resolveTexturePath((game / "loose" / "m.pof").string(), "packed"), "");
}

TEST(VpLookup, SceneTexturesReadFromTheArchiveOncePerFile) {
    const fs::path root = test::outputDir() / "vp_lookup_scene";
    fs::remove_all(root);
    const fs::path archive = root / "m.vp";
    vptest::writeFile(archive, vptest::archiveOf({{"data/models/m.pof", bytesOf("PSPO")},
                                                  {"data/maps/tiny.tga", tinyTga()},
                                                  {"data/maps/broken.tga", bytesOf("not an image")}}));
    Scene scene;
    scene.sourcePath = archive.string() + ":data/models/m.pof";
    for (const char* name : {"tiny", "TINY.tga", "broken", "absent"}) {
        Texture t;
        t.name = t.path = name;
        scene.textures.push_back(t);
    }
    EXPECT_EQ(prepareSceneTextures(scene, nullptr), 2);
    EXPECT_EQ(scene.textures[0].resolvedPath, archive.string() + ":data/maps/tiny.tga");
    EXPECT_FALSE(scene.textures[0].placeholder);
    EXPECT_EQ(scene.textures[0].image.width, 2u);
    EXPECT_EQ(scene.textures[0].image.height, 2u);
    EXPECT_FALSE(scene.textures[1].placeholder);
    EXPECT_TRUE(scene.textures[2].placeholder);
    EXPECT_TRUE(scene.textures[3].placeholder);
    std::vector<std::string> lines;
    for (const ReportLine& l : scene.report) lines.push_back(l.text);
    auto has = [&](const std::string& part) {
        for (const std::string& l : lines)
            if (l.find(part) != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(has("texture 0 'tiny': found as " + archive.string() + ":data/maps/tiny.tga"));
    EXPECT_TRUE(has("texture 1 'TINY.tga': same file as texture 0"));
    EXPECT_TRUE(has("texture 2 'broken': " + archive.string() + ":data/maps/broken.tga: "));
    EXPECT_TRUE(has("texture 3 'absent': 'absent' not found; searched " + archive.string() +
                    ":data/maps/absent.*, " + archive.string() + ":data/models/absent.*"));
}

}  // namespace
}  // namespace esv
