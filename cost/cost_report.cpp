#include "cost/cost_report.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

#include <meshoptimizer.h>

#include "prepare/prepare.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "target/binding_plan.h"
#include "target/texture_plan.h"

namespace esv {
namespace {

// The triangle list's indices, when every one names a vertex (meshoptimizer asserts otherwise).
bool indicesInRange(const std::vector<uint32_t>& triangles, uint32_t vertices) {
    return std::all_of(triangles.begin(), triangles.end(), [vertices](uint32_t i) { return i < vertices; });
}

std::string attributeText(const VertexAttribute& a, uint32_t stride) {
    std::string text = semanticName(a.semantic);
    if (a.set > 0) text += std::to_string(a.set);
    text += std::string(" ") + componentTypeName(a.type) + "x" + std::to_string(a.components);
    if (a.normalized) text += " normalized";
    text += " +" + std::to_string(a.offset) + " (stride " + std::to_string(stride) + ")";
    return text;
}

// Positions as floats in model space (the unpack matrix applied), for the overdraw estimate.
std::vector<float> modelPositions(const Mesh& mesh) {
    std::vector<float> out;
    const VertexAttribute* a = nullptr;
    const VertexStream* stream = nullptr;
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& attribute : s.attributes)
            if (!a && attribute.semantic == Semantic::Position && attribute.set == 0) {
                a = &attribute;
                stream = &s;
            }
    if (!a) return out;
    out.resize(size_t(mesh.vertexCount) * 3, 0.0f);
    for (uint32_t v = 0; v < mesh.vertexCount && v < stream->count; ++v) {
        float p[4] = {0, 0, 0, 1};
        readAttribute(*stream, *a, v, p);
        const glm::vec4 q = mesh.positionUnpack * glm::vec4(p[0], p[1], p[2], 1.0f);
        out[size_t(v) * 3] = q.x;
        out[size_t(v) * 3 + 1] = q.y;
        out[size_t(v) * 3 + 2] = q.z;
    }
    return out;
}

// Vertices equal in every stream's bytes: the count less the unique ones.
uint32_t duplicateVertices(const Mesh& mesh) {
    std::vector<meshopt_Stream> streams;
    for (const VertexStream& s : mesh.streams) {
        if (s.count < mesh.vertexCount || s.stride == 0 || s.bytes.size < size_t(mesh.vertexCount) * s.stride) return 0;
        streams.push_back({s.bytes.data, s.stride, s.stride});
    }
    if (streams.empty() || mesh.vertexCount == 0) return 0;
    // Every vertex once, padded with vertex 0 to whole triangles (meshoptimizer takes triangle lists).
    std::vector<unsigned int> all((mesh.vertexCount + 2) / 3 * 3, 0u), remap(mesh.vertexCount);
    for (uint32_t v = 0; v < mesh.vertexCount; ++v) all[v] = v;
    const size_t unique = meshopt_generateVertexRemapMulti(remap.data(), all.data(), all.size(), mesh.vertexCount,
                                                           streams.data(), streams.size());
    return uint32_t(mesh.vertexCount - unique);
}

// The joints a mesh stored without batches draws with: those its vertices weight above zero (the
// skin may list more; the preparation stage's batching counts these too). 0 without skin inputs.
uint32_t weightedJoints(const Mesh& mesh, size_t skinJoints) {
    const VertexStream *indexStream = nullptr, *weightStream = nullptr;
    const VertexAttribute* indices = findAttribute(mesh, Semantic::BoneIndices, 0, &indexStream);
    const VertexAttribute* weights = findAttribute(mesh, Semantic::BoneWeights, 0, &weightStream);
    if (!indices || !weights) return 0;
    std::set<uint32_t> used;
    for (uint32_t v = 0; v < mesh.vertexCount && v < indexStream->count && v < weightStream->count; ++v) {
        float i[4] = {0, 0, 0, 0}, w[4] = {0, 0, 0, 0};
        const int n = std::min(readAttribute(*indexStream, *indices, v, i), readAttribute(*weightStream, *weights, v, w));
        for (int k = 0; k < n; ++k)
            if (w[k] != 0.0f && i[k] >= 0.0f && size_t(i[k]) < skinJoints) used.insert(uint32_t(i[k]));
    }
    return uint32_t(used.size());
}

// The bone batches of a mesh as the device sees them: the stored ones, or one of the joints the
// first node that draws the mesh skinned weights.
std::vector<BatchCost> batchCosts(const Scene& scene, size_t meshIndex, const DeviceProfile& device) {
    const Mesh& mesh = scene.meshes[meshIndex];
    std::vector<uint32_t> sizes;
    for (const BoneBatch& b : mesh.boneBatches) sizes.push_back(uint32_t(b.bones.size()));
    if (sizes.empty())
        for (const Node& node : scene.nodes)
            if (node.kind == NodeKind::Mesh && node.object == int32_t(meshIndex) && node.skin >= 0 &&
                size_t(node.skin) < scene.skins.size()) {
                const size_t joints = scene.skins[node.skin].joints.size();
                const uint32_t weighted = weightedJoints(mesh, joints);
                sizes.push_back(weighted > 0 ? weighted : uint32_t(joints));
                break;
            }
    const int capacity = devicePaletteCapacity(device);
    std::vector<BatchCost> out;
    for (uint32_t bones : sizes)
        out.push_back({bones, bones * 4 + uint32_t(kReservedVertexVectors), int(bones) > capacity});
    return out;
}

bool hasTransparentTexels(const Image& image) {
    if (image.format != PixelFormat::Rgba8 || image.surfaces.empty()) return false;
    const ByteView& s = image.surfaces[0];
    for (size_t i = 3; i < s.size; i += 4)
        if (s.data[i] != 255) return true;
    return false;
}

uint64_t chainBytes(PixelFormat format, uint32_t width, uint32_t height, uint32_t faces, uint32_t blockW = 4,
                    uint32_t blockH = 4) {
    uint64_t bytes = 0;
    const uint32_t levels = fullMipChain(width, height);
    for (uint32_t l = 0; l < levels; ++l)
        bytes += surfaceSize(format, std::max(width >> l, 1u), std::max(height >> l, 1u), blockW, blockH);
    return bytes * faces;
}

// "5.33 MiB", or "42.7 KiB" below one MiB.
std::string mib(uint64_t bytes) {
    char text[32];
    if (bytes < (1u << 20))
        std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / 1024.0);
    else
        std::snprintf(text, sizeof text, "%.2f MiB", double(bytes) / double(1 << 20));
    return text;
}

bool isPvrtc(PixelFormat f) {
    return f == PixelFormat::Pvrtc1_2bpp_Rgb || f == PixelFormat::Pvrtc1_2bpp_Rgba || f == PixelFormat::Pvrtc1_4bpp_Rgb ||
           f == PixelFormat::Pvrtc1_4bpp_Rgba;
}

// A compressed format the device samples for an RGBA8 image, with its size (mip chain included).
void suggestFormat(const Image& image, const DeviceProfile& device, TextureCost& t) {
    if (image.format != PixelFormat::Rgba8 || t.missing) return;
    const bool alpha = hasTransparentTexels(image);
    const uint32_t side = std::max(nextPowerOfTwo(image.width), nextPowerOfTwo(image.height));
    struct Choice {
        bool available;
        PixelFormat format;
        const char* name;
        uint32_t width, height;
    };
    const bool squarePot = image.width == image.height && isPowerOfTwo(image.width);
    const Choice choices[] = {
        {device.astc, PixelFormat::Astc, "ASTC 6x6", image.width, image.height},
        {device.etc2, alpha ? PixelFormat::Etc2_Rgba : PixelFormat::Etc2_Rgb, alpha ? "ETC2 RGBA8" : "ETC2 RGB",
         image.width, image.height},
        {device.pvrtc, alpha ? PixelFormat::Pvrtc1_4bpp_Rgba : PixelFormat::Pvrtc1_4bpp_Rgb,
         squarePot ? "PVRTC 4bpp" : "PVRTC 4bpp (resized to a square power of two)", side, side},
        {device.etc1 && !alpha, PixelFormat::Etc1_Rgb, "ETC1", image.width, image.height},
    };
    for (const Choice& c : choices) {
        if (!c.available) continue;
        const bool astc = c.format == PixelFormat::Astc;
        t.suggestedBytes = chainBytes(c.format, c.width, c.height, image.faces, astc ? 6 : 4, astc ? 6 : 4);
        t.suggestion = std::to_string(image.width) + "x" + std::to_string(image.height) + " RGBA8, " +
                       mib(chainBytes(PixelFormat::Rgba8, image.width, image.height, image.faces)) + " with mips; " +
                       c.name + ": " + mib(t.suggestedBytes);
        return;
    }
}

TextureCost textureCost(const Texture& stored, const Texture& prepared, const DeviceProfile& device,
                        const TargetCaps& caps) {
    TextureCost t;
    const Image& image = stored.image;
    t.name = stored.name;
    t.file = stored.resolvedPath;
    t.missing = stored.placeholder;
    t.format = pixelFormatName(image.format);
    t.container = image.container;
    t.width = image.width;
    t.height = image.height;
    t.mipLevels = image.levels;
    t.faces = image.faces;
    for (const ByteView& s : image.surfaces) t.storedBytes += s.size;
    // A compressed image the device samples is uploaded as stored; esview's own preparation may
    // still decode it (one stored bottom-up), which a device's engine would not.
    const bool asStored = isCompressed(image.format) && caps.supports(image.format) &&
                          std::max(image.width, image.height) <= uint32_t(std::max(caps.maxTextureSize, 1));
    const Image& uploaded = asStored ? image : prepared.image;
    const TexturePlan plan =
        planTextureUpload(uploaded, caps.npotTextures, caps.maxTextureSize > 0 ? caps.maxTextureSize : 1 << 30,
                          caps.supports(uploaded.format));
    t.gpuBytes = plan.ok ? plan.gpuBytes : 0;
    auto problem = [&](const std::string& text) {
        t.usableAsIs = false;
        t.problems.push_back(text);
    };
    if (t.missing) problem("missing: the checker stands in");
    if (!caps.supports(image.format)) problem(t.format + " is not sampled by the device: decoded to RGBA8");
    if (std::max(image.width, image.height) > uint32_t(device.limits.maxTextureSize))
        problem("larger than the device's " + std::to_string(device.limits.maxTextureSize) + " texels a side: downscaled");
    if (!device.npotTextures && !(isPowerOfTwo(image.width) && isPowerOfTwo(image.height)))
        problem("not a power of two: " + std::string(isCompressed(image.format) ? "clamped, no mipmaps"
                                                                                : "resized to powers of two"));
    if (isPvrtc(image.format) && (image.width != image.height || !isPowerOfTwo(image.width)))
        problem("PVRTC on PowerVR drivers needs a square power-of-two size");
    if (!plan.ok) problem(plan.error);
    suggestFormat(image, device, t);
    return t;
}

// Draws of one node as the renderer makes them: per triangle submesh one per overlapping bone batch
// range (one without batches), one per line or point submesh.
uint32_t drawsOf(const Scene& scene, const Node& node) {
    const Mesh& mesh = scene.meshes[node.object];
    std::vector<uint32_t> triangles, starts;
    expandTriangles(mesh, triangles, &starts);
    const uint32_t total = uint32_t(triangles.size() / 3);
    const bool batched = node.skin >= 0 && !mesh.boneBatches.empty();
    uint32_t draws = 0;
    for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
        const Primitive p = mesh.submeshes[s].primitive;
        if (p == Primitive::Points || p == Primitive::Lines || p == Primitive::LineStrip) {
            draws += mesh.submeshes[s].indexCount > 0 ? 1 : 0;
            continue;
        }
        const uint32_t lo = s < starts.size() ? starts[s] : total;
        uint32_t hi = total;
        for (size_t n = s + 1; n < starts.size() && n < mesh.submeshes.size(); ++n) {
            const Primitive q = mesh.submeshes[n].primitive;
            if (q == Primitive::Triangles || q == Primitive::TriangleStrip || q == Primitive::TriangleFan) {
                hi = starts[n];
                break;
            }
        }
        if (lo >= hi) continue;
        if (!batched) {
            ++draws;
            continue;
        }
        for (const BoneBatch& b : mesh.boneBatches)
            draws += std::max(b.firstTriangle, lo) < std::min(b.firstTriangle + b.triangleCount, hi) ? 1 : 0;
    }
    return draws;
}

}  // namespace

MeshCost analyzeMesh(const Scene& scene, size_t meshIndex, const DeviceProfile& device) {
    const Mesh& mesh = scene.meshes[meshIndex];
    MeshCost m;
    m.name = mesh.name;
    m.vertices = mesh.vertexCount;
    for (const VertexStream& s : mesh.streams) {
        m.vertexBytes += uint64_t(s.count) * s.stride;
        for (const VertexAttribute& a : s.attributes) m.attributes.push_back(attributeText(a, s.stride));
    }
    m.indexBytes = uint64_t(mesh.indices.count) * componentSize(mesh.indices.type);
    std::vector<uint32_t> triangles, lines, points;
    expandTriangles(mesh, triangles);
    expandLines(mesh, lines);
    expandPoints(mesh, points);
    m.triangles = uint32_t(triangles.size() / 3);
    m.lines = uint32_t(lines.size() / 2);
    m.points = uint32_t(points.size());
    if (!triangles.empty() && indicesInRange(triangles, mesh.vertexCount)) {
        const meshopt_VertexCacheStatistics stored =
            meshopt_analyzeVertexCache(triangles.data(), triangles.size(), mesh.vertexCount, device.vertexCache, 0, 0);
        m.acmr = stored.acmr;
        m.atvr = stored.atvr;
        m.verticesTransformed = stored.vertices_transformed;
        std::vector<uint32_t> optimized(triangles.size());
        meshopt_optimizeVertexCache(optimized.data(), triangles.data(), triangles.size(), mesh.vertexCount);
        const meshopt_VertexCacheStatistics better =
            meshopt_analyzeVertexCache(optimized.data(), optimized.size(), mesh.vertexCount, device.vertexCache, 0, 0);
        m.acmrOptimized = better.acmr;
        m.atvrOptimized = better.atvr;
        uint64_t size = 0;
        for (const VertexStream& s : mesh.streams) {
            if (s.stride == 0) continue;
            m.bytesFetched += meshopt_analyzeVertexFetch(triangles.data(), triangles.size(), mesh.vertexCount, s.stride)
                                  .bytes_fetched;
            size += uint64_t(mesh.vertexCount) * s.stride;
        }
        m.overfetch = size > 0 ? float(double(m.bytesFetched) / double(size)) : 0.0f;
        const std::vector<float> positions = modelPositions(mesh);
        if (!positions.empty())
            m.overdraw = meshopt_analyzeOverdraw(triangles.data(), triangles.size(), positions.data(), mesh.vertexCount,
                                                 3 * sizeof(float))
                             .overdraw;
    }
    m.duplicateVertices = duplicateVertices(mesh);
    m.batches = batchCosts(scene, meshIndex, device);
    m.morphTargets = uint32_t(mesh.morphTargets.size());
    for (const MorphTarget& t : mesh.morphTargets) m.morphBytes += uint64_t(t.stream.count) * t.stream.stride;
    return m;
}

CostReport analyzeCost(const Scene& scene, const DeviceProfile& device, int clip, float seconds) {
    CostReport r;
    r.device = &device;
    const TargetCaps caps = deviceTargetCaps(device);
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        r.meshes.push_back(analyzeMesh(scene, i, device));
        const MeshCost& m = r.meshes.back();
        r.totals.vertices += m.vertices;
        r.totals.triangles += m.triangles;
        r.totals.vertexBytes += m.vertexBytes;
        r.totals.indexBytes += m.indexBytes;
        r.totals.morphBytes += m.morphBytes;
        for (const BatchCost& b : m.batches) {
            r.totals.maxBonesPerBatch = std::max(r.totals.maxBonesPerBatch, b.bones);
            if (b.overLimit)
                r.overLimits.push_back("mesh '" + m.name + "': a bone batch of " + std::to_string(b.bones) +
                                       " bones exceeds the device's palette of " +
                                       std::to_string(devicePaletteCapacity(device)) + " (re-batched)");
        }
    }
    // What preparation does for the device: the textures decoded or resized, the batches split,
    // the streams widened, the index lists narrowed or split.
    const std::unique_ptr<Scene> prepared = prepareForTarget(scene, caps);
    for (const ReportLine& line : prepared->report)
        if (std::find_if(scene.report.begin(), scene.report.end(),
                         [&](const ReportLine& l) { return l.text == line.text; }) == scene.report.end())
            r.preparation.push_back(line.text);
    for (size_t i = 0; i < scene.textures.size(); ++i) {
        r.textures.push_back(textureCost(scene.textures[i], prepared->textures[i], device, caps));
        const TextureCost& t = r.textures.back();
        r.totals.textureBytes += t.gpuBytes;
        r.totals.maxTextureSize = std::max({r.totals.maxTextureSize, t.width, t.height});
        for (const std::string& p : t.problems)
            if (p.rfind("missing", 0) != 0) r.overLimits.push_back("texture '" + t.name + "': " + p);
    }
    // The frame at the pose, drawn from the prepared scene as the renderer draws it.
    Pose pose;
    evaluatePose(*prepared, clip, seconds, pose);
    r.frame.seconds = seconds;
    std::vector<MeshCost> preparedMeshes(prepared->meshes.size());
    std::vector<bool> analysed(prepared->meshes.size(), false);
    for (size_t n = 0; n < prepared->nodes.size(); ++n) {
        const Node& node = prepared->nodes[n];
        if (node.kind != NodeKind::Mesh || node.object < 0 || n >= pose.visible.size() || !pose.visible[n]) continue;
        const size_t mi = size_t(node.object);
        if (!analysed[mi]) {
            preparedMeshes[mi] = analyzeMesh(*prepared, mi, device);
            analysed[mi] = true;
        }
        const MeshCost& m = preparedMeshes[mi];
        r.frame.draws += drawsOf(*prepared, node);
        r.frame.triangles += m.triangles;
        r.frame.verticesTransformed += m.verticesTransformed;
        r.frame.vertexBytesFetched += m.bytesFetched;
    }
    r.frame.textureBytes = r.totals.textureBytes;
    return r;
}

}  // namespace esv
