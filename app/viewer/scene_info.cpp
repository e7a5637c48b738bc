#include "app/viewer/scene_info.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "scene/cpu_reference.h"
#include "scene/pof_extras.h"

namespace esv {
namespace {

nlohmann::json vec3Json(const glm::vec3& v) {
    auto clean = [](float f) { return std::isfinite(f) ? double(f) : 0.0; };
    return nlohmann::json::array({clean(v.x), clean(v.y), clean(v.z)});
}

nlohmann::json attributesJson(const Mesh& mesh) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t s = 0; s < mesh.streams.size(); ++s) {
        const VertexStream& stream = mesh.streams[s];
        for (const VertexAttribute& a : stream.attributes) {
            list.push_back({{"semantic", semanticName(a.semantic)},
                            {"set", a.set},
                            {"type", componentTypeName(a.type)},
                            {"components", a.components},
                            {"normalized", a.normalized},
                            {"offset", a.offset},
                            {"stride", stream.stride},
                            {"stream", s}});
        }
    }
    return list;
}

bool meshIsSkinned(const Scene& scene, size_t meshIndex) {
    const Mesh& mesh = scene.meshes[meshIndex];
    if (!mesh.boneBatches.empty()) return true;
    for (const Node& n : scene.nodes)
        if (n.kind == NodeKind::Mesh && n.object == static_cast<int32_t>(meshIndex) && n.skin >= 0) return true;
    return false;
}

Primitive mainPrimitive(const Mesh& mesh) {
    return mesh.submeshes.empty() ? Primitive::Triangles : mesh.submeshes.front().primitive;
}

// POF additions (issue 9): the counts of the game's points and what the default view draws.
nlohmann::json pofJson(const PofExtras& pof) {
    size_t guns = 0, missiles = 0, turretPoints = 0;
    for (const auto& slot : pof.gunSlots) guns += slot.size();
    for (const auto& slot : pof.missileSlots) missiles += slot.size();
    for (const auto& bank : pof.turrets) turretPoints += bank.points.size();
    uint64_t polygons = 0, flat = 0;
    for (const PofExtras::Subobject& s : pof.subobjects)
        if (s.drawn) {
            polygons += uint64_t(s.texturedPolygons) + s.flatPolygons;
            flat += s.flatPolygons;
        }
    nlohmann::json j = {{"version", pof.version},
                        {"detail_levels", pof.detailLevels},
                        {"debris", pof.debris},
                        {"special_points", pof.specialPoints.size()},
                        {"gun_points", guns},
                        {"missile_points", missiles},
                        {"docks", pof.docks.size()},
                        {"thrusters", pof.thrusters.size()},
                        {"eye_points", pof.eyePoints.size()},
                        {"paths", pof.paths.size()},
                        {"turrets", pof.turrets.size()},
                        {"turret_firing_points", turretPoints},
                        {"glow_banks", pof.glowBanks.size()},
                        {"insignia", pof.insignia.size()},
                        {"lod0_polygons", polygons},
                        {"lod0_flat_polygons", flat}};
    if (pof.hasShield) j["shield_triangles"] = pof.shieldFaces.size();
    return j;
}

// Where a texture's pixels came from: the file it resolved to, "embedded" for an image inside
// the model file, or "" when it was not found (the report says where it looked).
std::string textureSource(const Texture& t) {
    if (!t.resolvedPath.empty()) return t.resolvedPath;
    if (!t.embedded.empty() && !t.placeholder) return "embedded";
    return "";
}

// `meshes` (each one's counts, attributes and skinning), `vertices_total` and `triangles_total`.
void addMeshes(const Scene& scene, nlohmann::json& j) {
    nlohmann::json meshes = nlohmann::json::array();
    uint64_t totalVertices = 0, totalTriangles = 0;
    std::vector<size_t> entryOf(scene.meshes.size(), 0);
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        const Mesh& m = scene.meshes[i];
        const uint32_t triangles = triangleCount(m);
        totalVertices += m.vertexCount;
        totalTriangles += triangles;
        // A part of a file mesh (glTF primitives with attributes of their own) adds to its entry.
        if (m.partOf >= 0 && size_t(m.partOf) < i) {
            nlohmann::json& entry = meshes[entryOf[size_t(m.partOf)]];
            entry["vertices"] = entry["vertices"].get<uint64_t>() + m.vertexCount;
            entry["triangles"] = entry["triangles"].get<uint64_t>() + triangles;
            entryOf[i] = entryOf[size_t(m.partOf)];
            continue;
        }
        entryOf[i] = meshes.size();
        size_t maxBones = m.maxBonesPerBatch;
        for (const BoneBatch& b : m.boneBatches) maxBones = std::max(maxBones, b.bones.size());
        meshes.push_back({{"name", m.name},
                          {"vertices", m.vertexCount},
                          {"triangles", triangles},
                          {"primitive", primitiveName(mainPrimitive(m))},
                          {"indexed", m.indices.count > 0},
                          {"attributes", attributesJson(m)},
                          {"skinned", meshIsSkinned(scene, i)},
                          {"bone_batches", m.boneBatches.size()},
                          {"max_bones_per_batch", maxBones},
                          {"morph_targets", m.morphTargets.size()}});
    }
    j["meshes"] = std::move(meshes);
    j["vertices_total"] = totalVertices;
    j["triangles_total"] = totalTriangles;
}

// A texture filter as glTF's samplers name it, lower case ("default": esview's own choice).
const char* filterName(TextureFilter filter) {
    static constexpr const char* kNames[] = {"default", "nearest", "linear", "nearest_mipmap_nearest",
                                             "linear_mipmap_nearest", "nearest_mipmap_linear",
                                             "linear_mipmap_linear"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(TextureFilter::Count));
    return static_cast<size_t>(filter) < static_cast<size_t>(TextureFilter::Count) ? kNames[static_cast<size_t>(filter)]
                                                                                   : "unknown";
}

// One material: its colours and factors, its textures and how each is sampled.
nlohmann::json materialJson(const Scene& scene, const Material& m) {
    // `textures`: slot -> file (DESIGN's form); `texture_refs`: slot -> how it is sampled.
    nlohmann::json textures = nlohmann::json::object(), refs = nlohmann::json::object();
    for (size_t s = 0; s < m.textures.size(); ++s) {
        const TextureRef& ref = m.textures[s];
        const int32_t t = ref.texture;
        if (t < 0 || static_cast<size_t>(t) >= scene.textures.size()) continue;
        const char* slot = textureSlotName(static_cast<TextureSlot>(s));
        const Texture& tex = scene.textures[t];
        // The name as the file gives it (a file name, a URL, or an embedded image's name).
        textures[slot] = tex.path.empty() ? tex.name : tex.path;
        nlohmann::json r = {{"texture", t},
                            {"name", tex.name},
                            {"file", tex.path},
                            {"resolved", textureSource(tex)},
                            {"uv_set", ref.uvSet},
                            {"address", {wrapName(ref.wrapS), wrapName(ref.wrapT)}},
                            {"filter", {filterName(ref.minFilter), filterName(ref.magFilter)}},
                            {"swizzle", swizzleText(ref.swizzle)},
                            {"border", {ref.border.r, ref.border.g, ref.border.b, ref.border.a}},
                            {"uv_transform", ref.uvTransform}};
        refs[slot] = std::move(r);
    }
    auto rgb = [](const glm::vec3& c) { return nlohmann::json::array({c.r, c.g, c.b}); };
    nlohmann::json material = {{"name", m.name},         {"textures", std::move(textures)},
                               {"texture_refs", std::move(refs)},
                               {"ambient", rgb(m.ambient)}, {"diffuse", rgb(m.diffuse)},
                               {"specular", rgb(m.specular)}, {"emissive", rgb(m.emissive)},
                               {"shininess", m.shininess}, {"opacity", m.opacity},
                               {"blend", m.blend.enabled}, {"two_sided", m.twoSided}};
    if (m.model == ShadingModel::MetalRough) {
        material["metallic"] = m.metallic;
        material["roughness"] = m.roughness;
        material["normal_scale"] = m.normalScale;
        material["occlusion_strength"] = m.occlusionStrength;
        material["specular_factor"] = m.specularFactor;
        material["specular_color_factor"] = rgb(m.specularColorFactor);
        material["ior"] = m.ior;
    }
    return material;
}

// `textures`: the names as the file gives them (DESIGN's form); `texture_files`: each one with
// what it resolved to.
void addTextures(const Scene& scene, nlohmann::json& j) {
    nlohmann::json textures = nlohmann::json::array(), files = nlohmann::json::array();
    for (const Texture& t : scene.textures) {
        textures.push_back(t.path.empty() ? t.name : t.path);
        nlohmann::json f = {{"name", t.name},
                            {"file", t.path},
                            {"resolved", textureSource(t)},
                            {"embedded", !t.embedded.empty()},
                            {"missing", t.placeholder}};
        if (t.image.layers > 1) f["layers"] = t.image.layers;  // a KTX array (materials draw layer 0)
        files.push_back(std::move(f));
    }
    j["textures"] = std::move(textures);
    j["texture_files"] = std::move(files);
}

// Texture coordinate transforms: each one's elements in order, its rest matrix as the 2D affine
// map the renderer applies ([[m00, m10, m30], [m01, m11, m31]]), and the clips animating it.
nlohmann::json uvTransformsJson(const Scene& scene) {
    nlohmann::json uvTransforms = nlohmann::json::array();
    for (size_t i = 0; i < scene.uvTransforms.size(); ++i) {
        const UvTransform& uv = scene.uvTransforms[i];
        nlohmann::json elements = nlohmann::json::array();
        for (const TransformElement& e : uv.elements) {
            nlohmann::json values = nlohmann::json::array();
            for (uint32_t c = 0; c < elementComponents(e.kind); ++c) values.push_back(e.value[c]);
            elements.push_back({{"kind", elementKindName(e.kind)}, {"name", e.name}, {"values", std::move(values)}});
        }
        nlohmann::json animatedBy = nlohmann::json::array();
        for (const Clip& c : scene.animation.clips)
            for (const Track& t : c.tracks)
                if (t.channel == Channel::UvElement && t.uvTransform == static_cast<int32_t>(i)) {
                    animatedBy.push_back(c.name);
                    break;
                }
        const glm::mat4 m = uv.matrix();
        uvTransforms.push_back({{"name", uv.name},
                                {"elements", std::move(elements)},
                                {"matrix", {{m[0][0], m[1][0], m[3][0]}, {m[0][1], m[1][1], m[3][1]}}},
                                {"animated_by", std::move(animatedBy)}});
    }
    return uvTransforms;
}

// Each light: type, colour, intensity, attenuation, and the spot and projection extras.
nlohmann::json lightsJson(const Scene& scene) {
    nlohmann::json lights = nlohmann::json::array();
    for (const Light& l : scene.lights) {
        nlohmann::json light = {{"name", l.name},
                                {"type", lightTypeName(l.type)},
                                {"color", {l.color.r, l.color.g, l.color.b}},
                                {"intensity", l.intensity},
                                {"attenuation", {l.constantAttenuation, l.linearAttenuation, l.quadraticAttenuation}}};
        if (l.type == LightType::Spot) {
            light["falloff_angle"] = l.outerCone;
            light["falloff_exponent"] = l.falloffExponent;
        }
        if (l.projection.texture >= 0) light["projection_texture"] = l.projection.texture;
        lights.push_back(std::move(light));
    }
    return lights;
}

// The scene's bounds at pose, in the file's own axes; null when nothing has bounds.
nlohmann::json boundsJson(const Scene& scene, const Pose& pose) {
    Bounds bounds = sceneBounds(scene, pose);
    if (scene.pof && bounds.valid()) {
        // The POF reader flips Z for display (pof_extras.h); report the file's own axes.
        const float minZ = -bounds.max.z, maxZ = -bounds.min.z;
        bounds.min.z = minZ;
        bounds.max.z = maxZ;
    }
    if (bounds.valid()) return {{"min", vec3Json(bounds.min)}, {"max", vec3Json(bounds.max)}};
    return nullptr;
}

// The triangles the default view draws (visible mesh nodes at this pose).
uint64_t drawnTriangles(const Scene& scene, const Pose& pose) {
    uint64_t drawn = 0;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& n = scene.nodes[i];
        if (n.kind != NodeKind::Mesh || n.object < 0 || static_cast<size_t>(n.object) >= scene.meshes.size()) continue;
        if (i < pose.visible.size() && !pose.visible[i]) continue;
        drawn += triangleCount(scene.meshes[n.object]);
    }
    return drawn;
}
}  // namespace

size_t fileNodeCount(const Scene& scene) {
    size_t fileNodes = 0;
    for (const Node& n : scene.nodes) fileNodes += n.viewerAdded ? 0 : 1;
    return fileNodes;
}

size_t fileMeshCount(const Scene& scene) {
    size_t fileMeshes = 0;
    for (const Mesh& m : scene.meshes) fileMeshes += m.partOf >= 0 ? 0 : 1;
    return fileMeshes;
}

std::string sceneCountsText(const Scene& scene, bool materials) {
    std::string text = counted(fileNodeCount(scene), "node", "nodes") + ", " +
                       counted(fileMeshCount(scene), "mesh", "meshes");
    if (materials) text += ", " + counted(scene.materials.size(), "material", "materials");
    return text;
}

std::string loadedText(const std::string& path, const Scene& scene) {
    return "loaded " + path + ": " + sceneCountsText(scene) + ", " +
           counted(scene.textures.size(), "texture");
}

nlohmann::json sceneInfoJson(const Scene& scene, const Pose& pose, const ResolvedTime& time) {
    nlohmann::json j;
    j["format"] = scene.format;
    j["nodes"] = fileNodeCount(scene);
    addMeshes(scene, j);

    size_t instances = 0;
    // A node the reader added for a further part of a file mesh (glTF primitives, Mesh::partOf) is
    // the same instance as its file node.
    for (const Node& n : scene.nodes)
        instances += n.kind == NodeKind::Mesh && !(n.viewerAdded && n.object >= 0 &&
                                                   size_t(n.object) < scene.meshes.size() &&
                                                   scene.meshes[size_t(n.object)].partOf >= 0)
                         ? 1
                         : 0;
    j["mesh_instances"] = instances;

    nlohmann::json materials = nlohmann::json::array();
    for (const Material& m : scene.materials) materials.push_back(materialJson(scene, m));
    j["materials"] = std::move(materials);
    addTextures(scene, j);
    j["uv_transforms"] = uvTransformsJson(scene);
    j["lights"] = lightsJson(scene);
    j["cameras"] = scene.cameras.size();
    j["skins"] = scene.skins.size();

    nlohmann::json clips = nlohmann::json::array();
    for (const Clip& c : scene.animation.clips) clips.push_back({{"name", c.name}, {"duration_s", c.duration()}});
    j["animation"] = {{"frames", scene.animation.frames}, {"fps", scene.animation.fps}, {"clips", std::move(clips)}};

    if (time.clip >= 0) {
        j["time"] = {{"clip", scene.animation.clips[time.clip].name}, {"seconds", time.seconds}};
    } else {
        j["time"] = nullptr;
    }
    j["bounds"] = boundsJson(scene, pose);

    if (scene.pof) {
        j["drawn_triangles"] = drawnTriangles(scene, pose);
        j["pof"] = pofJson(*scene.pof);
    }

    nlohmann::json warnings = nlohmann::json::array();
    for (const ReportLine& r : scene.report)
        if (r.severity == Severity::Warning) warnings.push_back(r.text);
    j["warnings"] = std::move(warnings);
    return j;
}

std::string counted(uint64_t n, const char* singular, const char* plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural ? plural : std::string(singular) + "s");
}

std::string noMeshText(const Scene& scene) {
    size_t lights = 0, cameras = 0, empties = 0, bones = 0;
    for (const Node& n : scene.nodes) {
        if (n.viewerAdded) continue;
        lights += n.kind == NodeKind::Light ? 1 : 0;
        cameras += n.kind == NodeKind::Camera ? 1 : 0;
        empties += n.kind == NodeKind::Empty ? 1 : 0;
        bones += n.kind == NodeKind::Bone ? 1 : 0;
    }
    std::string list;
    auto add = [&](size_t n, const char* singular, const char* plural) {
        if (n > 0) list += (list.empty() ? "" : ", ") + counted(n, singular, plural);
    };
    add(lights, "light", "lights");
    add(cameras, "camera", "cameras");
    add(empties, "empty node", "empty nodes");
    add(bones, "bone", "bones");
    // Meshes that no node places are in the file but not in the picture.
    const std::string head = scene.meshes.empty() ? "no meshes" : "no mesh drawn";
    return list.empty() ? head + ", no nodes" : head + ": " + list;
}

namespace {

// A length, a time or a coordinate at six significant digits (float precision), no trailing zeros.
std::string number(double value, int digits = 6) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.*g", digits, value == 0.0 ? 0.0 : value);  // no "-0"
    return text;
}

// "(x, y, z)"; a coordinate a millionth of `scale` or less from zero is float noise and prints as 0.
std::string vec3Text(const nlohmann::json& v, double scale) {
    auto coordinate = [&](size_t i) {
        const double c = v[i].get<double>();
        return number(std::abs(c) <= scale * 1e-6 ? 0.0 : c);
    };
    return "(" + coordinate(0) + ", " + coordinate(1) + ", " + coordinate(2) + ")";
}

std::string nameOr(const nlohmann::json& name, const char* unnamed) {
    const std::string text = name.get<std::string>();
    return text.empty() ? unnamed : text;
}

// Subobject numbers as "subobject 3" or "subobjects 3, 4, 5".
std::string subobjectList(const nlohmann::json& list) {
    std::string text = list.size() == 1 ? "subobject " : "subobjects ";
    for (size_t i = 0; i < list.size(); ++i) text += (i ? ", " : "") + list[i].dump();
    return text;
}

// Counts of the POF points that the file has, zeros left out ("none" when all are).
std::string pofPoints(const nlohmann::json& p) {
    const std::pair<const char*, const char*> kinds[] = {
        {"gun_points", "gun point"},    {"missile_points", "missile point"}, {"turrets", "turret"},
        {"docks", "dock"},              {"thrusters", "thruster"},           {"eye_points", "eye point"},
        {"paths", "path"},              {"special_points", "special point"}, {"glow_banks", "glow bank"},
        {"insignia", "insignia"}};
    std::string text;
    for (const auto& [key, noun] : kinds) {
        const uint64_t n = p[key].get<uint64_t>();
        if (n == 0) continue;
        if (!text.empty()) text += ", ";
        text += std::strcmp(noun, "insignia") == 0 ? std::to_string(n) + " insignia" : counted(n, noun);
    }
    return text.empty() ? "none" : text;
}

// A clip's frame range at a frame rate the file gives ("frames 0-16 at 25 fps"); empty when the
// file gives none (AWD clips, OpenGEX clips without a frame rate).
std::string frameRange(const Scene& scene, const Clip& clip) {
    float rate = 0.0f;
    if (clip.fps > 0.0f && std::isfinite(clip.fps))
        rate = clip.fps;
    else if (scene.animation.frames > 0 && scene.animation.fps > 0.0f && std::isfinite(scene.animation.fps))
        rate = scene.animation.fps;  // POD: the file's frame count and rate
    if (rate <= 0.0f || !std::isfinite(clip.start) || !std::isfinite(clip.end)) return "";
    return "frames " + number(std::round(double(clip.start) * rate * 1000.0) / 1000.0) + "-" +
           number(std::round(double(clip.end) * rate * 1000.0) / 1000.0) + " at " + number(rate) + " fps";
}

}  // namespace

std::string sceneInfoText(const nlohmann::json& info, const Scene& scene) {
    std::ostringstream out;
    auto field = [&](const char* name) -> std::ostringstream& {
        std::string label = std::string(name) + ":";
        label.resize(std::max<size_t>(label.size() + 1, 16), ' ');
        out << label;
        return out;
    };
    const std::string format = info["format"].get<std::string>();
    field("format") << format << "\n";
    field("nodes") << info["nodes"].get<uint64_t>() << "  ("
                   << counted(info["mesh_instances"].get<uint64_t>(), "mesh instance") << ", "
                   << counted(info["lights"].size(), "light") << ", "
                   << counted(info["cameras"].get<uint64_t>(), "camera") << ")\n";
    field("meshes") << info["meshes"].size() << "  (" << counted(info["vertices_total"].get<uint64_t>(), "vertex", "vertices")
                    << ", " << counted(info["triangles_total"].get<uint64_t>(), "triangle") << ")\n";
    for (const auto& m : info["meshes"]) {
        out << "  " << nameOr(m["name"], "(unnamed)") << ": "
            << counted(m["vertices"].get<uint64_t>(), "vertex", "vertices") << ", "
            << counted(m["triangles"].get<uint64_t>(), "triangle");
        const std::string primitive = m["primitive"].get<std::string>();
        if (primitive != "triangles") {
            std::string words = primitive;
            std::replace(words.begin(), words.end(), '_', ' ');
            out << " (stored as " << words << ")";
        }
        if (m["skinned"].get<bool>()) {
            const uint64_t batches = m["bone_batches"].get<uint64_t>(), bones = m["max_bones_per_batch"].get<uint64_t>();
            out << ", skinned";
            if (batches == 1) out << " (1 bone batch of " << counted(bones, "bone") << ")";
            if (batches > 1) out << " (" << batches << " bone batches of at most " << counted(bones, "bone") << ")";
        }
        const uint64_t morphs = m["morph_targets"].get<uint64_t>();
        if (morphs > 0) out << ", " << counted(morphs, "morph target");
        out << "\n";
    }
    field("materials") << info["materials"].size() << "\n";
    for (const auto& m : info["materials"]) {
        out << "  " << nameOr(m["name"], "(unnamed)");
        // The slots with a named texture, each as "slot name".
        std::string maps;
        for (auto it = m["textures"].begin(); it != m["textures"].end(); ++it) {
            const std::string name = it.value().get<std::string>();
            if (!name.empty()) maps += (maps.empty() ? "" : ", ") + it.key() + " " + name;
        }
        if (!maps.empty()) out << ": " << maps;
        out << "\n";
    }
    field("textures") << info["textures"].size() << "\n";
    for (const auto& t : info["texture_files"]) {
        const std::string file = t["file"].get<std::string>(), name = t["name"].get<std::string>();
        out << "  " << (file.empty() ? (name.empty() ? "(unnamed)" : name) : file);
        if (t["missing"].get<bool>())
            out << " (not found)";
        else if (t["embedded"].get<bool>())
            out << " (embedded)";
        out << "\n";
    }
    if (!info["lights"].empty()) {
        field("lights") << info["lights"].size() << "\n";
        for (const auto& l : info["lights"]) out << "  " << nameOr(l["name"], "(unnamed)") << ": " << l["type"].get<std::string>() << "\n";
    }

    const auto& clips = scene.animation.clips;
    const uint32_t frames = scene.animation.frames;
    const std::string rate = number(scene.animation.fps);
    if (clips.empty()) {
        field("animation") << "none";
        // POD files give a frame count even when nothing moves.
        if (frames > 0) out << " (" << counted(frames, "frame") << " at " << rate << " fps, nothing animated)";
        out << "\n";
    } else {
        field("animation") << counted(clips.size(), "clip");
        if (frames > 0) out << ", " << counted(frames, "frame") << " at " << rate << " fps";
        out << "\n";
        for (const Clip& c : clips) {
            out << "  " << (c.name.empty() ? "(unnamed)" : c.name) << ": " << number(c.duration(), 4) << " s";
            const std::string range = frameRange(scene, c);
            if (!range.empty()) out << " (" << range << ")";
            out << "\n";
        }
    }
    if (!info["time"].is_null())
        field("pose") << "clip " << info["time"]["clip"].get<std::string>() << " at "
                      << number(info["time"]["seconds"].get<double>(), 4) << " s\n";
    if (info.contains("pof")) {
        const auto& p = info["pof"];
        field("pof") << "version " << p["version"] << ", " << counted(info["drawn_triangles"].get<uint64_t>(), "triangle")
                     << " drawn\n";
        const auto& levels = p["detail_levels"];
        field("  detail") << counted(levels.size(), "level");
        if (!levels.empty()) out << " (" << subobjectList(levels) << ")";
        out << "\n";
        const auto& debris = p["debris"];
        field("  debris") << (debris.empty() ? std::string("none") : counted(debris.size(), "piece") + " (" + subobjectList(debris) + ")")
                          << "\n";
        field("  points") << pofPoints(p) << "\n";
        if (p.contains("shield_triangles")) field("  shield") << counted(p["shield_triangles"].get<uint64_t>(), "triangle") << "\n";
    }
    if (!info["bounds"].is_null()) {
        const auto& b = info["bounds"];
        double scale = 0.0;
        for (const char* corner : {"min", "max"})
            for (const auto& c : b[corner]) scale = std::max(scale, std::abs(c.get<double>()));
        field("bounds") << "min " << vec3Text(b["min"], scale) << "  max " << vec3Text(b["max"], scale) << "\n";
        field("size") << number(b["max"][0].get<double>() - b["min"][0].get<double>()) << " x "
                      << number(b["max"][1].get<double>() - b["min"][1].get<double>()) << " x "
                      << number(b["max"][2].get<double>() - b["min"][2].get<double>()) << "\n";
    }
    for (const auto& w : info["warnings"]) out << "warning: " << w.get<std::string>() << "\n";
    return out.str();
}

}  // namespace esv
