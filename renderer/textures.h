// Texture upload: compressed surfaces go to the GPU as stored when the context has the codec;
// everything else arrives as RGBA8 (decoded once by loaders/textures before setScene).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "renderer/gl_objects.h"
#include "scene/scene.h"
#include "target/device_profiles.h"

namespace esv {

// Which compressed formats this context samples natively (ES3 core adds ETC2/EAC; ES2 mode never
// counts ES3 core formats).
struct TextureFormatSupport {
    std::array<bool, static_cast<size_t>(PixelFormat::Count)> native{};
    // ETC1 images go up as GL_COMPRESSED_RGB8_ETC2 (ETC2 decodes ETC1 blocks alike): the context
    // samples ETC2 but lists no ETC1 extension.
    bool etc1AsEtc2 = false;
    bool npot = false;  // full non-power-of-two support (ES3): wrap modes and mipmaps on any size
    int maxSize = 2048;

    bool supports(PixelFormat f) const { return native[static_cast<size_t>(f)]; }
};

// The compressed formats a context samples, from its GL_VERSION and GL_EXTENSIONS strings (no GL
// call; either may be null). `es3`: the renderer uses ES 3.0 (not ES2 mode); `strict`: the strict ES2
// profile, which sees no extension. A WebGL context (GL_VERSION names WebGL, as Emscripten's does)
// lists WebGL's extension names (WEBGL_compressed_texture_s3tc, _etc, _etc1, _astc, _pvrtc; with
// or without a GL_ prefix) and has no ETC2/EAC in its core, WebGL 2 included: only
// WEBGL_compressed_texture_etc gives them. npot and maxSize are left at their defaults.
TextureFormatSupport textureFormatSupport(const char* version, const char* extensions, bool es3, bool strict);

// Reads the context's version and extensions (call with a current context): textureFormatSupport,
// with GL_MAX_TEXTURE_SIZE (capped at kStrictLimits.maxTextureSize by the strict profile).
// With `device`: only what that device's profile samples too, at its size limit.
TextureFormatSupport detectTextureSupport(bool es3, bool strict = false, const DeviceProfile* device = nullptr);

struct GpuTexture {
    gl::Texture texture;
    GLenum target = GL_TEXTURE_2D;
    uint32_t width = 0, height = 0;
    bool mipmapped = false;
    uint32_t levels = 1;  // mip levels sampled (stored or generated)
    bool clampOnly = false;                         // ES2 non-power-of-two: clamp to edge, no mipmaps
    Wrap wrapS = Wrap::Count, wrapT = Wrap::Count;  // as last set on the texture object
    // ES3: as last set with GL_TEXTURE_SWIZZLE_* (resolved, GL's initial state r, g, b, a).
    TextureSwizzle swizzle{SwizzleSource::Red, SwizzleSource::Green, SwizzleSource::Blue, SwizzleSource::Alpha};
    GLenum minFilter = 0, magFilter = 0;  // as last set on the texture object
    size_t gpuBytes = 0;
};

// Uploads `image`. Mip levels come from the image when it has a usable chain, are generated for
// RGBA8 images otherwise (where the size allows). Notes on what was done go to `notes`.
bool uploadTexture(const Image& image, const TextureFormatSupport& support, GpuTexture& out,
                   std::vector<std::string>& notes, std::string& error);

// Sets the wrap modes a material asks for (clamped where the texture forbids repeat). The modes GL
// lacks (Border, MirrorClamp, MirrorBorder) are emulated by the fragment stage on coordinates it
// has already brought into [0, 1], so GL clamps to the edge for them. The texture must be bound to
// its target on the active unit.
void applyWrap(GpuTexture& texture, Wrap s, Wrap t);

// The GL filters a reference's TextureFilter values mean on `texture` (TextureFilter's rules), and
// whether they differ from those last set; applyFilter sets what differs. The texture must be bound
// to its target on the active unit.
void filterEnums(const GpuTexture& texture, TextureFilter min, TextureFilter mag, GLenum& glMin, GLenum& glMag);
bool filterDiffers(const GpuTexture& texture, TextureFilter min, TextureFilter mag);
void applyFilter(GpuTexture& texture, TextureFilter min, TextureFilter mag);

// ES3: sets GL_TEXTURE_SWIZZLE_R/G/B/A from `swizzle` (Identity resolved for the RGBA the image
// was uploaded as). The texture must be bound to its target on the active unit.
void applySwizzle(GpuTexture& texture, const TextureSwizzle& swizzle);

// True when applyWrap / applySwizzle would change the texture object (its unit must then be the
// active one), so that a texture already bound as wanted costs no call.
bool wrapDiffers(const GpuTexture& texture, Wrap s, Wrap t);
bool swizzleDiffers(const GpuTexture& texture, const TextureSwizzle& swizzle);

// The image with its channels permuted by `swizzle` on the CPU (ES2, which has no swizzle state):
// every level and face of an RGBA8 image. False, leaving `out` empty, for compressed images.
bool swizzleImage(const Image& image, const TextureSwizzle& swizzle, Image& out);

}  // namespace esv
