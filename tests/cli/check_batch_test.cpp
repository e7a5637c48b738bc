// `esview check PATH... [--json] [--jobs N]` over folders, as an art repository's CI runs it: every
// model file found (recursively) gets one result, in path order whatever the number of jobs, a
// broken file never stops the batch, a summary ends it, and the exit code says whether any file
// has a problem.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/run_esview.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"

namespace {

namespace fs = std::filesystem;
using esv::test::RunResult;

RunResult run(const std::string& args) {
    return esv::test::runEsview(ESVIEW_BINARY, args, "check_batch");
}

fs::path inputDir(const std::string& name) {
    const fs::path dir = esv::test::outputDir() / ("check_batch_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::vector<uint8_t> readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The JSON lines of a run; the last one is the summary. Fails the test on a line that is not JSON.
std::vector<nlohmann::json> jsonLines(const std::string& out) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << "not JSON: " << line;
        lines.push_back(std::move(j));
    }
    return lines;
}

// The lines without their timings, for comparing runs.
std::vector<nlohmann::json> withoutTimes(std::vector<nlohmann::json> lines) {
    for (nlohmann::json& j : lines) j.erase("ms");
    return lines;
}

// A folder of three copies of the demo asset (one in a subfolder, one with an upper-case
// extension), a hidden folder's model and a text file, which are not checked.
fs::path cleanFolder(const std::string& name) {
    const fs::path dir = inputDir(name);
    const std::vector<uint8_t> demo = readBytes(esv::test::sourceDir() / "assets" / "demo.pod");
    writeBytes(dir / "a.pod", demo);
    writeBytes(dir / "sub" / "b.POD", demo);
    writeBytes(dir / "sub" / "deeper" / "c.pod", demo);
    writeBytes(dir / ".hidden" / "skipped.pod", {1, 2, 3});
    std::ofstream(dir / "notes.txt") << "not a model\n";
    return dir;
}

TEST(CheckBatch, CleanFolderIsOkWithEveryModelOnceInPathOrder) {
    const fs::path dir = cleanFolder("clean");
    RunResult r = run("check '" + dir.string() + "' --json --jobs 2");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::vector<nlohmann::json> lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    const std::vector<std::string> want = {(dir / "a.pod").string(), (dir / "sub" / "b.POD").string(),
                                           (dir / "sub" / "deeper" / "c.pod").string()};
    // What `info` says of the same file: the counts, triangles and bounds are its.
    RunResult info = run("info '" + want[0] + "' --json");
    ASSERT_EQ(info.exitCode, 0) << info.err;
    const nlohmann::json facts = nlohmann::json::parse(info.out);
    for (size_t i = 0; i < want.size(); ++i) {
        SCOPED_TRACE(want[i]);
        const nlohmann::json& j = lines[i];
        EXPECT_EQ(j["path"], want[i]);
        EXPECT_EQ(j["format"], "pod");
        EXPECT_EQ(j["ok"], true);
        EXPECT_TRUE(j["problems"].empty());
        EXPECT_TRUE(j["warnings"].empty());
        EXPECT_EQ(j["counts"]["nodes"], facts["nodes"]);
        EXPECT_EQ(j["counts"]["meshes"], facts["meshes"].size());
        EXPECT_EQ(j["counts"]["materials"], facts["materials"].size());
        EXPECT_EQ(j["counts"]["clips"], facts["animation"]["clips"].size());
        EXPECT_EQ(j["triangles"], facts["triangles_total"]);
        EXPECT_EQ(j["bounds"]["min"], facts["bounds"]["min"]);
        EXPECT_EQ(j["bounds"]["max"], facts["bounds"]["max"]);
        EXPECT_GE(j["ms"].get<double>(), 0.0);
    }
    EXPECT_EQ(lines[3], nlohmann::json::parse(R"({"summary": {"files": 3, "ok": 3, "failed": 0, "warnings": 0}})"));
}

// A folder with no model file in it is a mistake (a wrong path in CI), not a pass.
TEST(CheckBatch, NoModelFilesIsAnError) {
    const fs::path dir = inputDir("none");
    std::ofstream(dir / "notes.txt") << "not a model\n";
    fs::create_directories(dir / "empty");
    RunResult r = run("check '" + dir.string() + "'");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "esview check: no model files found in " + dir.string() + "\n");
    r = run("check '" + (dir / "empty").string() + "' --json");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no model files found"), std::string::npos) << r.err;
}

// A file too short to load still says which format it claims to be: by its first bytes, else by
// its extension.
TEST(CheckBatch, TruncatedFilesKeepTheirFormat) {
    const fs::path dir = inputDir("truncated");
    const std::vector<uint8_t> demo = readBytes(esv::test::sourceDir() / "assets" / "demo.pod");
    writeBytes(dir / "cut.pod", std::vector<uint8_t>(demo.begin(), demo.begin() + 40));
    writeBytes(dir / "named.bin.awd", {'A', 'W'});
    writeBytes(dir / "magic_only.ogex", {'M', 'e', 't'});
    RunResult r = run("check '" + dir.string() + "' --json");
    EXPECT_EQ(r.exitCode, 1);
    std::map<std::string, std::string> format;
    for (const nlohmann::json& j : jsonLines(r.out))
        if (j.contains("path")) format[fs::path(j["path"].get<std::string>()).filename().string()] = j["format"].is_null() ? "null" : j["format"].get<std::string>();
    EXPECT_EQ(format["cut.pod"], "pod");
    EXPECT_EQ(format["named.bin.awd"], "awd");
    EXPECT_EQ(format["magic_only.ogex"], "ogex");
}

// A name that is not UTF-8 (a POF subobject named "det\xFFail", from the fuzz corpus) does not stop
// the batch: the JSON line carries it with U+FFFD in its place, and the files after it are checked.
// (nlohmann::json throws on such strings unless told to replace them: the batch used to abort.)
TEST(CheckBatch, NamesThatAreNotUtf8KeepTheJsonValid) {
    const fs::path dir = inputDir("not_utf8");
    writeBytes(dir / "a_bad_name.pof",
               readBytes(esv::test::sourceDir() / "fuzz" / "corpus" / "pof" / "9c37cfb743adcda924485786537067ba4f509a97"));
    writeBytes(dir / "b_demo.pod", readBytes(esv::test::sourceDir() / "assets" / "demo.pod"));
    RunResult r = run("check '" + dir.string() + "' --json");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const std::vector<nlohmann::json> lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out << r.err;
    EXPECT_NE(lines[0]["problems"][0]["where"].get<std::string>().find(std::string("det") + "\xEF\xBF\xBD" + "ail"), std::string::npos)
        << lines[0]["problems"][0];
    EXPECT_EQ(fs::path(lines[1]["path"].get<std::string>()).filename(), "b_demo.pod");
    EXPECT_TRUE(lines[1]["ok"].get<bool>());
    EXPECT_EQ(lines[2]["summary"]["files"], 2);
    r = run("info '" + (dir / "a_bad_name.pof").string() + "' --json --check");
    EXPECT_NE(r.exitCode, 134) << "no abort: " << r.err;
}

TEST(CheckBatch, CorruptedCopyIsReportedWithItsOffsetAndTheOthersStillAre) {
    const fs::path dir = cleanFolder("corrupted");
    const std::vector<uint8_t> demo = readBytes(dir / "a.pod");
    writeBytes(dir / "a_cut.pod", std::vector<uint8_t>(demo.begin(), demo.begin() + std::ptrdiff_t(demo.size() / 2)));
    RunResult r = run("check '" + dir.string() + "' --json --jobs 3");
    EXPECT_EQ(r.exitCode, 1);
    const std::vector<nlohmann::json> lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), 5u) << r.out;
    EXPECT_EQ(lines[0]["path"], (dir / "a.pod").string());
    EXPECT_EQ(lines[0]["ok"], true);
    const nlohmann::json& cut = lines[1];
    EXPECT_EQ(cut["path"], (dir / "a_cut.pod").string());
    EXPECT_EQ(cut["ok"], false);
    ASSERT_FALSE(cut["problems"].empty());
    const nlohmann::json& first = cut["problems"][0];
    ASSERT_TRUE(first["offset"].is_number()) << first;
    EXPECT_LE(first["offset"].get<int64_t>(), int64_t(demo.size() / 2));
    EXPECT_EQ(first["text"].get<std::string>().rfind((dir / "a_cut.pod").string() + ": offset 0x", 0), 0u) << first;
    EXPECT_TRUE(cut["counts"].is_null());
    for (size_t i = 2; i < 4; ++i) EXPECT_EQ(lines[i]["ok"], true) << lines[i];
    EXPECT_EQ(lines[4]["summary"]["files"], 4);
    EXPECT_EQ(lines[4]["summary"]["failed"], 1);

    // The same lines with one job, and the same facts in text: problems on stderr, one line each
    // and a count, the others' ok lines and a summary on stdout.
    RunResult one = run("check '" + dir.string() + "' --json --jobs 1");
    EXPECT_EQ(one.exitCode, 1);
    EXPECT_EQ(withoutTimes(jsonLines(one.out)), withoutTimes(lines));
    RunResult text = run("check '" + dir.string() + "' --jobs 2");
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_EQ(text.out, (dir / "a.pod").string() + ": ok (pod, 12 nodes, 2 meshes, 0 warnings)\n" +
                            (dir / "sub" / "b.POD").string() + ": ok (pod, 12 nodes, 2 meshes, 0 warnings)\n" +
                            (dir / "sub" / "deeper" / "c.pod").string() +
                            ": ok (pod, 12 nodes, 2 meshes, 0 warnings)\n"
                            "checked 4 files: 3 ok, 1 with problems, 0 warnings\n");
    EXPECT_NE(text.err.find(first["text"].get<std::string>() + "\n"), std::string::npos) << text.err;
    EXPECT_NE(text.err.find((dir / "a_cut.pod").string() + ": " + std::to_string(cut["problems"].size()) + " problem"),
              std::string::npos)
        << text.err;
}

// Every truncation of a real file in one batch: each gets its line, none stops the others.
TEST(CheckBatch, ManyBrokenFilesNeverStopTheBatch) {
    const fs::path dir = inputDir("many");
    const std::vector<uint8_t> demo = readBytes(esv::test::sourceDir() / "assets" / "demo.pod");
    const size_t count = 24;
    for (size_t i = 0; i < count; ++i) {
        const size_t length = demo.size() * i / count;
        char name[32];
        std::snprintf(name, sizeof(name), "cut_%02zu.pod", i);
        writeBytes(dir / name, std::vector<uint8_t>(demo.begin(), demo.begin() + std::ptrdiff_t(length)));
    }
    writeBytes(dir / "whole.pod", demo);
    RunResult r = run("check '" + dir.string() + "' '" + (dir / "missing.pod").string() + "' --json");
    EXPECT_EQ(r.exitCode, 1);
    const std::vector<nlohmann::json> lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), count + 3) << r.out;
    for (size_t i = 0; i < count; ++i) {
        EXPECT_EQ(lines[i]["ok"], false) << lines[i];
        EXPECT_FALSE(lines[i]["problems"].empty()) << lines[i];
    }
    EXPECT_EQ(lines[count]["path"], (dir / "whole.pod").string());
    EXPECT_EQ(lines[count]["ok"], true);
    EXPECT_EQ(lines[count + 1]["path"], (dir / "missing.pod").string());
    EXPECT_EQ(lines[count + 1]["ok"], false);
    EXPECT_EQ(lines[count + 2]["summary"]["failed"], count + 1);
}

// The acceptance run: every shared sample of every format, two jobs. The few files that violate
// their specs make it exit 1; every model file in the folder has exactly one line.
TEST(CheckBatch, SharedModelsOneLinePerFileAndASummary) {
    ESVIEW_REQUIRE_MODELS("");
    const fs::path models = esv::test::modelsDir();
    std::set<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(models))
        if (e.is_regular_file() && esv::hasModelExtension(e.path().string())) files.insert(e.path().string());
    ASSERT_GE(files.size(), 40u);
    RunResult r = run("check '" + models.string() + "' --json --jobs 2");
    EXPECT_EQ(r.exitCode, 1) << "the shared samples include files that break their specs";
    const std::vector<nlohmann::json> lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), files.size() + 1);
    std::set<std::string> seen;
    size_t failed = 0, warnings = 0;
    for (size_t i = 0; i < files.size(); ++i) {
        const nlohmann::json& j = lines[i];
        seen.insert(j["path"].get<std::string>());
        warnings += j["warnings"].size();
        if (j["ok"].get<bool>()) {
            EXPECT_TRUE(j["counts"].is_object()) << j;
            EXPECT_TRUE(j["format"].is_string()) << j;
        } else {
            ++failed;
            for (const nlohmann::json& p : j["problems"])
                EXPECT_TRUE(p["offset"].is_number() || p["line"].is_number()) << "no offset or line: " << p;
        }
    }
    EXPECT_EQ(seen, files);
    EXPECT_GE(failed, 1u);
    EXPECT_EQ(lines.back()["summary"]["files"], files.size());
    EXPECT_EQ(lines.back()["summary"]["failed"], failed);
    EXPECT_EQ(lines.back()["summary"]["ok"], files.size() - failed);
    // The summary's warnings are the files' warnings, counted once each (the shared samples have
    // missing textures, so a count that dropped or doubled them shows).
    EXPECT_GE(warnings, 1u);
    EXPECT_EQ(lines.back()["summary"]["warnings"], warnings);
    // The text summary says the same.
    r = run("check '" + models.string() + "' --jobs 2");
    EXPECT_NE(r.out.find("checked " + std::to_string(files.size()) + " files: " + std::to_string(files.size() - failed) +
                         " ok, " + std::to_string(failed) + " with problems, " + std::to_string(warnings) + " warning"),
              std::string::npos)
        << r.out.substr(r.out.size() > 300 ? r.out.size() - 300 : 0);
}

}  // namespace
