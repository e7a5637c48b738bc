// What a GPU can take, as the preparation stage and the converters need it: plain data, no GL
// header, no renderer. The renderer fills one from what it found in its context
// (targetCaps(RendererInfo) in renderer/renderer.h); device profiles are data of this kind too.
#pragma once

#include <array>
#include <cstddef>

#include "scene/scene.h"

namespace esv {

struct TargetCaps {
    int esVersion = 3;        // 2: ES 2.0 vertex types only (no half floats, ints, 2_10_10_10)
    int paletteCapacity = 0;  // bone matrices per draw; 0: no budget, batches stay as stored
    bool uintIndices = true;  // 32-bit indices (ES3 or OES_element_index_uint)
    // Non-power-of-two textures with repeat wrapping and mipmaps (ES3 or OES_texture_npot). false
    // (the strict ES2 profile): RGBA8 images of other sizes are resized to powers of two.
    bool npotTextures = true;
    int maxTextureSize = 0;  // > 0: larger RGBA8 images are downscaled to fit (GL_MAX_TEXTURE_SIZE)
    // GL_FIXED vertex attributes (every ES context). false (WebGL): 16.16 fixed-point streams are
    // widened to float32, with an info line (nothing is lost and nothing else could be done).
    bool fixedAttributes = true;
    // Compressed formats sampled natively; the others are decoded to RGBA8.
    std::array<bool, static_cast<size_t>(PixelFormat::Count)> compressedFormats{};

    bool es3() const { return esVersion >= 3; }
    bool supports(PixelFormat format) const {
        return format == PixelFormat::Rgba8 || compressedFormats[static_cast<size_t>(format)];
    }
};

}  // namespace esv
