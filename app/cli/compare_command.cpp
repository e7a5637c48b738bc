#include "app/cli/compare_command.h"

#include <cmath>
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/render_command.h"
#include "app/viewer/compare_view.h"
#include "app/viewer/exit_code.h"
#include "app/viewer/golden_rule.h"
#include "app/viewer/png_file.h"
#include "app/viewer/viewer_actions.h"
#include "target/device_profiles.h"

namespace esv {
namespace {

// True when the two framing boxes are the same within a millionth of A's diagonal, or both empty.
bool sameBounds(const Bounds& a, const Bounds& b) {
    if (!a.valid() || !b.valid()) return a.valid() == b.valid();
    const float eps = 1e-6f * glm::length(a.max - a.min) + 1e-12f;
    for (int i = 0; i < 3; ++i)
        if (std::abs(a.min[i] - b.min[i]) > eps || std::abs(a.max[i] - b.max[i]) > eps) return false;
    return true;
}

// The camera A is drawn with: none (A's own first view, as `render A` draws it) when both frame the
// same box, else A's first view direction fitted on both framings together, B's in A's axes.
std::optional<OrbitCamera> cameraOfA(const RenderRequest& ra, const RenderScene& a, const RenderRequest& rb,
                                     const RenderScene& b) {
    const Scene &sceneA = *a.loaded.scene, &sceneB = *b.loaded.scene;
    Bounds boundsA, boundsB;
    std::vector<glm::vec3> pointsA, pointsB;
    renderFraming(ra, sceneA, a.time, boundsA, pointsA);
    renderFraming(rb, sceneB, b.time, boundsB, pointsB);
    boundsB = boundsIntoAxesOf(sceneA, sceneB, boundsB);
    if (sameBounds(boundsA, boundsB)) return std::nullopt;
    Bounds both = boundsA;
    both.add(boundsB);
    for (const glm::vec3& p : pointsB) pointsA.push_back(intoAxesOf(sceneA, sceneB, p));
    OrbitCamera orbit;
    frameFirstView(orbit, sceneA, both, pointsA, float(ra.width) / float(ra.height));
    return orbit;
}

nlohmann::ordered_json cameraJson(const OrbitCamera& o) {
    return {{"target", {o.target.x, o.target.y, o.target.z}},
            {"yaw", o.yaw},
            {"pitch", o.pitch},
            {"distance", o.distance},
            {"yfov", o.yfov},
            {"z_up", o.zUp}};
}

nlohmann::ordered_json resultJson(const CompareRequest& request, const golden::CompareResult& r, bool alike,
                                  const RenderScene& a, const OrbitCamera& orbit) {
    const golden::GoldenRule rule;
    const Scene& scene = *a.loaded.scene;
    nlohmann::ordered_json time = {{"clip", nullptr}, {"seconds", a.time.seconds}};
    if (a.time.clip >= 0) time["clip"] = scene.animation.clips[size_t(a.time.clip)].name;
    return {{"a", request.a},
            {"b", request.b},
            {"alike", alike},
            {"model_pixels", r.modelPixels},
            {"pixels_off", r.modelDiffering},
            {"share_off", r.modelFraction},
            {"picture_share_off", r.differingFraction},
            {"mean_difference", r.meanDifference},
            {"max_difference", r.maxDifference},
            {"size", {{"width", request.width}, {"height", request.height}}},
            {"time", time},
            {"camera", cameraJson(orbit)},
            {"rule",
             {{"tolerance", rule.tolerance},
              {"max_share_off", rule.maxModelFraction},
              {"max_picture_share_off", rule.maxPictureFraction},
              {"max_mean_difference", rule.maxMeanDifference}}}};
}

// The verdict in one line: the share of model pixels off and the mean colour difference, with what
// the rule allows.
void printVerdict(const CompareRequest& request, const golden::CompareResult& r, bool alike) {
    const golden::GoldenRule rule;
    std::printf(
        "%s vs %s: %s: %.2f%% of %zu model pixels off by more than %d levels (allowed %g%%), mean "
        "difference %.2f levels (allowed %g)",
        request.a.c_str(), request.b.c_str(), alike ? "alike" : "different", 100.0 * r.modelFraction,
        r.modelPixels, rule.tolerance, 100.0 * rule.maxModelFraction, r.meanDifference,
        rule.maxMeanDifference);
    if (r.differingFraction > rule.maxPictureFraction)
        std::printf(", %.2f%% of the picture off (allowed %g%%)", 100.0 * r.differingFraction,
                    100.0 * rule.maxPictureFraction);
    std::printf("\n");
}

}  // namespace

int runCompare(const CompareRequest& request) {
    RenderRequest ra;
    ra.width = request.width;
    ra.height = request.height;
    parseViewMode(request.mode.c_str(), ra.mode);
    ra.device = request.device;
    ra.time = request.time;
    ra.texturePaths = request.texturePaths;
    RenderRequest rb = ra;
    ra.file = request.a;
    rb.file = request.b;
    // Both files are opened first, so the problems of each are printed.
    RenderScene a, b;
    const int statusA = openRenderScene(ra, a), statusB = openRenderScene(rb, b);
    if (statusA != kExitOk || statusB != kExitOk) return kExitBadInput;
    ra.orbit = cameraOfA(ra, a, rb, b);
    RenderedFrames framesA, framesB;
    if (const int status = renderOpened(ra, a, framesA); status != kExitOk) return status;
    rb.orbit = orbitIntoAxesOf(framesA.orbit, *a.loaded.scene, *b.loaded.scene);
    if (const int status = renderOpened(rb, b, framesB); status != kExitOk) return status;

    const golden::GoldenRule rule;
    const golden::Image imageA{request.width, request.height, framesA.rgba.front()};
    const golden::Image imageB{request.width, request.height, framesB.rgba.front()};
    const golden::CompareResult result = golden::compareImages(imageB, imageA, rule.tolerance);
    const bool alike = golden::brokenRules(result, rule).empty();
    if (!request.output.empty()) {
        const golden::Image diff = golden::differenceImage(imageA, imageB, rule.tolerance);
        if (!writePng(request.output, diff.width, diff.height, diff.rgba)) {
            std::fprintf(stderr, "esview: cannot write %s\n", request.output.c_str());
            return kExitBadInput;
        }
    }
    if (request.json)
        std::printf("%s\n", resultJson(request, result, alike, a, framesA.orbit)
                                .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                                .c_str());
    else
        printVerdict(request, result, alike);
    return alike ? kExitOk : kExitBadInput;
}

Subcommand addCompareCommand(CLI::App& app) {
    auto request = std::make_shared<CompareRequest>();
    auto size = std::make_shared<std::string>("800x600");
    CLI::App* cmd = app.add_subcommand(
        "compare",
        "Render two models with one camera and time and compare the pictures (exit 0 alike, 1 different)");
    cmd->add_option("A", request->a, "The reference model (its first view is the camera), or 'demo'")
        ->required();
    cmd->add_option("B", request->b, "The model compared with it (e.g. A converted)")->required();
    cmd->add_option(
        "-o,--output", request->output,
        "Write a difference image: A in grey, pixels beyond the tolerance in red (brighter: larger)");
    cmd->add_flag("--json", request->json, "Print the figures as one JSON object");
    cmd->add_option("--size", *size, "Picture size WxH (default 800x600)")->check(checkSize);
    cmd->add_option("--mode", request->mode,
                    "The view mode both are drawn in (as render's --mode; default shaded)")
        ->check(checkViewModeName);
    cmd->add_option(
           "--device", request->device,
           "Render both with a device profile's ES version, extensions and limits (" + deviceNameList() + ")")
        ->check(checkDeviceName);
    cmd->add_option("--texture-path", request->texturePaths,
                    "Also look for textures in this folder, after each model's own (repeatable)")
        ->check(CLI::ExistingDirectory);
    addTimeOptions(cmd, request->time);
    return {cmd, [request, size] {
                std::sscanf(size->c_str(), "%dx%d", &request->width, &request->height);
                return runCompare(*request);
            }};
}

}  // namespace esv
