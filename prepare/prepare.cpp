#include "prepare/prepare.h"

#include "loaders/textures/scene_textures.h"
#include "renderer/binding_plan.h"
#include "renderer/renderer.h"
#include "scene/rebatch.h"
#include "scene/tangents.h"

namespace esv {

TargetCaps targetCaps(const RendererInfo& info) {
    TargetCaps caps;
    caps.esVersion = info.es3 ? 3 : 2;
    caps.paletteCapacity = info.paletteCapacity;
    caps.uintIndices = info.uintIndices;
    caps.compressedFormats = info.compressedFormats;
    return caps;
}

namespace {

// Step 3: widens what the target cannot read, in one pass per stream, with one warning each.
void convertVertexTypes(Scene& scene, const TargetCaps& target, PrepareStats& stats) {
    VertexCaps caps;
    caps.es3 = target.es3();
    for (Mesh& mesh : scene.meshes) {
        for (VertexStream& stream : mesh.streams) {
            if (!planBindings(stream, caps).needsConversion) continue;
            stream = convertToFloat(stream);
            ++stats.streamsConverted;
            scene.warn("mesh '" + mesh.name +
                       "': a vertex stream was converted to float32 once because this context cannot read "
                       "its stored types or alignment");
        }
        for (MorphTarget& morph : mesh.morphTargets) {
            if (!planBindings(morph.stream, caps).needsConversion) continue;
            morph.stream = convertToFloat(morph.stream);
            ++stats.streamsConverted;
            scene.warn("mesh '" + mesh.name + "': morph target '" + morph.name +
                       "' was converted to float32 once for this context");
        }
    }
}

// Step 4: tangent frames for the meshes that a material of a node drawing them normal-maps.
void makeTangentFrames(Scene& scene, PrepareStats& stats) {
    std::vector<bool> wanted(scene.meshes.size(), false);
    for (const Node& node : scene.nodes) {
        if (node.kind != NodeKind::Mesh || node.object < 0 || size_t(node.object) >= scene.meshes.size())
            continue;
        for (int32_t m : node.materials)
            if (m >= 0 && size_t(m) < scene.materials.size() && normalMapTexture(scene.materials[m]) >= 0)
                wanted[node.object] = true;
    }
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        Mesh& mesh = scene.meshes[i];
        if (!wanted[i] || mesh.tangentFrames) continue;
        auto tangents = std::make_shared<std::vector<glm::vec4>>();
        std::string source;
        if (!computeTangents(mesh, *tangents, &source)) continue;  // no normals or no UVs: not normal-mapped
        mesh.tangentFrames = std::move(tangents);
        ++stats.tangentMeshes;
        scene.info("mesh '" + mesh.name + "': tangent frames for normal mapping from " + source);
    }
}

}  // namespace

std::unique_ptr<Scene> prepareForTarget(const Scene& loaded, const TargetCaps& target,
                                        const PrepareProgress& progress, PrepareStats* statsOut) {
    PrepareStats stats;
    auto report = [&](float fraction, const std::string& stage) {
        if (progress) progress(fraction, stage);
    };
    auto scene = std::make_unique<Scene>(loaded);

    // 1. Textures: read (when the caller has not), then decoded for what the target samples.
    auto textureProgress = [&](size_t i, size_t n) {
        report(0.8f * float(i) / float(n), "textures " + std::to_string(i + 1) + "/" + std::to_string(n));
    };
    if (!texturesRead(*scene)) {
        readSceneTextures(*scene, textureProgress);
        stats.texturesRead = scene->textures.size();
    }
    report(0.8f, "decoding textures");
    decodeSceneTextures(
        *scene, [&](PixelFormat f) { return target.supports(f); }, &stats.texturesDecoded);

    // 2. Bone batches within the palette.
    report(0.85f, "bone batches");
    if (target.paletteCapacity > 0)
        stats.meshesRebatched = rebatchSceneBones(*scene, uint32_t(target.paletteCapacity));

    // 3. Vertex types the target cannot read.
    report(0.9f, "vertex types");
    convertVertexTypes(*scene, target, stats);

    // 4. Tangent frames.
    report(0.95f, "tangents");
    makeTangentFrames(*scene, stats);

    report(1.0f, "prepared");
    if (statsOut) *statsOut = stats;
    return scene;
}

}  // namespace esv
