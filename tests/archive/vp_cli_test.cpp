// The command line on VP archives: a real POF and its texture written into an archive load with
// `info --json archive.vp:data/models/x.pof` with no missing texture and render the same picture
// as the loose files; a texture in a second archive beside the first is found; `check
// archive.vp` lists each problem of a broken archive with its offset; a missing inner file is one
// line. The POF tests skip when ../shared/models is absent.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "archive/vp_writer.h"
#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using test::RunResult;

RunResult run(const std::string& args) {
    return test::runEsview(ESVIEW_BINARY, args, "vp_cli");
}

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}
std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<uint8_t> sample(const std::string& name) {
    return vptest::readFile(test::modelsDir() / "pof" / name);
}

test::Image render(const std::string& model, const fs::path& png) {
    RunResult r = run("render " + quoted(model) + " -o " + quoted(png) + " --size 320x240");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    test::Image image;
    EXPECT_TRUE(test::loadPng(png.string(), image)) << png;
    return image;
}

TEST(VpCli, PofInAnArchiveFindsItsTextureThereAndRendersLikeTheLooseFiles) {
    ESVIEW_REQUIRE_MODELS("pof");
    const fs::path dir = test::outputDir() / "vp_cli_missile";
    fs::remove_all(dir);
    const fs::path archive = dir / "game" / "missiles.vp";
    vptest::writeFile(archive, vptest::archiveOf({{"data/models/missile1.pof", sample("air_missile1.pof")},
                                                  {"data/maps/missile1.png", sample("missile1.png")}}));
    vptest::writeFile(dir / "loose" / "missile1.pof", sample("air_missile1.pof"));
    vptest::writeFile(dir / "loose" / "missile1.png", sample("missile1.png"));
    vptest::writeFile(dir / "untextured" / "missiles.vp",
                      vptest::archiveOf({{"data/models/missile1.pof", sample("air_missile1.pof")}}));
    const std::string inner = archive.string() + ":data/models/missile1.pof";

    RunResult info = run("info --json " + quoted(inner));
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["format"], "pof");
    EXPECT_TRUE(j["warnings"].empty()) << j["warnings"].dump();
    RunResult looseInfo = run("info --json " + quoted(dir / "loose" / "missile1.pof"));
    ASSERT_EQ(looseInfo.exitCode, 0) << looseInfo.err;
    const nlohmann::json l = nlohmann::json::parse(looseInfo.out);
    EXPECT_EQ(j["meshes"], l["meshes"]);
    EXPECT_EQ(j["bounds"], l["bounds"]);
    EXPECT_EQ(j["textures"], l["textures"]);

    // Any case and either separator inside the archive.
    RunResult folded = run("info " + quoted(archive.string() + ":DATA\\Models\\MISSILE1.POF"));
    EXPECT_EQ(folded.exitCode, 0) << folded.err;

    const test::Image packed = render(inner, dir / "packed.png");
    const test::Image loose = render((dir / "loose" / "missile1.pof").string(), dir / "loose.png");
    const test::CompareResult same = test::compareImages(packed, loose, 12);
    EXPECT_TRUE(same.sameSize);
    EXPECT_LE(same.differingFraction, 0.004) << "max difference " << same.maxDifference;
    // Not the checker placeholder: without the texture the picture is another one.
    RunResult missing = run(
        "info --json " + quoted((dir / "untextured" / "missiles.vp").string() + ":data/models/missile1.pof"));
    ASSERT_EQ(missing.exitCode, 0);
    const nlohmann::json m = nlohmann::json::parse(missing.out);
    ASSERT_EQ(m["warnings"].size(), 1u);
    EXPECT_NE(m["warnings"][0].get<std::string>().find("missiles.vp:data/models/missile1.*"), std::string::npos)
        << m["warnings"][0];
    const test::Image checker = render(
        (dir / "untextured" / "missiles.vp").string() + ":data/models/missile1.pof", dir / "checker.png");
    EXPECT_GT(test::compareImages(packed, checker, 12).differingFraction, 0.01);

    RunResult check = run("check " + quoted(inner));
    EXPECT_EQ(check.exitCode, 0) << check.err;
    EXPECT_EQ(check.out, inner + ": ok (pof, 1 node, 1 mesh, 0 warnings)\n");
}

TEST(VpCli, TextureInASecondArchiveBesideTheFirst) {
    ESVIEW_REQUIRE_MODELS("pof");
    const fs::path dir = test::outputDir() / "vp_cli_second";
    fs::remove_all(dir);
    const fs::path ships = dir / "ships.vp";
    vptest::writeFile(ships, vptest::archiveOf({{"data/models/F-14.pof", sample("air_F-14.pof")},
                                                {"data/maps/f14.png", sample("f14.png")}}));
    const std::string inner = ships.string() + ":data/models/F-14.pof";

    // Without the second archive, glass-trans is missing and the warning names where it looked.
    RunResult alone = run("info --json " + quoted(inner));
    ASSERT_EQ(alone.exitCode, 0) << alone.err;
    const nlohmann::json a = nlohmann::json::parse(alone.out);
    ASSERT_EQ(a["warnings"].size(), 1u);
    EXPECT_EQ(a["warnings"][0], "texture 1 'glass-trans': 'glass-trans' not found; searched " +
                                    ships.string() + ":data/maps/glass-trans.*, " + ships.string() +
                                    ":data/models/glass-trans.*, " + (dir / "glass-trans.*").string() +
                                    "; drawn grey");

    vptest::writeFile(dir / "effects.vp",
                      vptest::archiveOf({{"data/maps/glass-trans.png", sample("glass-trans.png")}}));
    RunResult both = run("info --json " + quoted(inner));
    ASSERT_EQ(both.exitCode, 0) << both.err;
    const nlohmann::json b = nlohmann::json::parse(both.out);
    EXPECT_TRUE(b["warnings"].empty()) << b["warnings"].dump();

    // The same picture as the loose model with both textures beside it.
    vptest::writeFile(dir / "loose" / "F-14.pof", sample("air_F-14.pof"));
    vptest::writeFile(dir / "loose" / "f14.png", sample("f14.png"));
    vptest::writeFile(dir / "loose" / "glass-trans.png", sample("glass-trans.png"));
    const test::CompareResult same =
        test::compareImages(render(inner, dir / "packed.png"),
                            render((dir / "loose" / "F-14.pof").string(), dir / "loose.png"), 12);
    EXPECT_TRUE(same.sameSize);
    EXPECT_LE(same.differingFraction, 0.004);
}

TEST(VpCli, CheckTheArchiveItself) {
    const fs::path dir = test::outputDir() / "vp_cli_check";
    fs::remove_all(dir);
    const std::vector<uint8_t> pof = {'P', 'S', 'P', 'O'};
    const fs::path good = dir / "Good.VP";
    vptest::writeFile(good, vptest::archiveOf({{"data/models/a.pof", pof}, {"data/maps/a.dds", {1, 2, 3}}}));
    RunResult ok = run("check " + quoted(good));
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_EQ(ok.out, good.string() + ": ok (VP archive version 2, 2 files, 3 folders, 1 model)\n");
    RunResult colon = run("check " + quoted(good.string() + ":"));
    EXPECT_EQ(colon.exitCode, 0) << colon.err;

    vptest::VpWriter w;
    w.folder("data").folder("models").file("a.pof", pof).up().up();
    const size_t pastEnd = w.entries();
    w.entry(16, 1 << 20, "big.dds");
    const size_t unmatched = w.entries();
    w.up();
    const size_t noNul = w.entries();
    w.entry(16, 4, std::string(32, 'x'));
    const fs::path bad = dir / "bad.vp";
    vptest::writeFile(bad, w.bytes());
    char expected[3][160];
    std::snprintf(expected[0], sizeof expected[0],
                  "%s: offset 0x%llX: directory entry %zu 'big.dds': data at 0x10", bad.c_str(),
                  static_cast<unsigned long long>(w.entryOffset(pastEnd)), pastEnd);
    std::snprintf(expected[1], sizeof expected[1],
                  "%s: offset 0x%llX: directory entry %zu '..': '..' closes a folder", bad.c_str(),
                  static_cast<unsigned long long>(w.entryOffset(unmatched) + 8), unmatched);
    std::snprintf(expected[2], sizeof expected[2], "%s: offset 0x%llX: directory entry %zu: the name '",
                  bad.c_str(), static_cast<unsigned long long>(w.entryOffset(noNul) + 8), noNul);
    RunResult r = run("check " + quoted(bad));
    EXPECT_EQ(r.exitCode, 1);
    const std::vector<std::string> err = lines(r.err);
    ASSERT_EQ(err.size(), 5u) << r.err;  // three entries, the overlap of the 31-x file, the count
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(err[i].rfind(expected[i], 0), 0u) << err[i] << "\nwanted " << expected[i];
    EXPECT_NE(err[3].find("overlaps the data of 'data/models/a.pof'"), std::string::npos) << err[3];
    EXPECT_EQ(err[4], bad.string() + ": 4 problems");

    RunResult header = run("check " + quoted(dir / "nothing.vp"));
    EXPECT_EQ(header.exitCode, 1);
    vptest::writeFile(dir / "short.vp", {'V', 'P', 'V', 'P'});
    RunResult tooShort = run("check " + quoted(dir / "short.vp"));
    EXPECT_EQ(tooShort.exitCode, 1);
    EXPECT_EQ(lines(tooShort.err)[0],
              (dir / "short.vp").string() +
                  ": offset 0x0: header: the archive is 4 bytes, too short for the 16-byte "
                  "VP header");
}

TEST(VpCli, ArchiveProblemsBecomeOneWarningOfTheModelLoaded) {
    ESVIEW_REQUIRE_MODELS("pof");
    const fs::path dir = test::outputDir() / "vp_cli_warn";
    fs::remove_all(dir);
    vptest::VpWriter w;
    w.folder("data").folder("models").file("dup.pof", sample("ls_dup.pof")).up();
    w.folder("maps").file("invisiblebta.dds", sample("invisiblebta.dds")).up().up().up();  // one '..' too
                                                                                           // many
    vptest::writeFile(dir / "warn.vp", w.bytes());
    const std::string inner = (dir / "warn.vp").string() + ":data/models/dup.pof";
    RunResult r = run("check " + quoted(inner));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> out = lines(r.out);
    ASSERT_EQ(out.size(), 2u) << r.out;
    EXPECT_EQ(
        out[0].rfind(
            inner + ": warning: archive " + (dir / "warn.vp").string() + ": 1 problem in its directory", 0),
        0u)
        << out[0];
    EXPECT_EQ(out[1], inner + ": ok (pof, 1 node, 0 meshes, 1 warning)");
}

TEST(VpCli, MissingInnerFilesAndBareArchivesAreOneLine) {
    const fs::path dir = test::outputDir() / "vp_cli_missing";
    fs::remove_all(dir);
    const fs::path archive = dir / "models.vp";
    vptest::writeFile(archive, vptest::archiveOf({{"data/models/a.pof", {'P', 'S', 'P', 'O'}}}));
    for (const char* command : {"info", "render -o /dev/null"}) {
        SCOPED_TRACE(command);
        RunResult r = run(std::string(command) + " " + quoted(archive.string() + ":data/models/b.pof"));
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_EQ(r.err,
                  archive.string() +
                      ":data/models/b.pof: no file 'data/models/b.pof' in the archive (the model in it: " +
                      archive.string() + ":data/models/a.pof)\n");
        RunResult bare = run(std::string(command) + " " + quoted(archive));
        EXPECT_EQ(bare.exitCode, 1);
        EXPECT_EQ(lines(bare.err).size(), 1u) << bare.err;
        EXPECT_NE(bare.err.find("name a model inside the VP archive as " + archive.string() + ":PATH"),
                  std::string::npos);
    }
    RunResult check = run("check " + quoted(archive.string() + ":data/models/b.pof"));
    EXPECT_EQ(check.exitCode, 1);
    EXPECT_EQ(lines(check.err)[0],
              archive.string() +
                  ":data/models/b.pof: no file 'data/models/b.pof' in the archive (the model in it: " +
                  archive.string() + ":data/models/a.pof)");
    // Names that only look like archive paths are files like any other.
    RunResult drive = run("info 'C:\\models\\ship.vp:data\\x.pof'");
    EXPECT_EQ(drive.exitCode, 1);
    EXPECT_NE(drive.err.find("cannot read the file"), std::string::npos) << drive.err;
}

}  // namespace
}  // namespace esv
