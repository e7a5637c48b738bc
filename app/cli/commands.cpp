#include "app/cli/commands.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <regex>

#include <CLI/CLI.hpp>

#if !defined(ESVIEW_NO_GLFW)
#include "app/hosts/glfw_host.h"
#endif
#include "app/cli/check_command.h"
#include "app/cli/convert_command.h"
#include "app/cli/cost_command.h"
#include "app/cli/compare_command.h"
#include "app/cli/render_command.h"
#include "app/cli/render_sequence.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/scene_source.h"
#include "app/hosts/sdl_host.h"
#include "app/cli/thumbnail_command.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_script.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/format_table.h"
#include "loaders/textures/scene_textures.h"
#include "target/device_profiles.h"

namespace esv {

std::string checkDeviceName(const std::string& name) {
    return findDevice(name) ? std::string() : "unknown device '" + name + "' (the devices: " + deviceNameList() + ")";
}

void addTimeOptions(CLI::App* cmd, TimeSelection& time) {
    auto* frame = cmd->add_option_function<double>(
        "--frame", [&time](double f) { time.frame = f; }, "Evaluate at this animation frame (fractional frames interpolate)");
    auto* seconds = cmd->add_option_function<double>(
        "--time", [&time](double s) { time.seconds = s; }, "Evaluate at this time in seconds");
    frame->excludes(seconds);
    cmd->add_option("--clip", time.clip, "Animation clip by name or index (default: the first)");
}

// A WxH size option (`render --size`, `compare --size`, the viewer's `--size`): CLI11's check.
std::string checkSize(const std::string& s) {
    static const std::regex kSize("([1-9][0-9]{0,4})x([1-9][0-9]{0,4})");
    return std::regex_match(s, kSize) ? std::string() : std::string("expected WxH, e.g. 1280x720");
}

std::string checkViewModeName(const std::string& s) {
    ViewMode m;
    if (parseViewMode(s.c_str(), m)) return std::string();
    std::string names;
    for (int i = 0; i < int(ViewMode::Count); ++i) names += std::string(i ? ", " : "") + viewModeName(ViewMode(i));
    return std::string("unknown mode '" + s + "' (the modes: " + names + ")");
}

namespace {

void printProblems(const std::vector<Problem>& problems) {
    for (const Problem& p : problems) std::fprintf(stderr, "%s\n", p.format().c_str());
}

int runInfo(const std::string& file, bool json, const TimeSelection& selection,
            const std::vector<std::string>& texturePaths) {
    LoadResult loaded = openScene(file);
    if (!loaded.scene) {
        printProblems(loaded.problems);
        return kExitBadInput;
    }
    Scene& scene = *loaded.scene;
    // Textures are found and read (not decoded for a GPU) so missing or unreadable ones are reported.
    prepareSceneTextures(scene, nullptr, {}, texturePaths);
    ResolvedTime time;
    std::string error;
    if (!resolveTime(scene, selection, time, error)) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(), error.c_str());
        return kExitBadInput;
    }
    Pose pose;
    evaluatePose(scene, time.clip, time.seconds, pose);
    nlohmann::json info = sceneInfoJson(scene, pose, time);
    if (json) {
        std::cout << info.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
        std::cout << sceneInfoText(info, scene);
    }
    return kExitOk;
}

// The help's first line and its list of formats, both from the format table.
std::string programDescription() {
    std::string titles;
    const std::vector<FormatInfo>& all = formats();
    for (size_t i = 0; i < all.size(); ++i)
        titles += (i == 0 ? "" : i + 1 == all.size() ? " and " : ", ") + all[i].title;
    return "esview: real-time viewer for " + titles + " models (OpenGL ES 2/3)";
}

std::string formatHelp() {
    std::string help = "Formats (known by their first bytes; text formats by their extension):\n";
    for (const FormatInfo& f : formats()) {
        std::string line = "  " + f.name;
        line.resize(std::max<size_t>(line.size() + 1, 29), ' ');
        for (size_t i = 0; i < f.extensions.size(); ++i) line += (i == 0 ? "." : " .") + f.extensions[i];
        if (f.magic.empty()) line += " (text)";
        help += line + "\n";
    }
    return help + "  a model inside a FreeSpace VP archive is named archive.vp:path/inside/model.pof\n";
}

}  // namespace

int runCommandLine(int argc, char** argv) {
    CLI::App app{programDescription()};
    app.set_version_flag("--version", "esview 0.1.0");
    app.require_subcommand(0, 1);

    ViewerOptions viewer;
    app.add_option("FILE", viewer.file, "Model to open in the viewer window ('demo' or nothing: the built-in scene)");
    app.add_flag("--gles2", viewer.gles2, "Viewer: OpenGL ES 2.0 context and limits");
    app.add_flag("--gles2-strict", viewer.gles2Strict,
                 "Viewer: a strict ES 2.0 device profile (implies --gles2; no extensions, limits at the ES 2.0 minimum)");
    app.add_option("--device", viewer.device,
                   "Viewer: hold the renderer to a device profile's ES version, extensions and limits (" +
                       deviceNameList() + ")")
        ->check(checkDeviceName);
    app.add_option("--texture-path", viewer.texturePaths,
                   "Viewer: also look for textures in this folder, after the model's own (repeatable)")
        ->check(CLI::ExistingDirectory);
    std::string hostName = "glfw";
    app.add_option("--host", hostName,
                   "Viewer: the window system: glfw (the desktop, default) or sdl (SDL2; SDL_VIDEODRIVER picks x11, "
                   "wayland, kmsdrm or offscreen)")
        ->check(CLI::IsMember({"glfw", "sdl"}));
    std::string windowSize = std::to_string(viewer.width) + "x" + std::to_string(viewer.height);
    app.add_option("--size", windowSize, "Viewer: window size WxH (default 1280x720)")->check(checkSize);
    app.add_option("--frames", viewer.maxFrames, "Viewer: close after this many frames (scripted runs)")
        ->check(CLI::NonNegativeNumber)->group("Scripting");
    app.add_option("--screenshot", viewer.screenshot, "Viewer: save the last frame (scene and panel) as a PNG")
        ->group("Scripting");
    app.add_option("--script", viewer.script, "Viewer: run the commands in this file between frames (listed below)")
        ->group("Scripting");
    // Subcommands copy the footer they are made with: the formats; the viewer's script commands
    // are added to the program's own help once they exist.
    app.footer(formatHelp());

    std::string file;
    bool json = false;
    TimeSelection time;

    CLI::App* info = app.add_subcommand("info", "Print what a file holds (counts, animation, bounds)");
    info->add_option("FILE", file, "Model file (archive.vp:path/model.pof inside a VP archive), or 'demo'")
        ->required();
    info->add_flag("--json", json, "Print one JSON object");
    std::vector<std::string> texturePaths;
    const char* kTexturePathHelp = "Also look for textures in this folder, after the model's own (repeatable)";
    info->add_option("--texture-path", texturePaths, kTexturePathHelp)->check(CLI::ExistingDirectory);
    addTimeOptions(info, time);

    RenderRequest render;
    CLI::App* renderCmd = app.add_subcommand("render", "Render a file headless to a PNG");
    renderCmd
        ->add_option("FILE", render.file,
                     "Model file (archive.vp:path/model.pof inside a VP archive), or 'demo'")
        ->required();
    renderCmd->add_option("-o,--output", render.output, "PNG file to write")->required();
    std::string size = "800x600";
    renderCmd->add_option("--size", size, "Image size WxH")->check(checkSize);
    addTimeOptions(renderCmd, time);
    renderCmd->add_option("--camera", render.camera, "File camera index (default: an orbit camera framing the scene)");
    std::string mode = "shaded";
    renderCmd->add_option("--mode", mode, "shaded|wireframe|normals|weights|batches|uv|unlit|colors|skindiff|shaded-wire|mip|texel-density|overdraw|overdraw-all")->check(checkViewModeName);
    renderCmd->add_flag("--gles2", render.gles2, "Render with OpenGL ES 2.0 limits and features enforced");
    renderCmd->add_flag("--gles2-strict", render.gles2Strict,
                        "Render as a strict ES 2.0 device (implies --gles2): no extensions, limits at the ES 2.0 "
                        "minimum; the adaptations are printed as warnings");
    renderCmd->add_option("--device", render.device,
                          "Render with a device profile's ES version, extensions and limits (" + deviceNameList() +
                              "); the adaptations are printed as warnings")
        ->check(checkDeviceName);
    renderCmd->add_option("--weight-bone", render.weightBone,
                          "Weights mode: the joint whose weights to show, by node name or index");
    renderCmd->add_flag("--skeleton", render.skeleton, "Draw the skeleton (bones as lines, joints as points) over the scene");
    renderCmd->add_flag("--normal-lines", render.normalLines, "Draw each vertex normal as a short line");
    renderCmd->add_flag("--tangent-lines", render.tangentLines,
                        "Draw each vertex tangent as a short line (the file's or computed from UVs)");
    renderCmd->add_option("--texture-path", render.texturePaths, kTexturePathHelp)->check(CLI::ExistingDirectory);
    std::string lighting = lightingName(render.lighting);
    renderCmd->add_option("--lighting", lighting, "file|studio|both: the file's lights, the studio rig, or both (default)")
        ->check([](const std::string& s) {
            Lighting l;
            return parseLighting(s.c_str(), l) ? std::string() : std::string("unknown lighting '" + s + "'");
        });
    std::string missingTexture = missingTextureName(render.missingTexture);
    renderCmd->add_option("--missing-texture", missingTexture, "grey|checker: how a texture not found is drawn (default grey)")
        ->check([](const std::string& s) {
            MissingTexture m;
            return parseMissingTexture(s.c_str(), m) ? std::string() : std::string("expected grey or checker");
        });

    SequenceRequest sequence;
    addSequenceOptions(renderCmd, sequence);

    Subcommand check = addCheckCommand(app);
    Subcommand compare = addCompareCommand(app);
    Subcommand cost = addCostCommand(app);
    Subcommand convert = addConvertCommand(app);
    Subcommand thumbnail = addThumbnailCommand(app);
    app.footer(formatHelp() + "\nViewer script commands (one per line, '#' comments):\n" +
               scriptCommandHelp());

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? kExitOk : kExitUsage;
    }

    if (info->parsed()) return runInfo(file, json, time, texturePaths);
    if (check.cli->parsed()) return check.run();
    if (convert.cli->parsed()) return convert.run();
    if (cost.cli->parsed()) return cost.run();
    if (compare.cli->parsed()) return compare.run();
    if (thumbnail.cli->parsed()) return thumbnail.run();
    if (renderCmd->parsed()) {
        std::sscanf(size.c_str(), "%dx%d", &render.width, &render.height);
        parseViewMode(mode.c_str(), render.mode);
        parseLighting(lighting.c_str(), render.lighting);
        parseMissingTexture(missingTexture.c_str(), render.missingTexture);
        render.time = time;
        return runRenderCommand(render, sequence);
    }
    std::sscanf(windowSize.c_str(), "%dx%d", &viewer.width, &viewer.height);
    if (hostName == "sdl") {
        SdlHost host;
        return runViewer(host, viewer);
    }
#if defined(ESVIEW_NO_GLFW)  // Android: the SDL host only (platforms/android)
    std::cerr << "esview: this build has no GLFW host; use --host sdl\n";
    return kExitUsage;
#else
    GlfwHost host;
    return runViewer(host, viewer);
#endif
}

}  // namespace esv
