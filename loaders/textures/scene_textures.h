// Turning a scene's texture references into images the renderer can upload.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

// For every Scene::textures entry: resolve the file (or take the embedded bytes) and read it as
// stored (compressed formats stay compressed), once per file. A missing or unreadable texture gets
// the checker placeholder and one warning in scene.report that names what was searched or what was
// wrong (an info line for a missing Texture::notDrawn one); what the readers noted gets an info
// line. Returns the number of placeholders. `progress`, when set, is called before each texture
// with (index, count) so a loader thread can report how far it is. `searchFolders` are looked in
// after the model's own places (resolveTexturePath). Needs no GPU: the scene as loaded holds its
// images as the files store them, and each target decodes what it cannot sample.
int readSceneTextures(Scene& scene, const std::function<void(size_t, size_t)>& progress = {},
                      const std::vector<std::string>& searchFolders = {});

// True when every texture was read (an image or a placeholder): readSceneTextures has run.
bool texturesRead(const Scene& scene);

// Decodes the read images a GPU cannot sample (`gpuSupports(format)` false; null = decode only
// what must be, the compressed images stored bottom-up) to RGBA8, once per stored image, with an
// info line each; an image that cannot be decoded becomes the placeholder with a warning.
// Returns the number of new placeholders; `decoded`, when set, is increased per image decoded.
int decodeSceneTextures(Scene& scene, const std::function<bool(PixelFormat)>& gpuSupports,
                        size_t* decoded = nullptr);

// Both of the above, in that order (what a caller without the preparation stage needs).
int prepareSceneTextures(Scene& scene, const std::function<bool(PixelFormat)>& gpuSupports,
                         const std::function<void(size_t, size_t)>& progress = {},
                         const std::vector<std::string>& searchFolders = {});

}  // namespace esv
