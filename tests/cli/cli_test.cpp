// End-to-end tests of the command line contract (DESIGN.md): exit codes, one line per problem,
// the info fields, headless rendering and the windowed viewer under Xvfb.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "common/run_esview.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"
#include "pod/pod_bytes.h"

namespace {

using esv::test::RunResult;

// Runs `prefix esview args` through the shell, capturing stdout and stderr separately.
RunResult run(const std::string& args, const std::string& prefix = "") {
    return esv::test::runEsview(ESVIEW_BINARY, args, "cli", prefix);
}

size_t lineCount(const std::string& s) {
    size_t n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST(Cli, InfoDemoJsonHasTheDesignFields) {
    RunResult r = run("info demo --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    for (const char* key : {"format", "nodes", "meshes", "mesh_instances", "materials", "textures", "lights",
                            "cameras", "animation", "bounds", "warnings"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["format"], "demo");
    ASSERT_GE(j["meshes"].size(), 1u);
    for (const auto& m : j["meshes"])
        for (const char* key : {"name", "vertices", "triangles", "primitive", "attributes", "skinned", "bone_batches",
                                "max_bones_per_batch", "morph_targets"})
            EXPECT_TRUE(m.contains(key)) << key;
    // The demo is a skinned object in two bone batches with a morph target, two materials, two lights.
    bool skinnedWithTwoBatches = false, morphed = false;
    for (const auto& m : j["meshes"]) {
        if (m["skinned"].get<bool>() && m["bone_batches"].get<int>() == 2) skinnedWithTwoBatches = true;
        if (m["morph_targets"].get<int>() >= 1) morphed = true;
    }
    EXPECT_TRUE(skinnedWithTwoBatches);
    EXPECT_TRUE(morphed);
    EXPECT_EQ(j["materials"].size(), 2u);
    ASSERT_EQ(j["lights"].size(), 2u);
    std::set<std::string> types{j["lights"][0]["type"], j["lights"][1]["type"]};
    EXPECT_EQ(types, (std::set<std::string>{"point", "directional"}));
    EXPECT_GE(j["cameras"].get<int>(), 1);
    ASSERT_GE(j["animation"]["clips"].size(), 1u);
    EXPECT_GT(j["animation"]["clips"][0]["duration_s"].get<double>(), 0.0);
    ASSERT_TRUE(j["bounds"].is_object());
}

TEST(Cli, InfoBoundsChangeWithTime) {
    RunResult rest = run("info demo --json");
    RunResult bent = run("info demo --json --time 0.5");
    ASSERT_EQ(rest.exitCode, 0) << rest.err;
    ASSERT_EQ(bent.exitCode, 0) << bent.err;
    auto a = nlohmann::json::parse(rest.out)["bounds"];
    auto b = nlohmann::json::parse(bent.out)["bounds"];
    double difference = 0.0;
    for (int i = 0; i < 3; ++i)
        difference += std::abs(a["min"][i].get<double>() - b["min"][i].get<double>()) +
                      std::abs(a["max"][i].get<double>() - b["max"][i].get<double>());
    EXPECT_GT(difference, 1e-3) << a.dump() << " vs " << b.dump();
    // The same time given as a frame gives the same box.
    RunResult frame = run("info demo --json --frame 15");
    auto c = nlohmann::json::parse(frame.out)["bounds"];
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(c["min"][i].get<double>(), b["min"][i].get<double>(), 1e-5);
}

// Every texture a POD sample names resolves (the import report has no texture warning); a model
// copied away from its textures reports each one missing, naming where it looked, and exits 0.
TEST(Cli, SampleTexturesResolveAndMissingOnesAreReported) {
    ESVIEW_REQUIRE_MODELS("pod");
    size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(esv::test::modelsDir() / "pod")) {
        if (entry.path().extension() != ".pod") continue;
        ++files;
        RunResult r = run("info '" + entry.path().string() + "' --json");
        ASSERT_EQ(r.exitCode, 0) << entry.path() << r.err;
        const nlohmann::json info = nlohmann::json::parse(r.out);
        for (const auto& w : info["warnings"])
            EXPECT_EQ(w.get<std::string>().find("texture"), std::string::npos) << entry.path() << ": " << w;
    }
    EXPECT_GT(files, 10u);
    const auto dir = esv::test::outputDir() / "lonely_model";
    std::filesystem::create_directories(dir);
    const auto copy = dir / "man.pod";
    std::filesystem::copy_file(esv::test::modelsDir() / "pod/cocos3d/cocos3d_man.pod", copy,
                               std::filesystem::copy_options::overwrite_existing);
    RunResult r = run("info '" + copy.string() + "' --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json info = nlohmann::json::parse(r.out);
    size_t missing = 0;
    for (const auto& w : info["warnings"]) {
        const std::string text = w.get<std::string>();
        if (text.find("body.png") == std::string::npos && text.find("legs.png") == std::string::npos &&
            text.find("belt.png") == std::string::npos)
            continue;
        ++missing;
        EXPECT_NE(text.find(dir.string()), std::string::npos) << "names where it searched: " << text;
    }
    EXPECT_EQ(missing, 3u) << info["warnings"].dump();
}

// Every shared sample of every format: each material's texture names the texture as the file
// gives it (a file name, a URL or an embedded image's name; never empty), texture_refs and
// texture_files say what it resolved to (a path, "embedded", or "" only when the report says it
// is missing), and a path that resolved exists.
TEST(Cli, InfoNamesEveryMaterialTextureAndWhereItResolved) {
    ESVIEW_REQUIRE_MODELS("");
    size_t withTextures = 0, resolvedFiles = 0, embedded = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(esv::test::modelsDir())) {
        if (!esv::hasModelExtension(entry.path().string())) continue;
        RunResult r = run("info '" + entry.path().string() + "' --json");
        if (r.exitCode != 0) continue;  // files that fail are other tests' business
        const nlohmann::json info = nlohmann::json::parse(r.out);
        ASSERT_EQ(info["texture_files"].size(), info["textures"].size()) << entry.path();
        bool any = false;
        for (const auto& m : info["materials"]) {
            for (auto it = m["textures"].begin(); it != m["textures"].end(); ++it) {
                any = true;
                const std::string name = it.value().get<std::string>();
                EXPECT_FALSE(name.empty()) << entry.path() << " material " << m["name"] << " slot " << it.key();
                const auto& ref = m["texture_refs"][it.key()];
                const std::string resolved = ref["resolved"].get<std::string>();
                const auto& file = info["texture_files"][ref["texture"].get<size_t>()];
                EXPECT_EQ(file["resolved"], ref["resolved"]);
                EXPECT_EQ(name, file["file"].get<std::string>().empty() ? file["name"] : file["file"]);
                if (resolved == "embedded") {
                    EXPECT_TRUE(file["embedded"].get<bool>());
                    ++embedded;
                } else if (!resolved.empty()) {
                    EXPECT_TRUE(std::filesystem::exists(resolved)) << resolved;
                    EXPECT_FALSE(file["missing"].get<bool>());
                    ++resolvedFiles;
                } else {
                    EXPECT_TRUE(file["missing"].get<bool>()) << entry.path() << " " << name;
                    bool reported = false;
                    for (const auto& w : info["warnings"]) reported |= w.get<std::string>().find("texture") != std::string::npos;
                    EXPECT_TRUE(reported) << entry.path() << " " << name << " is missing without a warning";
                }
            }
        }
        withTextures += any ? 1 : 0;
    }
    EXPECT_GE(withTextures, 30u);
    EXPECT_GE(resolvedFiles, 20u);
    EXPECT_GE(embedded, 8u);
}

// printf-style number, as the info text writes them.
std::string number(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    return text;
}

bool hasLine(const std::string& text, const std::string& line) {
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

// `info` as text on a sample of each format: lines made from the facts the same file gives as
// JSON, counts in the singular or plural, durations in seconds (frames only where the file gives a
// rate), bounds at six significant digits, no "slot=" entries.
TEST(Cli, InfoTextOnASampleOfEachFormat) {
    ESVIEW_REQUIRE_MODELS("");
    for (const char* sample : {"pod/cocos3d/cocos3d_man.pod", "awd/PolarBear.awd", "ogex/assimp_animation_example.ogex",
                               "pof/air_F-14.pof"}) {
        const std::string file = (esv::test::modelsDir() / sample).string();
        if (!std::filesystem::exists(file)) ESVIEW_SKIP_UNLESS_REQUIRED() << file;
        const RunResult text = run("info '" + file + "'"), json = run("info '" + file + "' --json");
        ASSERT_EQ(text.exitCode, 0) << text.err;
        ASSERT_EQ(json.exitCode, 0) << json.err;
        const nlohmann::json j = nlohmann::json::parse(json.out);
        const std::string& t = text.out;
        SCOPED_TRACE(std::string(sample) + ":\n" + t);

        for (const char* bad : {" 1 vertices", " 1 triangles", " 1 clips", " 1 lights", " 1 cameras", " 1 mesh instances",
                                " 1 bone batches", " 1 morph targets", " 1 frames", " 1 bones", "(1 points", " 0 frames at"})
            EXPECT_EQ(t.find(bad), std::string::npos) << bad;
        EXPECT_EQ(t.find("="), std::string::npos);

        for (const auto& m : j["meshes"]) {
            std::string line = "  " + m["name"].get<std::string>() + ": " + std::to_string(m["vertices"].get<int>()) +
                               " vertices, " + std::to_string(m["triangles"].get<int>()) + " triangles";
            if (m["skinned"].get<bool>()) {
                const int batches = m["bone_batches"].get<int>(), bones = m["max_bones_per_batch"].get<int>();
                line += ", skinned";
                if (batches == 1) line += " (1 bone batch of " + std::to_string(bones) + " bones)";
                if (batches > 1)
                    line += " (" + std::to_string(batches) + " bone batches of at most " + std::to_string(bones) + " bones)";
            }
            EXPECT_TRUE(hasLine(t, line)) << line;
        }
        const int lights = int(j["lights"].size()), cameras = j["cameras"].get<int>();
        EXPECT_NE(t.find(std::to_string(lights) + (lights == 1 ? " light," : " lights,")), std::string::npos);
        EXPECT_NE(t.find(std::to_string(cameras) + (cameras == 1 ? " camera)" : " cameras)")), std::string::npos);

        const auto& anim = j["animation"];
        const size_t clips = anim["clips"].size();
        const int frames = anim["frames"].get<int>();
        std::string animation = "animation:      ";
        if (clips == 0) {
            animation += "none";
        } else {
            animation += std::to_string(clips) + (clips == 1 ? " clip" : " clips");
            if (frames > 0) animation += ", " + std::to_string(frames) + " frames at " + number(anim["fps"].get<double>(), 6) + " fps";
        }
        EXPECT_TRUE(hasLine(t, animation)) << animation;
        for (const auto& c : anim["clips"]) {
            const double seconds = c["duration_s"].get<double>();
            std::string line = "  " + c["name"].get<std::string>() + ": " + number(seconds, 4) + " s";
            // POD gives its frame rate; these AWD and OpenGEX files give none.
            if (frames > 0)
                line += " (frames 0-" + number(std::round(seconds * anim["fps"].get<double>()), 6) + " at " +
                        number(anim["fps"].get<double>(), 6) + " fps)";
            EXPECT_TRUE(hasLine(t, line)) << line;
        }

        // Bounds: every coordinate at six significant digits, the values of the JSON.
        const size_t at = t.find("\nbounds:");
        ASSERT_NE(at, std::string::npos);
        const std::string bounds = t.substr(at + 1, t.find('\n', at + 1) - at - 1);
        std::string expected = "bounds:         min (";
        for (int corner = 0; corner < 2; ++corner) {
            const auto& v = j["bounds"][corner == 0 ? "min" : "max"];
            for (int i = 0; i < 3; ++i) expected += number(v[i].get<double>(), 6) + (i < 2 ? ", " : ")");
            if (corner == 0) expected += "  max (";
        }
        EXPECT_EQ(bounds, expected);

        if (j.contains("pof")) {
            // air_F-14: one gun point, three missile points, one thruster, one eye point.
            const auto& p = j["pof"];
            std::string points = "  points:       ";
            auto add = [&](const char* key, const char* one, const char* many) {
                const int n = p[key].get<int>();
                if (n == 0) return;
                if (points.back() != ' ') points += ", ";
                points += std::to_string(n) + " " + (n == 1 ? one : many);
            };
            add("gun_points", "gun point", "gun points");
            add("missile_points", "missile point", "missile points");
            add("turrets", "turret", "turrets");
            add("docks", "dock", "docks");
            add("thrusters", "thruster", "thrusters");
            add("eye_points", "eye point", "eye points");
            EXPECT_TRUE(hasLine(t, points)) << points;
        }
    }
}

TEST(Cli, MissingFileIsOneClearLine) {
    RunResult r = run("check /no/such/file.pod");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("/no/such/file.pod"), std::string::npos) << r.err;
    // One line for the problem plus the summary line.
    EXPECT_LE(lineCount(r.err), 2u) << r.err;
    RunResult info = run("info /no/such/file.pod");
    EXPECT_EQ(info.exitCode, 1);
    EXPECT_EQ(lineCount(info.err), 1u) << info.err;
}

TEST(Cli, UnknownFormatIsOneClearLine) {
    auto path = esv::test::outputDir() / "some.txt";
    std::ofstream(path) << "hello, this is not a model\n";
    RunResult r = run("info '" + path.string() + "'");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("some.txt"), std::string::npos);
    EXPECT_NE(r.err.find("unknown file format"), std::string::npos) << r.err;
    auto empty = esv::test::outputDir() / "empty.pod";
    std::ofstream(empty).close();
    RunResult e = run("check '" + empty.string() + "'");
    EXPECT_EQ(e.exitCode, 1);
    EXPECT_NE(e.err.find("empty"), std::string::npos) << e.err;
}

// The help names every format of the table (loaders/format_table.h) on its first line and lists
// each one's extensions; an unknown file's line names them all too.
TEST(Cli, HelpAndErrorsNameEveryFormatAndExtension) {
    RunResult r = run("--help");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string firstLine = r.out.substr(0, r.out.find('\n'));
    for (const esv::FormatInfo& f : esv::formats()) {
        EXPECT_NE(firstLine.find(f.title), std::string::npos) << f.title << " in " << firstLine;
        std::string extensions;
        for (const std::string& e : f.extensions) extensions += (extensions.empty() ? "." : " .") + e;
        EXPECT_NE(r.out.find("  " + f.name + " "), std::string::npos) << f.name << " has a line:\n" << r.out;
        const std::string end = f.magic.empty() ? " (text)\n" : "\n";  // text formats are known by extension
        EXPECT_NE(r.out.find(" " + extensions + end), std::string::npos) << extensions << " in:\n" << r.out;
    }
    auto path = esv::test::outputDir() / "not_a_model.txt";
    std::ofstream(path) << "hello\n";
    RunResult e = run("check '" + path.string() + "'");
    EXPECT_EQ(e.exitCode, 1);
    EXPECT_NE(e.err.find(path.string() + ": offset 0x0: unknown file format (expected " +
                         esv::formatNameList(" or ") + ")\n"),
              std::string::npos)
        << e.err;
}

// A subcommand's help lists the formats but not the viewer's script commands, which only the
// program's own help (the viewer's) lists.
TEST(Cli, SubcommandHelpListsFormatsNotScriptCommands) {
    const std::string scriptLine = "Viewer script commands";
    RunResult main = run("--help");
    ASSERT_EQ(main.exitCode, 0) << main.err;
    EXPECT_NE(main.out.find(scriptLine), std::string::npos) << main.out;
    for (const char* sub : {"info", "render", "check", "convert", "thumbnail"}) {
        RunResult r = run(std::string(sub) + " --help");
        ASSERT_EQ(r.exitCode, 0) << sub << ": " << r.err;
        EXPECT_EQ(r.out.find(scriptLine), std::string::npos) << sub << ":\n" << r.out;
        for (const esv::FormatInfo& f : esv::formats())
            EXPECT_NE(r.out.find("  " + f.name + " "), std::string::npos)
                << sub << " lists " << f.name << ":\n"
                << r.out;
    }
}

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(run("info").exitCode, 2);
    EXPECT_EQ(run("render demo").exitCode, 2);                       // no -o
    EXPECT_EQ(run("info demo --frame 1 --time 2").exitCode, 2);       // exclusive
    EXPECT_EQ(run("render demo -o x.png --size 12by4").exitCode, 2);  // bad size
    EXPECT_EQ(run("render demo -o x.png --mode sparkles").exitCode, 2);
    EXPECT_EQ(run("frobnicate --nope").exitCode, 2);
    EXPECT_EQ(run("--help").exitCode, 0);
}

// stderr of a usage error: CLI11's line saying what is wrong, then its pointer to --help.
std::string usageError(const std::string& what) {
    return what + "\nRun with --help for more information.\n";
}

TEST(Cli, UsageErrorsSayWhatIsWrong) {
    const std::pair<const char*, const char*> cases[] = {
        {"info", "FILE is required"},
        {"check", "PATH is required"},
        {"render demo", "--output is required"},
        {"info demo --frame 1 --time 2", "--frame excludes --time"},
        {"render demo -o x.png --size 12by4", "--size: expected WxH, e.g. 1280x720"},
        {"render demo -o x.png --mode sparkles",
         "--mode: unknown mode 'sparkles' (the modes: shaded, wireframe, normals, weights, batches, uv, unlit, "
         "colors, skindiff, shaded-wire, mip, texel-density, overdraw, overdraw-all)"},
        {"frobnicate --nope", "The following argument was not expected: --nope"},
        {"check demo --jobs 0", "--jobs: Value 0 not in range 1 to 256"},
    };
    for (const auto& [args, message] : cases) {
        SCOPED_TRACE(args);
        RunResult r = run(args);
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_EQ(r.err, usageError(message));
        EXPECT_EQ(r.out, "");
    }
}

// A folder of its own for a test's input files; `check` runs inside it so that the lines name
// the files as given on the command line.
std::filesystem::path inputDir(const std::string& name) {
    const auto dir = esv::test::outputDir() / ("cli_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

RunResult checkIn(const std::filesystem::path& dir, const std::string& file) {
    return run("check '" + file + "'", "cd '" + dir.string() + "' &&");
}

// An empty POD scene: the version leaf (27 bytes), the scene tag (8), then eight 20-byte count
// leaves, so the mesh count leaf starts at 0x4B and the material count leaf at 0x9B.
esv::test::PodBytes emptyPodScene(uint32_t meshes, uint32_t materials) {
    esv::test::PodBytes b;
    b.version().open(esv::pod::Scene).counts(0, 0, meshes, 0, 0, 0, materials, 0);
    b.close(esv::pod::Scene);
    return b;
}

TEST(Cli, CheckBrokenPodNamesEachProblemByOffset) {
    const auto dir = inputDir("broken_pod");
    esv::test::PodBytes valid = emptyPodScene(0, 0);
    ASSERT_EQ(valid.size(), 203u);
    writeBytes(dir / "valid.pod", valid.bytes());
    RunResult ok = checkIn(dir, "valid.pod");
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_EQ(ok.out, "valid.pod: ok (pod, 0 nodes, 0 meshes, 0 warnings)\n");
    EXPECT_EQ(ok.err, "");

    // Cut two bytes into the mesh count's 4-byte value (0x4B + 8 + 2).
    writeBytes(dir / "cut.pod",
               std::vector<uint8_t>(valid.bytes().begin(), valid.bytes().begin() + 0x4B + 10));
    RunResult cut = checkIn(dir, "cut.pod");
    EXPECT_EQ(cut.exitCode, 1);
    EXPECT_EQ(cut.err,
              "cut.pod: offset 0x4B: scene / mesh count: block length 4 runs past the end of the file (2 "
              "bytes left)\n"
              "cut.pod: 1 problem\n");
    EXPECT_EQ(cut.out, "");

    // Two counts that disagree with the blocks: one line each, in file order.
    writeBytes(dir / "counts.pod", emptyPodScene(2, 3).bytes());
    RunResult counts = checkIn(dir, "counts.pod");
    EXPECT_EQ(counts.exitCode, 1);
    EXPECT_EQ(
        counts.err,
        "counts.pod: offset 0x4B: scene / mesh count: declares 2 but the scene holds 0 mesh blocks\n"
        "counts.pod: offset 0x9B: scene / material count: declares 3 but the scene holds 0 material blocks\n"
        "counts.pod: 2 problems\n");
    EXPECT_EQ(counts.out, "");
}

TEST(Cli, CheckBrokenOpenGexNamesEachProblemByLine) {
    const auto dir = inputDir("broken_ogex");
    // Line 6: the last two numbers of the matrix miss their comma.
    std::ofstream(dir / "syntax.ogex")
        << "Metric (key = \"distance\") {float {1.0}}\n"
           "GeometryNode $node1\n"
           "{\n"
           "\tName {string {\"a\"}}\n"
           "\tObjectRef {ref {$geometry1}}\n"
           "\tTransform {float[16] {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0 1}}}\n"
           "}\n";
    RunResult syntax = checkIn(dir, "syntax.ogex");
    EXPECT_EQ(syntax.exitCode, 1);
    EXPECT_EQ(syntax.err,
              "syntax.ogex: line 6, column 69: expected ',' or '}' in a float[16] subarray, found '1'\n"
              "syntax.ogex: 1 problem\n");
    EXPECT_EQ(syntax.out, "");

    // Line 7: index 7 of a 3-vertex mesh; line 10: a reference to a structure the file lacks.
    std::ofstream(dir / "refs.ogex")
        << "GeometryNode {Name {string {\"Tri\"}} ObjectRef {ref {$tri}}}\n"
           "GeometryObject $tri\n"
           "{\n"
           "\tMesh (primitive = \"triangles\")\n"
           "\t{\n"
           "\t\tVertexArray (attrib = \"position\") {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}\n"
           "\t\tIndexArray {uint16[3] {{0, 1, 2}, {0, 2, 7}}}\n"
           "\t}\n"
           "}\n"
           "GeometryNode {Name {string {\"Other\"}} ObjectRef {ref {$nosuch}}}\n";
    RunResult refs = checkIn(dir, "refs.ogex");
    EXPECT_EQ(refs.exitCode, 1);
    EXPECT_EQ(
        refs.err,
        "refs.ogex: line 7, column 3: GeometryObject $tri / Mesh / IndexArray: index 7 is out of range for 3 "
        "vertices\n"
        "refs.ogex: line 10, column 50: GeometryNode / ObjectRef / ref: unresolved reference $nosuch to a "
        "GeometryObject\n"
        "refs.ogex: 2 problems\n");
    EXPECT_EQ(refs.out, "");
}

TEST(Cli, RenderToAnUnwritablePathIsOneLine) {
    const auto missingFolder = esv::test::outputDir() / "cli_no_such_folder" / "out.png";
    std::filesystem::remove_all(missingFolder.parent_path());
    for (const std::string& path : {missingFolder.string(), std::string("/proc/esview-out.png")}) {
        SCOPED_TRACE(path);
        RunResult r = run("render demo -o '" + path + "' --size 32x32");
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_EQ(r.err, "esview: cannot write " + path + "\n");
        EXPECT_FALSE(std::filesystem::exists(path));
    }
}

TEST(Cli, UnknownClipIsBadInput) {
    RunResult r = run("info demo --time 0.5 --clip nosuchclip");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("nosuchclip"), std::string::npos);
}

TEST(Cli, CheckDemoIsClean) {
    RunResult r = run("check demo");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("ok"), std::string::npos);
}

// Loads a PNG; returns false when it cannot be read.
bool loadPng(const std::filesystem::path& path, int& w, int& h, std::vector<uint8_t>& rgba) {
    int n = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &w, &h, &n, 4);
    if (!data) return false;
    rgba.assign(data, data + size_t(w) * h * 4);
    stbi_image_free(data);
    return true;
}

// Fraction of pixels in a rectangle that differ from `reference` by more than a small tolerance.
double fractionDifferent(const std::vector<uint8_t>& rgba, int w, int x0, int y0, int x1, int y1, const uint8_t* reference) {
    size_t different = 0, total = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x, ++total) {
            const uint8_t* p = &rgba[(size_t(y) * w + x) * 4];
            int d = std::abs(p[0] - reference[0]) + std::abs(p[1] - reference[1]) + std::abs(p[2] - reference[2]);
            different += d > 12;
        }
    return total ? double(different) / total : 0.0;
}

TEST(Cli, RenderDemoWritesALitObject) {
    auto png = esv::test::outputDir() / "cli_render_demo.png";
    std::filesystem::remove(png);
    RunResult r = run("render demo -o '" + png.string() + "' --size 320x240 --time 0.5");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    int w = 0, h = 0;
    std::vector<uint8_t> rgba;
    ASSERT_TRUE(loadPng(png, w, h, rgba));
    EXPECT_EQ(w, 320);
    EXPECT_EQ(h, 240);
    // The corner is background; a good part of the middle is the object, and it is lit (not black).
    const uint8_t* background = &rgba[0];
    double covered = fractionDifferent(rgba, w, w / 4, h / 4, 3 * w / 4, 3 * h / 4, background);
    EXPECT_GT(covered, 0.05);
    double brightest = 0;
    for (size_t i = 0; i < rgba.size(); i += 4) brightest = std::max<double>(brightest, rgba[i] + rgba[i + 1] + rgba[i + 2]);
    EXPECT_GT(brightest, 200.0);
}

// render frames what the viewer frames, the rest pose and the first clip as it plays (its start,
// end and seven times between), fitting the projected points to the picture, not the bounding
// sphere: in a wide and in a tall picture the union of the model's silhouettes at those times spans
// most of the height or the width (the points span 90%: OrbitCamera.FramingFitsTheProjectedBoxToTheRegion),
// and stays inside the picture.
TEST(Cli, RenderFramesTheModelToThePicture) {
    for (const char* size : {"400x300", "200x400"}) {
        int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1, w = 0, h = 0;
        for (int sample = -1; sample <= 8; ++sample) {  // -1: the rest pose; the demo's clip lasts 2 s
            const std::string time = sample < 0 ? "" : " --time " + std::to_string(0.25 * sample);
            auto png = esv::test::outputDir() / (std::string("cli_render_framed_") + size + ".png");
            RunResult r = run("render demo -o '" + png.string() + "' --size " + size + time);
            ASSERT_EQ(r.exitCode, 0) << r.err;
            std::vector<uint8_t> rgba;
            ASSERT_TRUE(loadPng(png, w, h, rgba));
            const uint8_t* background = &rgba[0];
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    const uint8_t* p = &rgba[(size_t(y) * w + x) * 4];
                    if (std::abs(p[0] - background[0]) + std::abs(p[1] - background[1]) +
                            std::abs(p[2] - background[2]) <=
                        12)
                        continue;
                    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
                }
        }
        ASSERT_GE(x1, 0) << size;
        const double spanX = double(x1 - x0 + 1) / w, spanY = double(y1 - y0 + 1) / h;
        EXPECT_GE(std::max(spanX, spanY), 0.85) << size << ": " << spanX << " x " << spanY;  // 0.90 in both
        EXPECT_GT(x0, 0);
        EXPECT_GT(y0, 0);
        EXPECT_LT(x1, w - 1);
        EXPECT_LT(y1, h - 1);
    }
}

TEST(Cli, RenderGles2MatchesGles3) {
    auto a = esv::test::outputDir() / "cli_render_es3.png";
    auto b = esv::test::outputDir() / "cli_render_es2.png";
    ASSERT_EQ(run("render demo -o '" + a.string() + "' --size 200x150 --time 0.5").exitCode, 0);
    RunResult r = run("render demo -o '" + b.string() + "' --size 200x150 --time 0.5 --gles2");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    int w1, h1, w2, h2;
    std::vector<uint8_t> p1, p2;
    ASSERT_TRUE(loadPng(a, w1, h1, p1));
    ASSERT_TRUE(loadPng(b, w2, h2, p2));
    ASSERT_EQ(p1.size(), p2.size());
    size_t different = 0;
    for (size_t i = 0; i < p1.size(); i += 4) {
        int d = std::abs(p1[i] - p2[i]) + std::abs(p1[i + 1] - p2[i + 1]) + std::abs(p1[i + 2] - p2[i + 2]);
        different += d > 24;
    }
    EXPECT_LT(double(different) / (p1.size() / 4), 0.01);
}

TEST(Cli, RenderBadCameraIsBadInput) {
    auto png = esv::test::outputDir() / "cli_bad_camera.png";
    RunResult r = run("render demo -o '" + png.string() + "' --camera 99");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("no camera 99 (the cameras: 0 'front')"), std::string::npos) << r.err;
    r = run("info demo --clip Dance");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no animation clip named 'Dance' (the clips: '"), std::string::npos) << r.err;
}

// OpenGEX `IndexArray (front = "cw")`: clockwise fronts. A file and its twin wound the other way and
// marked so draw the same pixels (a quad and a strip facing the first view; culled, the clockwise one
// once drew nothing) and convert to the same glTF triangles, byte for byte.
TEST(Cli, ClockwiseFrontsDrawAndConvertAsTheirCounterClockwiseTwin) {
    const auto dir = esv::test::outputDir() / "cli_winding";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    auto file = [&](const std::string& name, const std::string& quad, const std::string& strip, const char* front) {
        const std::string attr = front ? std::string(", front = \"") + front + "\"" : std::string();
        std::ofstream(dir / name)
            << "Metric (key = \"up\") {string {\"z\"}}\n"
               "GeometryNode {Name {string {\"Quad\"}} ObjectRef {ref {$quad}} MaterialRef {ref {$m}}}\n"
               "GeometryNode {Name {string {\"Strip\"}} ObjectRef {ref {$strip}} MaterialRef {ref {$m}}\n"
               "  Translation {float[3] {{1.5, 0.0, 0.0}}}}\n"
               "Material $m {Color (attrib = \"diffuse\") {float[3] {{0.8, 0.5, 0.2}}}}\n"
               "GeometryObject $quad {Mesh {\n"
               "  VertexArray (attrib = \"position\") {float[3] {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}}\n"
               "  VertexArray (attrib = \"normal\") {float[3] {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}}}\n"
               "  IndexArray (material = 0" + attr + ") {uint16[3] {" + quad + "}}}}\n"
               "GeometryObject $strip {Mesh (primitive = \"triangle_strip\") {\n"
               "  VertexArray (attrib = \"position\") {float[3] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}}\n"
               "  VertexArray (attrib = \"normal\") {float[3] {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}}}\n"
               "  IndexArray (material = 0" + attr + ") {uint16 {" + strip + "}}}}\n";
    };
    // The same triangles: counter-clockwise seen from +z, then each turned clockwise.
    file("ccw.ogex", "{0, 1, 2}, {0, 2, 3}", "0, 1, 2, 3", nullptr);
    file("cw.ogex", "{0, 2, 1}, {0, 3, 2}", "0, 2, 1, 3", "cw");
    for (const char* name : {"ccw", "cw"}) {
        const auto in = dir / (std::string(name) + ".ogex");
        RunResult r = run("render '" + in.string() + "' -o '" + (dir / (std::string(name) + ".png")).string() +
                          "' --size 160x120");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        r = run("convert '" + in.string() + "' '" + (dir / (std::string(name) + ".gltf")).string() + "'");
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    int w = 0, h = 0;
    std::vector<uint8_t> ccw, cw;
    ASSERT_TRUE(loadPng(dir / "ccw.png", w, h, ccw));
    ASSERT_TRUE(loadPng(dir / "cw.png", w, h, cw));
    EXPECT_TRUE(ccw == cw) << "the clockwise twin draws other pixels";
    size_t model = 0;  // pixels unlike the top-left corner's background
    for (size_t i = 0; i < cw.size(); i += 4)
        model += std::abs(cw[i] - cw[0]) + std::abs(cw[i + 1] - cw[1]) + std::abs(cw[i + 2] - cw[2]) > 24;
    EXPECT_GT(model, size_t(w) * size_t(h) / 20) << "the faces are drawn, not culled";
    // The quad's triangles are the same bytes; the strip's are the same triangles after one
    // degenerate one (its first index doubled), so the glTF triangle lists differ only there.
    const std::string ccwBin = esv::test::readText(dir / "ccw.bin"), cwBin = esv::test::readText(dir / "cw.bin");
    ASSERT_FALSE(cwBin.empty());
    EXPECT_NE(cwBin.find(std::string("\x00\x00\x01\x00\x02\x00\x00\x00\x02\x00\x03\x00", 12)), std::string::npos)
        << "the quad's indices 0 1 2, 0 2 3";
    (void)ccwBin;
}

// --weight-bone takes a joint's name or node index; anything else lists the joints.
TEST(Cli, RenderWeightBoneByNameOrIndex) {
    const auto png = esv::test::outputDir() / "cli_weight_bone.png";
    RunResult r = run("render demo -o '" + png.string() + "' --size 64x64 --mode weights --weight-bone sparkle");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--weight-bone sparkle: no joint of that name or node index (the joints: "), std::string::npos)
        << r.err;
    // The first joint listed, by name and by number, draws the same picture.
    const std::string err = r.err;
    const size_t at = err.find("the joints: ") + 12;
    const size_t space = err.find(' ', at);
    const std::string index = err.substr(at, space - at);
    const size_t quote = err.find('\'', space);
    const std::string name = err.substr(quote + 1, err.find('\'', quote + 1) - quote - 1);
    ASSERT_FALSE(name.empty()) << err;
    const auto byName = esv::test::outputDir() / "cli_weight_bone_name.png";
    const auto byIndex = esv::test::outputDir() / "cli_weight_bone_index.png";
    r = run("render demo -o '" + byName.string() + "' --size 64x64 --mode weights --weight-bone '" + name + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = run("render demo -o '" + byIndex.string() + "' --size 64x64 --mode weights --weight-bone " + index);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(esv::test::readText(byName), esv::test::readText(byIndex));
    // A number far beyond any node is no joint either (it once failed with a 309-digit range error).
    r = run("render demo -o '" + png.string() + "' --size 64x64 --mode weights --weight-bone 1e308");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lineCount(r.err), 1u) << r.err;
}

// `esview FILE` with a file that cannot be opened: the window opens with the reason in its banner,
// stderr has the one line, and the run exits 1.
TEST(Cli, ViewerWindowShowsWhyAFileCannotBeOpened) {
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed";
    auto png = esv::test::outputDir() / "cli_viewer_missing.png";
    std::filesystem::remove(png);
    const auto config = esv::test::outputDir() / "cli_viewer_missing_config";
    std::filesystem::remove_all(config);
    std::filesystem::create_directories(config);
    RunResult r = run("/no/such/file.pod --frames 6 --screenshot '" + png.string() + "'",
                      "ESVIEW_CONFIG_DIR='" + config.string() + "' " + std::string(XVFB_RUN) +
                          " -a -s '-screen 0 1280x720x24'");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "/no/such/file.pod: cannot read the file: No such file or directory\n");
    int w = 0, h = 0;
    std::vector<uint8_t> rgba;
    ASSERT_TRUE(loadPng(png, w, h, rgba)) << "the window was drawn and saved";
    size_t red = 0;
    for (int y = h / 2; y < h; ++y)
        for (int x = w / 4; x < 3 * w / 4; ++x) {
            const uint8_t* p = &rgba[(size_t(y) * w + x) * 4];
            red += p[0] > 60 && p[0] > 2 * p[1] && p[0] > 2 * p[2];
        }
    EXPECT_GT(red, size_t(w / 2) * (h / 2) / 25) << "no error banner in the lower middle";
}

TEST(Cli, ViewerWindowUnderXvfbShowsSceneAndPanel) {
    if (std::string(XVFB_RUN).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "Xvfb not installed";
    auto png = esv::test::outputDir() / "cli_viewer_window.png";
    std::filesystem::remove(png);
    // A private settings folder: the user's recent files and layout must not change what the test sees.
    const auto config = esv::test::outputDir() / "cli_viewer_config";
    std::filesystem::remove_all(config);
    std::filesystem::create_directories(config);
    RunResult r = run("demo --frames 6 --screenshot '" + png.string() + "'",
                      "ESVIEW_CONFIG_DIR='" + config.string() + "' " + std::string(XVFB_RUN) +
                          " -a -s '-screen 0 1280x720x24'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    int w = 0, h = 0;
    std::vector<uint8_t> rgba;
    ASSERT_TRUE(loadPng(png, w, h, rgba));
    ASSERT_EQ(w, 1280);
    ASSERT_EQ(h, 720);
    // Background colour from the bottom left corner of the 3D view (between the scene tree on the
    // left and the status bar); the panels sit at the sides, the scene in the middle.
    const size_t corner = (size_t(h - 40) * w + 240) * 4;
    const uint8_t background[3] = {rgba[corner], rgba[corner + 1], rgba[corner + 2]};
    EXPECT_GT(fractionDifferent(rgba, w, 15, 15, 300, 120, background), 0.5) << "no panel at the top left";
    EXPECT_GT(fractionDifferent(rgba, w, w / 2 - 150, h / 2 - 150, w / 2 + 150, h / 2 + 150, background), 0.05)
        << "no scene in the middle";
}

}  // namespace

// --texture-path: a model whose texture lives in another folder finds it there (info says where,
// and render draws what it draws with the texture beside the model); without it the texture is
// missing and drawn grey.
TEST(Cli, TexturePathFindsTexturesInAnotherFolder) {
    ESVIEW_REQUIRE_MODELS("pod/cocos3d");
    const std::filesystem::path root = esv::test::outputDir() / "texture_path";
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root / "model");
    std::filesystem::create_directories(root / "maps");
    const std::filesystem::path shared = esv::test::modelsDir() / "pod/cocos3d";
    std::filesystem::copy_file(shared / "cocos3d_mallet.pod", root / "model/mallet.pod");
    std::filesystem::copy_file(shared / "mallet.png", root / "maps/mallet.png");
    const std::string model = "'" + (root / "model/mallet.pod").string() + "'";
    const std::string maps = " --texture-path '" + (root / "maps").string() + "'";

    RunResult missing = run("info " + model + " --json");
    ASSERT_EQ(missing.exitCode, 0) << missing.err;
    EXPECT_TRUE(nlohmann::json::parse(missing.out)["texture_files"][0]["missing"].get<bool>());
    RunResult found = run("info " + model + " --json" + maps);
    ASSERT_EQ(found.exitCode, 0) << found.err;
    const nlohmann::json texture = nlohmann::json::parse(found.out)["texture_files"][0];
    EXPECT_FALSE(texture["missing"].get<bool>());
    EXPECT_EQ(std::filesystem::path(texture["resolved"].get<std::string>()), root / "maps/mallet.png");

    auto render = [&](const std::string& file, const std::string& options, const char* name) {
        const std::filesystem::path png = root / name;
        RunResult r = run("render " + file + " -o '" + png.string() + "' --size 160x120" + options);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        int w = 0, h = 0;
        std::vector<uint8_t> rgba;
        EXPECT_TRUE(loadPng(png, w, h, rgba));
        return rgba;
    };
    const std::vector<uint8_t> beside = render("'" + (shared / "cocos3d_mallet.pod").string() + "'", "", "beside.png");
    const std::vector<uint8_t> searched = render(model, maps, "searched.png");
    const std::vector<uint8_t> grey = render(model, "", "grey.png");
    ASSERT_FALSE(beside.empty());
    EXPECT_EQ(searched, beside) << "the texture found through --texture-path draws as if it were beside the model";
    EXPECT_NE(grey, beside);
    EXPECT_EQ(run("render " + model + " -o '" + (root / "x.png").string() + "' --texture-path /no/such/folder").exitCode,
              2);
}

// --lighting picks the file's lights, the studio rig or both (the default); --missing-texture grey
// or checker; other words are usage errors.
TEST(Cli, RenderLightingAndMissingTextureOptions) {
    const std::filesystem::path dir = esv::test::outputDir();
    auto render = [&](const std::string& options, const char* name) {
        const std::filesystem::path png = dir / name;
        RunResult r = run("render demo -o '" + png.string() + "' --size 120x90 --time 0.5" + options);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        int w = 0, h = 0;
        std::vector<uint8_t> rgba;
        EXPECT_TRUE(loadPng(png, w, h, rgba));
        return rgba;
    };
    const std::vector<uint8_t> standard = render("", "cli_lighting_default.png");
    EXPECT_EQ(render(" --lighting both", "cli_lighting_both.png"), standard);
    EXPECT_NE(render(" --lighting file", "cli_lighting_file.png"), standard);
    EXPECT_NE(render(" --lighting studio", "cli_lighting_studio.png"), standard);
    EXPECT_EQ(render(" --missing-texture checker", "cli_missing_checker.png"), standard) << "the demo has no missing texture";
    EXPECT_EQ(run("render demo -o '" + (dir / "x.png").string() + "' --lighting sun").exitCode, 2);
    EXPECT_EQ(run("render demo -o '" + (dir / "x.png").string() + "' --missing-texture pink").exitCode, 2);
}
