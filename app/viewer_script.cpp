#include "app/viewer_script.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/scene_loader.h"
#include "app/viewer_actions.h"

namespace esv {
namespace {

enum class Arg { Text, Number, Integer, OnOff, Size };

struct CommandSpec {
    const char* name;
    const char* usage;
    int minArgs, maxArgs;  // maxArgs -1 = any
    std::vector<Arg> kinds;  // per argument (the last repeats); Text accepts anything
};

// The command set. Kept in one table so parsing, help and the README agree.
const std::vector<CommandSpec>& commandSpecs() {
    static const std::vector<CommandSpec> specs = {
        {"open", "open PATH                  load a file (or 'demo'); waits until it is loaded", 1, 1, {Arg::Text}},
        {"reload", "reload                     load the current file again, keeping camera, clip and time", 0, 0, {}},
        {"clip", "clip NAME|INDEX            select an animation clip ('rest' for the rest pose)", 1, 1, {Arg::Text}},
        {"time", "time SECONDS               seek within the clip", 1, 1, {Arg::Number}},
        {"frame", "frame N                    seek to frame N at the clip's frame rate", 1, 1, {Arg::Number}},
        {"play", "play                       play forwards", 0, 0, {}},
        {"reverse", "reverse                    play backwards", 0, 0, {}},
        {"pause", "pause                      pause", 0, 0, {}},
        {"speed", "speed X                    playback rate (negative plays backwards)", 1, 1, {Arg::Number}},
        {"loop", "loop loop|once|pingpong    what happens at the ends of the clip", 1, 1, {Arg::Text}},
        {"step", "step N                     step N frames (negative: back) and pause", 1, 1, {Arg::Integer}},
        {"key", "key N                      step N keys (negative: back) and pause", 1, 1, {Arg::Integer}},
        {"start", "start                      jump to the clip's start", 0, 0, {}},
        {"end", "end                        jump to the clip's end", 0, 0, {}},
        {"blend", "blend CLIP WEIGHT | off    blend a second clip over the current one", 1, 2, {Arg::Text, Arg::Number}},
        {"mode", "mode NAME                  shaded|wireframe|normals|weights|batches|uv|unlit|colors|skindiff", 1, 1, {Arg::Text}},
        {"select", "select NODE|none           select a node by name or index (joints show their influences)", 1, 1, {Arg::Text}},
        {"click", "click X Y                  pick in the viewport at window pixel X, Y", 2, 2, {Arg::Number, Arg::Number}},
        {"morph", "morph INDEX WEIGHT|anim    override a morph target weight of the selected (or first morphed) mesh", 2, 2, {Arg::Integer, Arg::Text}},
        {"camera", "camera INDEX|orbit         look through a file camera or the orbit camera", 1, 1, {Arg::Text}},
        {"orbit", "orbit YAW PITCH [DISTANCE]  orbit camera angles in degrees (distance in scene units)", 2, 3, {Arg::Number}},
        {"zoom", "zoom FACTOR                multiply the orbit distance", 1, 1, {Arg::Number}},
        {"fit", "fit scene|selection        frame the scene or the selected node", 1, 1, {Arg::Text}},
        {"reset", "reset                      default camera angles, scene framed", 0, 0, {}},
        {"panel", "panel NAME on|off          main|browser|tree|inspector|report|stats|skinning|pof", 2, 2, {Arg::Text, Arg::OnOff}},
        {"set", "set OPTION VALUE           skeleton, joint-axes, bind-pose, joint-names, normal-lines, tangent-lines,\n"
                "                             wireframe-overlay, two-sided, scene-lights, default-rig, headlight (on|off),\n"
                "                             gles2 on|off, fov DEGREES, background R G B (0..1)", 2, 4, {Arg::Text}},
        {"light", "light INDEX on|off         switch one of the file's lights", 2, 2, {Arg::Integer, Arg::OnOff}},
        {"press", "press KEY[+KEY] [FRAMES]   hold keys as if typed (a-z, 0-9, f1-f12, space, left, right, up, down,\n"
                  "                             home, end, pageup, pagedown, tab, escape, enter, comma, period, [, ],\n"
                  "                             plus, minus, shift, ctrl) for FRAMES frames (default 1)", 1, 2, {Arg::Text, Arg::Integer}},
        {"wait", "wait FRAMES                let frames pass", 1, 1, {Arg::Integer}},
        {"screenshot", "screenshot PATH [WxH]      save the window (panel included) or the scene offscreen at WxH", 1, 2, {Arg::Text, Arg::Size}},
        {"touch", "touch PATH                 mark a file modified (hot reload picks it up)", 1, 1, {Arg::Text}},
        {"drop", "drop PATH...               as if the files were dropped on the window", 1, -1, {Arg::Text}},
        {"browse", "browse DIR                 show the file browser at DIR", 1, 1, {Arg::Text}},
        {"pof", "pof lod N                  POF: draw detail level N (its root and descendants), hide the others\n"
                "  pof debris on|off          POF: draw the debris subobjects too\n"
                "  pof shield on|off          POF: the shield mesh as a wireframe over the view\n"
                "  pof markers KIND|all on|off  POF markers: guns, missiles, turrets, docks, thrusters, eyes,\n"
                "                             specials, glows (labels on hover)\n"
                "  pof spin SUBOBJECT DEGREES POF: turn a rotating subobject (name or number) about its movement axis",
         1, 3, {Arg::Text}},
        {"dump", "dump PATH                  write the viewer state as JSON", 1, 1, {Arg::Text}},
        {"quit", "quit                       close the viewer", 0, 0, {}},
    };
    return specs;
}

bool parseFloat(const std::string& text, float& value) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && std::isfinite(value);
}

bool parseInt(const std::string& text, int& value) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end;
}

bool parseOnOff(const std::string& text, bool& value) {
    if (text == "on" || text == "true" || text == "1") return value = true, true;
    if (text == "off" || text == "false" || text == "0") return value = false, true;
    return false;
}

bool parseSize(const std::string& text, int& w, int& h) {
    const size_t x = text.find('x');
    return x != std::string::npos && parseInt(text.substr(0, x), w) && parseInt(text.substr(x + 1), h) && w > 0 &&
           h > 0 && w <= 16384 && h <= 16384;
}

// Splits a line into words; "quoted words" keep blanks. Returns false on an unclosed quote.
bool splitWords(const std::string& line, std::vector<std::string>& words) {
    words.clear();
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i >= line.size() || line[i] == '#') break;
        std::string word;
        if (line[i] == '"') {
            const size_t close = line.find('"', i + 1);
            if (close == std::string::npos) return false;
            word = line.substr(i + 1, close - i - 1);
            i = close + 1;
        } else {
            while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) word += line[i++];
        }
        words.push_back(std::move(word));
    }
    return true;
}

// Clip by exact name, else by index; -1 when neither names one.
int findClip(const Scene& scene, const std::string& text) {
    const auto& clips = scene.animation.clips;
    for (size_t i = 0; i < clips.size(); ++i)
        if (clips[i].name == text) return int(i);
    int index;
    return parseInt(text, index) && index >= 0 && size_t(index) < clips.size() ? index : -1;
}

// The mesh node a `morph` command edits: the selection when it has targets, else the first that has.
int morphNode(const ViewerState& s) {
    const Scene& scene = *s.scene;
    auto hasTargets = [&](int n) {
        const Node& node = scene.nodes[n];
        return node.kind == NodeKind::Mesh && node.object >= 0 && !scene.meshes[node.object].morphTargets.empty();
    };
    if (s.selection.node >= 0 && hasTargets(s.selection.node)) return s.selection.node;
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (hasTargets(int(n))) return int(n);
    return -1;
}

// The `pof` subcommands' arguments, checked when the script is read. Empty when they are fine.
std::string checkPofArgs(const std::vector<std::string>& a) {
    const std::string& sub = a[0];
    float f;
    int n;
    bool b;
    PofMarkerKind kind;
    if (sub == "lod") return a.size() == 2 && parseInt(a[1], n) && n >= 0 ? "" : "expected: pof lod N (0 or more)";
    if (sub == "debris" || sub == "shield")
        return a.size() == 2 && parseOnOff(a[1], b) ? "" : "expected: pof " + sub + " on|off";
    if (sub == "markers")
        return a.size() == 3 && (a[1] == "all" || parsePofMarkerKind(a[1], kind)) && parseOnOff(a[2], b)
                   ? ""
                   : "expected: pof markers guns|missiles|turrets|docks|thrusters|eyes|specials|glows|all on|off";
    if (sub == "spin") return a.size() == 3 && parseFloat(a[2], f) ? "" : "expected: pof spin SUBOBJECT DEGREES";
    return "unknown pof command '" + sub + "' (lod, debris, shield, markers, spin)";
}

bool runPof(ViewerState& s, const std::vector<std::string>& a, std::string& error) {
    const std::string& sub = a[0];
    if (!s.scene->pof) {
        error = "the scene is not a POF model";
        return false;
    }
    bool on = false;
    if (sub == "lod") {
        int lod = 0;
        parseInt(a[1], lod);
        return setPofLod(s, lod, error);
    }
    if (sub == "debris" || sub == "shield") {
        parseOnOff(a[1], on);
        (sub == "debris" ? s.pof.debris : s.pof.shield) = on;
        updatePose(s);
        return true;
    }
    if (sub == "markers") {
        parseOnOff(a[2], on);
        PofMarkerKind kind;
        if (a[1] == "all") s.pof.markers.fill(on);
        else if (parsePofMarkerKind(a[1], kind)) s.pof.marker(kind) = on;
        return true;
    }
    if (sub == "spin") {
        const int node = findPofSubobject(*s.scene, a[1]);
        if (node < 0) {
            error = "no subobject '" + a[1] + "'";
            return false;
        }
        float degrees = 0.0f;
        parseFloat(a[2], degrees);
        return setPofSpin(s, node, degrees, error);
    }
    error = checkPofArgs(a);
    return false;
}

bool setOption(ViewerState& s, const std::vector<std::string>& args, std::string& error) {
    const std::string& option = args[0];
    ViewSettings& v = s.view;
    bool* flag = nullptr;
    if (option == "skeleton") flag = &v.showSkeleton;
    else if (option == "joint-axes") flag = &v.showJointAxes;
    else if (option == "bind-pose") flag = &v.showBindPose;
    else if (option == "joint-names") flag = &s.showJointNames;
    else if (option == "normal-lines") flag = &v.showNormalLines;
    else if (option == "tangent-lines") flag = &v.showTangentLines;
    else if (option == "wireframe-overlay") flag = &v.wireframeOverlay;
    else if (option == "two-sided") flag = &v.forceTwoSided;
    else if (option == "scene-lights") flag = &v.sceneLights;
    else if (option == "default-rig") flag = &v.defaultRig;
    else if (option == "headlight") flag = &v.headlight;
    if (flag || option == "gles2") {
        bool value = false;
        if (args.size() != 2 || !parseOnOff(args[1], value)) {
            error = "set " + option + ": expected on or off";
            return false;
        }
        if (flag) {
            *flag = value;
        } else if (s.gles2 != value) {
            s.gles2 = value;
            s.requestRecreateRenderer = true;
        }
        return true;
    }
    if (option == "fov") {
        float degrees = 0.0f;
        if (args.size() != 2 || !parseFloat(args[1], degrees) || degrees < 1.0f || degrees > 170.0f) {
            error = "set fov: expected degrees between 1 and 170";
            return false;
        }
        v.orbit.yfov = glm::radians(degrees);
        return true;
    }
    if (option == "background") {
        float rgb[3];
        if (args.size() != 4 || !parseFloat(args[1], rgb[0]) || !parseFloat(args[2], rgb[1]) || !parseFloat(args[3], rgb[2])) {
            error = "set background: expected three numbers R G B between 0 and 1";
            return false;
        }
        v.clearColor = glm::vec4(glm::clamp(glm::vec3(rgb[0], rgb[1], rgb[2]), 0.0f, 1.0f), 1.0f);
        return true;
    }
    error = "set: unknown option '" + option + "'";
    return false;
}

}  // namespace

bool parseScript(const std::string& text, const std::string& file, Script& out, std::vector<std::string>& errors) {
    out.file = file;
    out.commands.clear();
    const size_t errorsBefore = errors.size();
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> words;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::string where = file + ":" + std::to_string(number) + ": ";
        if (!splitWords(line, words)) {
            errors.push_back(where + "unclosed quote");
            continue;
        }
        if (words.empty()) continue;
        const CommandSpec* spec = nullptr;
        for (const CommandSpec& c : commandSpecs())
            if (words[0] == c.name) spec = &c;
        if (!spec) {
            errors.push_back(where + "unknown command '" + words[0] + "'");
            continue;
        }
        const int argc = int(words.size()) - 1;
        if (argc < spec->minArgs || (spec->maxArgs >= 0 && argc > spec->maxArgs)) {
            errors.push_back(where + "expected: " + spec->usage);
            continue;
        }
        bool ok = true;
        for (int i = 0; i < argc && ok; ++i) {
            const Arg kind = spec->kinds.empty() ? Arg::Text : spec->kinds[std::min<size_t>(i, spec->kinds.size() - 1)];
            const std::string& a = words[i + 1];
            float f;
            int n, w, h;
            bool b;
            switch (kind) {
                case Arg::Text: break;
                case Arg::Number: ok = parseFloat(a, f); break;
                case Arg::Integer: ok = parseInt(a, n); break;
                case Arg::OnOff: ok = parseOnOff(a, b); break;
                case Arg::Size: ok = parseSize(a, w, h); break;
            }
            if (!ok) {
                static const char* kNames[] = {"text", "a number", "an integer", "on or off", "a size WxH"};
                errors.push_back(where + words[0] + ": argument " + std::to_string(i + 1) + " '" + a + "' is not " +
                                 kNames[int(kind)]);
            }
        }
        if (!ok) continue;
        if (words[0] == "pof") {
            const std::string problem = checkPofArgs(std::vector<std::string>(words.begin() + 1, words.end()));
            if (!problem.empty()) {
                errors.push_back(where + "pof: " + problem);
                continue;
            }
        }
        ScriptCommand c;
        c.line = number;
        c.name = words[0];
        c.args.assign(words.begin() + 1, words.end());
        out.commands.push_back(std::move(c));
    }
    return errors.size() == errorsBefore;
}

bool loadScript(const std::string& path, Script& out, std::vector<std::string>& errors) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        errors.push_back(path + ": cannot read the script");
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > (size_t(1) << 20)) {
        errors.push_back(path + ": script larger than 1 MiB");
        return false;
    }
    return parseScript(text.str(), path, out, errors);
}

std::string scriptCommandHelp() {
    std::string help;
    for (const CommandSpec& c : commandSpecs()) help += std::string("  ") + c.usage + "\n";
    return help;
}

void ScriptRunner::runFrame(ViewerState& s, ScriptHost& host) {
    if (failed()) return;
    if (m_wait > 0) {
        --m_wait;
        if (m_wait > 0) return;
    }
    if (m_waitForLoad) {
        if (s.load.active || !s.requestOpen.empty() || s.requestReload) return;
        m_waitForLoad = false;
    }
    while (m_next < m_script.commands.size()) {
        const ScriptCommand& c = m_script.commands[m_next++];
        bool yield = false;
        std::string error;
        if (!execute(s, host, c, yield, error)) {
            m_error = m_script.file + ":" + std::to_string(c.line) + ": " + c.name + ": " + error;
            s.requestQuit = true;
            return;
        }
        if (yield || m_wait > 0 || m_waitForLoad) return;
    }
}

bool ScriptRunner::execute(ViewerState& s, ScriptHost& host, const ScriptCommand& c, bool& yield, std::string& error) {
    const std::string& name = c.name;
    const std::vector<std::string>& a = c.args;
    auto number = [&](size_t i) {
        float f = 0.0f;
        parseFloat(a[i], f);
        return f;
    };
    auto integer = [&](size_t i) {
        int n = 0;
        parseInt(a[i], n);
        return n;
    };
    auto onOff = [&](size_t i) {
        bool b = false;
        parseOnOff(a[i], b);
        return b;
    };

    // Commands that do not need a scene.
    if (name == "open") {
        s.requestOpen = a[0];
        m_waitForLoad = true;
        return true;
    }
    if (name == "reload") {
        s.requestReload = true;
        m_waitForLoad = true;
        return true;
    }
    if (name == "wait") {
        m_wait = std::max(0, integer(0));
        return true;
    }
    if (name == "quit") {
        s.requestQuit = true;
        yield = true;
        return true;
    }
    if (name == "screenshot") {
        s.requestScreenshot = a[0];
        s.screenshotWidth = s.screenshotHeight = 0;
        if (a.size() > 1) parseSize(a[1], s.screenshotWidth, s.screenshotHeight);
        yield = true;
        return true;
    }
    if (name == "touch") {
        std::error_code ec;
        const auto now = std::filesystem::file_time_type::clock::now();
        auto stamp = std::filesystem::last_write_time(a[0], ec);
        if (ec) {
            error = a[0] + ": " + ec.message();
            return false;
        }
        // Later than both now and the old stamp, so the change shows whatever the clock granularity.
        stamp = std::max(now, stamp + std::chrono::seconds(1));
        std::filesystem::last_write_time(a[0], stamp, ec);
        if (ec) {
            error = a[0] + ": " + ec.message();
            return false;
        }
        return true;
    }
    if (name == "drop") {
        host.drop(a);
        m_waitForLoad = true;
        return true;
    }
    if (name == "browse") return host.browse(a[0], error);
    if (name == "press") {
        const int frames = a.size() > 1 ? std::max(1, integer(1)) : 1;
        if (!host.press || !host.press(a[0], frames, error)) {
            if (error.empty()) error = "no keyboard";
            return false;
        }
        // The keys are read at the start of the next frames; what follows runs after them.
        m_wait = frames;
        return true;
    }
    if (name == "panel") {
        PanelId id;
        if (!parsePanelName(a[0], id)) {
            error = "unknown panel '" + a[0] + "' (main, browser, tree, inspector, report, stats, skinning, pof)";
            return false;
        }
        s.panel(id) = onOff(1);
        return true;
    }
    if (name == "dump") {
        std::ofstream out(a[0], std::ios::trunc);
        out << viewerStateJson(s) << "\n";
        if (!out) {
            error = "cannot write " + a[0];
            return false;
        }
        return true;
    }
    if (name == "set") return setOption(s, a, error);
    if (name == "mode") {
        if (!parseViewMode(a[0].c_str(), s.view.mode)) {
            error = "unknown mode '" + a[0] + "'";
            return false;
        }
        return true;
    }

    if (!s.scene) {
        error = "no scene is open";
        return false;
    }
    const Scene& scene = *s.scene;
    Transport& t = s.transport;
    if (name == "clip") {
        const int clip = findClip(scene, a[0]);
        if (clip < 0 && a[0] == "rest") {
            selectClip(scene, t, -1);
            return true;
        }
        if (clip < 0) {
            error = "no clip '" + a[0] + "' (" + std::to_string(scene.animation.clips.size()) + " clips)";
            return false;
        }
        selectClip(scene, t, clip);
        return true;
    }
    if (name == "time") {
        seekTransport(scene, t, number(0));
        return true;
    }
    if (name == "frame") {
        seekTransport(scene, t, number(0) / transportFrameRate(scene, t.clip));
        return true;
    }
    if (name == "play" || name == "reverse") {
        t.playing = true;
        t.direction = 1;
        t.speed = (name == "play" ? 1.0f : -1.0f) * std::abs(t.speed == 0.0f ? 1.0f : t.speed);
        return true;
    }
    if (name == "pause") {
        t.playing = false;
        return true;
    }
    if (name == "speed") {
        t.speed = number(0);
        return true;
    }
    if (name == "loop") {
        if (a[0] == "loop") t.loop = LoopMode::Loop;
        else if (a[0] == "once") t.loop = LoopMode::Once;
        else if (a[0] == "pingpong") t.loop = LoopMode::PingPong;
        else {
            error = "expected loop, once or pingpong";
            return false;
        }
        return true;
    }
    if (name == "step") {
        stepFrames(scene, t, integer(0));
        return true;
    }
    if (name == "key") {
        stepKeys(scene, t, integer(0));
        return true;
    }
    if (name == "start") {
        jumpToStart(scene, t);
        return true;
    }
    if (name == "end") {
        jumpToEnd(scene, t);
        return true;
    }
    if (name == "blend") {
        if (a[0] == "off") {
            t.blendClip = -1;
            t.blendWeight = 0.0f;
            return true;
        }
        if (a.size() != 2) {
            error = "expected: blend CLIP WEIGHT | off";
            return false;
        }
        const int clip = findClip(scene, a[0]);
        if (clip < 0) {
            error = "no clip '" + a[0] + "'";
            return false;
        }
        t.blendClip = clip;
        t.blendTime = 0.0f;
        t.blendWeight = std::clamp(number(1), 0.0f, 1.0f);
        return true;
    }
    if (name == "select") {
        if (a[0] == "none") {
            selectNode(s, -1);
            return true;
        }
        const int node = findNode(scene, a[0]);
        if (node < 0) {
            error = "no node named '" + a[0] + "'";
            return false;
        }
        selectNode(s, node);
        return true;
    }
    if (name == "click") {
        updatePose(s);
        selectNode(s, pickAt(s, number(0), number(1)));
        return true;
    }
    if (name == "morph") {
        const int node = morphNode(s);
        if (node < 0) {
            error = "no mesh in the scene has morph targets";
            return false;
        }
        const int target = integer(0);
        const size_t targets = scene.meshes[scene.nodes[node].object].morphTargets.size();
        if (target < 0 || size_t(target) >= targets) {
            error = "target " + a[0] + " out of range (mesh '" + scene.nodes[node].name + "' has " +
                    std::to_string(targets) + ")";
            return false;
        }
        float weight;
        if (a[1] == "anim") {
            weight = std::nanf("");
        } else if (!parseFloat(a[1], weight)) {
            error = "expected a weight or 'anim'";
            return false;
        }
        setMorphOverride(s, node, target, weight);
        return true;
    }
    if (name == "camera") {
        if (a[0] == "orbit") {
            s.view.camera = -1;
            return true;
        }
        int index;
        if (!parseInt(a[0], index) || index < 0 || size_t(index) >= scene.cameras.size()) {
            error = "no camera '" + a[0] + "' (" + std::to_string(scene.cameras.size()) + " cameras)";
            return false;
        }
        s.view.camera = index;
        return true;
    }
    if (name == "orbit") {
        s.view.camera = -1;
        s.view.orbit.yaw = glm::radians(number(0));
        s.view.orbit.pitch = glm::clamp(glm::radians(number(1)), -1.55f, 1.55f);
        if (a.size() > 2) s.view.orbit.distance = std::max(number(2), 1e-4f);
        return true;
    }
    if (name == "zoom") {
        if (number(0) <= 0.0f) {
            error = "factor must be positive";
            return false;
        }
        s.view.orbit.distance = std::max(s.view.orbit.distance * number(0), 1e-4f);
        return true;
    }
    if (name == "fit") {
        if (a[0] == "scene") frameScene(s);
        else if (a[0] == "selection") frameSelection(s);
        else {
            error = "expected scene or selection";
            return false;
        }
        return true;
    }
    if (name == "reset") {
        resetView(s);
        return true;
    }
    if (name == "pof") return runPof(s, a, error);
    if (name == "light") {
        const int index = integer(0);
        if (index < 0 || size_t(index) >= scene.lights.size()) {
            error = "no light " + a[0] + " (" + std::to_string(scene.lights.size()) + " lights)";
            return false;
        }
        s.scene->lights[index].enabled = onOff(1);
        return true;
    }
    error = "not available";
    return false;
}

namespace {

// The POF view: what is drawn, the toggles, the spins, and per marker kind the count shown and where
// the first one lands on the framebuffer (pixels, y down; null when off screen).
nlohmann::json pofStateJson(const ViewerState& s) {
    const Scene& scene = *s.scene;
    const PofExtras& pof = *scene.pof;
    nlohmann::json j;
    j["lod"] = s.pof.lod;
    j["detail_levels"] = pof.detailLevels.size();
    j["debris"] = s.pof.debris;
    j["shield"] = s.pof.shield;
    j["clock"] = s.pof.clockSeconds;
    nlohmann::json visible = nlohmann::json::array();
    for (size_t n = 0; n < s.pose.visible.size() && n < scene.nodes.size(); ++n)
        if (s.pose.visible[n]) visible.push_back(scene.nodes[n].name);
    j["visible_nodes"] = visible;
    nlohmann::json spins = nlohmann::json::object();
    for (size_t n = 0; n < s.pof.spinDegrees.size() && n < scene.nodes.size(); ++n)
        if (s.pof.spinDegrees[n] != 0.0f) spins[scene.nodes[n].name] = s.pof.spinDegrees[n];
    j["spin"] = spins;
    std::vector<PofMarker> markers;
    std::vector<PofPolyline> lines;
    pofMarkers(scene, s.pose, s.pof, false, markers, lines);
    nlohmann::json kinds = nlohmann::json::object();
    for (size_t k = 0; k < size_t(PofMarkerKind::Count); ++k) {
        nlohmann::json entry;
        entry["on"] = s.pof.markers[k];
        int count = 0, lit = 0;
        nlohmann::json first = nullptr;
        for (const PofMarker& m : markers) {
            if (size_t(m.kind) != k) continue;
            ++count;
            lit += m.lit ? 1 : 0;
            glm::vec2 p;
            if (first.is_null() && projectToScreen(s, m.position, p))
                first = {{"label", m.label}, {"x", p.x}, {"y", p.y}, {"position", {m.position.x, m.position.y, m.position.z}}};
        }
        entry["shown"] = count;
        entry["lit"] = lit;
        entry["first"] = first;
        kinds[pofMarkerKindName(PofMarkerKind(k))] = entry;
    }
    j["markers"] = kinds;
    j["path_lines"] = lines.size();
    return j;
}

}  // namespace

std::string viewerStateJson(const ViewerState& s) {
    nlohmann::json j;
    j["path"] = s.path;
    j["loads"] = s.loadsCompleted;
    j["loading"] = s.load.active;
    j["load_error"] = s.load.error;
    j["status"] = s.status;
    j["gles2"] = s.gles2;
    // Whether the keyboard goes to a panel (ImGui navigation) rather than the viewport.
    j["keyboard_to_panel"] = ImGui::GetCurrentContext() != nullptr && ImGui::GetIO().WantCaptureKeyboard;
    j["skeleton"] = s.view.showSkeleton;
    j["wireframe_overlay"] = s.view.wireframeOverlay;
    j["mode"] = viewModeName(s.view.mode);
    j["camera"] = s.view.camera;
    j["orbit"] = {{"yaw_deg", glm::degrees(s.view.orbit.yaw)},
                  {"pitch_deg", glm::degrees(s.view.orbit.pitch)},
                  {"distance", s.view.orbit.distance},
                  {"fov_deg", glm::degrees(s.view.orbit.yfov)},
                  {"target", {s.view.orbit.target.x, s.view.orbit.target.y, s.view.orbit.target.z}}};
    nlohmann::json panels;
    for (size_t i = 0; i < size_t(PanelId::Count); ++i) panels[panelName(PanelId(i))] = s.panels[i];
    j["panels"] = panels;
    j["recent"] = s.recentFiles;
    if (s.scene) {
        const Scene& scene = *s.scene;
        j["format"] = scene.format;
        j["nodes"] = scene.nodes.size();
        const Transport& t = s.transport;
        j["clip"] = t.clip >= 0 ? nlohmann::json(scene.animation.clips[t.clip].name) : nlohmann::json(nullptr);
        j["clip_index"] = t.clip;
        j["time"] = t.time;
        j["frame"] = transportFrame(scene, t);
        j["playing"] = t.playing;
        j["speed"] = t.speed;
        j["loop"] = loopModeName(t.loop);
        j["selected"] = s.selection.node >= 0 ? nlohmann::json(scene.nodes[s.selection.node].name) : nlohmann::json(nullptr);
        j["selected_index"] = s.selection.node;
        j["joint"] = s.selection.joint;
        nlohmann::json morphs = nlohmann::json::object();
        for (size_t n = 0; n < s.pose.morphWeights.size(); ++n)
            if (!s.pose.morphWeights[n].empty()) morphs[scene.nodes[n].name] = s.pose.morphWeights[n];
        j["morph_weights"] = morphs;
        j["draw_calls"] = s.stats.drawCalls;
        j["triangles"] = s.stats.triangles;
        j["lights_enabled"] = nlohmann::json::array();
        for (const Light& l : scene.lights) j["lights_enabled"].push_back(l.enabled);
        if (scene.pof) j["pof"] = pofStateJson(s);
    }
    return j.dump(2);
}

}  // namespace esv
