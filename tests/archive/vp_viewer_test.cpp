// The viewer window (under Xvfb) with a model inside a VP archive: named on the command line,
// opened again by the `open` script command in another case, the browser shown inside the
// archive, and the archive path kept in the recent-files list. Skips without Xvfb.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "archive/vp_writer.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

nlohmann::json readJson(const fs::path& path) {
    const std::string text = test::readText(path);
    return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}

TEST(VpViewer, OpensAModelInsideAnArchive) {
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed";
    const fs::path dir = test::outputDir() / "vp_viewer";
    fs::remove_all(dir);
    const std::vector<uint8_t> demo = vptest::readFile(test::sourceDir() / "assets" / "demo.pod");
    ASSERT_FALSE(demo.empty());
    vptest::writeFile(dir / "game" / "ships.vp", vptest::archiveOf({{"data/models/demo.pod", demo}}));
    std::ofstream(dir / "script.txt") << "dump first.json\n"
                                         "browse game/ships.vp:data/models\n"
                                         "wait 2\n"
                                         "open game/SHIPS.vp:DATA/Models/demo.pod\n"
                                         "dump second.json\n"
                                         "quit\n";
    const std::string prefix = "cd '" + dir.string() + "' && ESVIEW_CONFIG_DIR='" + dir.string() + "' " +
                               std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'";
    // The second name differs in case in the archive's name too: on a case-sensitive file system
    // that is another (missing) file, so the open fails and the first scene stays.
    const test::RunResult r = test::runEsview(
        ESVIEW_BINARY, "'game/ships.vp:data/models/demo.pod' --script script.txt", "vp_viewer", prefix);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json first = readJson(dir / "first.json");
    EXPECT_EQ(first["path"], "game/ships.vp:data/models/demo.pod");
    EXPECT_EQ(first["load_error"], "");
    EXPECT_EQ(first["format"], "pod");
    ASSERT_FALSE(first["recent"].empty());
    EXPECT_EQ(first["recent"][0], (dir / "game" / "ships.vp").string() + ":data/models/demo.pod");
    const nlohmann::json second = readJson(dir / "second.json");
    EXPECT_TRUE(second["panels"]["browser"].get<bool>());
    EXPECT_EQ(second["path"], "game/ships.vp:data/models/demo.pod");
    EXPECT_NE(second["load_error"].get<std::string>().find("SHIPS.vp"), std::string::npos)
        << second["load_error"];
}

TEST(VpViewer, TheOpenCommandTakesArchivePaths) {
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed";
    const fs::path dir = test::outputDir() / "vp_viewer_open";
    fs::remove_all(dir);
    const std::vector<uint8_t> demo = vptest::readFile(test::sourceDir() / "assets" / "demo.pod");
    vptest::writeFile(dir / "ships.vp", vptest::archiveOf({{"data/models/demo.pod", demo}}));
    std::ofstream(dir / "script.txt") << "open ships.vp:DATA\\Models\\DEMO.pod\ndump state.json\nquit\n";
    const std::string prefix = "cd '" + dir.string() + "' && ESVIEW_CONFIG_DIR='" + dir.string() + "' " +
                               std::string(XVFB_RUN) + " -a -s '-screen 0 1280x720x24'";
    const test::RunResult r = test::runEsview(ESVIEW_BINARY, "demo --script script.txt", "vp_viewer", prefix);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json state = readJson(dir / "state.json");
    EXPECT_EQ(state["path"], "ships.vp:DATA\\Models\\DEMO.pod");
    EXPECT_EQ(state["load_error"], "");
    EXPECT_EQ(state["format"], "pod");
    EXPECT_EQ(state["loads"], 2);
}

}  // namespace
}  // namespace esv
