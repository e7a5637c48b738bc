// Stub: being written; fills the surface with magenta so callers work meanwhile.
#include "loaders/textures/decode.h"

#include <cstring>

namespace esv {

void decodeBc(PixelFormat format, const uint8_t* blocks, uint32_t width, uint32_t height, uint8_t* rgba) {
    (void)blocks;
    for (size_t i = 0; i < size_t(width) * height; ++i) {
        rgba[i * 4 + 0] = 255; rgba[i * 4 + 1] = 0; rgba[i * 4 + 2] = 255; rgba[i * 4 + 3] = 255;
    }
    (void)format;
}

}  // namespace esv
