// Viewer scripts and the file browser's model: parsing (every bad line named), running commands
// against a viewer state without a window, listing folders and the recent-files list.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/viewer/file_browser.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_script.h"
#include "common/test_paths.h"
#include "loaders/format_table.h"
#include "scene/demo_scene.h"

namespace {

using esv::Script;
using esv::ScriptRunner;

TEST(ViewerScript, ParsesCommandsWithLineNumbersQuotesAndComments) {
    Script script;
    std::vector<std::string> errors;
    ASSERT_TRUE(esv::parseScript("# a capture\n\nopen \"my model.pod\"\r\nclip 0  # first clip\ntime 0.5\n"
                                 "screenshot out.png 640x480\nquit\n",
                                 "s.txt", script, errors))
        << errors[0];
    ASSERT_EQ(script.commands.size(), 5u);
    EXPECT_EQ(script.commands[0].name, "open");
    EXPECT_EQ(script.commands[0].args, std::vector<std::string>{"my model.pod"});
    EXPECT_EQ(script.commands[0].line, 3);
    EXPECT_EQ(script.commands[1].args, std::vector<std::string>{"0"});
    EXPECT_EQ(script.commands[3].args.size(), 2u);
    EXPECT_EQ(script.commands[4].line, 7);
}

TEST(ViewerScript, EveryBadLineIsAnErrorNamingFileAndLine) {
    Script script;
    std::vector<std::string> errors;
    EXPECT_FALSE(esv::parseScript("play\nexplode now\ntime soon\nwait\npanel tree maybe\nscreenshot a.png 0x5\n"
                                  "open \"unclosed\nspeed -2\n",
                                  "cap.txt", script, errors));
    ASSERT_EQ(errors.size(), 6u);
    EXPECT_EQ(errors[0], "cap.txt:2: unknown command 'explode'");
    EXPECT_EQ(errors[1], "cap.txt:3: time: argument 1 'soon' is not a number");
    EXPECT_EQ(errors[2].rfind("cap.txt:4: expected: wait FRAMES", 0), 0u) << errors[2];
    EXPECT_EQ(errors[3], "cap.txt:5: panel: argument 2 'maybe' is not on or off");
    EXPECT_EQ(errors[4], "cap.txt:6: screenshot: argument 2 '0x5' is not a size WxH");
    EXPECT_EQ(errors[5], "cap.txt:7: unclosed quote");
    // The good lines are kept (play and speed), so a caller could still report what it would run.
    ASSERT_EQ(script.commands.size(), 2u);
    EXPECT_EQ(script.commands[1].line, 8);
}

TEST(ViewerScript, MissingScriptFileIsOneError) {
    Script script;
    std::vector<std::string> errors;
    EXPECT_FALSE(esv::loadScript("/nonexistent/script.txt", script, errors));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("/nonexistent/script.txt"), std::string::npos);
}

TEST(ViewerScript, HelpListsEveryCommandOfTheIssue) {
    const std::string help = esv::scriptCommandHelp();
    for (const char* c : {"open PATH", "clip NAME|INDEX", "time SECONDS", "frame N", "play", "pause", "speed X",
                          "mode NAME", "select NODE", "morph INDEX WEIGHT", "camera INDEX|orbit", "panel NAME on|off",
                          "wait FRAMES", "screenshot PATH", "quit"})
        EXPECT_NE(help.find(c), std::string::npos) << c;
}

// The help is made from the command table: every command has one entry (a line at the margin that
// starts with its name), a usage error quotes that entry, and any other word is an unknown command.
TEST(ViewerScript, HelpHasAnEntryForEveryCommandAndUsageErrorsQuoteIt) {
    const std::string help = esv::scriptCommandHelp();
    const std::vector<std::string> names = esv::scriptCommandNames();
    const std::set<std::string> commands(names.begin(), names.end());
    EXPECT_EQ(commands.size(), names.size()) << "a command is in the table twice";
    std::set<std::string> listed;
    std::istringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        ASSERT_EQ(line.rfind("  ", 0), 0u) << line;
        if (line[2] != ' ') listed.insert(line.substr(2, line.find(' ', 2) - 2));
    }
    EXPECT_EQ(listed, commands);

    for (const std::string& name : names) {
        // Every command needs an argument or takes fewer than ten, so one of these lines is a usage error.
        Script script;
        std::vector<std::string> errors;
        if (esv::parseScript(name, "u.txt", script, errors)) {
            EXPECT_FALSE(esv::parseScript(name + " 1 2 3 4 5 6 7 8 9 10", "u.txt", script, errors)) << name;
        }
        ASSERT_EQ(errors.size(), 1u) << name;
        const std::string prefix = "u.txt:1: expected: ";
        ASSERT_EQ(errors[0].rfind(prefix + name + " ", 0), 0u) << errors[0];
        const std::string entry = errors[0].substr(prefix.size());
        EXPECT_NE(help.find("  " + entry + "\n"), std::string::npos) << entry;
    }

    Script script;
    std::vector<std::string> errors;
    EXPECT_FALSE(esv::parseScript("Open a.pod\nexplode\npof\n", "u.txt", script, errors));
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0], "u.txt:1: unknown command 'Open'");
    EXPECT_EQ(errors[1], "u.txt:2: unknown command 'explode'");
    EXPECT_EQ(errors[2].rfind("u.txt:3: expected: pof lod N", 0), 0u) << errors[2];
}

// A state with the demo scene but no renderer: commands that only edit state can run.
esv::ViewerState demoState() {
    esv::ViewerState s;
    s.scene = std::make_unique<esv::Scene>(esv::makeDemoScene());
    s.path = "demo";
    s.morphOverride.assign(s.scene->nodes.size(), {});
    esv::selectClip(*s.scene, s.transport, 0);
    esv::updatePose(s);
    return s;
}


TEST(ViewerScript, CommandsEditTheStateLikeThePanel) {
    esv::ViewerState s = demoState();
    const esv::Scene& scene = *s.scene;
    Script script;
    std::vector<std::string> errors;
    ASSERT_TRUE(esv::parseScript("pause\nframe 12\nmode weights\nset skeleton on\nset background 1 0 0\n"
                                 "panel report on\nspeed -0.5\nloop pingpong\nmorph 0 0.75\ncamera orbit\nwait 2\n"
                                 "select 3\nlight 0 off\n",
                                 "t.txt", script, errors));
    ScriptRunner runner(std::move(script));
    esv::ScriptHost host;
    runner.runFrame(s, host);  // runs up to the wait
    EXPECT_FALSE(runner.failed()) << runner.error();
    EXPECT_FALSE(runner.finished());
    EXPECT_FALSE(s.transport.playing);
    EXPECT_NEAR(s.transport.time, 12.0f / esv::transportFrameRate(scene, 0), 1e-5f);
    EXPECT_EQ(s.view.mode, esv::ViewMode::Weights);
    EXPECT_TRUE(s.view.showSkeleton);
    EXPECT_EQ(s.view.clearColor, glm::vec4(1, 0, 0, 1));
    EXPECT_TRUE(s.panel(esv::PanelId::Report));
    EXPECT_EQ(s.transport.speed, -0.5f);
    EXPECT_EQ(s.transport.loop, esv::LoopMode::PingPong);
    esv::updatePose(s);
    int morphed = -1;
    for (size_t n = 0; n < s.pose.morphWeights.size(); ++n)
        if (!s.pose.morphWeights[n].empty()) morphed = int(n);
    ASSERT_GE(morphed, 0);
    EXPECT_EQ(s.pose.morphWeights[morphed][0], 0.75f);
    runner.runFrame(s, host);  // first waited frame
    EXPECT_EQ(s.selection.node, -1);
    runner.runFrame(s, host);
    EXPECT_TRUE(runner.finished());
    EXPECT_EQ(s.selection.node, 3);
    EXPECT_EQ(s.view.highlightNode, 3);
    ASSERT_FALSE(scene.lights.empty());
    EXPECT_FALSE(s.scene->lights[0].enabled);

    // The override follows the animation again after "anim".
    ASSERT_TRUE(esv::parseScript("morph 0 anim\n", "t.txt", script, errors));
    ScriptRunner again(std::move(script));
    again.runFrame(s, host);
    esv::updatePose(s);
    esv::Pose reference;
    esv::evaluatePose(scene, 0, scene.animation.clips[0].start + s.transport.time, reference);
    EXPECT_EQ(s.pose.morphWeights[morphed][0], reference.morphWeights[morphed][0]);
}

TEST(ViewerScript, RuntimeErrorsNameTheLineAndStopTheScript) {
    esv::ViewerState s = demoState();
    Script script;
    std::vector<std::string> errors;
    ASSERT_TRUE(esv::parseScript("pause\n\nselect no_such_node\nmode unlit\n", "r.txt", script, errors));
    ScriptRunner runner(std::move(script));
    esv::ScriptHost host;
    runner.runFrame(s, host);
    ASSERT_TRUE(runner.failed());
    EXPECT_EQ(runner.error(), "r.txt:3: select: no node named 'no_such_node'");
    EXPECT_TRUE(s.requestQuit);
    EXPECT_EQ(s.view.mode, esv::ViewMode::Shaded) << "commands after the failing one must not run";

    for (const char* bad : {"clip nope", "camera 7", "morph 5 1", "mode sepia", "panel sideways on", "set glow on",
                            "light 9 on", "fit everything", "loop twice"}) {
        esv::ViewerState t = demoState();
        ASSERT_TRUE(esv::parseScript(bad, "b.txt", script, errors)) << bad;
        ScriptRunner r(std::move(script));
        r.runFrame(t, host);
        EXPECT_TRUE(r.failed()) << bad;
        EXPECT_EQ(r.error().rfind("b.txt:1: ", 0), 0u) << r.error();
    }
}

// `range` and `key`'s node: what a script line may say, and what the commands do to the transport
// of the demo (one 2 s clip at 30 fps, every joint keyed on each frame).
TEST(ViewerScript, RangeAndNodeKeysEditTheTransport) {
    Script script;
    std::vector<std::string> errors;
    EXPECT_FALSE(esv::parseScript("range 0.5\nrange a 1\nrange 1 2 seconds\nrange on\nkey 1 a b\n", "r.txt",
                                  script, errors));
    ASSERT_EQ(errors.size(), 5u);
    for (size_t i = 0; i < 4; ++i)
        EXPECT_EQ(errors[i], "r.txt:" + std::to_string(i + 1) +
                                 ": range: expected: range IN OUT [frames] | in | out | off");
    EXPECT_EQ(errors[4].rfind("r.txt:5: expected: key N [NODE|selected]", 0), 0u) << errors[4];
    ASSERT_TRUE(esv::parseScript("range off\nrange in\nrange out\nrange 1 2\nrange 6 12 frames\nkey -2 3\n",
                                 "r.txt", script, errors));

    esv::ViewerState s = demoState();
    esv::ScriptHost host;
    auto run = [&](const std::string& text) {
        Script parsed;
        std::vector<std::string> problems;
        EXPECT_TRUE(esv::parseScript(text, "t.txt", parsed, problems)) << text;
        ScriptRunner runner(std::move(parsed));
        runner.runFrame(s, host);
        return runner.failed() ? runner.error() : std::string();
    };
    const esv::Transport& t = s.transport;
    EXPECT_EQ(run("range 1.5 0.25\n"), "");
    EXPECT_TRUE(t.range);
    EXPECT_EQ(t.rangeIn, 0.25f);
    EXPECT_EQ(t.rangeOut, 1.5f);
    EXPECT_EQ(run("range 6 12 frames\n"), "");
    EXPECT_FLOAT_EQ(t.rangeIn, 0.2f);
    EXPECT_FLOAT_EQ(t.rangeOut, 0.4f);
    nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
    EXPECT_EQ(j["range"]["in"].get<float>(), t.rangeIn);
    EXPECT_EQ(j["range"]["out"].get<float>(), t.rangeOut);
    EXPECT_EQ(run("time 1\nrange out\n"), "");
    EXPECT_FLOAT_EQ(t.rangeIn, 0.2f);
    EXPECT_EQ(t.rangeOut, 1.0f);
    EXPECT_EQ(run("time 0.5\nrange in\nend\n"), "");
    EXPECT_EQ(t.rangeIn, 0.5f);
    EXPECT_EQ(t.time, 1.0f) << "end: the range's out point";
    EXPECT_EQ(run("range off\n"), "");
    EXPECT_FALSE(t.range);
    EXPECT_TRUE(nlohmann::json::parse(esv::viewerStateJson(s))["range"].is_null());
    EXPECT_EQ(run("clip rest\nrange 0 1\n"), "t.txt:2: range: no clip with a duration to set a range in");
    EXPECT_EQ(run("clip rest\nrange in\n"), "t.txt:2: range: no clip with a duration to set a range in");
    EXPECT_FALSE(t.range);

    // The frame readout and the blend in the dump.
    EXPECT_EQ(run("clip 0\nframe 7\nblend wave 0.25\n"), "");
    j = nlohmann::json::parse(esv::viewerStateJson(s));
    EXPECT_EQ(j["frame_index"], 7);
    EXPECT_EQ(j["clip_fps"].get<float>(), 30.0f);
    EXPECT_EQ(j["blend"]["clip"], "wave");
    EXPECT_EQ(j["blend"]["weight"].get<float>(), 0.25f);
    EXPECT_EQ(run("blend off\n"), "");
    EXPECT_TRUE(nlohmann::json::parse(esv::viewerStateJson(s))["blend"].is_null());

    // Keys of one node: by name or index, or the selection; a node that is not there, or no selection, fails.
    EXPECT_EQ(run("key 1 nowhere\n"), "t.txt:1: key: no node named 'nowhere'");
    EXPECT_EQ(run("select none\nkey 1 selected\n"), "t.txt:2: key: no node is selected");
    const esv::Scene& scene = *s.scene;
    int node = -1;
    for (const esv::Track& track : scene.animation.clips[0].tracks)
        if (node < 0) node = track.node;
    ASSERT_GE(node, 0);
    const std::vector<float> keys = esv::clipKeyTimes(scene, 0, node);
    ASSERT_GE(keys.size(), 3u);
    EXPECT_EQ(run("time 0\nkey 2 " + std::to_string(node) + "\n"), "");
    EXPECT_EQ(t.time, keys[2]);
    EXPECT_EQ(run("select " + std::to_string(node) + "\nkey -1 selected\n"), "");
    EXPECT_EQ(t.time, keys[1]);
}

// Every option `set`'s help names (the help is made from the option table) takes a good value and
// refuses a bad one with "FILE:LINE: set: NAME: expected ...", the state untouched.
TEST(ViewerScript, EverySetOptionOfTheHelpWorks) {
    const std::string help = esv::scriptCommandHelp();
    const struct {
        const char* option;
        const char* good;
        const char* bad;
    } kCases[] = {
        {"skeleton", "on", "maybe"},       {"joint-axes", "on", "2"},        {"bind-pose", "on", "yes"},
        {"joint-names", "all", "x"},       {"normal-lines", "on", "x"},      {"tangent-lines", "on", "x"},
        {"wireframe-overlay", "on", "x"},  {"two-sided", "on", "x"},         {"headlight", "on", "x"},
        {"gles2", "on", "x"},              {"lighting", "studio", "moon"},   {"missing-texture", "checker", "red"},
        {"fov", "60", "200"},              {"background", "1 0 0", "1 0"},  {"ui-scale", "2", "9"},
        {"touch-ui", "on", "sometimes"},   {"weight-bone", "strongest", "no_such_joint"},
        {"skin-diff-range", "0.5", "-1"}, {"pick-weights", "off", "x"},
    };
    esv::ScriptHost host;
    for (const auto& c : kCases) {
        SCOPED_TRACE(c.option);
        EXPECT_NE(help.find(std::string(c.option) + " "), std::string::npos) << "the help names it";
        for (const bool good : {true, false}) {
            esv::ViewerState s = demoState();
            const esv::ViewerState before = demoState();
            Script script;
            std::vector<std::string> errors;
            const std::string line = std::string("set ") + c.option + " " + (good ? c.good : c.bad);
            ASSERT_TRUE(esv::parseScript(line, "s.txt", script, errors)) << line;
            ScriptRunner r(std::move(script));
            r.runFrame(s, host);
            EXPECT_EQ(r.failed(), !good) << line << ": " << r.error();
            if (!good) {
                EXPECT_EQ(r.error().rfind(std::string("s.txt:1: set: ") + c.option + ": expected ", 0), 0u)
                    << r.error();
                EXPECT_EQ(esv::viewerStateJson(s), esv::viewerStateJson(before)) << line;
            }
        }
    }
    EXPECT_EQ(std::size(kCases), size_t(19)) << "a case for each option";
}

TEST(ViewerScript, OpenAndScreenshotWaitForTheWindow) {
    esv::ViewerState s = demoState();
    Script script;
    std::vector<std::string> errors;
    ASSERT_TRUE(esv::parseScript("open other.pod\nscreenshot a.png 320x200\nquit\n", "o.txt", script, errors));
    ScriptRunner runner(std::move(script));
    esv::ScriptHost host;
    runner.runFrame(s, host);
    EXPECT_EQ(s.requestOpen, "other.pod");
    EXPECT_TRUE(s.requestScreenshot.empty()) << "the screenshot must wait for the load";
    // The window starts the load and clears the request; while it runs the script waits.
    s.requestOpen.clear();
    s.load.active = true;
    runner.runFrame(s, host);
    EXPECT_TRUE(s.requestScreenshot.empty());
    s.load.active = false;
    runner.runFrame(s, host);
    EXPECT_EQ(s.requestScreenshot, "a.png");
    EXPECT_EQ(s.screenshotWidth, 320);
    EXPECT_EQ(s.screenshotHeight, 200);
    EXPECT_FALSE(s.requestQuit) << "quit comes a frame after the screenshot";
    runner.runFrame(s, host);
    EXPECT_TRUE(s.requestQuit);
}

TEST(ViewerScript, StateJsonHasWhatTestsRead) {
    esv::ViewerState s = demoState();
    esv::selectNode(s, 2);
    const nlohmann::json j = nlohmann::json::parse(esv::viewerStateJson(s));
    EXPECT_EQ(j["path"], "demo");
    EXPECT_EQ(j["format"], "demo");
    EXPECT_EQ(j["clip_index"], 0);
    EXPECT_EQ(j["selected"], s.scene->nodes[2].name);
    EXPECT_EQ(j["mode"], "shaded");
    EXPECT_TRUE(j["panels"]["main"].get<bool>());
    // The layout of the last frame (none drawn here): [x, y, w, h] rectangles.
    EXPECT_EQ(j["viewport"].size(), 4u);
    EXPECT_EQ(j["menu_bar"].size(), 4u);
    EXPECT_EQ(j["status_bar"].size(), 4u);
    EXPECT_TRUE(j["panel_rects"].is_object());
    EXPECT_TRUE(j["tabs"].is_object());
}

TEST(FileBrowser, ListsFoldersFirstThenModelFilesSortedIgnoringCase) {
    namespace fs = std::filesystem;
    const fs::path dir = esv::test::outputDir() / "browser_listing";
    fs::remove_all(dir);
    fs::create_directories(dir / "zeta");
    fs::create_directories(dir / "Alpha");
    fs::create_directories(dir / ".hidden");
    for (const char* f : {"b.POD", "a.ogex", "c.awd", "d.pof", "notes.txt", "image.png", ".secret.pod"})
        std::ofstream(dir / f) << "x";
    esv::FileBrowser browser;
    ASSERT_TRUE(browser.setDirectory(dir.string())) << browser.error();
    std::vector<std::string> names;
    for (const esv::BrowserEntry& e : browser.entries()) names.push_back(e.name);
    EXPECT_EQ(names, (std::vector<std::string>{"Alpha", "zeta", "a.ogex", "b.POD", "c.awd", "d.pof"}));
    EXPECT_TRUE(browser.entries()[0].directory);
    EXPECT_EQ(browser.entries()[2].size, 1u);
    browser.showAll = true;
    browser.refresh();
    EXPECT_EQ(browser.entries().size(), 8u);
    browser.setDirectory((dir / "zeta").string());
    browser.up();
    EXPECT_EQ(fs::path(browser.directory()), dir);
    EXPECT_FALSE(browser.setDirectory((dir / "missing").string()));
    EXPECT_FALSE(browser.error().empty());
    EXPECT_EQ(fs::path(browser.directory()), dir) << "a failed change keeps the listing";
}

// The filter is the format table's: a file of every extension of every format is listed (in any
// case) and opened when dropped; the others only with showAll.
TEST(FileBrowser, ListsEveryExtensionOfTheFormatTable) {
    namespace fs = std::filesystem;
    const fs::path dir = esv::test::outputDir() / "browser_formats";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::set<std::string> expected;
    for (const esv::FormatInfo& f : esv::formats())
        for (const std::string& e : f.extensions) {
            std::string shouting = e;
            for (char& c : shouting) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            for (const std::string& name : {f.key + "_model." + e, f.key + "_LOUD." + shouting}) {
                std::ofstream(dir / name) << "x";
                expected.insert(name);
                EXPECT_TRUE(esv::isModelFileName(name)) << name;
                EXPECT_TRUE(esv::isModelFileName((dir / name).string())) << name;
            }
            std::ofstream(dir / ("backup." + e + ".bak")) << "x";
            EXPECT_FALSE(esv::isModelFileName("backup." + e + ".bak"));
        }
    std::ofstream(dir / "notes.txt") << "x";
    esv::FileBrowser browser;
    ASSERT_TRUE(browser.setDirectory(dir.string())) << browser.error();
    std::set<std::string> listed;
    for (const esv::BrowserEntry& e : browser.entries()) listed.insert(e.name);
    EXPECT_EQ(listed, expected);
    browser.showAll = true;
    browser.refresh();
    EXPECT_GT(browser.entries().size(), expected.size());
}

TEST(FileBrowser, RecentFilesMoveToTheFrontAndPersist) {
    const std::filesystem::path dir = esv::test::outputDir() / "recent_config";
    std::filesystem::remove_all(dir);
    setenv("ESVIEW_CONFIG_DIR", dir.c_str(), 1);
    std::vector<std::string> recent;
    esv::addRecentFile(recent, "/m/a.pod");
    esv::addRecentFile(recent, "/m/b.pod");
    esv::addRecentFile(recent, "/m/a.pod");
    EXPECT_EQ(recent, (std::vector<std::string>{"/m/a.pod", "/m/b.pod"}));
    for (int i = 0; i < 20; ++i) esv::addRecentFile(recent, "/m/" + std::to_string(i) + ".pod", 5);
    EXPECT_EQ(recent.size(), 5u);
    EXPECT_EQ(recent.front(), "/m/19.pod");
    esv::saveRecentFiles(recent);
    EXPECT_EQ(esv::loadRecentFiles(), recent);
    unsetenv("ESVIEW_CONFIG_DIR");
}

}  // namespace
