#include "scene/image.h"

#include <algorithm>

namespace esv {

const char* pixelFormatName(PixelFormat format) {
    switch (format) {
    case PixelFormat::Rgba8: return "RGBA8";
    case PixelFormat::Pvrtc1_2bpp_Rgb: return "PVRTC1 2bpp RGB";
    case PixelFormat::Pvrtc1_2bpp_Rgba: return "PVRTC1 2bpp RGBA";
    case PixelFormat::Pvrtc1_4bpp_Rgb: return "PVRTC1 4bpp RGB";
    case PixelFormat::Pvrtc1_4bpp_Rgba: return "PVRTC1 4bpp RGBA";
    case PixelFormat::Etc1_Rgb: return "ETC1 RGB";
    case PixelFormat::Etc2_Rgb: return "ETC2 RGB";
    case PixelFormat::Etc2_Rgb_A1: return "ETC2 RGB A1";
    case PixelFormat::Etc2_Rgba: return "ETC2 RGBA";
    case PixelFormat::Eac_R11: return "EAC R11";
    case PixelFormat::Eac_R11_Signed: return "EAC R11 signed";
    case PixelFormat::Eac_Rg11: return "EAC RG11";
    case PixelFormat::Eac_Rg11_Signed: return "EAC RG11 signed";
    case PixelFormat::Astc: return "ASTC";
    case PixelFormat::Bc1_Rgb: return "BC1 (DXT1) RGB";
    case PixelFormat::Bc1_Rgba: return "BC1 (DXT1) RGBA";
    case PixelFormat::Bc2: return "BC2 (DXT3)";
    case PixelFormat::Bc3: return "BC3 (DXT5)";
    case PixelFormat::Count: break;
    }
    return "?";
}

void blockFootprint(PixelFormat format, uint32_t astcBlockWidth, uint32_t astcBlockHeight, uint32_t& blockW,
                    uint32_t& blockH) {
    switch (format) {
    case PixelFormat::Rgba8: blockW = blockH = 1; return;
    case PixelFormat::Pvrtc1_2bpp_Rgb:
    case PixelFormat::Pvrtc1_2bpp_Rgba: blockW = 8; blockH = 4; return;
    case PixelFormat::Astc:
        blockW = std::max<uint32_t>(astcBlockWidth, 1);
        blockH = std::max<uint32_t>(astcBlockHeight, 1);
        return;
    default: blockW = blockH = 4; return;
    }
}

uint32_t blockBytes(PixelFormat format) {
    switch (format) {
    case PixelFormat::Rgba8: return 4;
    case PixelFormat::Etc2_Rgba:
    case PixelFormat::Eac_Rg11:
    case PixelFormat::Eac_Rg11_Signed:
    case PixelFormat::Astc:
    case PixelFormat::Bc2:
    case PixelFormat::Bc3: return 16;
    default: return 8;
    }
}

size_t surfaceSize(PixelFormat format, uint32_t width, uint32_t height, uint32_t astcBlockWidth,
                   uint32_t astcBlockHeight) {
    if (width == 0 || height == 0) return 0;
    uint32_t bw = 1, bh = 1;
    blockFootprint(format, astcBlockWidth, astcBlockHeight, bw, bh);
    size_t blocksX = (size_t(width) + bw - 1) / bw;
    size_t blocksY = (size_t(height) + bh - 1) / bh;
    switch (format) {
    case PixelFormat::Pvrtc1_2bpp_Rgb:
    case PixelFormat::Pvrtc1_2bpp_Rgba:
    case PixelFormat::Pvrtc1_4bpp_Rgb:
    case PixelFormat::Pvrtc1_4bpp_Rgba:
        blocksX = std::max<size_t>(blocksX, 2);
        blocksY = std::max<size_t>(blocksY, 2);
        break;
    default: break;
    }
    return blocksX * blocksY * blockBytes(format);
}

Image makeCheckerImage(uint32_t size) {
    size = std::max<uint32_t>(size, 2);
    std::vector<uint8_t> rgba(size_t(size) * size * 4);
    const uint32_t cell = std::max<uint32_t>(size / 8, 1);
    for (uint32_t y = 0; y < size; ++y) {
        for (uint32_t x = 0; x < size; ++x) {
            const bool odd = ((x / cell) + (y / cell)) & 1;
            uint8_t* p = &rgba[(size_t(y) * size + x) * 4];
            p[0] = odd ? 255 : 64;
            p[1] = odd ? 0 : 64;
            p[2] = odd ? 255 : 64;
            p[3] = 255;
        }
    }
    Image image;
    image.width = image.height = size;
    image.container = "checker";
    image.surfaces.push_back(makeOwnedBytes(std::move(rgba)));
    return image;
}

}  // namespace esv
