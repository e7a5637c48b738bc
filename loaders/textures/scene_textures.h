// Turning a scene's texture references into images the renderer can upload.
#pragma once

#include <functional>

#include "scene/scene.h"

namespace esv {

// For every Scene::textures entry: resolve the file (or take the embedded bytes), read it, and
// decode compressed formats the GPU cannot take (`gpuSupports(format)` false) to RGBA8, once. A
// missing or unreadable texture gets the checker placeholder and one warning in scene.report that
// names what was searched or what was wrong (an info line for a missing Texture::notDrawn one);
// conversions get an info line. Returns the number of
// textures that are placeholders. `progress`, when set, is called before each texture with
// (index, count) so a loader thread can report how far it is.
int prepareSceneTextures(Scene& scene, const std::function<bool(PixelFormat)>& gpuSupports,
                         const std::function<void(size_t, size_t)>& progress = {});

}  // namespace esv
