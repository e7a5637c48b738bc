#include "app/viewer/viewer_script.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include <fast_float/fast_float.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/viewer/legend.h"
#include "app/viewer/panels.h"
#include "app/viewer/scene_loader.h"
#include "app/viewer/viewer_actions.h"
#include "cost/cost_report.h"
#include "target/device_profiles.h"

namespace esv {
namespace {

enum class Arg { Text, Number, Integer, OnOff, Size };

// fast_float rather than std::from_chars: libc++ has no floating-point from_chars before LLVM 20, and
// the Android NDK's libc++ is older (platforms/android). Both read the same syntax, correctly rounded.
bool parseFloat(const std::string& text, float& value) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = fast_float::from_chars(text.data(), end, value);
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
    return x != std::string::npos && parseInt(text.substr(0, x), w) && parseInt(text.substr(x + 1), h) &&
           w > 0 && h > 0 && w <= 16384 && h <= 16384;
}

// "left", "shift+right": a mouse button after optional modifier keys. Empty when fine, else why not.
std::string parseButton(const std::string& text, MouseButton& button, std::vector<Key>& modifiers) {
    std::vector<Key> keys;
    std::string error;
    const size_t plus = text.rfind('+');
    const std::string name = plus == std::string::npos ? text : text.substr(plus + 1);
    if (name == "left")
        button = MouseButton::Left;
    else if (name == "right")
        button = MouseButton::Right;
    else if (name == "middle")
        button = MouseButton::Middle;
    else
        return "expected a button: left, right or middle (after shift+, ctrl+ or alt+)";
    modifiers.clear();
    if (plus == std::string::npos) return "";
    if (!parseScriptKeys(text.substr(0, plus), modifiers, error)) return error;
    for (Key k : modifiers)
        if (k != Key::LeftShift && k != Key::LeftControl && k != Key::LeftAlt)
            return "expected shift, ctrl or alt before the button";
    return "";
}

// The modifier bits of the held keys, for the events that carry them.
unsigned modifierBits(const std::vector<Key>& held) {
    unsigned mods = 0;
    for (Key k : held) {
        if (k == Key::LeftShift || k == Key::RightShift) mods |= kModShift;
        if (k == Key::LeftControl || k == Key::RightControl) mods |= kModControl;
        if (k == Key::LeftAlt || k == Key::RightAlt) mods |= kModAlt;
    }
    return mods;
}

// UTF-8 text as code points; a malformed byte stands for itself (Latin-1).
std::vector<uint32_t> codepoints(const std::string& text) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const int extra = c >= 0xF0 && c < 0xF8 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        uint32_t cp = extra == 0 ? c : c & (0x3Fu >> extra);
        bool ok = i + extra < text.size();
        for (int k = 1; ok && k <= extra; ++k) {
            const unsigned char next = static_cast<unsigned char>(text[i + k]);
            ok = (next & 0xC0) == 0x80;
            cp = (cp << 6) | (next & 0x3F);
        }
        if (!ok || (extra == 0 && c >= 0x80)) {
            out.push_back(c);
            ++i;
            continue;
        }
        out.push_back(cp);
        i += size_t(extra) + 1;
    }
    return out;
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

// `range`: off, in or out alone, or two numbers and an optional unit.
std::string checkRangeArgs(const std::vector<std::string>& a) {
    if (a.size() == 1 && (a[0] == "off" || a[0] == "in" || a[0] == "out")) return "";
    float f;
    if (a.size() < 2 || !parseFloat(a[0], f) || !parseFloat(a[1], f) || (a.size() > 2 && a[2] != "frames"))
        return "expected: range IN OUT [frames] | in | out | off";
    return "";
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
        return node.kind == NodeKind::Mesh && node.object >= 0 &&
               !scene.meshes[node.object].morphTargets.empty();
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
    if (sub == "lod")
        return a.size() == 2 && parseInt(a[1], n) && n >= 0 ? "" : "expected: pof lod N (0 or more)";
    if (sub == "debris" || sub == "shield" || sub == "xray")
        return a.size() == 2 && parseOnOff(a[1], b) ? "" : "expected: pof " + sub + " on|off";
    if (sub == "markers")
        return a.size() == 3 && (a[1] == "all" || parsePofMarkerKind(a[1], kind)) && parseOnOff(a[2], b)
                   ? ""
                   : "expected: pof markers guns|missiles|turrets|docks|thrusters|eyes|specials|glows|all "
                     "on|off";
    if (sub == "spin")
        return a.size() == 3 && parseFloat(a[2], f) ? "" : "expected: pof spin SUBOBJECT DEGREES";
    return "unknown pof command '" + sub + "' (lod, debris, shield, xray, markers, spin)";
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
    if (sub == "xray") {
        parseOnOff(a[1], s.pof.xray);
        return true;
    }
    if (sub == "markers") {
        parseOnOff(a[2], on);
        PofMarkerKind kind;
        if (a[1] == "all")
            s.pof.markers.fill(on);
        else if (parsePofMarkerKind(a[1], kind))
            s.pof.marker(kind) = on;
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

// One option of the `set` command: its name, what its values look like (the help's and the error's
// words), how many values it takes, and what it does with them. `apply` returns false when the
// values are not what `expected` says (or, with `error` set, for another reason). The runner puts
// "FILE:LINE: set: " before the error: "s.txt:3: set: fov: expected degrees between 1 and 170".
struct SetOption {
    const char* name;
    const char* values;    // for the help: "on|off", "R G B (0..1)"
    const char* expected;  // for the error: "set NAME: expected ..."
    size_t count;          // values after the name
    bool (*apply)(ViewerState& s, const std::vector<std::string>& values, std::string& error);
};

// An on|off option that sets the flag `field` of the state.
template <bool ViewerState::*Field>
bool stateSwitch(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    return parseOnOff(v[0], s.*Field);
}
template <bool ViewSettings::*Field>
bool viewSwitch(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    return parseOnOff(v[0], s.view.*Field);
}

bool setGles2(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    bool value = false;
    if (!parseOnOff(v[0], value)) return false;
    if (s.gles2 != value) {
        s.gles2 = value;
        s.requestRecreateRenderer = true;  // the renderer is made again for the other profile
    }
    return true;
}

// The Weights view's joint, or "strongest": each vertex's largest weight.
bool setWeightBone(ViewerState& s, const std::vector<std::string>& v, std::string& error) {
    if (!s.scene) {
        error = "weight-bone: no scene is open";
        return false;
    }
    if (v[0] == "strongest") {
        s.view.weightBone = -1;
        return true;
    }
    const int node = findNode(*s.scene, v[0]);
    if (node < 0 || !isJoint(*s.scene, node)) return false;
    s.view.weightBone = node;
    return true;
}

// Joint names over the 3D view: the selected and hovered joint's (on), every joint's (all), none.
bool setJointNames(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    if (v[0] == "all") {
        s.showJointNames = s.allJointNames = true;
        return true;
    }
    bool on = false;
    if (!parseOnOff(v[0], on)) return false;
    s.showJointNames = on;
    s.allJointNames = false;
    return true;
}

// A number within [low, high] (NaN never is) into `out`.
bool numberWithin(const std::string& text, float low, float high, float& out) {
    float value = 0.0f;
    if (!parseFloat(text, value) || !(value >= low && value <= high)) return false;
    out = value;
    return true;
}

bool setFov(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    float degrees = 0.0f;
    if (!numberWithin(v[0], 1.0f, 170.0f, degrees)) return false;
    s.view.orbit.yfov = glm::radians(degrees);
    return true;
}

bool setTouchUi(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    static const std::pair<const char*, TouchUi> kModes[] = {
        {"auto", TouchUi::Auto}, {"on", TouchUi::On}, {"off", TouchUi::Off}};
    for (const auto& [name, mode] : kModes)
        if (v[0] == name) {
            s.touchUi = mode;
            return true;
        }
    return false;
}

// The Cost panel's device (not the renderer's: that is --device).
bool setCostDevice(ViewerState& s, const std::vector<std::string>& v, std::string& error) {
    const DeviceProfile* device = findDevice(v[0]);
    if (!device) {
        error = "cost-device: unknown device '" + v[0] + "' (the devices: " + deviceNameList() + ")";
        return false;
    }
    s.cost.device = device->name;
    return true;
}

bool setBackground(ViewerState& s, const std::vector<std::string>& v, std::string&) {
    float rgb[3];
    for (int i = 0; i < 3; ++i)
        if (!parseFloat(v[size_t(i)], rgb[i])) return false;
    s.view.clearColor = glm::vec4(glm::clamp(glm::vec3(rgb[0], rgb[1], rgb[2]), 0.0f, 1.0f), 1.0f);
    return true;
}

// The `set` command's options, in the order its help lists them.
const std::vector<SetOption>& setOptions() {
    static const std::vector<SetOption> kOptions = {
        {"skeleton", "on|off", "on or off", 1, viewSwitch<&ViewSettings::showSkeleton>},
        {"joint-axes", "on|off", "on or off", 1, viewSwitch<&ViewSettings::showJointAxes>},
        {"bind-pose", "on|off", "on or off", 1, viewSwitch<&ViewSettings::showBindPose>},
        {"joint-names", "on|off|all", "on, off or all", 1, setJointNames},
        {"pick-weights", "on|off", "on or off", 1, stateSwitch<&ViewerState::weightsOnJointPick>},
        {"normal-lines", "on|off", "on or off", 1, viewSwitch<&ViewSettings::showNormalLines>},
        {"tangent-lines", "on|off", "on or off", 1, viewSwitch<&ViewSettings::showTangentLines>},
        {"wireframe-overlay", "on|off", "on or off", 1, viewSwitch<&ViewSettings::wireframeOverlay>},
        {"two-sided", "on|off", "on or off", 1, viewSwitch<&ViewSettings::forceTwoSided>},
        {"headlight", "on|off", "on or off", 1, viewSwitch<&ViewSettings::headlight>},
        {"gles2", "on|off", "on or off", 1, setGles2},
        {"lighting", "file|studio|both", "file, studio or both", 1,
         [](ViewerState& s, const std::vector<std::string>& v, std::string&) {
             return parseLighting(v[0].c_str(), s.view.lighting);
         }},
        {"missing-texture", "grey|checker", "grey or checker", 1,
         [](ViewerState& s, const std::vector<std::string>& v, std::string&) {
             return parseMissingTexture(v[0].c_str(), s.view.missingTexture);
         }},
        {"fov", "DEGREES", "degrees between 1 and 170", 1, setFov},
        {"background", "R G B (0..1)", "three numbers R G B between 0 and 1", 3, setBackground},
        {"ui-scale", "0.5..3", "a scale between 0.5 and 3", 1,
         [](ViewerState& s, const std::vector<std::string>& v, std::string&) {
             return numberWithin(v[0], kUiScaleMin, kUiScaleMax, s.uiScale);
         }},
        {"touch-ui", "auto|on|off", "auto, on or off", 1, setTouchUi},
        {"cost-device", "NAME", "a device profile's name", 1, setCostDevice},
        {"weight-bone", "JOINT|strongest", "a joint's name or index, or strongest", 1, setWeightBone},
        {"skin-diff-range", "UNITS (0: auto)", "model units, 0 or more (0: 1e-3 of the box diagonal)", 1,
         [](ViewerState& s, const std::vector<std::string>& v, std::string&) {
             return numberWithin(v[0], 0.0f, std::numeric_limits<float>::max(), s.view.skinDiffRange);
         }},
    };
    return kOptions;
}

// `set`'s help: the options and their values, wrapped under the command's column.
const char* setOptionsHelp() {
    static const std::string kHelp = [] {
        std::string help, line;
        for (const SetOption& o : setOptions()) {
            const std::string item = std::string(o.name) + " " + o.values;
            if (!line.empty() && line.size() + 2 + item.size() > 70) {
                help += line + ",\n                             ";
                line.clear();
            }
            line += (line.empty() ? "" : ", ") + item;
        }
        return help + line;
    }();
    return kHelp.c_str();
}

bool setOption(ViewerState& s, const std::vector<std::string>& args, std::string& error) {
    const std::string& name = args[0];
    for (const SetOption& o : setOptions()) {
        if (name != o.name) continue;
        const std::vector<std::string> values(args.begin() + 1, args.end());
        error.clear();
        if (values.size() == o.count && o.apply(s, values, error)) return true;
        if (error.empty()) error = name + ": expected " + o.expected;
        return false;
    }
    error = "unknown option '" + name + "'";
    return false;
}

// What a command's handler works on: the viewer, the window, the command's arguments (already
// checked against the command's argument kinds when the script was read) and the runner's pacing.
struct CommandContext {
    ViewerState& s;
    ScriptHost& host;
    const std::vector<std::string>& a;
    std::string& error;
    int& wait;          // frames to let pass before the next command
    bool& waitForLoad;  // the next command waits until the load this one started is done
    bool& yield;        // the next command waits a frame
    bool ok = true;     // false when the command failed, with the reason in error

    float number(size_t i) const {
        float f = 0.0f;
        parseFloat(a[i], f);
        return f;
    }
    int integer(size_t i) const {
        int n = 0;
        parseInt(a[i], n);
        return n;
    }
    bool onOff(size_t i) const {
        bool b = false;
        parseOnOff(a[i], b);
        return b;
    }
    const Scene& scene() const { return *s.scene; }
    Transport& transport() const { return s.transport; }
    // Hands input events to the window frame by frame; what follows runs once all have arrived.
    void queueInput(std::vector<std::vector<Event>> batches) {
        if (!host.input) return fail("no input");
        wait = int(batches.size());
        host.input(std::move(batches));
    }
    void fail(std::string message) {
        error = std::move(message);
        ok = false;
    }
};

enum class Needs { Nothing, Scene };  // a command that needs a scene fails while none is open

// Runs a command; on failure clears the context's ok and says why in its error.
using Handler = void (*)(CommandContext&);
// Checks a command's arguments when the script is read: empty when they are fine, else what is wrong.
using Check = std::string (*)(const std::vector<std::string>&);

struct CommandSpec {
    const char* name;
    const char* args;        // argument synopsis for the help and usage errors ("" when there are none)
    const char* help;        // what it does; further lines after '\n', printed as they are
    int minArgs, maxArgs;    // maxArgs -1 = any
    std::vector<Arg> kinds;  // per argument (the last repeats); Text accepts anything
    Needs needs;
    Handler run;
    Check check;  // nullptr, or a further check of the arguments when the script is read
};

CommandSpec command(const char* name, const char* args, const char* help, int minArgs, int maxArgs,
                    std::vector<Arg> kinds, Needs needs, Handler run, Check check = nullptr) {
    return {name, args, help, minArgs, maxArgs, std::move(kinds), needs, run, check};
}

void play(Transport& t, float direction) {
    t.playing = true;
    t.direction = 1;
    t.speed = direction * std::abs(t.speed == 0.0f ? 1.0f : t.speed);
}

// Files: open, reload, and the model compared beside it.
std::vector<CommandSpec> fileCommands() {
    return {
        command("open", "PATH", "load a file (or 'demo'); waits until it is loaded", 1, 1, {Arg::Text},
                Needs::Nothing,
                [](CommandContext& c) {
                    c.s.requestOpen = c.a[0];
                    c.waitForLoad = true;
                }),
        command("reload", "", "load the current file again, keeping camera, clip and time", 0, 0, {},
                Needs::Nothing,
                [](CommandContext& c) {
                    c.s.requestReload = true;
                    c.waitForLoad = true;
                }),
        command("compare", "PATH|off",
                // clang-format off
                "open PATH as B beside the open model (File > Compare with...), one camera, A's time, the\n"
                "                             selection by name; waits until it is loaded. 'off' closes B (so does Esc)",
                // clang-format on
                1, 1, {Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    if (c.a[0] != "off") {
                        c.s.compare.requestOpen = c.a[0];
                        c.waitForLoad = true;
                        return;
                    }
                    if (!c.s.compare.active() && !c.s.compare.loading) return c.fail("no model is compared");
                    c.s.compare.requestClose = true;
                    c.wait = 1;  // closed at the start of the next frame; what follows runs after it
                }),
        command("compare-mode", "split|side|diff",
                // clang-format off
                "how A and B are shown: split at a divider, side by side, or the difference picture\n"
                "                             of `esview compare -o` with the golden rule's figures",
                // clang-format on
                1, 1, {Arg::Text}, Needs::Nothing,
                [](CommandContext& c) { parseCompareMode(c.a[0], c.s.compare.mode); },
                [](const std::vector<std::string>& a) {
                    CompareMode mode;
                    return parseCompareMode(a[0], mode) ? std::string() : std::string("expected split, side or diff");
                }),
        command("compare-divider", "F", "split view: the divider's place across the 3D view, 0 (left) to 1 (right)",
                1, 1, {Arg::Number}, Needs::Nothing,
                [](CommandContext& c) { c.s.compare.divider = c.number(0); },
                [](const std::vector<std::string>& a) {
                    float f = 0.0f;
                    return numberWithin(a[0], 0.0f, 1.0f, f) ? std::string() : std::string("expected a number from 0 to 1");
                }),
    };
}

// The animation transport: clip, time, play, loop, steps, keys, blend, play range.
std::vector<CommandSpec> animationCommands() {
    return {
        command("clip", "NAME|INDEX", "select an animation clip ('rest' for the rest pose)", 1, 1,
                {Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    const int clip = findClip(c.scene(), c.a[0]);
                    if (clip < 0 && c.a[0] == "rest") {
                        switchClip(c.s, -1);
                        return;
                    }
                    if (clip < 0)
                        return c.fail("no clip '" + c.a[0] + "' (" +
                                      std::to_string(c.scene().animation.clips.size()) + " clips)");
                    switchClip(c.s, clip);
                }),
        command("time", "SECONDS", "seek within the clip", 1, 1, {Arg::Number}, Needs::Scene,
                [](CommandContext& c) { seekTransport(c.scene(), c.transport(), c.number(0)); }),
        command("frame", "N", "seek to frame N at the clip's frame rate", 1, 1, {Arg::Number}, Needs::Scene,
                [](CommandContext& c) {
                    seekTransport(c.scene(), c.transport(),
                                  c.number(0) / transportFrameRate(c.scene(), c.transport().clip));
                }),
        command("play", "", "play forwards", 0, 0, {}, Needs::Scene,
                [](CommandContext& c) { play(c.transport(), 1.0f); }),
        command("reverse", "", "play backwards", 0, 0, {}, Needs::Scene,
                [](CommandContext& c) { play(c.transport(), -1.0f); }),
        command("pause", "", "pause", 0, 0, {}, Needs::Scene,
                [](CommandContext& c) { c.transport().playing = false; }),
        command("speed", "X", "playback rate (negative plays backwards)", 1, 1, {Arg::Number}, Needs::Scene,
                [](CommandContext& c) { c.transport().speed = c.number(0); }),
        command("loop", "loop|once|pingpong", "what happens at the ends of the clip", 1, 1, {Arg::Text},
                Needs::Scene,
                [](CommandContext& c) {
                    LoopMode& loop = c.transport().loop;
                    if (c.a[0] == "loop")
                        loop = LoopMode::Loop;
                    else if (c.a[0] == "once")
                        loop = LoopMode::Once;
                    else if (c.a[0] == "pingpong")
                        loop = LoopMode::PingPong;
                    else
                        return c.fail("expected loop, once or pingpong");
                }),
        command("step", "N", "step N frames (negative: back) and pause", 1, 1, {Arg::Integer}, Needs::Scene,
                [](CommandContext& c) { stepFrames(c.scene(), c.transport(), c.integer(0)); }),
        command("key", "N [NODE|selected]",
                "step N keys (negative: back) of any node, or of one node, and pause", 1, 2,
                {Arg::Integer, Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    int node = -1;
                    if (c.a.size() > 1 && c.a[1] == "selected") {
                        node = c.s.selection.node;
                        if (node < 0) return c.fail("no node is selected");
                    } else if (c.a.size() > 1) {
                        node = findNode(c.scene(), c.a[1]);
                        if (node < 0) return c.fail("no node named '" + c.a[1] + "'");
                    }
                    stepKeys(c.scene(), c.transport(), c.integer(0), node);
                }),
        command("start", "", "jump to the clip's start (the play range's in point when one is set)", 0, 0, {}, Needs::Scene,
                [](CommandContext& c) { jumpToStart(c.scene(), c.transport()); }),
        command("end", "", "jump to the clip's end (the play range's out point when one is set)", 0, 0, {}, Needs::Scene,
                [](CommandContext& c) { jumpToEnd(c.scene(), c.transport()); }),
        command("blend", "CLIP WEIGHT | off", "blend a second clip over the current one", 1, 2,
                {Arg::Text, Arg::Number}, Needs::Scene,
                [](CommandContext& c) {
                    Transport& t = c.transport();
                    if (c.a[0] == "off") {
                        t.blendClip = -1;
                        t.blendWeight = 0.0f;
                        return;
                    }
                    if (c.a.size() != 2) return c.fail("expected: blend CLIP WEIGHT | off");
                    const int clip = findClip(c.scene(), c.a[0]);
                    if (clip < 0) return c.fail("no clip '" + c.a[0] + "'");
                    t.blendClip = clip;
                    t.blendTime = 0.0f;
                    t.blendWeight = std::clamp(c.number(1), 0.0f, 1.0f);
                }),
        command("range", "IN OUT [frames] | in | out | off",
                "play range: loop (or stop, or turn) between IN and OUT seconds (frames with 'frames'); "
                "in / out: that point at the current time",
                1, 3, {Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    Transport& t = c.transport();
                    if (c.a[0] == "off") return clearPlayRange(t);
                    if (!(transportDuration(c.scene(), t.clip) > 0.0f))
                        return c.fail("no clip with a duration to set a range in");
                    if (c.a[0] == "in" || c.a[0] == "out") return setRangePointAtTime(c.scene(), t, c.a[0] == "out");
                    const float unit = c.a.size() > 2 ? 1.0f / transportFrameRate(c.scene(), t.clip) : 1.0f;
                    setPlayRange(c.scene(), t, c.number(0) * unit, c.number(1) * unit);
                },
                checkRangeArgs),
    };
}

// View mode, selection, picking and the skinning debugger's vertex and bone commands.
std::vector<CommandSpec> selectionCommands() {
    return {
        command("mode", "NAME", "shaded|wireframe|normals|weights|batches|uv|unlit|colors|skindiff|shaded-wire|mip|texel-density|overdraw|overdraw-all", 1, 1,
                {Arg::Text}, Needs::Nothing,
                [](CommandContext& c) {
                    if (!parseViewMode(c.a[0].c_str(), c.s.view.mode))
                        return c.fail("unknown mode '" + c.a[0] + "'");
                }),
        command("select", "NODE|none", "select a node by name or index (joints show their influences)", 1, 1,
                {Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    if (c.a[0] == "none") {
                        selectNode(c.s, -1);
                        return;
                    }
                    const int node = findNode(c.scene(), c.a[0]);
                    if (node < 0) return c.fail("no node named '" + c.a[0] + "'");
                    selectNode(c.s, node);
                }),
        command("click", "X Y", "pick in the viewport at window pixel X, Y", 2, 2, {Arg::Number, Arg::Number},
                Needs::Scene,
                [](CommandContext& c) {
                    updatePose(c.s);
                    selectNode(c.s, pickAt(c.s, c.number(0), c.number(1)));
                    if (c.s.scene->pof) {  // and the POF marker there, whose label stays shown
                        std::vector<PofMarker> markers;
                        std::vector<PofPolyline> lines;
                        pofMarkers(c.scene(), c.s.pose, c.s.pof, false, markers, lines);
                        int m = pofMarkerAt(c.s, markers, c.number(0), c.number(1));
                        if (m >= 0 && !c.s.pof.xray && hiddenBySurface(c.s, markers[size_t(m)].position))
                            m = -1;
                        c.s.pof.selectedMarker = m >= 0 ? markers[size_t(m)].label : std::string();
                    }
                }),
        command("pick-vertex", "NODE VERTEX|none",
                "show a skinned mesh node's vertex (file numbering) with its stored influences", 1, 2,
                {Arg::Text, Arg::Integer}, Needs::Scene,
                [](CommandContext& c) {
                    if (c.a.size() == 1) {
                        if (c.a[0] != "none") return c.fail("expected NODE VERTEX or none");
                        return clearPickedVertex(c.s);
                    }
                    const int node = findNode(c.scene(), c.a[0]);
                    if (node < 0) return c.fail("no node named '" + c.a[0] + "'");
                    if (c.integer(1) < 0) return c.fail("the vertex is a number from 0");
                    std::string error;
                    if (!pickVertex(c.s, node, uint32_t(c.integer(1)), error)) c.fail(error);
                }),
        command("pick-vertex-at", "X Y", "pick the skinned vertex nearest window pixel X, Y (as ctrl+click)",
                2, 2, {Arg::Number, Arg::Number}, Needs::Scene,
                [](CommandContext& c) {
                    updatePose(c.s);
                    int node = -1;
                    uint32_t vertex = 0;
                    std::string error;
                    if (!skinnedVertexAt(c.s, c.number(0), c.number(1), 10.0f, node, vertex))
                        return c.fail("no skinned vertex within 10 pixels of " + c.a[0] + ", " +
                                      c.a[1]);
                    if (!pickVertex(c.s, node, vertex, error)) c.fail(error);
                }),
        command("bone", "hide|show|solo JOINT | solo none | show all",
                "hide a joint's influence (its weights zeroed), show it again, or solo one joint", 2, 2,
                {Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    BoneMask mask = c.s.boneMask;
                    const std::string& what = c.a[0];
                    if (what == "show" && c.a[1] == "all") {
                        mask = BoneMask{};
                    } else if (what == "solo" && c.a[1] == "none") {
                        mask.solo = -1;
                    } else {
                        const int joint = findNode(c.scene(), c.a[1]);
                        if (joint < 0 || !isJoint(c.scene(), joint)) return c.fail("no joint named '" + c.a[1] + "'");
                        const auto at = std::find(mask.muted.begin(), mask.muted.end(), joint);
                        if (what == "hide" && at == mask.muted.end())
                            mask.muted.push_back(joint);
                        else if (what == "show" && at != mask.muted.end())
                            mask.muted.erase(at);
                        else if (what == "solo")
                            mask.solo = joint;
                        else if (what != "hide" && what != "show")
                            return c.fail("expected hide, show or solo, not '" + what + "'");
                    }
                    std::string error;
                    if (!setBoneMask(c.s, mask, error)) c.fail(error);
                }),
    };
}

// Morph weights, cameras, panels, options and lights.
std::vector<CommandSpec> viewCommands() {
    return {
        command("morph", "INDEX WEIGHT|anim",
                "override a morph target weight of the selected (or first morphed) mesh", 2, 2,
                {Arg::Integer, Arg::Text}, Needs::Scene,
                [](CommandContext& c) {
                    const Scene& scene = c.scene();
                    const int node = morphNode(c.s);
                    if (node < 0) return c.fail("no mesh in the scene has morph targets");
                    const int target = c.integer(0);
                    const size_t targets = scene.meshes[scene.nodes[node].object].morphTargets.size();
                    if (target < 0 || size_t(target) >= targets)
                        return c.fail("target " + c.a[0] + " out of range (mesh '" + scene.nodes[node].name +
                                      "' has " + std::to_string(targets) + ")");
                    float weight;
                    if (c.a[1] == "anim")
                        weight = std::nanf("");
                    else if (!parseFloat(c.a[1], weight))
                        return c.fail("expected a weight or 'anim'");
                    setMorphOverride(c.s, node, target, weight);
                }),
        command("camera", "INDEX|orbit", "look through a file camera or the orbit camera", 1, 1, {Arg::Text},
                Needs::Scene,
                [](CommandContext& c) {
                    if (c.a[0] == "orbit") {
                        c.s.view.camera = -1;
                        return;
                    }
                    const size_t cameras = c.scene().cameras.size();
                    int index;
                    if (!parseInt(c.a[0], index) || index < 0 || size_t(index) >= cameras)
                        return c.fail("no camera '" + c.a[0] + "' (" + std::to_string(cameras) + " cameras)");
                    c.s.view.camera = index;
                }),
        command("orbit", "YAW PITCH [DISTANCE]", "orbit camera angles in degrees (distance in scene units)",
                2, 3, {Arg::Number}, Needs::Scene,
                [](CommandContext& c) {
                    OrbitCamera& orbit = c.s.view.orbit;
                    c.s.view.camera = -1;
                    orbit.yaw = glm::radians(c.number(0));
                    orbit.pitch = glm::clamp(glm::radians(c.number(1)), -1.55f, 1.55f);
                    if (c.a.size() > 2) orbit.distance = std::max(c.number(2), 1e-4f);
                }),
        command("zoom", "FACTOR", "multiply the orbit distance", 1, 1, {Arg::Number}, Needs::Scene,
                [](CommandContext& c) {
                    if (c.number(0) <= 0.0f) return c.fail("factor must be positive");
                    c.s.view.orbit.distance = std::max(c.s.view.orbit.distance * c.number(0), 1e-4f);
                }),
        command("fit", "scene|selection", "frame the scene or the selected node", 1, 1, {Arg::Text},
                Needs::Scene,
                [](CommandContext& c) {
                    if (c.a[0] == "scene")
                        frameScene(c.s);
                    else if (c.a[0] == "selection")
                        frameSelection(c.s);
                    else
                        return c.fail("expected scene or selection");
                }),
        command("reset", "", "default camera angles, scene framed", 0, 0, {}, Needs::Scene,
                [](CommandContext& c) { resetView(c.s); }),
        command("panel", "NAME on|off", "main|browser|tree|inspector|report|stats|skinning|pof|cost", 2, 2,
                {Arg::Text, Arg::OnOff}, Needs::Nothing,
                [](CommandContext& c) {
                    PanelId id;
                    if (!parsePanelName(c.a[0], id))
                        return c.fail("unknown panel '" + c.a[0] +
                                      "' (main, browser, tree, inspector, report, stats, skinning, pof, cost)");
                    c.s.panel(id) = c.onOff(1);
                }),
        command("set", "OPTION VALUE", setOptionsHelp(), 2, 4, {Arg::Text}, Needs::Nothing,
                [](CommandContext& c) { c.ok = setOption(c.s, c.a, c.error); }),
        command("light", "INDEX on|off", "switch one of the file's lights", 2, 2, {Arg::Integer, Arg::OnOff},
                Needs::Scene,
                [](CommandContext& c) {
                    const int index = c.integer(0);
                    const size_t lights = c.scene().lights.size();
                    if (index < 0 || size_t(index) >= lights)
                        return c.fail("no light " + c.a[0] + " (" + std::to_string(lights) + " lights)");
                    c.s.scene->lights[index].enabled = c.onOff(1);
                }),
    };
}

// Input as a person gives it: keys, text, pointer, drags, wheel.
std::vector<CommandSpec> inputCommands() {
    return {
        command("press", "KEY[+KEY] [FRAMES]",
                // clang-format off
                "press keys and hold them FRAMES frames (default 1), then release them, as typed: the\n"
                "                             viewport's shortcuts and the focused panel get them (a-z, 0-9,\n"
                "                             f1-f12, space, left, right, up, down, home, end, pageup, pagedown,\n"
                "                             tab, escape, enter, backspace, delete, comma, period, [, ], plus,\n"
                "                             minus, shift, ctrl, alt; 'ctrl+o' holds ctrl around o)",
                // clang-format on
                1, 2, {Arg::Text, Arg::Integer}, Needs::Nothing,
                [](CommandContext& c) {
                    std::vector<Key> keys;
                    if (!parseScriptKeys(c.a[0], keys, c.error)) return c.fail(c.error);
                    const int frames = c.a.size() > 1 ? std::clamp(c.integer(1), 1, 100000) : 1;
                    const unsigned mods = modifierBits(keys);
                    std::vector<std::vector<Event>> batches(size_t(frames) + 1);
                    for (Key k : keys) batches.front().push_back(Event::keyEvent(k, true, mods));
                    for (auto k = keys.rbegin(); k != keys.rend(); ++k) batches.back().push_back(Event::keyEvent(*k, false, mods));
                    c.queueInput(std::move(batches));
                },
                [](const std::vector<std::string>& a) {
                    std::vector<Key> keys;
                    std::string error;
                    return parseScriptKeys(a[0], keys, error) ? std::string() : error;
                }),
        command("type", "TEXT", "type text into the focused panel field (\"quotes\" around text with blanks)", 1, 1, {Arg::Text},
                Needs::Nothing,
                [](CommandContext& c) {
                    std::vector<std::vector<Event>> batches(1);
                    for (uint32_t cp : codepoints(c.a[0])) batches[0].push_back(Event::text(cp));
                    c.queueInput(std::move(batches));
                }),
        command("hover", "X Y", "move the pointer to window coordinates X, Y (tooltips, marker labels)", 2, 2,
                {Arg::Number, Arg::Number}, Needs::Nothing,
                [](CommandContext& c) {
                    // A frame more, so that what hovering shows is drawn before what follows.
                    c.queueInput({{Event::mouseMove(c.number(0), c.number(1))}, {}});
                }),
        command("drag", "X0 Y0 X1 Y1 [BUTTON] [STEPS]",
                // clang-format off
                "press a mouse button at X0, Y0, move to X1, Y1 in STEPS frames (default 10), release:\n"
                "                             left orbits, right or middle (or shift+left) pans, over a panel it\n"
                "                             drags what is there (to the same point: a click). BUTTON: left\n"
                "                             (default), right, middle; shift+, ctrl+ or alt+ before it hold those keys",
                // clang-format on
                4, 6, {Arg::Number, Arg::Number, Arg::Number, Arg::Number, Arg::Text, Arg::Integer}, Needs::Nothing,
                [](CommandContext& c) {
                    MouseButton button = MouseButton::Left;
                    std::vector<Key> mods;
                    if (c.a.size() > 4) parseButton(c.a[4], button, mods);
                    const int steps = c.a.size() > 5 ? std::clamp(c.integer(5), 1, 10000) : 10;
                    const float x0 = c.number(0), y0 = c.number(1), x1 = c.number(2), y1 = c.number(3);
                    const unsigned bits = modifierBits(mods);
                    std::vector<std::vector<Event>> batches;
                    batches.push_back({Event::mouseMove(x0, y0)});
                    for (Key k : mods) batches.back().push_back(Event::keyEvent(k, true, bits));
                    batches.push_back({Event::mouseButton(button, true, bits)});
                    for (int i = 1; i <= steps; ++i) {
                        const double f = double(i) / steps;
                        batches.push_back({Event::mouseMove(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)});
                    }
                    batches.push_back({Event::mouseButton(button, false, bits)});
                    for (Key k : mods) batches.back().push_back(Event::keyEvent(k, false, bits));
                    c.queueInput(std::move(batches));
                },
                [](const std::vector<std::string>& a) {
                    MouseButton button;
                    std::vector<Key> mods;
                    if (a.size() > 4) {
                        const std::string problem = parseButton(a[4], button, mods);
                        if (!problem.empty()) return problem;
                    }
                    int steps = 0;
                    if (a.size() > 5 && (!parseInt(a[5], steps) || steps < 1)) return std::string("STEPS must be 1 or more");
                    return std::string();
                }),
        command("wheel", "X Y STEPS", "turn the mouse wheel STEPS notches at X, Y (positive: away, zooming in)", 3, 3,
                {Arg::Number}, Needs::Nothing,
                [](CommandContext& c) {
                    c.queueInput({{Event::mouseMove(c.number(0), c.number(1))}, {Event::wheel(0.0, c.number(2))}});
                }),
        command("dclick", "X Y",
                "double-click the left button at X, Y: in the viewport the first click picks and the\n"
                "                             second frames what it picked",
                2, 2, {Arg::Number, Arg::Number}, Needs::Nothing,
                [](CommandContext& c) {
                    const Event down = Event::mouseButton(MouseButton::Left, true),
                                up = Event::mouseButton(MouseButton::Left, false);
                    c.queueInput({{Event::mouseMove(c.number(0), c.number(1))}, {down}, {up}, {down}, {up}});
                }),
    };
}

// Frames, context, files written and read, POF views, the state dump, quit.
std::vector<CommandSpec> sessionCommands() {
    return {
        command("wait", "FRAMES", "let frames pass", 1, 1, {Arg::Integer}, Needs::Nothing,
                [](CommandContext& c) { c.wait = std::max(0, c.integer(0)); }),
        command("background", "FRAMES",
                // clang-format off
                "the host's pause, FRAMES frames in the background, then its resume (Android's app\n"
                "                             lifecycle): nothing drawn, the animation where it was on return",
                // clang-format on
                1, 1, {Arg::Integer}, Needs::Nothing,
                [](CommandContext& c) {
                    if (!c.host.input) return c.fail("no input");
                    std::vector<std::vector<Event>> batches(size_t(std::clamp(c.integer(0), 0, 100000)) + 2);
                    batches.front().push_back(Event::of(EventType::Pause));
                    batches.back().push_back(Event::of(EventType::Resume));
                    c.host.input(std::move(batches));
                    // Paused frames run no commands: the next one runs in the first frame back.
                    c.wait = 1;
                }),
        command("context", "lost",
                // clang-format off
                "the host destroys its GL context and makes a new one (as Android does in the background);\n"
                "                             the viewer makes its GL objects again from the scene in memory",
                // clang-format on
                1, 1, {Arg::Text}, Needs::Nothing,
                [](CommandContext& c) {
                    if (!c.host.loseContext) return c.fail("no host context to lose");
                    c.host.loseContext();
                    c.wait = 1;  // lost after this frame; the next one makes the objects again, then goes on
                },
                [](const std::vector<std::string>& a) {
                    return a[0] == "lost" ? std::string() : std::string("expected 'lost'");
                }),
        command("screenshot", "PATH [WxH]", "save the window (panel included) or the scene offscreen at WxH",
                1, 2, {Arg::Text, Arg::Size}, Needs::Nothing,
                [](CommandContext& c) {
                    c.s.requestScreenshot = c.a[0];
                    c.s.screenshotWidth = c.s.screenshotHeight = 0;
                    if (c.a.size() > 1) parseSize(c.a[1], c.s.screenshotWidth, c.s.screenshotHeight);
                    c.yield = true;
                }),
        command("touch", "PATH", "mark a file modified (hot reload picks it up)", 1, 1, {Arg::Text},
                Needs::Nothing,
                [](CommandContext& c) {
                    std::error_code ec;
                    const auto now = std::filesystem::file_time_type::clock::now();
                    auto stamp = std::filesystem::last_write_time(c.a[0], ec);
                    if (ec) return c.fail(c.a[0] + ": " + ec.message());
                    // Later than both now and the old stamp, so the change shows at any clock granularity.
                    stamp = std::max(now, stamp + std::chrono::seconds(1));
                    std::filesystem::last_write_time(c.a[0], stamp, ec);
                    if (ec) return c.fail(c.a[0] + ": " + ec.message());
                }),
        command("drop", "PATH...", "as if the files were dropped on the window", 1, -1, {Arg::Text},
                Needs::Nothing,
                [](CommandContext& c) {
                    c.host.drop(c.a);
                    c.waitForLoad = true;
                }),
        command("browse", "DIR", "show the file browser at DIR", 1, 1, {Arg::Text}, Needs::Nothing,
                [](CommandContext& c) { c.ok = c.host.browse(c.a[0], c.error); }),
        command("pof", "lod N",
                // clang-format off
                "POF: draw detail level N (its root and descendants), hide the others\n"
                "  pof debris on|off          POF: draw the debris subobjects too\n"
                "  pof shield on|off          POF: the shield mesh as a wireframe over the view\n"
                "  pof markers KIND|all on|off  POF markers: guns, missiles, turrets, docks, thrusters, eyes,\n"
                "                             specials, glows (labels of the hovered and the clicked one)\n"
                "  pof xray on|off            POF: markers through the hull (default off: hidden behind it)\n"
                "  pof spin SUBOBJECT DEGREES POF: turn a rotating subobject (name or number) about its movement axis",
                // clang-format on
                1, 3, {Arg::Text}, Needs::Scene, [](CommandContext& c) { c.ok = runPof(c.s, c.a, c.error); },
                checkPofArgs),
        command("dump", "PATH", "write the viewer state as JSON", 1, 1, {Arg::Text}, Needs::Nothing,
                [](CommandContext& c) {
                    if (c.s.panel(PanelId::Cost)) updateCostView(c.s);  // the dump's `cost`, up to date
                    std::ofstream out(c.a[0], std::ios::trunc);
                    out << viewerStateJson(c.s) << "\n";
                    if (!out) return c.fail("cannot write " + c.a[0]);
                }),
        command("quit", "", "close the viewer", 0, 0, {}, Needs::Nothing,
                [](CommandContext& c) {
                    c.s.requestQuit = true;
                    c.yield = true;
                }),
    };
}

// The command set, in the order of the help. Parsing, running, the help and usage errors all read it.
const std::vector<CommandSpec>& commandSpecs() {
    static const std::vector<CommandSpec> specs = [] {
        std::vector<CommandSpec> all;
        for (auto group : {fileCommands, animationCommands, selectionCommands, viewCommands, inputCommands,
                           sessionCommands}) {
            std::vector<CommandSpec> part = group();
            all.insert(all.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
        }
        return all;
    }();
    return specs;
}

const CommandSpec* findCommand(const std::string& name) {
    for (const CommandSpec& c : commandSpecs())
        if (name == c.name) return &c;
    return nullptr;
}

// "name ARGS", then the help from the help column (two blanks at least); what --help lists and
// usage errors quote.
std::string usage(const CommandSpec& c) {
    constexpr size_t kHelpColumn = 27;
    std::string line = c.name;
    if (*c.args) line += std::string(" ") + c.args;
    line.resize(std::max(line.size() + 2, kHelpColumn), ' ');
    return line + c.help;
}

}  // namespace

Key scriptKeyFromName(const std::string& name) {
    if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') return Key(int(Key::A) + (name[0] - 'a'));
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return Key(int(Key::Num0) + (name[0] - '0'));
    if (name.size() >= 2 && name[0] == 'f' && name.find_first_not_of("0123456789", 1) == std::string::npos) {
        const int n = std::atoi(name.c_str() + 1);
        if (n >= 1 && n <= 12) return Key(int(Key::F1) + n - 1);
    }
    static const std::map<std::string, Key> kNames = {
        {"space", Key::Space},         {"left", Key::Left},       {"right", Key::Right},
        {"up", Key::Up},               {"down", Key::Down},       {"home", Key::Home},
        {"end", Key::End},             {"pageup", Key::PageUp},   {"pagedown", Key::PageDown},
        {"tab", Key::Tab},             {"escape", Key::Escape},   {"enter", Key::Enter},
        {"backspace", Key::Backspace}, {"delete", Key::Delete},   {"comma", Key::Comma},
        {"period", Key::Period},       {"[", Key::LeftBracket},   {"]", Key::RightBracket},
        {"plus", Key::Equal},          {"minus", Key::Minus},     {"shift", Key::LeftShift},
        {"ctrl", Key::LeftControl},    {"alt", Key::LeftAlt}};
    auto it = kNames.find(name);
    return it == kNames.end() ? Key::Unknown : it->second;
}

bool parseScriptKeys(const std::string& text, std::vector<Key>& keys, std::string& error) {
    keys.clear();
    size_t from = 0;
    while (true) {
        const size_t plus = text.find('+', from);
        const std::string part = text.substr(from, plus == std::string::npos ? std::string::npos : plus - from);
        const Key key = scriptKeyFromName(part);
        if (key == Key::Unknown) {
            error = "unknown key '" + part + "'";
            return false;
        }
        keys.push_back(key);
        if (plus == std::string::npos) return true;
        from = plus + 1;
    }
}

bool parseScript(const std::string& text, const std::string& file, Script& out,
                 std::vector<std::string>& errors) {
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
        const CommandSpec* spec = findCommand(words[0]);
        if (!spec) {
            errors.push_back(where + "unknown command '" + words[0] + "'");
            continue;
        }
        const std::vector<std::string> args(words.begin() + 1, words.end());
        const int argc = int(args.size());
        if (argc < spec->minArgs || (spec->maxArgs >= 0 && argc > spec->maxArgs)) {
            errors.push_back(where + "expected: " + usage(*spec));
            continue;
        }
        bool ok = true;
        for (int i = 0; i < argc && ok; ++i) {
            const Arg kind =
                spec->kinds.empty() ? Arg::Text : spec->kinds[std::min<size_t>(i, spec->kinds.size() - 1)];
            const std::string& a = args[i];
            float f;
            int n, w, h;
            bool b;
            switch (kind) {
                case Arg::Text:
                    break;
                case Arg::Number:
                    ok = parseFloat(a, f);
                    break;
                case Arg::Integer:
                    ok = parseInt(a, n);
                    break;
                case Arg::OnOff:
                    ok = parseOnOff(a, b);
                    break;
                case Arg::Size:
                    ok = parseSize(a, w, h);
                    break;
            }
            if (!ok) {
                static const char* kNames[] = {"text", "a number", "an integer", "on or off", "a size WxH"};
                errors.push_back(where + words[0] + ": argument " + std::to_string(i + 1) + " '" + a +
                                 "' is not " + kNames[int(kind)]);
            }
        }
        if (!ok) continue;
        if (spec->check) {
            const std::string problem = spec->check(args);
            if (!problem.empty()) {
                errors.push_back(where + words[0] + ": " + problem);
                continue;
            }
        }
        ScriptCommand c;
        c.line = number;
        c.name = words[0];
        c.args = args;
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
    for (const CommandSpec& c : commandSpecs()) help += "  " + usage(c) + "\n";
    return help;
}

std::vector<std::string> scriptCommandNames() {
    std::vector<std::string> names;
    for (const CommandSpec& c : commandSpecs()) names.push_back(c.name);
    return names;
}

void ScriptRunner::runFrame(ViewerState& s, ScriptHost& host) {
    if (failed()) return;
    if (m_wait > 0) {
        --m_wait;
        if (m_wait > 0) return;
    }
    if (m_waitForLoad) {
        if (s.load.active || !s.requestOpen.empty() || s.requestReload || s.compare.loading ||
            !s.compare.requestOpen.empty())
            return;
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

bool ScriptRunner::execute(ViewerState& s, ScriptHost& host, const ScriptCommand& c, bool& yield,
                           std::string& error) {
    const CommandSpec* spec = findCommand(c.name);
    if (!spec) {
        error = "not available";
        return false;
    }
    if (spec->needs == Needs::Scene && !s.scene) {
        error = "no scene is open";
        return false;
    }
    CommandContext context{s, host, c.args, error, m_wait, m_waitForLoad, yield};
    spec->run(context);
    return context.ok;
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
    j["xray"] = s.pof.xray;
    j["selected_marker"] =
        s.pof.selectedMarker.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.pof.selectedMarker);
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
                first = {{"label", m.label},
                         {"x", p.x},
                         {"y", p.y},
                         {"position", {m.position.x, m.position.y, m.position.z}}};
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

// The comparison (compare_view.h): B's file, the mode and the divider, B's clip and time as they follow
// A's, B's node selected by name, where A and B are drawn ([x, y, w, h], framebuffer pixels), and the
// difference view's figures (null before it was drawn). Null while no B is open or loading.
nlohmann::json compareStateJson(const ViewerState& s) {
    const CompareView& c = s.compare;
    if (!c.active() && !c.loading && c.error.empty()) return nullptr;
    nlohmann::json j = {{"path", c.path},
                        {"loads", c.loads},
                        {"loading", c.loading},
                        {"error", c.error},
                        {"mode", compareModeName(c.mode)},
                        {"divider", c.divider}};
    if (!c.active()) return j;
    const Scene& b = *c.scene;
    j["nodes"] = b.nodes.size();
    j["clip"] = c.transport.clip >= 0 ? nlohmann::json(b.animation.clips[size_t(c.transport.clip)].name)
                                      : nlohmann::json(nullptr);
    j["time"] = c.transport.time;
    j["selected"] = c.selected >= 0 ? nlohmann::json(b.nodes[size_t(c.selected)].name) : nlohmann::json(nullptr);
    j["selected_index"] = c.selected;
    j["highlight"] = c.view.highlightNode;
    ViewportRect ra, rb;
    compareRects(c.mode, s.viewport, ra, rb);
    auto rect = [](const ViewportRect& r) { return nlohmann::json::array({r.x, r.y, r.width, r.height}); };
    j["a_rect"] = rect(ra);
    j["b_rect"] = rect(rb);
    j["split_column"] = splitColumn(s.viewport, c.divider);
    const CompareFigures& f = c.figures;
    j["figures"] = f.valid ? nlohmann::json{{"model_pixels", f.modelPixels},
                                            {"pixels_off", f.pixelsOff},
                                            {"share_off", f.shareOff},
                                            {"mean_difference", f.meanDifference},
                                            {"max_difference", f.maxDifference},
                                            {"alike", f.alike},
                                            {"size", {f.width, f.height}}}
                           : nlohmann::json(nullptr);
    return j;
}

// The transport's part of the state: clip, time and frame (fractional, and the whole frame the
// panel's readout shows at `clip_fps`), play state, the play range and the blend (null when none).
void transportStateJson(const Scene& scene, const Transport& t, nlohmann::json& j) {
    j["clip"] = t.clip >= 0 ? nlohmann::json(scene.animation.clips[t.clip].name) : nlohmann::json(nullptr);
    j["clip_index"] = t.clip;
    j["time"] = t.time;
    j["frame"] = transportFrame(scene, t);
    j["frame_index"] = wholeFrame(transportFrame(scene, t));
    j["clip_fps"] = transportFrameRate(scene, t.clip);
    j["playing"] = t.playing;
    j["speed"] = t.speed;
    j["loop"] = loopModeName(t.loop);
    j["range"] = t.range ? nlohmann::json({{"in", t.rangeIn}, {"out", t.rangeOut}}) : nlohmann::json(nullptr);
    if (t.blendClip >= 0 && size_t(t.blendClip) < scene.animation.clips.size())
        j["blend"] = {{"clip", scene.animation.clips[t.blendClip].name},
                      {"clip_index", t.blendClip},
                      {"weight", t.blendWeight},
                      {"time", t.blendTime}};
    else
        j["blend"] = nullptr;
}

// The Cost panel's report (while the panel is open): its device, the counts and the totals a test
// compares with the cost library's; `available` is false in a build without it or with no scene.
nlohmann::json costStateJson(const ViewerState& s) {
    nlohmann::json j = {{"device", costDeviceName(s)}, {"available", s.cost.report != nullptr}};
    if (!s.cost.report) return j;
    const CostReport& r = *s.cost.report;
    j["device"] = r.device->name;
    j["meshes"] = r.meshes.size();
    j["textures"] = r.textures.size();
    j["totals"] = {{"vertices", r.totals.vertices},
                   {"triangles", r.totals.triangles},
                   {"vertex_bytes", r.totals.vertexBytes},
                   {"texture_bytes", r.totals.textureBytes}};
    j["frame"] = {{"draws", r.frame.draws}, {"triangles", r.frame.triangles}};
    j["over_limits"] = r.overLimits.size();
    j["analysis_ms"] = s.cost.ms;
    return j;
}

// The picked vertex's influences as the file stores them (null when none is picked): the stored
// index and weight components, each index's skin joint and its node's name, the bone batches that
// draw the vertex.
nlohmann::json pickedVertexJson(const ViewerState& s) {
    const StoredInfluences& p = s.pickedVertex;
    const Scene& scene = fileScene(s);
    if (p.node < 0 || size_t(p.node) >= scene.nodes.size()) return nullptr;
    nlohmann::json names = nlohmann::json::array();
    for (int32_t n : p.jointNodes)
        names.push_back(n >= 0 && size_t(n) < scene.nodes.size() ? nlohmann::json(scene.nodes[size_t(n)].name)
                                                                   : nlohmann::json(nullptr));
    return {{"node", p.node},           {"node_name", scene.nodes[size_t(p.node)].name},
            {"vertex", p.vertex},       {"indices", p.indices},
            {"weights", p.weights},     {"joints", p.joints},
            {"joint_nodes", p.jointNodes}, {"joint_names", names},
            {"batches", p.batches}};
}

}  // namespace

std::string viewerStateJson(const ViewerState& s) {
    nlohmann::json j;
    j["path"] = s.path;
    j["loads"] = s.loadsCompleted;
    j["loading"] = s.load.active;
    j["load_error"] = s.load.error;
    j["load_ms"] = {{"read", s.loadTimes.readMs},
                    {"textures", s.loadTimes.texturesMs},
                    {"prepare", s.loadTimes.prepareMs},
                    {"upload", s.loadTimes.uploadMs},
                    {"total", s.loadTimes.totalMs()}};
    j["status"] = s.status;
    j["gles2"] = s.gles2;
    j["gles2_strict"] = s.gles2 && s.gles2Strict;
    j["device"] = s.rendererInfo.device;
    j["context"] = {{"losses", s.context.losses},
                    {"restores", s.context.restores},
                    {"drop_gl_calls", s.context.dropGlCalls}};
    j["ui_scale"] = s.uiScale;
    j["font"] = {{"path", s.uiFont.path}, {"pixels", s.uiFont.pixels}, {"scale", s.uiFont.scale}, {"note", s.uiFont.note}};
    // Touch-sized panels: the setting, and whether the style built now is the touch one.
    j["touch_ui"] = {{"mode", touchUiName(s.touchUi)}, {"active", s.uiFont.touch}};
    // Whether the keys go to a panel (ImGui navigation, a text field, a menu) rather than the 3D view.
    const bool imgui = ImGui::GetCurrentContext() != nullptr;
    j["keyboard_to_panel"] = imgui && !s.keyboardToView;
    // A panel's text field has the keyboard (typed text goes there).
    j["text_input"] = imgui && ImGui::GetIO().WantTextInput;
    // The pointer as the panels last saw it (window coordinates; null before it moved), and whether it
    // is over a panel (which then takes clicks, drags and the wheel).
    if (imgui && ImGui::IsMousePosValid())
        j["pointer"] = {{"x", ImGui::GetIO().MousePos.x},
                        {"y", ImGui::GetIO().MousePos.y},
                        {"over_panel", ImGui::GetIO().WantCaptureMouse}};
    else
        j["pointer"] = nullptr;
    j["skeleton"] = s.view.showSkeleton;
    j["wireframe_overlay"] = s.view.wireframeOverlay;
    j["lighting"] = lightingName(s.view.lighting);
    j["headlight"] = s.view.headlight;
    j["file_light_exposure"] = s.stats.fileLightExposure;
    j["missing_texture"] = missingTextureName(s.view.missingTexture);
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
    if (s.panel(PanelId::Cost)) j["cost"] = costStateJson(s);
    j["compare"] = compareStateJson(s);
    // The layout of the last frame, [x, y, w, h] in window pixels: the 3D view, the bars, and each
    // docked panel's region (panels sharing a region are tabs of it; the stats overlay is not docked;
    // in a window under 1600 pixels wide, times the content scale, the bottom panels are tabs of the
    // right region and `bottom_folded` is true), and each region's selected tab.
    auto rect = [](const LayoutRect& r) { return nlohmann::json::array({r.x, r.y, r.w, r.h}); };
    j["viewport"] = rect(s.layout.viewport);
    j["menu_bar"] = rect(s.layout.menuBar);
    j["status_bar"] = rect(s.layout.statusBar);
    nlohmann::json rects = nlohmann::json::object(), tabs = nlohmann::json::object();
    for (size_t i = 0; i < size_t(PanelId::Count); ++i)
        if (!s.panelRects[i].empty()) rects[panelName(PanelId(i))] = rect(s.panelRects[i]);
    for (size_t r = 0; r < kDockRegions; ++r)
        if (!s.layout.regions[r].empty()) tabs[regionName(Region(r))] = panelName(frontTab(s, Region(r)));
    j["panel_rects"] = rects;
    // The load error box over the 3D view as last drawn (all 0 when none is shown).
    j["load_error_rect"] = rect(s.errorBoxRect);
    // The animation timeline in the settings panel as last drawn (all 0 when it was not).
    j["timeline_rect"] = rect(s.timelineRect);
    j["bottom_folded"] = s.layout.bottomFolded;
    j["view_hint"] = s.viewHint;
    j["tabs"] = tabs;
    j["recent"] = s.recentFiles;
    // Frame times: the last frame's update and draw submission on the CPU, and the frame rate the
    // panels measure (Dear ImGui's average over its last 60 frames, as the status bar shows it).
    j["cpu_frame_ms"] = s.cpuFrameMs;
    j["fps"] = imgui ? ImGui::GetIO().Framerate : 0.0f;
    if (s.scene) {
        const Scene& scene = *s.scene;
        j["format"] = scene.format;
        j["nodes"] = scene.nodes.size();
        transportStateJson(scene, s.transport, j);
        j["selected"] = s.selection.node >= 0 ? nlohmann::json(scene.nodes[s.selection.node].name)
                                              : nlohmann::json(nullptr);
        j["selected_index"] = s.selection.node;
        j["joint"] = s.selection.joint;
        // The selected joint's bone batches: each mesh instance's batch holding it, at which palette index.
        nlohmann::json batches = nlohmann::json::array();
        if (s.selection.joint >= 0)
            for (const JointBatch& b : jointBatches(scene, s.selection.joint))
                batches.push_back({{"node", b.node}, {"batch", b.batch}, {"palette", b.palette}});
        j["joint_batches"] = batches;
        j["weight_bone"] = s.view.weightBone;
        j["joint_names"] = !s.showJointNames ? "off" : s.allJointNames ? "all" : "on";
        j["picked_vertex"] = pickedVertexJson(s);
        j["bone_mask"] = {{"hidden", s.boneMask.muted}, {"solo", s.boneMask.solo}};
        nlohmann::json morphs = nlohmann::json::object();
        for (size_t n = 0; n < s.pose.morphWeights.size(); ++n)
            if (!s.pose.morphWeights[n].empty()) morphs[scene.nodes[n].name] = s.pose.morphWeights[n];
        j["morph_weights"] = morphs;
        j["draw_calls"] = s.stats.drawCalls;
        // The last frame's GL state changes by kind (FrameStats::changes): what the draw list sent.
        const StateChanges& k = s.stats.changes;
        j["state_changes"] = {{"programs", k.programs},         {"textures", k.textures},
                              {"vertex_arrays", k.vertexArrays}, {"buffers", k.buffers},
                              {"attributes", k.attributes},      {"render_state", k.renderState},
                              {"uniforms", k.uniforms},          {"uniform_bytes", k.uniformBytes},
                              {"palette_bytes", k.paletteBytes}};
        j["gl_errors"] = s.stats.glErrors;
        j["overdraw"] = {{"covered", s.stats.overdrawCovered}, {"shaded", s.stats.overdrawShaded}, {"max", s.stats.overdrawMax}};
        j["triangles"] = s.stats.triangles;
        // A scene that draws no mesh: the gizmos stand in, and the 3D view's line says what it holds.
        j["gizmos"] = s.gizmos;
        j["no_mesh_note"] = s.noMeshNote;
        j["lights_enabled"] = nlohmann::json::array();
        for (const Light& l : scene.lights) j["lights_enabled"].push_back(l.enabled);
        if (scene.pof) j["pof"] = pofStateJson(s);
        // The legend of the view mode in the 3D view (null when the mode has none).
        const ViewLegend legend = viewLegend(s);
        if (legend.empty()) {
            j["legend"] = nullptr;
        } else {
            nlohmann::json swatches = nlohmann::json::array();
            for (const glm::vec3& c : legend.swatches) swatches.push_back({c.r, c.g, c.b});
            j["legend"] = {
                {"lines", legend.lines},
                {"ramp", legend.ramp ? nlohmann::json::array({legend.low, legend.middle, legend.high})
                                     : nlohmann::json(nullptr)},
                {"swatches", swatches},
                {"skin_diff_range", legend.skinDiffRange},
                // Where the viewport overlay drew it last frame ([x, y, w, h], window pixels; all 0
                // before it was drawn): a corner clear of the model's box on screen where one is.
                {"rect", rect(s.legendRect)}};
        }
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace esv
