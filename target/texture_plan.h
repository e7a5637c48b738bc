// How an image is uploaded to a target, decided without GL: the levels sent, whether ES 2.0 rules
// clamp a non-power-of-two image, whether the mip chain is generated, and the bytes that end up in
// GPU memory. The renderer uploads by this plan; `esview cost` reports it for a device profile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/image.h"

namespace esv {

struct TexturePlan {
    bool ok = false;
    std::string error;          // !ok: why the image cannot be uploaded as it is
    uint32_t levels = 1;        // stored levels uploaded (level 0 up)
    uint32_t usedLevels = 1;    // levels sampled: `levels`, or the full chain when generated
    bool clampOnly = false;     // NPOT without NPOT support: clamped, no mipmaps (ES 2.0 rules)
    bool generateMips = false;  // an uncompressed single level whose chain GL generates
    uint64_t gpuBytes = 0;      // uploaded bytes, plus a third for a generated chain
    std::vector<std::string> notes;
};

// The plan for `image` on a target that samples non-power-of-two textures fully (`npot`), takes
// textures up to `maxSize` texels a side, and samples the image's format natively
// (`formatSupported`; RGBA8 always is).
TexturePlan planTextureUpload(const Image& image, bool npot, int maxSize, bool formatSupported);

// Powers of two: whether `v` is one (0 is not), and the smallest at or above `v` (at most 2^30).
bool isPowerOfTwo(uint32_t v);
uint32_t nextPowerOfTwo(uint32_t v);

// Levels of a full mip chain down to 1x1.
uint32_t fullMipChain(uint32_t width, uint32_t height);

}  // namespace esv
