#include "prepare/prepare.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "loaders/textures/scene_textures.h"
#include "target/binding_plan.h"
#include "target/texture_plan.h"
#include "scene/cpu_reference.h"
#include "scene/rebatch.h"
#include "scene/vertex_windows.h"
#include "scene/tangents.h"

namespace esv {

Image resizeImage(const Image& image, uint32_t width, uint32_t height) {
    Image out = image;
    out.width = width;
    out.height = height;
    out.levels = 1;
    out.surfaces.clear();
    const uint32_t sw = image.width, sh = image.height;
    for (uint32_t face = 0; face < image.faces; ++face) {
        const uint8_t* src = image.surface(0, face).data;
        std::vector<uint8_t> dst(size_t(width) * height * 4);
        // Each destination texel samples the source at its centre; minification averages the
        // source texels it covers (a box filter) so that detail does not alias.
        const float sx = float(sw) / float(width), sy = float(sh) / float(height);
        const int boxX = std::max(1, int(std::ceil(sx))), boxY = std::max(1, int(std::ceil(sy)));
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x) {
                float sum[4] = {};
                float weight = 0.0f;
                for (int by = 0; by < boxY; ++by)
                    for (int bx = 0; bx < boxX; ++bx) {
                        const float fx = (float(x) + (float(bx) + 0.5f) / float(boxX)) * sx - 0.5f;
                        const float fy = (float(y) + (float(by) + 0.5f) / float(boxY)) * sy - 0.5f;
                        const float cx = std::clamp(fx, 0.0f, float(sw - 1)),
                                    cy = std::clamp(fy, 0.0f, float(sh - 1));
                        const uint32_t x0 = uint32_t(cx), y0 = uint32_t(cy);
                        const uint32_t x1 = std::min(x0 + 1, sw - 1), y1 = std::min(y0 + 1, sh - 1);
                        const float tx = cx - float(x0), ty = cy - float(y0);
                        for (int c = 0; c < 4; ++c) {
                            auto at = [&](uint32_t px, uint32_t py) {
                                return float(src[(size_t(py) * sw + px) * 4 + c]);
                            };
                            const float top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * tx;
                            const float bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * tx;
                            sum[c] += top + (bottom - top) * ty;
                        }
                        weight += 1.0f;
                    }
                for (int c = 0; c < 4; ++c)
                    dst[(size_t(y) * width + x) * 4 + c] =
                        uint8_t(std::clamp(sum[c] / weight + 0.5f, 0.0f, 255.0f));
            }
        out.surfaces.push_back(makeOwnedBytes(std::move(dst)));
    }
    return out;
}

namespace {

// Step 1, for targets without NPOT textures or with a size limit: RGBA8 images resized, one
// report line each.
void resizeTextures(Scene& scene, const TargetCaps& target, PrepareStats& stats) {
    if (target.npotTextures && target.maxTextureSize <= 0) return;
    for (Texture& texture : scene.textures) {
        Image& image = texture.image;
        if (image.empty() || image.format != PixelFormat::Rgba8 || image.width == 0 || image.height == 0)
            continue;
        uint32_t width = image.width, height = image.height;
        if (target.maxTextureSize > 0) {
            // Downscaled as a whole, keeping the aspect ratio.
            const uint32_t limit = uint32_t(target.maxTextureSize);
            const uint32_t largest = std::max(width, height);
            if (largest > limit) {
                width = std::max(1u, uint32_t(uint64_t(width) * limit / largest));
                height = std::max(1u, uint32_t(uint64_t(height) * limit / largest));
            }
        }
        if (!target.npotTextures) {
            // ES 2.0 without OES_texture_npot allows other sizes only clamped and without mipmaps;
            // the next powers of two keep every texel's detail, repeat wrapping and mipmaps.
            width = nextPowerOfTwo(width);
            height = nextPowerOfTwo(height);
            if (image.isCube()) width = height = std::max(width, height);
            if (target.maxTextureSize > 0) {
                while (width > uint32_t(target.maxTextureSize)) width >>= 1;
                while (height > uint32_t(target.maxTextureSize)) height >>= 1;
            }
        }
        if (width == image.width && height == image.height) continue;
        const std::string from = std::to_string(image.width) + "x" + std::to_string(image.height);
        const bool npot = !target.npotTextures && ((image.width & (image.width - 1)) != 0 ||
                                                   (image.height & (image.height - 1)) != 0);
        image = resizeImage(image, width, height);
        ++stats.texturesResized;
        scene.warn("texture '" + texture.name + "': resized from " + from + " to " + std::to_string(width) +
                   "x" + std::to_string(height) + " for this target (" +
                   (npot ? "no non-power-of-two textures without GL_OES_texture_npot"
                         : "above GL_MAX_TEXTURE_SIZE " + std::to_string(target.maxTextureSize)) +
                   ")");
    }
}

// Step 5: without 32-bit indices, 32-bit index lists narrowed to 16 bits where every index fits;
// a mesh that draws a vertex above 65535 is split into windows of 65536 vertices instead.
void fitIndices(Scene& scene, const TargetCaps& target, PrepareStats& stats) {
    if (target.uintIndices) return;
    for (Mesh& mesh : scene.meshes) {
        IndexData& indices = mesh.indices;
        if (indices.type == ComponentType::UInt32 && indices.count > 0 &&
            indices.bytes.size >= size_t(indices.count) * 4) {
            std::vector<uint8_t> narrow(size_t(indices.count) * 2);
            bool fits = true;
            for (uint32_t i = 0; i < indices.count && fits; ++i) {
                uint32_t v;
                std::memcpy(&v, indices.bytes.data + size_t(i) * 4, 4);
                fits = v <= 0xFFFF;
                const uint16_t s = uint16_t(v);
                std::memcpy(narrow.data() + size_t(i) * 2, &s, 2);
            }
            if (fits) {
                indices.bytes = makeOwnedBytes(std::move(narrow));
                indices.type = ComponentType::UInt16;
                ++stats.indexListsNarrowed;
                scene.warn(
                    "mesh '" + mesh.name + "': " + std::to_string(indices.count) +
                    " 32-bit indices narrowed to 16 bits once (no GL_OES_element_index_uint on this target)");
                continue;
            }
        }
        if (!needsVertexWindows(mesh)) {
            if (indices.type == ComponentType::UInt32 && indices.count > 0) {
                ++stats.indexListsTooLarge;
                scene.warn("mesh '" + mesh.name +
                           "': indices above 65535 need GL_OES_element_index_uint, which this target lacks");
            }
            continue;
        }
        VertexWindowResult split = splitVertexWindows(mesh);
        if (!split.ok) {
            ++stats.indexListsTooLarge;
            scene.warn(split.error + "; it needs GL_OES_element_index_uint, which this target lacks");
            continue;
        }
        const VertexWindowSummary& w = split.summary;
        mesh = std::move(split.mesh);
        ++stats.meshesSplit;
        scene.warn("mesh '" + mesh.name + "': " + std::to_string(w.verticesBefore) + " vertices drawn in " +
                   std::to_string(w.windows) + " windows of at most 65536 with 16-bit indices (no " +
                   "GL_OES_element_index_uint on this target); " + std::to_string(w.duplicatedVertices) +
                   " vertices copied into a second window, " + std::to_string(w.submeshesAfter) +
                   " draw ranges" + (w.adjacencyDropped ? "; its adjacency was not kept" : ""));
    }
}

// Step 3: widens what the target cannot read, in one pass per stream, with one warning each (an
// info line where fixed-point data is all that WebGL cannot read).
void convertVertexTypes(Scene& scene, const TargetCaps& target, PrepareStats& stats) {
    VertexCaps caps;
    caps.es3 = target.es3();
    caps.fixedPoint = target.fixedAttributes;
    VertexCaps withFixed = caps;
    withFixed.fixedPoint = true;
    for (Mesh& mesh : scene.meshes) {
        for (VertexStream& stream : mesh.streams) {
            if (!planBindings(stream, caps).needsConversion) continue;
            const bool onlyFixed = !planBindings(stream, withFixed).needsConversion;
            stream = convertToFloat(stream);
            ++stats.streamsConverted;
            if (onlyFixed)
                scene.info(
                    "mesh '" + mesh.name +
                    "': a 16.16 fixed-point vertex stream was converted to float32 once (WebGL reads no "
                    "GL_FIXED attributes)");
            else
                scene.warn(
                    "mesh '" + mesh.name +
                    "': a vertex stream was converted to float32 once because this context cannot read "
                    "its stored types or alignment");
        }
        for (MorphTarget& morph : mesh.morphTargets) {
            if (!planBindings(morph.stream, caps).needsConversion) continue;
            const bool onlyFixed = !planBindings(morph.stream, withFixed).needsConversion;
            morph.stream = convertToFloat(morph.stream);
            ++stats.streamsConverted;
            if (onlyFixed)
                scene.info("mesh '" + mesh.name + "': morph target '" + morph.name +
                           "' (16.16 fixed point) was converted to float32 once (WebGL reads no GL_FIXED "
                           "attributes)");
            else
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

// Step 6, on ES 2: the KHR_materials_specular maps the renderer leaves undrawn, a line per material.
void noteSpecularMaps(Scene& scene, const TargetCaps& target, PrepareStats& stats) {
    if (target.es3()) return;
    for (const Material& m : scene.materials) {
        if (m.model != ShadingModel::MetalRough) continue;
        const bool strength = m.texture(TextureSlot::SpecularStrength).texture >= 0;
        const bool tint = m.texture(TextureSlot::SpecularTint).texture >= 0;
        if (!strength && !tint) continue;
        ++stats.specularMapsUndrawn;
        const std::string maps = strength && tint ? "specularTexture and specularColorTexture are"
                                 : strength       ? "specularTexture is"
                                                  : "specularColorTexture is";
        scene.info("material '" + m.name + "': KHR_materials_specular's " + maps +
                   " not drawn on ES 2 (no texture unit left: the other maps take all 8); its factors are");
    }
}

// Step 7: maps the renderer draws from texture coordinate set 0 although they name another: a set
// above 1 (it reads sets 0 and 1), or set 1 on a mesh without it. One line per material.
void noteUvSets(Scene& scene, PrepareStats& stats) {
    // The first mesh drawn with each material that has no set 1 (-1: none).
    std::vector<int32_t> lacking(scene.materials.size(), -1);
    for (const Node& node : scene.nodes) {
        if (node.kind != NodeKind::Mesh || node.object < 0 || size_t(node.object) >= scene.meshes.size()) continue;
        const Mesh& mesh = scene.meshes[node.object];
        if (findAttribute(mesh, Semantic::TexCoord, 1, nullptr)) continue;
        for (const Submesh& s : mesh.submeshes)
            if (s.materialSlot < node.materials.size()) {
                const int32_t m = node.materials[s.materialSlot];
                if (m >= 0 && size_t(m) < lacking.size() && lacking[m] < 0) lacking[m] = node.object;
            }
    }
    static constexpr TextureSlot kSampled[] = {
        TextureSlot::Diffuse,   TextureSlot::Specular, TextureSlot::Normal,           TextureSlot::Bump,
        TextureSlot::Emissive,  TextureSlot::Opacity,  TextureSlot::Metallic,         TextureSlot::Roughness,
        TextureSlot::Occlusion, TextureSlot::SpecularStrength, TextureSlot::SpecularTint};
    for (size_t i = 0; i < scene.materials.size(); ++i) {
        const Material& m = scene.materials[i];
        for (TextureSlot slot : kSampled) {
            const TextureRef& ref = m.texture(slot);
            if (ref.texture < 0 || ref.uvSet == 0 || (ref.uvSet == 1 && lacking[i] < 0)) continue;
            const std::string map = std::string(textureSlotName(slot)) + " map on texture coordinate set " +
                                    std::to_string(int(ref.uvSet));
            ++stats.uvSetsDrawnFromSet0;
            scene.info("material '" + m.name + "': " + map +
                       (ref.uvSet == 1 ? ", which mesh '" + scene.meshes[lacking[i]].name + "' lacks" : std::string()) +
                       "; drawn from set 0");
            break;
        }
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
    resizeTextures(*scene, target, stats);

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

    // 5. Index types.
    fitIndices(*scene, target, stats);

    // 6. What the target cannot sample, said.
    noteSpecularMaps(*scene, target, stats);
    noteUvSets(*scene, stats);

    report(1.0f, "prepared");
    if (statsOut) *statsOut = stats;
    return scene;
}

}  // namespace esv
