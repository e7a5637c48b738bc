// The target a renderer found in its context, as the preparation stage takes it (renderer.h).
#include "renderer/renderer.h"

namespace esv {

TargetCaps targetCaps(const RendererInfo& info) {
    TargetCaps caps;
    caps.esVersion = info.es3 ? 3 : 2;
    caps.paletteCapacity = info.paletteCapacity;
    caps.uintIndices = info.uintIndices;
    caps.compressedFormats = info.compressedFormats;
    caps.fixedAttributes = info.fixedAttributes;
    // The strict profile resizes textures here; plain ES2 mode keeps the renderer's fallback
    // (non-power-of-two textures clamped without mipmaps).
    if (info.strict) {
        caps.npotTextures = info.npotTextures;
        caps.maxTextureSize = info.maxTextureSize;
    }
    return caps;
}

}  // namespace esv
