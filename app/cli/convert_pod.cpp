#include "app/cli/convert_pod.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/convert_notes.h"
#include "convert/pod/pod_shape.h"
#include "loaders/pod/pod_writer.h"
#include "loaders/textures/scene_textures.h"
#include "target/binding_plan.h"
#include "target/strict_profile.h"
#include "scene/scene.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

int refuse(ConvertLog& log, const std::string& input, const std::string& message) {
    appendf(log.err, "%s: %s\n", input.c_str(), message.c_str());
    return kExitBadInput;
}

// The file type of an embedded image, by its first bytes.
const char* imageExtension(const ByteView& bytes) {
    const uint8_t* p = bytes.data;
    if (bytes.size >= 8 && p[0] == 0x89 && p[1] == 'P' && p[2] == 'N' && p[3] == 'G') return "png";
    if (bytes.size >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) return "jpg";
    if (bytes.size >= 4 && p[0] == 'D' && p[1] == 'D' && p[2] == 'S' && p[3] == ' ') return "dds";
    if (bytes.size >= 4 && p[0] == 'P' && p[1] == 'V' && p[2] == 'R' && p[3] == 3) return "pvr";
    return "bin";
}

bool writeFile(const fs::path& path, const uint8_t* data, size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    out.close();
    return bool(out);
}

// The clip named `name` (or numbered by it); -1 with `error` when there is none.
int findClip(const Scene& scene, const std::string& name, std::string& error) {
    const auto& clips = scene.animation.clips;
    for (size_t c = 0; c < clips.size(); ++c)
        if (clips[c].name == name) return static_cast<int>(c);
    char* end = nullptr;
    const long index = std::strtol(name.c_str(), &end, 10);
    if (!name.empty() && end && *end == '\0' && index >= 0 && static_cast<size_t>(index) < clips.size())
        return static_cast<int>(index);
    std::string names;
    for (const Clip& c : clips) names += (names.empty() ? "'" : ", '") + c.name + "'";
    error = "--clip " + name + ": no such clip (" +
            (clips.empty() ? std::string("the file has none") : names) + ")";
    return -1;
}

std::string formatError(PodAttr a, const PodQuantError& e) {
    char text[160];
    switch (a) {
        case PodAttr::Normals:
        case PodAttr::Tangents:
            std::snprintf(text, sizeof text, "%.4g degrees", e.largest);
            break;
        case PodAttr::Weights:
            std::snprintf(text, sizeof text, "%.4g (weight units)", e.largest);
            break;
        case PodAttr::Uvs:
            std::snprintf(text, sizeof text, "%.4g UV units", e.largest);
            break;
        default:
            std::snprintf(text, sizeof text, "%.4g model units", e.largest);
            break;
    }
    return text;
}

}  // namespace

int podDefaultMaxBones() {
    return paletteCapacity(kStrictLimits.vertexUniformVectors, kReservedVertexVectors);
}

void addPodConvertOptions(CLI::App* convert, PodConvertOptions& options) {
    const char* group = "To POD";
    convert
        ->add_flag("--separate", options.separate,
                   "One array per attribute instead of one interleaved buffer")
        ->group(group);
    convert
        ->add_option("--max-bones", options.maxBones,
                     "Bones per batch: skinned meshes are re-batched, triangles grouped per batch (default " +
                         std::to_string(podDefaultMaxBones()) +
                         ", the renderer's ES 2.0 palette; 0 keeps the file's)")
        ->check(CLI::Range(0, 65536))
        ->group(group);
    convert
        ->add_option(
            "--quantize", options.quantize,
            "Store attributes smaller, comma-separated: 'all' (positions=int16, normals=dec3n, "
            "tangents=dec3n, uvs=half, weights=ubyte) or GROUP=TYPE: positions=" +
                podQuantChoices(PodAttr::Positions) +
                " (int16: normalised with the unpack matrix), normals=" + podQuantChoices(PodAttr::Normals) +
                ", tangents=" + podQuantChoices(PodAttr::Tangents) +
                " (tangents and binormals), uvs=" + podQuantChoices(PodAttr::Uvs) +
                " (short: normalised, for UVs within -1..1), weights=" + podQuantChoices(PodAttr::Weights) +
                " (bytes summing to 255). The largest error each introduces is printed")
        ->delimiter(',')
        ->group(group);
    convert
        ->add_flag("--optimize", options.optimize,
                   "Vertex-cache then vertex-fetch order (meshoptimizer), per bone batch")
        ->group(group);
    convert->add_flag("--strips", options.strips, "Triangle strips with their lengths (per bone batch)")
        ->group(group);
    convert
        ->add_flag(
            "--fixed-point", options.fixedPoint,
            "16.16 fixed point: the scene's numbers, and float attributes --quantize leaves as they are")
        ->group(group);
    convert->add_option("--clip", options.clip, "The one clip to write (name or index; POD holds one)")
        ->group(group);
    convert->add_option("--fps", options.fps, "Frame rate animation is sampled at (default: the file's)")
        ->check(CLI::Range(1, 1000))
        ->group(group);
    convert
        ->add_flag("--drop-morphs", options.dropMorphs,
                   "Leave out morph targets and their tracks (POD has none)")
        ->group(group);
    convert
        ->add_flag(
            "--bind-pose-rest", options.bindPoseRest,
            "Make a skin's bind pose the rest pose (frame 0) when the file's rest pose differs from it bone "
            "by bone (POD binds skins at frame 0); the clip keeps its poses")
        ->group(group);
    convert
        ->add_flag("--drop-hidden", options.dropHidden,
                   "Leave out the meshes of hidden nodes (detail levels; POD has no visibility)")
        ->group(group);
    convert
        ->add_flag("--drop-visibility", options.dropVisibility, "Leave out visibility tracks (POD has none)")
        ->group(group);
    convert
        ->add_flag("--drop-uv-animation", options.dropUvAnimation,
                   "Leave out texture coordinate animation (POD has none)")
        ->group(group);
    convert
        ->add_flag("--plain-textures", options.plainTextures,
                   "Leave out texture coordinate transforms and swizzles (POD has neither)")
        ->group(group);
    convert
        ->add_flag("--wrap-repeat", options.wrapRepeat,
                   "Write textures with other wrap modes as repeating (POD has no wrap modes; textures whose "
                   "coordinates stay within 0..1 need no option)")
        ->group(group);
    convert
        ->add_flag("--plain-lights", options.plainLights,
                   "Write lights as POD has them: ranges and spot inner cones left out, switched-off lights "
                   "black, ambient lights added to the scene's ambient colour")
        ->group(group);
    convert
        ->add_flag("--plain-cameras", options.plainCameras,
                   "Write orthographic cameras perspective and fixed aspect ratios from the viewport")
        ->group(group);
    convert
        ->add_flag("--plain-materials", options.plainMaterials,
                   "Write materials as POD has them: two-sided ones one-sided, alpha cutoffs left out, unlit "
                   "ones lit, vertex colours on, an emission POD cannot store and specular strength and colour maps "
                   "left out")
        ->group(group);
    convert
        ->add_flag("--lossy", options.lossy,
                   "Accept every drop above with its default (the first clip of several, morphs, hidden "
                   "nodes, visibility, UV animation, texture transforms, wrap modes, bind poses, lights, "
                   "cameras, materials), with a note for each")
        ->group(group);
}

int convertToPod(Scene& scene, const std::string& input, const std::string& output,
                 const std::vector<std::string>& texturePaths, const PodConvertOptions& options, ConvertLog& log) {
    const auto started = std::chrono::steady_clock::now();
    PodShapeOptions shape;
    shape.maxBones = static_cast<uint32_t>(options.maxBones < 0 ? podDefaultMaxBones() : options.maxBones);
    for (const std::string& item : options.quantize) {
        std::string error;
        if (!parsePodQuantize(item, shape.quantize, error)) {
            appendf(log.err, "esview convert: %s\n", error.c_str());
            return kExitUsage;
        }
    }
    if (options.fixedPoint)
        for (PodAttr a : {PodAttr::Positions, PodAttr::Normals, PodAttr::Tangents, PodAttr::Uvs})
            if (shape.quantize[a] == PodQuant::Keep) shape.quantize[a] = PodQuant::Fixed;
    const bool lossy = options.lossy;
    shape.optimize = options.optimize;
    shape.strips = options.strips;
    shape.dropMorphs = options.dropMorphs || lossy;
    shape.dropVisibility = options.dropVisibility || lossy;
    shape.dropHidden = options.dropHidden || lossy;
    shape.bindPoseRest = options.bindPoseRest || lossy;
    shape.dropUvAnimation = options.dropUvAnimation || lossy;
    shape.wrapRepeat = options.wrapRepeat || lossy;
    shape.plainTextures = options.plainTextures || lossy;
    shape.plainLights = options.plainLights || lossy;
    shape.plainCameras = options.plainCameras || lossy;
    shape.plainMaterials = options.plainMaterials || lossy;
    shape.fps = options.fps;
    if (!options.clip.empty()) {
        std::string error;
        shape.clip = findClip(scene, options.clip, error);
        if (shape.clip < 0) return refuse(log, input, error);
    } else if (lossy && scene.animation.clips.size() > 1) {
        shape.clip = 0;
    }
    // A wrap mode other than repeat is written without a refusal where the coordinates stay within
    // half a texel of 0..1: the textures' sizes tell how far that is.
    bool wraps = false;
    for (const Material& m : scene.materials)
        for (const TextureRef& r : m.textures) wraps = wraps || (r.texture >= 0 && (r.wrapS != Wrap::Repeat || r.wrapT != Wrap::Repeat));
    if (wraps) readSceneTextures(scene, {}, texturePaths);

    PodShapeReport report;
    std::string error;
    if (!shapeSceneForPod(scene, shape, report, error)) {
        // Every refusal of the file at once, each naming the option that drops it.
        if (report.refusals.empty()) return refuse(log, input, error);
        for (const std::string& r : report.refusals) appendf(log.err, "%s: %s\n", input.c_str(), r.c_str());
        if (report.refusals.size() == 1)
            appendf(log.err, "%s: 1 refusal: the option named drops it, or --lossy drops all POD cannot hold\n",
                         input.c_str());
        else
            appendf(log.err, "%s: %zu refusals: the options named drop them, or --lossy drops them all\n",
                         input.c_str(), report.refusals.size());
        return kExitBadInput;
    }

    // Embedded images become files beside the output (POD names its textures' files).
    const fs::path out(output);
    std::vector<std::pair<fs::path, ByteView>> images;
    for (size_t t = 0; t < scene.textures.size(); ++t) {
        Texture& tex = scene.textures[t];
        if (tex.embedded.empty()) continue;
        const std::string name =
            out.stem().string() + "_texture" + std::to_string(t) + "." + imageExtension(tex.embedded);
        images.push_back({out.parent_path() / name, tex.embedded});
        tex.path = name;
        tex.embedded = {};
    }

    PodWriteOptions write;
    write.interleave = !options.separate;
    write.fixedPoint = options.fixedPoint;
    write.bakeAnimation = true;
    write.dropMorphTargets = options.dropMorphs;
    std::vector<uint8_t> bytes;
    std::vector<std::string> notes;
    if (!writePod(scene, write, bytes, error, &notes)) {
        if (options.fixedPoint && error.find("16.16") != std::string::npos)
            error += "; convert without --fixed-point";
        return refuse(log, input, error);
    }

    // Written under temporary names, renamed only when every file is complete.
    std::vector<std::pair<fs::path, fs::path>> files;
    auto stage = [&](const fs::path& path, const uint8_t* data, size_t size) {
        fs::path temp = path;
        temp += ".part";
        files.push_back({temp, path});
        return writeFile(temp, data, size);
    };
    bool ok = stage(out, bytes.data(), bytes.size());
    for (const auto& image : images) ok = ok && stage(image.first, image.second.data, image.second.size);
    std::error_code ec;
    if (ok)
        for (const auto& f : files) {
            fs::rename(f.first, f.second, ec);
            if (ec) break;
        }
    if (!ok || ec) {
        for (const auto& f : files) fs::remove(f.first, ec);
        return refuse(log, input, "cannot write " + output);
    }

    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    appendf(log.out, "%s: %zu bytes written in %.3f s\n", output.c_str(), bytes.size(), seconds);
    // One line per kind of note: shaping's, then the writer's (its per-track sampling notes as one).
    std::vector<std::string> all = report.notes;
    const std::string sampled = " sampled at every frame";
    size_t sampledTracks = 0;
    for (const std::string& n : notes) {
        if (n.size() > sampled.size() && n.compare(n.size() - sampled.size(), sampled.size(), sampled) == 0)
            ++sampledTracks;
        else
            all.push_back(n);
    }
    if (sampledTracks) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "%zu animation %s sampled at every frame at %g FPS (POD stores one value per frame and "
                      "interpolates linearly; --fps sets the rate)",
                      sampledTracks, sampledTracks == 1 ? "track" : "tracks", double(scene.animation.fps));
        all.push_back(line);
    }
    if (images.size() == 1)
        all.push_back("embedded image written as " + images[0].first.string());
    else if (!images.empty())
        all.push_back(std::to_string(images.size()) + " embedded images written beside it, as " +
                      images[0].first.filename().string() + " and so on");
    for (const std::string& n : summarizeNotes(all)) appendf(log.out, "note: %s\n", n.c_str());
    for (size_t a = 0; a < size_t(PodAttr::Count); ++a) {
        const PodQuantError& e = report.quant.error[a];
        if (!e.values) continue;
        appendf(log.out, "quantized %s=%s: largest error %s over %llu vertices\n", podAttrName(PodAttr(a)),
                    podQuantName(e.type), formatError(PodAttr(a), e).c_str(),
                    static_cast<unsigned long long>(e.values));
    }
    return kExitOk;
}

}  // namespace esv
