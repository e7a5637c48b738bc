#include "loaders/textures/decode.h"

#include <algorithm>

namespace esv {

bool decodeSurface(const Image& image, uint32_t level, uint32_t face, std::vector<uint8_t>& rgba, std::string& error) {
    if (level >= image.levels || face >= image.faces || size_t(level) * image.faces + face >= image.surfaces.size()) {
        error = "no surface for level " + std::to_string(level) + " face " + std::to_string(face);
        return false;
    }
    const uint32_t w = image.levelWidth(level), h = image.levelHeight(level);
    const ByteView& bytes = image.surface(level, face);
    const size_t expected = surfaceSize(image.format, w, h, image.blockWidth, image.blockHeight);
    if (bytes.size != expected) {
        error = std::string(pixelFormatName(image.format)) + " surface of " + std::to_string(w) + "x" +
                std::to_string(h) + " has " + std::to_string(bytes.size) + " bytes, expected " +
                std::to_string(expected);
        return false;
    }
    rgba.resize(size_t(w) * h * 4);
    switch (image.format) {
    case PixelFormat::Rgba8: std::copy(bytes.begin(), bytes.end(), rgba.begin()); return true;
    case PixelFormat::Pvrtc1_2bpp_Rgb:
    case PixelFormat::Pvrtc1_4bpp_Rgb:
        // The RGB formats sample opaque whatever alpha the words encode, as GL does.
        decodePvrtc1(bytes.data, w, h, image.format == PixelFormat::Pvrtc1_2bpp_Rgb, rgba.data());
        for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
        return true;
    case PixelFormat::Pvrtc1_2bpp_Rgba: decodePvrtc1(bytes.data, w, h, true, rgba.data()); return true;
    case PixelFormat::Pvrtc1_4bpp_Rgba: decodePvrtc1(bytes.data, w, h, false, rgba.data()); return true;
    case PixelFormat::Etc1_Rgb:
    case PixelFormat::Etc2_Rgb:
    case PixelFormat::Etc2_Rgb_A1:
    case PixelFormat::Etc2_Rgba:
    case PixelFormat::Eac_R11:
    case PixelFormat::Eac_R11_Signed:
    case PixelFormat::Eac_Rg11:
    case PixelFormat::Eac_Rg11_Signed: decodeEtc(image.format, bytes.data, w, h, rgba.data()); return true;
    case PixelFormat::Astc:
        decodeAstc(bytes.data, w, h, image.blockWidth, image.blockHeight, image.srgb, rgba.data());
        return true;
    case PixelFormat::Bc1_Rgb:
    case PixelFormat::Bc1_Rgba:
    case PixelFormat::Bc2:
    case PixelFormat::Bc3: decodeBc(image.format, bytes.data, w, h, rgba.data()); return true;
    case PixelFormat::Count: break;
    }
    error = "unknown pixel format";
    return false;
}

namespace {

// Bytes of RGBA8 that decodeImage spends on an array's later layers at most.
constexpr size_t kMaxDecodedLayerBytes = size_t(64) << 20;

// Rows of a `width` x `h` RGBA8 picture upside down.
void flipRows(std::vector<uint8_t>& rgba, uint32_t width, uint32_t h) {
    const size_t row = size_t(width) * 4;
    for (uint32_t y = 0; y < h / 2; ++y)
        std::swap_ranges(rgba.begin() + ptrdiff_t(y * row), rgba.begin() + ptrdiff_t((y + 1) * row),
                         rgba.begin() + ptrdiff_t((h - 1 - y) * row));
}

}  // namespace

bool decodeLayer(const Image& image, uint32_t layer, std::vector<uint8_t>& rgba, std::string& error,
                 uint32_t face) {
    if (layer >= image.layers || (layer > 0 && layer > image.layerSurfaces.size())) {
        error = "no layer " + std::to_string(layer) + " (the image has " + std::to_string(image.layers) + ")";
        return false;
    }
    if (face >= image.faces) {
        error = "no face " + std::to_string(face) + " (the image has " + std::to_string(image.faces) + ")";
        return false;
    }
    if (layer > 0 && face > 0) {
        error = "only the first face of a later layer is kept";
        return false;
    }
    bool decoded = false;
    if (layer == 0) {
        decoded = decodeSurface(image, 0, face, rgba, error);
    } else {
        // The layer's base level as a one-surface image of the same format (no copy of the others).
        Image one;
        one.format = image.format;
        one.width = image.width;
        one.height = image.height;
        one.blockWidth = image.blockWidth;
        one.blockHeight = image.blockHeight;
        one.srgb = image.srgb;
        one.surfaces = {image.layerSurfaces[layer - 1]};
        decoded = decodeSurface(one, 0, 0, rgba, error);
    }
    if (!decoded) return false;
    if (image.bottomUp && image.format != PixelFormat::Rgba8) flipRows(rgba, image.width, image.height);
    return true;
}

bool decodeImage(const Image& image, Image& decoded, std::string& error) {
    decoded = image;
    if (image.format == PixelFormat::Rgba8) return true;
    decoded.format = PixelFormat::Rgba8;
    decoded.surfaces.clear();
    decoded.surfaces.reserve(image.surfaces.size());
    for (uint32_t level = 0; level < image.levels; ++level) {
        for (uint32_t face = 0; face < image.faces; ++face) {
            std::vector<uint8_t> rgba;
            if (!decodeSurface(image, level, face, rgba, error)) return false;
            if (image.bottomUp) flipRows(rgba, image.levelWidth(level), image.levelHeight(level));
            decoded.surfaces.push_back(makeOwnedBytes(std::move(rgba)));
        }
    }
    // The later layers' base levels, while they take no more than kMaxDecodedLayerBytes in all.
    decoded.layerSurfaces.clear();
    const size_t layerBytes = size_t(image.width) * image.height * 4;
    const size_t keep = std::min<size_t>(image.layerSurfaces.size(), kMaxDecodedLayerBytes / std::max<size_t>(layerBytes, 1));
    if (keep < image.layerSurfaces.size())
        decoded.notes.push_back("layers past " + std::to_string(keep) + " not decoded for inspection (" +
                                std::to_string(kMaxDecodedLayerBytes >> 20) + " MiB)");
    for (uint32_t layer = 1; layer <= keep; ++layer) {
        std::vector<uint8_t> rgba;
        if (!decodeLayer(image, layer, rgba, error)) return false;
        decoded.layerSurfaces.push_back(makeOwnedBytes(std::move(rgba)));
    }
    decoded.notes.push_back(std::string(pixelFormatName(image.format)) + " decoded to RGBA8 in software" +
                            (image.bottomUp ? ", rows flipped so row 0 is the top" : ""));
    decoded.bottomUp = false;
    return true;
}

}  // namespace esv
