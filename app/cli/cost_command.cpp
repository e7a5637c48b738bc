#include "app/cli/cost_command.h"

#include <cstdio>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/hosts/egl_context.h"
#include "app/viewer/exit_code.h"
#include "cost/cost_report.h"
#include "loaders/textures/scene_textures.h"
#include "prepare/prepare.h"
#include "renderer/camera.h"
#include "renderer/renderer.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

// The frame's state changes, measured: the scene prepared for the device and drawn headless with
// its renderer profile, at the pose a thirtieth of a second before (after, at the clip's start) and
// then at the pose itself (as playback draws it: what changed since the last frame is sent again,
// what did not is not).
bool measureFrame(const Scene& loaded, const DeviceProfile& device, const ResolvedTime& time, FrameCost& frame,
                  std::string& error) {
    EglContext context;
    if (!context.create(device.esVersion < 30 ? 2 : 3, error)) return false;
    RendererOptions options;
    options.gles2 = device.esVersion < 30;
    options.device = device.name;
    std::unique_ptr<Renderer> renderer = Renderer::create(options, error);
    if (!renderer) return false;
    const std::unique_ptr<Scene> prepared = prepareForTarget(loaded, targetCaps(renderer->info()));
    if (!renderer->setScene(*prepared, prepared->report, error)) return false;
    constexpr int kWidth = 640, kHeight = 480;
    OffscreenTarget target;
    if (!target.create(kWidth, kHeight, error)) return false;
    target.bind();
    Pose before, pose;
    constexpr float kFrame = 1.0f / 30.0f;
    evaluatePose(*prepared, time.clip, time.seconds >= kFrame ? time.seconds - kFrame : time.seconds + kFrame, before);
    evaluatePose(*prepared, time.clip, time.seconds, pose);
    ViewSettings view;
    const Bounds bounds = sceneBounds(*prepared, pose);
    if (bounds.valid()) frameBounds(view.orbit, bounds.min, bounds.max, float(kWidth) / float(kHeight));
    renderer->prepareFrame(*prepared, before, view);
    renderer->draw(*prepared, before, view, kWidth, kHeight);
    const FrameStats stats = renderer->draw(*prepared, pose, view, kWidth, kHeight);
    frame.changes = stats.changes;
    frame.measured = true;
    return true;
}

std::string kib(uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", double(bytes) / 1024.0);
    return text;
}

nlohmann::ordered_json changesJson(const StateChanges& k) {
    return {{"programs", k.programs},         {"textures", k.textures},          {"vertex_arrays", k.vertexArrays},
            {"buffers", k.buffers},           {"attributes", k.attributes},      {"render_state", k.renderState},
            {"uniforms", k.uniforms},         {"uniform_bytes", k.uniformBytes}, {"palette_bytes", k.paletteBytes}};
}

nlohmann::ordered_json reportJson(const std::string& file, const CostReport& r) {
    using Json = nlohmann::ordered_json;
    const DeviceProfile& d = *r.device;
    Json j;
    j["file"] = file;
    j["device"] = {{"name", d.name},
                   {"title", d.title},
                   {"es_version", std::to_string(d.esVersion / 10) + "." + std::to_string(d.esVersion % 10)},
                   {"vertex_cache", d.vertexCache},
                   {"palette_bones", devicePaletteCapacity(d)},
                   {"max_texture_size", d.limits.maxTextureSize}};
    j["meshes"] = Json::array();
    for (const MeshCost& m : r.meshes) {
        Json batches = Json::array();
        for (const BatchCost& b : m.batches)
            batches.push_back({{"bones", b.bones}, {"palette_vectors", b.paletteVectors}, {"over_limit", b.overLimit}});
        j["meshes"].push_back({{"name", m.name},
                               {"vertices", m.vertices},
                               {"triangles", m.triangles},
                               {"lines", m.lines},
                               {"points", m.points},
                               {"attributes", m.attributes},
                               {"vertex_bytes", m.vertexBytes},
                               {"index_bytes", m.indexBytes},
                               {"acmr", m.acmr},
                               {"atvr", m.atvr},
                               {"acmr_optimized", m.acmrOptimized},
                               {"atvr_optimized", m.atvrOptimized},
                               {"vertices_transformed", m.verticesTransformed},
                               {"overfetch", m.overfetch},
                               {"overdraw", m.overdraw},
                               {"duplicate_vertices", m.duplicateVertices},
                               {"batches", batches},
                               {"morph_targets", m.morphTargets},
                               {"morph_bytes", m.morphBytes}});
    }
    j["textures"] = Json::array();
    for (const TextureCost& t : r.textures)
        j["textures"].push_back({{"name", t.name},
                                 {"file", t.file},
                                 {"format", t.format},
                                 {"width", t.width},
                                 {"height", t.height},
                                 {"mip_levels", t.mipLevels},
                                 {"faces", t.faces},
                                 {"missing", t.missing},
                                 {"stored_bytes", t.storedBytes},
                                 {"gpu_bytes", t.gpuBytes},
                                 {"usable_as_is", t.usableAsIs},
                                 {"problems", t.problems},
                                 {"suggestion", t.suggestion},
                                 {"suggested_bytes", t.suggestedBytes}});
    const FrameCost& f = r.frame;
    j["frame"] = {{"seconds", f.seconds},
                  {"draws", f.draws},
                  {"triangles", f.triangles},
                  {"vertices_transformed", f.verticesTransformed},
                  {"vertex_bytes_fetched", f.vertexBytesFetched},
                  {"texture_bytes", f.textureBytes},
                  {"measured", f.measured},
                  {"state_changes", f.measured ? changesJson(f.changes) : Json(nullptr)}};
    const CostTotals& t = r.totals;
    j["totals"] = {{"vertices", t.vertices},         {"triangles", t.triangles},
                   {"vertex_bytes", t.vertexBytes},  {"index_bytes", t.indexBytes},
                   {"morph_bytes", t.morphBytes},    {"texture_bytes", t.textureBytes},
                   {"max_bones_per_batch", t.maxBonesPerBatch}, {"max_texture_size", t.maxTextureSize}};
    j["over_limits"] = r.overLimits;
    j["preparation"] = r.preparation;
    return j;
}

void printMeshes(const CostReport& r) {
    std::printf("\nMeshes %-20s %9s %9s %10s %9s %6s %6s %6s %9s %8s %5s  %s\n", "", "vertices", "triangles",
                "vertex KiB", "index KiB", "ACMR", "opt", "ATVR", "overfetch", "overdraw", "dup", "bone batches");
    for (const MeshCost& m : r.meshes) {
        std::string batches;
        for (const BatchCost& b : m.batches)
            batches += (batches.empty() ? "" : ", ") + std::to_string(b.bones) + (b.overLimit ? " (over)" : "");
        std::printf("  %-25.25s %9u %9u %10s %9s %6.3f %6.3f %6.3f %9.3f %8.3f %5u  %s\n", m.name.c_str(), m.vertices,
                    m.triangles, kib(m.vertexBytes).c_str(), kib(m.indexBytes).c_str(), m.acmr, m.acmrOptimized, m.atvr,
                    m.overfetch, m.overdraw, m.duplicateVertices, batches.empty() ? "-" : batches.c_str());
        if (m.lines || m.points) std::printf("  %-25s %u lines, %u points\n", "", m.lines, m.points);
        if (m.morphTargets)
            std::printf("  %-25s %u morph targets, %s KiB\n", "", m.morphTargets, kib(m.morphBytes).c_str());
    }
}

void printTextures(const CostReport& r) {
    if (r.textures.empty()) return;
    std::printf("\nTextures %-18s %-20s %11s %5s %10s %10s  %s\n", "", "format", "size", "mips", "stored KiB", "GPU KiB",
                "as stored");
    for (const TextureCost& t : r.textures) {
        const std::string size = std::to_string(t.width) + "x" + std::to_string(t.height);
        std::printf("  %-25.25s %-20.20s %11s %5u %10s %10s  %s\n", t.name.c_str(), t.format.c_str(), size.c_str(),
                    t.mipLevels, kib(t.storedBytes).c_str(), kib(t.gpuBytes).c_str(), t.usableAsIs ? "yes" : "no");
        for (const std::string& p : t.problems) std::printf("  %-25s - %s\n", "", p.c_str());
        if (!t.suggestion.empty()) std::printf("  %-25s suggestion: %s\n", "", t.suggestion.c_str());
    }
}

void printReport(const std::string& file, const CostReport& r) {
    const DeviceProfile& d = *r.device;
    std::printf("%s on %s (%s: OpenGL ES %d.%d, a %u-entry vertex cache model, %d bones per draw)\n", file.c_str(),
                d.title.c_str(), d.name.c_str(), d.esVersion / 10, d.esVersion % 10, d.vertexCache,
                devicePaletteCapacity(d));
    printMeshes(r);
    printTextures(r);
    const FrameCost& f = r.frame;
    std::printf("\nFrame at %.2f s: %u draws, %u triangles, %u vertices transformed, %s KiB of vertices fetched, "
                "%s KiB of textures resident\n",
                f.seconds, f.draws, f.triangles, f.verticesTransformed, kib(f.vertexBytesFetched).c_str(),
                kib(f.textureBytes).c_str());
    if (f.measured) {
        const StateChanges& k = f.changes;
        std::printf("  state changes: %u (programs %u, textures %u, vertex arrays %u, buffers %u, attributes %u, "
                    "render state %u, uniforms %u: %s KiB, of which palettes %s KiB)\n",
                    k.total(), k.programs, k.textures, k.vertexArrays, k.buffers, k.attributes, k.renderState, k.uniforms,
                    kib(k.uniformBytes).c_str(), kib(k.paletteBytes).c_str());
    }
    const CostTotals& t = r.totals;
    std::printf("\nTotals: %llu vertices, %llu triangles, %s KiB of vertices, %s KiB of indices, %s KiB of textures "
                "on the GPU\n",
                static_cast<unsigned long long>(t.vertices), static_cast<unsigned long long>(t.triangles),
                kib(t.vertexBytes).c_str(), kib(t.indexBytes).c_str(), kib(t.textureBytes).c_str());
    if (!r.overLimits.empty()) {
        std::printf("\nAgainst the device:\n");
        for (const std::string& line : r.overLimits) std::printf("  - %s\n", line.c_str());
    }
    if (!r.preparation.empty()) {
        std::printf("\nWhat esview's preparation does for the device:\n");
        for (const std::string& line : r.preparation) std::printf("  - %s\n", line.c_str());
    }
}

}  // namespace

int runCost(const CostRequest& request) {
    const DeviceProfile* device = findDevice(request.device);
    if (!device) {
        std::fprintf(stderr, "esview cost: unknown device '%s' (the devices: %s)\n", request.device.c_str(),
                     deviceNameList().c_str());
        return kExitUsage;
    }
    LoadResult loaded = openScene(request.file);
    if (!loaded.scene) {
        for (const Problem& p : loaded.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        return kExitBadInput;
    }
    Scene& scene = *loaded.scene;
    readSceneTextures(scene, {}, request.texturePaths);
    ResolvedTime time;
    std::string error;
    if (!resolveTime(scene, request.time, time, error)) {
        std::fprintf(stderr, "%s: %s\n", request.file.c_str(), error.c_str());
        return kExitBadInput;
    }
    CostReport report = analyzeCost(scene, *device, time.clip, time.seconds);
    if (!measureFrame(scene, *device, time, report.frame, error))
        std::fprintf(stderr, "%s: note: the frame's state changes were not measured (%s)\n", request.file.c_str(),
                     error.c_str());
    if (request.json) {
        std::printf("%s\n", reportJson(request.file, report).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace).c_str());
    } else {
        printReport(request.file, report);
    }
    return kExitOk;
}

Subcommand addCostCommand(CLI::App& app) {
    auto request = std::make_shared<CostRequest>();
    CLI::App* cmd = app.add_subcommand(
        "cost", "What a model costs on a device: per mesh, per texture, per frame, and the device's limits it exceeds");
    cmd->add_option("FILE", request->file, "Model file (archive.vp:path/model.pof inside a VP archive), or 'demo'")
        ->required();
    cmd->add_option("--device", request->device, "The device profile (" + deviceNameList() + "; default ge8320)")
        ->check(checkDeviceName);
    cmd->add_flag("--json", request->json, "Print one JSON object (its fields are in the README)");
    cmd->add_option("--texture-path", request->texturePaths,
                    "Also look for textures in this folder, after the model's own (repeatable)")
        ->check(CLI::ExistingDirectory);
    addTimeOptions(cmd, request->time);
    return {cmd, [request] { return runCost(*request); }};
}

}  // namespace esv
