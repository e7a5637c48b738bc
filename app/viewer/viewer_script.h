// Viewer scripts: `esview FILE --script S` runs commands from S, one per line, between frames.
// A script can do what a person does with the panel (open, pick a clip and time, switch modes,
// select, move morph sliders, toggle panels, take screenshots), so captures are repeatable and
// the window is testable. The whole script is checked before the window opens: an unknown command
// or a malformed argument is an error naming the line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/viewer/host.h"
#include "app/viewer/viewer_state.h"

namespace esv {

struct ScriptCommand {
    int line = 0;
    std::string name;
    std::vector<std::string> args;
};

struct Script {
    std::string file;
    std::vector<ScriptCommand> commands;
};

// Parses script text: one command per line, words separated by blanks, "double quotes" around
// words with blanks, '#' starts a comment. Appends "FILE:LINE: what is wrong" per bad line.
bool parseScript(const std::string& text, const std::string& file, Script& out, std::vector<std::string>& errors);
bool loadScript(const std::string& path, Script& out, std::vector<std::string>& errors);

// One line per command with its arguments, for --help and the README.
std::string scriptCommandHelp();
// The commands' names, in the order of the help.
std::vector<std::string> scriptCommandNames();

// The key for a script's key name: a-z, 0-9, f1-f12 and the names of the `press` help
// (Key::Unknown for others).
Key scriptKeyFromName(const std::string& name);
// "shift+space": the keys of a '+'-joined list of names. False with `error` naming an unknown part.
bool parseScriptKeys(const std::string& text, std::vector<Key>& keys, std::string& error);

// What the window does for commands that need it.
struct ScriptHost {
    std::function<void(const std::vector<std::string>&)> drop;  // as if the files were dropped on the window
    std::function<bool(const std::string&, std::string&)> browse;  // show the file browser at a folder
    // Input as a person gives it, frame by frame: batches[i] arrives at the start of the (i+1)-th
    // frame from now and takes the path of the host's events (viewport mouse and shortcuts, and the
    // panels through Dear ImGui). Batches queued by an earlier command come first.
    std::function<void(std::vector<std::vector<Event>>)> input;
    // After this frame the host destroys its GL context and makes a new one (Host::loseContext); the
    // next frame drops the viewer's GL objects and makes them again.
    std::function<void()> loseContext;
};

// Runs a parsed script over the frames of the viewer.
class ScriptRunner {
public:
    explicit ScriptRunner(Script script) : m_script(std::move(script)) {}

    // Runs the commands due this frame: stops at `wait`, after `screenshot` (taken at the end of this
    // frame), while a load started by `open`/`reload`/`drop` is running, or at the end. On a failing
    // command it records the error and requests quit.
    void runFrame(ViewerState& s, ScriptHost& host);

    bool finished() const { return m_next >= m_script.commands.size() && m_wait == 0; }
    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }

private:
    // Returns false with `error` set on failure; sets `yield` when the rest must wait a frame.
    bool execute(ViewerState& s, ScriptHost& host, const ScriptCommand& c, bool& yield, std::string& error);

    Script m_script;
    size_t m_next = 0;
    int m_wait = 0;
    bool m_waitForLoad = true;  // the file named on the command line loads first
    std::string m_error;
};

// The viewer state as JSON (what scripts' `dump` writes and tests read).
std::string viewerStateJson(const ViewerState& s);

}  // namespace esv
