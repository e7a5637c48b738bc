// Stub: being written.
#include "loaders/textures/scene_textures.h"

namespace esv {

int prepareSceneTextures(Scene& scene, const std::function<bool(PixelFormat)>& gpuSupports) {
    (void)gpuSupports;
    for (Texture& t : scene.textures) {
        t.image = makeCheckerImage();
        t.placeholder = true;
    }
    return int(scene.textures.size());
}

}  // namespace esv
