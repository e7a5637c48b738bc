// The browser viewer's entry point: the page (web/esview.html) passes the arguments
//   [--gles2] [--script FILE] [FILE]
// (files in Emscripten's in-memory file system, which the page fills from URLs), the viewer runs one
// frame per animation frame on a WebHost, and the page calls esview_run() with script commands.
// What the page and its tests read is printed as lines starting with "esview: ".
#include <emscripten/emscripten.h>
#include <glad/gles2.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/viewer/scene_info.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "app/hosts/web_host.h"
#include "loaders/format_table.h"
#include "loaders/load.h"
#include "loaders/formats.h"
#include "loaders/textures/texture_lookup.h"
#include "scene/scene.h"

namespace {

esv::WebHost* g_host = nullptr;
esv::ViewerLoop* g_loop = nullptr;
int g_loads = 0;          // loads reported so far
size_t g_reported = 0;    // lines of the scene's import report printed so far
std::string g_loadError;  // the last load error reported

// One line per finished load or failed load, for the page and the tests.
void reportLoads() {
    esv::ViewerState& s = g_loop->state();
    if (s.loadsCompleted != g_loads && s.scene) {
        g_loads = s.loadsCompleted;
        g_reported = 0;
        // The nodes as `info` counts them (no joints esview added), as the page's tests compare.
        std::printf("esview: %s\n", esv::loadedText(s.path, *s.scene).c_str());
    }
    // Warnings (the loader's, and what the renderer could not do) as the import report lists them.
    for (; s.scene && g_reported < s.scene->report.size(); ++g_reported) {
        const esv::ReportLine& line = s.scene->report[g_reported];
        if (line.severity != esv::Severity::Info) std::printf("esview: warning: %s\n", line.text.c_str());
    }
    if (s.load.error != g_loadError) {
        g_loadError = s.load.error;
        if (!g_loadError.empty()) {
            std::printf("esview: load failed: %s\n", g_loadError.c_str());
            EM_ASM(
                {
                    if (Module.esviewLoadFailed) Module.esviewLoadFailed(UTF8ToString($0));
                },
                g_loadError.c_str());
        }
    }
}

void frame() {
    const bool more = g_loop->frame();
    reportLoads();
    if (!more) {
        const int code = g_loop->finish();
        std::printf("esview: done, exit code %d\n", code);
        emscripten_cancel_main_loop();
        EM_ASM(
            {
                if (Module.esviewDone) Module.esviewDone($0);
            },
            code);
    }
}

}  // namespace

// Runs viewer script commands (viewer_script.h; lines or ';'-separated) from the next frame on.
// Returns 0, or 1 with the reason on stderr (a bad command, a script still running).
extern "C" EMSCRIPTEN_KEEPALIVE int esview_run(const char* text) {
    if (!g_loop) return 1;
    std::string error;
    if (!g_loop->runScript(text, error)) {
        std::fprintf(stderr, "esview: %s\n", error.c_str());
        return 1;
    }
    return 0;
}

// Files or folders the page wrote into the in-memory file system (a drop, the file picker), one
// path per line: handled as a drop on a desktop window (a model among them opens, a folder shows in
// the browser panel). Returns 0, or 1 before the viewer has started.
extern "C" EMSCRIPTEN_KEEPALIVE int esview_drop(const char* paths) {
    if (!g_host || !g_loop) return 1;
    std::vector<std::string> list;
    std::string text = paths ? paths : "";
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) list.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    if (!list.empty()) g_host->drop(std::move(list));
    return 0;
}

// What the page needs to fetch a model's textures by URL, as JSON:
//   {"error": "...", "textures": [{"name": N, "path": P, "resolved": R}, ...], "companions": [F, ...],
//    "texture_extensions": [".pvr", ...], "model_extensions": ["pod", ...]}
// For each texture the file refers to (embedded ones left out): its name and path as written, and
// the file the desktop lookup (texture_lookup.h) picks among the files in the in-memory file system
// ("" when none), so the page can mirror a served folder's listing there and fetch just those; and
// the files beside it the model names that it cannot load without (a .gltf's buffers and images),
// which the page fetches first, then asks again.
// `path` empty: only the extensions. The text lives until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* esview_texture_lookup(const char* path) {
    static std::string text;
    nlohmann::json j;
    j["texture_extensions"] = esv::textureExtensions();
    nlohmann::json models = nlohmann::json::array();
    for (const esv::FormatInfo& format : esv::formats()) {
        for (const std::string& extension : format.extensions) models.push_back(extension);
        for (const std::string& extension : format.textExtensions) models.push_back(extension);
    }
    j["model_extensions"] = models;
    j["textures"] = nlohmann::json::array();
    j["companions"] = nlohmann::json::array();
    j["error"] = "";
    if (path && *path) {
        // Files the model needs before it can load (a .gltf's buffers and images beside it); read
        // for glTF files only, so the other formats' files are read once.
        const esv::FormatInfo* format = esv::formatForExtension(path);
        std::string readError;
        if (format && format->key == "gltf")
            if (const auto bytes = esv::readWholeFile(path, readError))
                for (const std::string& file : esv::gltfReferencedFiles(bytes->data(), bytes->size()))
                    j["companions"].push_back(file);
        const esv::LoadResult result = esv::loadSceneFile(path);
        if (!result.scene) {
            j["error"] =
                result.problems.empty() ? std::string("cannot read ") + path : result.problems[0].format();
        } else {
            for (const esv::Texture& t : result.scene->textures) {
                if (!t.embedded.empty() || t.path.empty()) continue;
                j["textures"].push_back({{"name", t.name},
                                         {"path", t.path},
                                         {"resolved", esv::resolveTexturePath(path, t.path)}});
            }
        }
    }
    text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return text.c_str();
}

int main(int argc, char** argv) {
    esv::ViewerOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--gles2")
            options.gles2 = true;
        else if (arg == "--script" && i + 1 < argc)
            options.script = argv[++i];
        else
            options.file = arg;
    }
    g_host = new esv::WebHost;
    g_loop = new esv::ViewerLoop;
    const int started = g_loop->start(*g_host, options);
    if (started != 0) {
        std::printf("esview: done, exit code %d\n", started);
        EM_ASM(
            {
                if (Module.esviewDone) Module.esviewDone($0);
            },
            started);
        return started;
    }
    std::printf("esview: context %s\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)));
    emscripten_set_main_loop(frame, 0, 1);
    return 0;
}
