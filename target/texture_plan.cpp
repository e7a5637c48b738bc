#include "target/texture_plan.h"

#include <algorithm>

namespace esv {
bool isPowerOfTwo(uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

uint32_t nextPowerOfTwo(uint32_t v) {
    uint32_t p = 1;
    while (p < v && p < (1u << 30)) p <<= 1;
    return p;
}

uint32_t fullMipChain(uint32_t width, uint32_t height) {
    uint32_t levels = 1;
    for (uint32_t w = width, h = height; w > 1 || h > 1; w = std::max(w / 2, 1u), h = std::max(h / 2, 1u)) ++levels;
    return levels;
}

TexturePlan planTextureUpload(const Image& image, bool npot, int maxSize, bool formatSupported) {
    TexturePlan plan;
    if (image.empty() || image.width == 0 || image.height == 0) {
        plan.error = "empty image";
        return plan;
    }
    const bool compressed = isCompressed(image.format);
    if (compressed && !formatSupported) {
        plan.error = std::string(pixelFormatName(image.format)) + " is not supported by this context (decode it first)";
        return plan;
    }
    if (int(std::max(image.width, image.height)) > maxSize) {
        plan.error = std::to_string(image.width) + "x" + std::to_string(image.height) + " exceeds GL_MAX_TEXTURE_SIZE " +
                     std::to_string(maxSize);
        return plan;
    }
    const bool pot = isPowerOfTwo(image.width) && isPowerOfTwo(image.height);
    plan.clampOnly = !npot && !pot;
    if (plan.clampOnly)
        plan.notes.push_back(std::to_string(image.width) + "x" + std::to_string(image.height) +
                             " is not a power of two: clamped, no mipmaps (ES2 rules)");
    // The stored chain is used when it is complete (down to 1x1) or when ES3 can cap the level.
    const uint32_t fullChain = fullMipChain(image.width, image.height);
    uint32_t levels = std::min(image.levels, fullChain);
    if (levels > 1 && levels < fullChain && !npot) {
        plan.notes.push_back("incomplete mip chain (" + std::to_string(levels) + " of " + std::to_string(fullChain) +
                             " levels): level 0 only");
        levels = 1;
    }
    if (plan.clampOnly) levels = 1;
    plan.levels = levels;
    for (uint32_t level = 0; level < levels; ++level)
        for (uint32_t face = 0; face < image.faces; ++face) {
            const size_t index = size_t(level) * image.faces + face;
            if (index < image.surfaces.size()) plan.gpuBytes += image.surfaces[index].size;
        }
    plan.usedLevels = levels;
    if (levels == 1 && !compressed && !plan.clampOnly && (pot || npot)) {
        plan.generateMips = true;
        plan.usedLevels = fullChain;
        plan.gpuBytes += plan.gpuBytes / 3;
        plan.notes.push_back("mipmaps generated");
    }
    plan.ok = true;
    return plan;
}

}  // namespace esv
