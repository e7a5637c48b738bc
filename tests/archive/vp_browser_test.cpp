// The viewer side of VP archives: the file browser lists an archive as a folder, enters it, shows
// its folders and model files, names them `archive.vp:inner/path`, and leaves it with up(); the
// loader thread and the recent-files list take archive paths.
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "app/viewer/file_browser.h"
#include "app/viewer/scene_loader.h"
#include "archive/vp_writer.h"
#include "common/test_paths.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> bytesOf(const std::string& text) {
    return std::vector<uint8_t>(text.begin(), text.end());
}

std::vector<std::string> names(const FileBrowser& browser) {
    std::vector<std::string> out;
    for (const BrowserEntry& e : browser.entries()) out.push_back(e.name + (e.directory ? "/" : ""));
    return out;
}

const BrowserEntry& entry(const FileBrowser& browser, const std::string& name) {
    for (const BrowserEntry& e : browser.entries())
        if (e.name == name) return e;
    ADD_FAILURE() << "no entry " << name;
    static BrowserEntry none;
    return none;
}

TEST(VpBrowser, AnArchiveIsAFolderToEnterAndLeave) {
    const fs::path dir = test::outputDir() / "vp_browser";
    fs::remove_all(dir);
    fs::create_directories(dir / "sub");
    vptest::writeFile(dir / "a.pod", bytesOf("x"));
    vptest::writeFile(dir / "notes.txt", bytesOf("x"));
    vptest::writeFile(dir / "Ships.VP",
                      vptest::archiveOf({{"readme.txt", bytesOf("r")},
                                         {"data/models/Fighter.pof", bytesOf("PSPO....")},
                                         {"data/models/fighter-shine.dds", bytesOf("d")},
                                         {"data/maps/hull.dds", bytesOf("d")},
                                         {"data/models/turrets/gun.POF", bytesOf("PSPO")}}));

    FileBrowser browser;
    ASSERT_TRUE(browser.setDirectory(dir.string())) << browser.error();
    EXPECT_EQ(names(browser), (std::vector<std::string>{"Ships.VP/", "sub/", "a.pod"}));
    EXPECT_TRUE(entry(browser, "Ships.VP").archive);
    EXPECT_FALSE(entry(browser, "sub").archive);
    EXPECT_FALSE(browser.inArchive());

    const std::string archive = browser.pathOf(entry(browser, "Ships.VP"));
    EXPECT_EQ(archive, (dir / "Ships.VP").string());
    EXPECT_TRUE(FileBrowser::isFolder(archive));
    ASSERT_TRUE(browser.setDirectory(archive)) << browser.error();
    EXPECT_TRUE(browser.inArchive());
    EXPECT_EQ(browser.directory(), archive);
    EXPECT_EQ(names(browser), std::vector<std::string>{"data/"});  // readme.txt is not a model
    browser.showAll = true;
    browser.refresh();
    EXPECT_EQ(names(browser), (std::vector<std::string>{"data/", "readme.txt"}));
    browser.showAll = false;

    ASSERT_TRUE(browser.setDirectory(browser.pathOf(entry(browser, "data")))) << browser.error();
    EXPECT_EQ(browser.directory(), archive + ":data");
    EXPECT_EQ(names(browser), (std::vector<std::string>{"maps/", "models/"}));
    ASSERT_TRUE(browser.setDirectory(browser.pathOf(entry(browser, "models")))) << browser.error();
    EXPECT_EQ(browser.directory(), archive + ":data/models");
    EXPECT_EQ(names(browser), (std::vector<std::string>{"turrets/", "Fighter.pof"}));
    EXPECT_EQ(entry(browser, "Fighter.pof").size, 8u);
    const std::string model = browser.pathOf(entry(browser, "Fighter.pof"));
    EXPECT_EQ(model, archive + ":data/models/Fighter.pof");
    EXPECT_FALSE(FileBrowser::isFolder(model));
    EXPECT_EQ(FileBrowser::folderOf(model), archive + ":data/models");
    EXPECT_EQ(FileBrowser::folderOf(archive + ":top.pof"), archive);

    // Typed paths in any case reach the same folder, spelt as the archive spells it.
    ASSERT_TRUE(browser.setDirectory(archive + ":DATA\\MODELS\\turrets")) << browser.error();
    EXPECT_EQ(browser.directory(), archive + ":data/models/turrets");
    EXPECT_EQ(names(browser), std::vector<std::string>{"gun.POF"});
    EXPECT_FALSE(browser.setDirectory(archive + ":data/sounds"));
    EXPECT_NE(browser.error().find("no such folder"), std::string::npos);
    EXPECT_EQ(browser.directory(), archive + ":data/models/turrets") << "a failed change keeps the listing";

    browser.up();
    EXPECT_EQ(browser.directory(), archive + ":data/models");
    browser.up();
    browser.up();
    EXPECT_EQ(browser.directory(), archive);
    browser.up();
    EXPECT_FALSE(browser.inArchive());
    EXPECT_EQ(fs::path(browser.directory()), dir);

    // A broken archive is an error line, not a listing.
    vptest::writeFile(dir / "broken.vp", bytesOf("VPVP"));
    EXPECT_FALSE(browser.setDirectory((dir / "broken.vp").string()));
    EXPECT_NE(browser.error().find("too short"), std::string::npos) << browser.error();
}

TEST(VpBrowser, RecentFilesKeepTheInnerPath) {
    const fs::path dir = test::outputDir() / "vp_browser_recent";
    fs::remove_all(dir);
    vptest::writeFile(dir / "m.vp", vptest::archiveOf({{"data/models/x.pof", bytesOf("PSPO")}}));
    const fs::path cwd = fs::current_path();
    fs::current_path(dir);
    std::vector<std::string> recent;
    addRecentFile(recent, "m.vp:data/models/x.pof");
    fs::current_path(cwd);
    ASSERT_EQ(recent.size(), 1u);
    EXPECT_EQ(recent[0], (dir / "m.vp").string() + ":data/models/x.pof");
}

TEST(VpBrowser, TheLoaderThreadOpensArchivePathsAndStampsTheArchive) {
    const fs::path dir = test::outputDir() / "vp_browser_loader";
    fs::remove_all(dir);
    const std::vector<uint8_t> demo = vptest::readFile(test::sourceDir() / "assets" / "demo.pod");
    ASSERT_FALSE(demo.empty());
    const fs::path archive = dir / "demo.vp";
    vptest::writeFile(archive, vptest::archiveOf({{"data/models/demo.pod", demo}}));
    SceneLoader loader;
    loader.start(archive.string() + ":data/models/demo.pod", TargetCaps{});
    LoadedScene result;
    for (int i = 0; i < 2000 && !loader.poll(result); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(result.prepared) << (result.problems.empty() ? "" : result.problems[0].format());
    EXPECT_EQ(result.prepared->sourcePath, archive.string() + ":data/models/demo.pod");
    EXPECT_EQ(result.loaded->sourcePath, result.prepared->sourcePath);

    loader.start(archive.string() + ":data/models/none.pod", TargetCaps{});
    LoadedScene missing;
    for (int i = 0; i < 2000 && !loader.poll(missing); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(missing.problems.size(), 1u);
    EXPECT_NE(missing.problems[0].message.find("no file 'data/models/none.pod'"), std::string::npos);

    const int64_t stamp = fileStamp(archive.string() + ":data/models/demo.pod");
    EXPECT_NE(stamp, 0);
    EXPECT_EQ(stamp, fileStamp(archive.string()));
}

}  // namespace
}  // namespace esv
