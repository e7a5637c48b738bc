// Software decoders for the compressed formats, used when the GPU lacks the codec (and by tests
// as the reference). No GL. Each decodes a whole width x height surface whose bytes are exactly
// surfaceSize(format, width, height, ...) long into width * height * 4 bytes of RGBA8, top row first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/image.h"

namespace esv {

// PVRTC version 1, 2 or 4 bpp, with the format's bilinear upscale of the A and B colour images
// across block boundaries (wrapping at the edges, as the hardware does for power-of-two sizes).
void decodePvrtc1(const uint8_t* blocks, uint32_t width, uint32_t height, bool twoBpp, uint8_t* rgba);

// ETC1, ETC2 (RGB, punch-through A1, RGBA with EAC alpha) and EAC R11 / RG11, which decode as GL
// samples them: R11 -> (r, 0, 0, 255), RG11 -> (r, g, 0, 255); signed values v in -1..1 map to
// round((v * 0.5 + 0.5) * 255).
void decodeEtc(PixelFormat format, const uint8_t* blocks, uint32_t width, uint32_t height, uint8_t* rgba);

// ASTC LDR, any 2D block size from 4x4 to 12x12; void-extent and error blocks (magenta) handled.
// sRGB only changes the decode-mode rounding; output is the stored 8-bit values.
void decodeAstc(const uint8_t* blocks, uint32_t width, uint32_t height, uint32_t blockWidth, uint32_t blockHeight,
                bool srgb, uint8_t* rgba);

// BC1 (DXT1, with and without 1-bit alpha), BC2 (DXT3), BC3 (DXT5).
void decodeBc(PixelFormat format, const uint8_t* blocks, uint32_t width, uint32_t height, uint8_t* rgba);

// Decodes surface (level, face) of `image` to RGBA8. Returns false with `error` for a surface whose
// size does not match its format (never happens for images from readImage).
bool decodeSurface(const Image& image, uint32_t level, uint32_t face, std::vector<uint8_t>& rgba, std::string& error);

// The base level of array layer `layer` (0: surfaces, else layerSurfaces), face `face` of a cube map
// (layer 0 only: a later layer keeps its first face alone), as RGBA8 with row 0 at the top (a
// bottom-up compressed image's rows flipped).
bool decodeLayer(const Image& image, uint32_t layer, std::vector<uint8_t>& rgba, std::string& error,
                 uint32_t face = 0);

// A copy of `image` with every surface, and every later layer's base level, decoded to RGBA8 (a no-op
// copy for RGBA8 images), a note added.
bool decodeImage(const Image& image, Image& decoded, std::string& error);

}  // namespace esv
