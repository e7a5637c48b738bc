// Scene texture preparation: find, read and (where the GPU lacks the codec) decode every image a
// scene references, once per file; anything that fails becomes the checker placeholder with one
// warning that says why.
#include "loaders/textures/scene_textures.h"

#include <filesystem>
#include <map>
#include <system_error>

#include "loaders/archive/vp_archive.h"
#include "loaders/load.h"
#include "loaders/textures/decode.h"
#include "loaders/textures/image_reader.h"
#include "loaders/textures/texture_lookup.h"

namespace esv {

namespace {

std::string join(const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) out += separator;
        out += parts[i];
    }
    return out;
}

std::string formatLabel(const Image& image) {
    std::string name = pixelFormatName(image.format);
    if (image.format == PixelFormat::Astc)
        name += " " + std::to_string(image.blockWidth) + "x" + std::to_string(image.blockHeight);
    return name;
}

// A key that is the same for two spellings of one file (inside an archive: the archive's key and
// the inner path in lookup form).
std::string fileKey(const std::string& path) {
    ArchivePath inside;
    if (splitArchivePath(path, inside)) return fileKey(inside.archive) + ":" + vpLookupKey(inside.inner);
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical.string();
}

std::string textureLabel(const Texture& tex, size_t index) {
    return "texture " + std::to_string(index) + " '" + (tex.name.empty() ? tex.path : tex.name) + "'";
}

std::string baseName(std::string name) {
    for (char& c : name)
        if (c == '\\') c = '/';
    const size_t slash = name.rfind('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace

int readSceneTextures(Scene& scene, const std::function<void(size_t, size_t)>& progress,
                      const std::vector<std::string>& searchFolders) {
    std::map<std::string, size_t> firstByFile;  // file key -> the texture that read it
    int placeholders = 0;
    for (size_t i = 0; i < scene.textures.size(); ++i) {
        if (progress) progress(i, scene.textures.size());
        Texture& tex = scene.textures[i];
        const std::string label = textureLabel(tex, i);
        tex.resolvedPath.clear();
        tex.placeholder = false;
        tex.image = Image{};
        auto fail = [&](const std::string& why) {
            tex.image = makeCheckerImage();
            tex.placeholder = true;
            ++placeholders;
            scene.warn(label + ": " + why + "; drawn grey");
        };

        Image image;
        std::string error;
        if (!tex.embedded.empty()) {
            if (!readImage(tex.embedded, image, error)) {
                fail("embedded image: " + error);
                continue;
            }
        } else {
            if (tex.path.empty()) {
                fail("no file name");
                continue;
            }
            std::vector<std::string> searched;
            const std::string path = resolveTexturePath(scene.sourcePath, tex.path, &searched, searchFolders);
            if (path.empty() && tex.notDrawn) {
                tex.image = makeCheckerImage();
                tex.placeholder = true;
                ++placeholders;
                scene.info(label + ": '" + tex.path + "' not found (searched " + join(searched, ", ") +
                           "); nothing draws it");
                continue;
            }
            if (path.empty()) {
                fail("'" + tex.path + "' not found; searched " + join(searched, ", "));
                continue;
            }
            tex.resolvedPath = path;
            const std::string key = fileKey(path);
            const auto seen = firstByFile.find(key);
            if (seen != firstByFile.end()) {
                // Surfaces are shared views, so the copy costs no pixel data.
                const Texture& first = scene.textures[seen->second];
                if (first.placeholder) {
                    fail(path + ": unreadable (see texture " + std::to_string(seen->second) + ")");
                } else {
                    tex.image = first.image;
                    scene.info(label + ": same file as texture " + std::to_string(seen->second));
                }
                continue;
            }
            firstByFile.emplace(key, i);
            if (baseName(path) != baseName(tex.path)) scene.info(label + ": found as " + path);
            auto bytes = readWholeFile(path, error);
            if (!bytes) {
                fail(path + ": " + error);
                continue;
            }
            const ByteView view{bytes, bytes->data(), bytes->size()};
            if (!readImage(view, image, error)) {
                fail(path + ": " + error);
                continue;
            }
        }
        for (const std::string& note : image.notes) scene.info(label + ": " + note);
        tex.image = std::move(image);
    }
    return placeholders;
}

bool texturesRead(const Scene& scene) {
    for (const Texture& tex : scene.textures)
        if (tex.image.empty() && !tex.placeholder) return false;
    return true;
}

int decodeSceneTextures(Scene& scene, const std::function<bool(PixelFormat)>& gpuSupports, size_t* decoded) {
    int placeholders = 0;
    // Textures that share a file share its image: decode it once and hand the result on.
    std::map<const uint8_t*, size_t> decodedFrom;  // first surface of a stored image -> texture
    for (size_t i = 0; i < scene.textures.size(); ++i) {
        Texture& tex = scene.textures[i];
        if (tex.placeholder || tex.image.empty()) continue;
        Image& image = tex.image;
        // Bottom-up block data cannot be flipped as stored: decoding puts row 0 at the top.
        if (!isCompressed(image.format) || !((gpuSupports && !gpuSupports(image.format)) || image.bottomUp))
            continue;
        const std::string label = textureLabel(tex, i);
        const uint8_t* key = image.surfaces.front().data;
        const auto seen = decodedFrom.find(key);
        if (seen != decodedFrom.end()) {
            const Texture& first = scene.textures[seen->second];
            tex.image = first.image;
            tex.placeholder = first.placeholder;
            placeholders += first.placeholder ? 1 : 0;
            continue;
        }
        decodedFrom.emplace(key, i);
        Image result;
        std::string error;
        if (!decodeImage(image, result, error)) {
            tex.image = makeCheckerImage();
            tex.placeholder = true;
            ++placeholders;
            scene.warn(label + ": " + formatLabel(image) + " could not be decoded: " + error +
                       "; drawn grey");
            continue;
        }
        scene.info(label + ": " + formatLabel(image) + " decoded to RGBA8 in software (" +
                   (image.bottomUp ? "rows stored bottom-up" : "no GPU support") + ")");
        if (decoded) ++*decoded;
        tex.image = std::move(result);
    }
    return placeholders;
}

int prepareSceneTextures(Scene& scene, const std::function<bool(PixelFormat)>& gpuSupports,
                         const std::function<void(size_t, size_t)>& progress,
                         const std::vector<std::string>& searchFolders) {
    const int missing = readSceneTextures(scene, progress, searchFolders);
    return missing + decodeSceneTextures(scene, gpuSupports);
}

}  // namespace esv
