// The command line on POF files: `esview info FILE --json` gives, for every sample, the counts,
// drawn triangles, `pof` object and box an independent decoder read (pof_sample_facts.h), and
// `esview check FILE` exits 0 on the samples and lists each violation of a bad fixture on its own
// line with chunk id and offset, exit 1.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"
#include "pof/pof_sample_facts.h"
#include "pof/pof_writer.h"

namespace esv {
namespace {

using poftest::Bytes;
using poftest::PofWriter;

using test::RunResult;

RunResult run(const std::string& args) { return test::runEsview(ESVIEW_BINARY, args, "pof_cli"); }

std::string writeFixture(const std::string& name, const std::vector<uint8_t>& bytes) {
    const auto path = test::outputDir() / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path.string();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

TEST(PofCli, SampleInfoJson) {
    ESVIEW_REQUIRE_MODELS("pof");
    for (const poftest::FileFact& f : poftest::sampleFacts()) {
        SCOPED_TRACE(f.file);
        const std::string file = "'" + (test::modelsDir() / "pof" / f.file).string() + "'";
        RunResult r = run("info " + file + " --json");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const nlohmann::json j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["format"], "pof");
        EXPECT_EQ(j["nodes"], f.nodes);
        EXPECT_EQ(j["mesh_instances"], f.meshes.size());
        ASSERT_EQ(j["meshes"].size(), f.meshes.size());
        for (size_t m = 0; m < f.meshes.size(); ++m) {
            EXPECT_EQ(j["meshes"][m]["name"], f.meshes[m].name);
            EXPECT_EQ(j["meshes"][m]["vertices"], f.meshes[m].vertices);
            EXPECT_EQ(j["meshes"][m]["triangles"], f.meshes[m].triangles);
        }
        EXPECT_EQ(j["materials"].size(), f.textures);
        EXPECT_EQ(j["textures"].size(), f.textures);
        EXPECT_EQ(j["drawn_triangles"], f.drawnTriangles);
        const auto& p = j["pof"];
        EXPECT_EQ(p["version"], f.version);
        EXPECT_EQ(p["detail_levels"].get<std::vector<int32_t>>(), f.detailLevels);
        EXPECT_EQ(p["debris"].get<std::vector<int32_t>>(), f.debris);
        EXPECT_EQ(p["special_points"], f.pof.specialPoints);
        EXPECT_EQ(p["gun_points"], f.pof.gunPoints);
        EXPECT_EQ(p["missile_points"], f.pof.missilePoints);
        EXPECT_EQ(p["docks"], f.pof.docks);
        EXPECT_EQ(p["thrusters"], f.pof.thrusters);
        EXPECT_EQ(p["eye_points"], f.pof.eyePoints);
        EXPECT_EQ(p["paths"], f.pof.paths);
        EXPECT_EQ(p["turrets"], f.pof.turrets);
        if (f.pof.shieldTriangles >= 0) {
            EXPECT_EQ(p["shield_triangles"], f.pof.shieldTriangles);
        } else {
            EXPECT_FALSE(p.contains("shield_triangles"));
        }
        EXPECT_EQ(p["lod0_polygons"], f.pof.lod0Polygons);
        EXPECT_EQ(p["lod0_flat_polygons"], f.pof.lod0FlatPolygons);
        if (f.drawnTriangles == 0) {
            EXPECT_TRUE(j["bounds"].is_null());
        }
        for (int k = 0; k < 3 && f.drawnTriangles > 0; ++k) {
            const double tolMin = 1e-5 * std::max(1.0, std::fabs(double(f.min[k])));
            const double tolMax = 1e-5 * std::max(1.0, std::fabs(double(f.max[k])));
            EXPECT_NEAR(j["bounds"]["min"][k].get<double>(), f.min[k], tolMin) << k;
            EXPECT_NEAR(j["bounds"]["max"][k].get<double>(), f.max[k], tolMax) << k;
        }
        r = run("check " + file);
        EXPECT_EQ(r.exitCode, 0) << r.err;
    }
}

TEST(PofCli, CheckListsEachViolationWithChunkAndOffset) {
    PofWriter w(2117);
    poftest::Header h;
    h.detailLevels = {0, 4};
    w.chunk("HDR2", w.header(h));
    w.chunk("TXTR", PofWriter::textures({"hull"}));
    poftest::Subobject s;
    s.name = "hull";
    s.reserved = 1;
    s.bsp = poftest::bspData(2117, poftest::quadPositions(), poftest::quadPolygons(0, false));
    w.chunk("OBJ2", w.subobject(s));
    w.chunk("SPCL", Bytes().i32(-1));
    const std::string file = writeFixture("pof_cli_bad.pof", w.finish());
    RunResult r = run("check '" + file + "'");
    EXPECT_EQ(r.exitCode, 1);
    const std::vector<std::string> got = lines(r.err);
    ASSERT_EQ(got.size(), 4u) << r.err;
    EXPECT_NE(got[0].find("chunk OBJ2 / subobject 0 'hull': the reserved field is 1, not 0"),
              std::string::npos)
        << got[0];
    EXPECT_EQ(
        got[1], file + ": offset 0x" + [&] {
            char buf[16];
            std::snprintf(buf, sizeof buf, "%zX", w.finish().size() - 4);
            return std::string(buf);
        }() + ": chunk SPCL: special point count -1 is negative");
    EXPECT_EQ(
        got[2],
        file + ": offset 0x8: chunk HDR2: detail level 1 names subobject 4, which the file does not have");
    EXPECT_EQ(got[3], file + ": 3 problems");

    // info loads it anyway, with the violations as warnings.
    r = run("info '" + file + "' --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["nodes"], 1);
    EXPECT_EQ(j["drawn_triangles"], 2);

    // A file cut inside a chunk is one line too, exit 1, for info as for check.
    std::vector<uint8_t> cut = w.finish();
    cut.resize(cut.size() - 30);
    const std::string truncated = writeFixture("pof_cli_cut.pof", cut);
    for (const char* command : {"info", "check"}) {
        r = run(std::string(command) + " '" + truncated + "'");
        EXPECT_EQ(r.exitCode, 1) << command;
        EXPECT_NE(r.err.find("chunk OBJ2: length"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("runs past the end of the file"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace esv
