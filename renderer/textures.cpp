#include "renderer/textures.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "target/strict_profile.h"
#include "target/texture_plan.h"

namespace esv {
namespace {

// The GL internal format of a compressed surface (0 when GL has no enum for it).
GLenum compressedEnum(const Image& image, const TextureFormatSupport& support) {
    const bool srgb = image.srgb;
    switch (image.format) {
        case PixelFormat::Pvrtc1_2bpp_Rgb:
            return GL_COMPRESSED_RGB_PVRTC_2BPPV1_IMG;
        case PixelFormat::Pvrtc1_2bpp_Rgba:
            return GL_COMPRESSED_RGBA_PVRTC_2BPPV1_IMG;
        case PixelFormat::Pvrtc1_4bpp_Rgb:
            return GL_COMPRESSED_RGB_PVRTC_4BPPV1_IMG;
        case PixelFormat::Pvrtc1_4bpp_Rgba:
            return GL_COMPRESSED_RGBA_PVRTC_4BPPV1_IMG;
        case PixelFormat::Etc1_Rgb:
            return support.etc1AsEtc2 ? GLenum(GL_COMPRESSED_RGB8_ETC2) : GLenum(GL_ETC1_RGB8_OES);
        case PixelFormat::Etc2_Rgb:
            return srgb ? GL_COMPRESSED_SRGB8_ETC2 : GL_COMPRESSED_RGB8_ETC2;
        case PixelFormat::Etc2_Rgb_A1:
            return srgb ? GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2
                        : GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2;
        case PixelFormat::Etc2_Rgba:
            return srgb ? GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC : GL_COMPRESSED_RGBA8_ETC2_EAC;
        case PixelFormat::Eac_R11:
            return GL_COMPRESSED_R11_EAC;
        case PixelFormat::Eac_R11_Signed:
            return GL_COMPRESSED_SIGNED_R11_EAC;
        case PixelFormat::Eac_Rg11:
            return GL_COMPRESSED_RG11_EAC;
        case PixelFormat::Eac_Rg11_Signed:
            return GL_COMPRESSED_SIGNED_RG11_EAC;
        case PixelFormat::Astc: {
            struct Size {
                uint32_t w, h;
                GLenum linear, srgb;
            };
            static constexpr Size kSizes[] = {
                {4, 4, GL_COMPRESSED_RGBA_ASTC_4x4_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR},
                {5, 4, GL_COMPRESSED_RGBA_ASTC_5x4_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_5x4_KHR},
                {5, 5, GL_COMPRESSED_RGBA_ASTC_5x5_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_5x5_KHR},
                {6, 5, GL_COMPRESSED_RGBA_ASTC_6x5_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_6x5_KHR},
                {6, 6, GL_COMPRESSED_RGBA_ASTC_6x6_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_6x6_KHR},
                {8, 5, GL_COMPRESSED_RGBA_ASTC_8x5_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8x5_KHR},
                {8, 6, GL_COMPRESSED_RGBA_ASTC_8x6_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8x6_KHR},
                {8, 8, GL_COMPRESSED_RGBA_ASTC_8x8_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8x8_KHR},
                {10, 5, GL_COMPRESSED_RGBA_ASTC_10x5_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10x5_KHR},
                {10, 6, GL_COMPRESSED_RGBA_ASTC_10x6_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10x6_KHR},
                {10, 8, GL_COMPRESSED_RGBA_ASTC_10x8_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10x8_KHR},
                {10, 10, GL_COMPRESSED_RGBA_ASTC_10x10_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10x10_KHR},
                {12, 10, GL_COMPRESSED_RGBA_ASTC_12x10_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12x10_KHR},
                {12, 12, GL_COMPRESSED_RGBA_ASTC_12x12_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12x12_KHR},
            };
            for (const Size& s : kSizes)
                if (s.w == image.blockWidth && s.h == image.blockHeight) return srgb ? s.srgb : s.linear;
            return 0;
        }
        case PixelFormat::Bc1_Rgb:
            return GL_COMPRESSED_RGB_S3TC_DXT1_EXT;
        case PixelFormat::Bc1_Rgba:
            return GL_COMPRESSED_RGBA_S3TC_DXT1_EXT;
        case PixelFormat::Bc2:
            return GL_COMPRESSED_RGBA_S3TC_DXT3_EXT;
        case PixelFormat::Bc3:
            return GL_COMPRESSED_RGBA_S3TC_DXT5_EXT;
        case PixelFormat::Rgba8:
        case PixelFormat::Count:
            break;
    }
    return 0;
}

GLenum wrapEnum(Wrap w) {
    // The emulated modes hand GL coordinates inside [0, 1]: clamping keeps linear filtering at the
    // edges from blending in the opposite edge.
    static constexpr GLenum kWraps[] = {GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT,
                                        GL_CLAMP_TO_EDGE, GL_CLAMP_TO_EDGE, GL_CLAMP_TO_EDGE};
    static_assert(sizeof(kWraps) / sizeof(kWraps[0]) == static_cast<size_t>(Wrap::Count));
    return static_cast<size_t>(w) < static_cast<size_t>(Wrap::Count) ? kWraps[static_cast<size_t>(w)] : GLenum(GL_REPEAT);
}

// Images reach the renderer as RGBA (readers expand grey and RGB files), so the identity of
// every position is its own channel.
constexpr int kUploadedChannels = 4;

}  // namespace

TextureFormatSupport textureFormatSupport(const char* version, const char* extensions, bool es3,
                                          bool strict) {
    TextureFormatSupport s;
    if (strict) return s;
    const bool webgl = version && std::strstr(version, "WebGL");
    // A WebGL name, as Emscripten lists it (GL_ prefixed) or as the browser does.
    const auto has = [extensions](const char* name) { return gl::extensionListed(extensions, name); };
    const auto hasWebgl = [&has](const std::string& name) {
        return has(("GL_" + name).c_str()) || has(name.c_str());
    };
    auto set = [&](std::initializer_list<PixelFormat> formats, bool on) {
        for (PixelFormat f : formats)
            s.native[static_cast<size_t>(f)] = s.native[static_cast<size_t>(f)] || on;
    };
    set({PixelFormat::Pvrtc1_2bpp_Rgb, PixelFormat::Pvrtc1_2bpp_Rgba, PixelFormat::Pvrtc1_4bpp_Rgb,
         PixelFormat::Pvrtc1_4bpp_Rgba},
        has("GL_IMG_texture_compression_pvrtc") || hasWebgl("WEBGL_compressed_texture_pvrtc"));
    // ETC2/EAC: ES 3.0 core, but an extension in WebGL (2 as well).
    const bool etc2 = webgl ? hasWebgl("WEBGL_compressed_texture_etc") : es3;
    set({PixelFormat::Etc2_Rgb, PixelFormat::Etc2_Rgb_A1, PixelFormat::Etc2_Rgba, PixelFormat::Eac_R11,
         PixelFormat::Eac_R11_Signed, PixelFormat::Eac_Rg11, PixelFormat::Eac_Rg11_Signed},
        etc2);
    const bool etc1 = has("GL_OES_compressed_ETC1_RGB8_texture") || hasWebgl("WEBGL_compressed_texture_etc1");
    set({PixelFormat::Etc1_Rgb}, etc1 || etc2);
    s.etc1AsEtc2 = !etc1 && etc2;
    set({PixelFormat::Astc},
        has("GL_KHR_texture_compression_astc_ldr") || hasWebgl("WEBGL_compressed_texture_astc"));
    const bool s3tc = has("GL_EXT_texture_compression_s3tc") || hasWebgl("WEBGL_compressed_texture_s3tc");
    set({PixelFormat::Bc1_Rgb, PixelFormat::Bc1_Rgba}, s3tc || has("GL_EXT_texture_compression_dxt1"));
    set({PixelFormat::Bc2}, s3tc || has("GL_ANGLE_texture_compression_dxt3"));
    set({PixelFormat::Bc3}, s3tc || has("GL_ANGLE_texture_compression_dxt5"));
    return s;
}

TextureFormatSupport detectTextureSupport(bool es3, bool strict, const DeviceProfile* device) {
    TextureFormatSupport s =
        textureFormatSupport(reinterpret_cast<const char*>(glGetString(GL_VERSION)),
                             reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS)), es3, strict);
    s.npot = es3;
    GLint size = 2048;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
    s.maxSize = strict ? std::min(int(size), kStrictLimits.maxTextureSize) : int(size);
    if (device) {
        const TargetCaps target = deviceTargetCaps(*device);
        for (size_t f = 0; f < s.native.size(); ++f) s.native[f] = s.native[f] && target.supports(PixelFormat(f));
        s.etc1AsEtc2 = s.etc1AsEtc2 && s.supports(PixelFormat::Etc1_Rgb);
        s.npot = s.npot && device->npotTextures;
        s.maxSize = std::min(s.maxSize, device->limits.maxTextureSize);
    }
    return s;
}

bool uploadTexture(const Image& image, const TextureFormatSupport& support, GpuTexture& out,
                   std::vector<std::string>& notes, std::string& error) {
    if (image.empty() || image.width == 0 || image.height == 0) {
        error = "empty image";
        return false;
    }
    const bool compressed = isCompressed(image.format);
    const GLenum internal = compressed ? compressedEnum(image, support) : GLenum(GL_RGBA);
    const TexturePlan plan =
        planTextureUpload(image, support.npot, support.maxSize, !compressed || (support.supports(image.format) && internal != 0));
    if (!plan.ok) {
        error = plan.error;
        return false;
    }
    notes.insert(notes.end(), plan.notes.begin(), plan.notes.end());
    out.clampOnly = plan.clampOnly;
    const uint32_t levels = plan.levels;
    out.target = image.isCube() ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
    out.width = image.width;
    out.height = image.height;
    GLuint name = 0;
    glGenTextures(1, &name);
    out.texture = gl::Texture(name);
    glBindTexture(out.target, name);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (uint32_t level = 0; level < levels; ++level) {
        const uint32_t w = image.levelWidth(level), h = image.levelHeight(level);
        for (uint32_t face = 0; face < image.faces; ++face) {
            const ByteView& bytes = image.surface(level, face);
            const GLenum target =
                image.isCube() ? GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face) : GLenum(GL_TEXTURE_2D);
            if (compressed) {
                glCompressedTexImage2D(target, GLint(level), internal, GLsizei(w), GLsizei(h), 0,
                                       GLsizei(bytes.size), bytes.data);
            } else {
                glTexImage2D(target, GLint(level), GL_RGBA, GLsizei(w), GLsizei(h), 0, GL_RGBA,
                             GL_UNSIGNED_BYTE, bytes.data);
            }
        }
    }
    out.gpuBytes = plan.gpuBytes;
    out.mipmapped = levels > 1;
    if (plan.generateMips) {
        glGenerateMipmap(out.target);
        out.mipmapped = true;
    }
    const uint32_t usedLevels = plan.usedLevels;
    out.levels = usedLevels;
    // ES3 can sample a partial stored chain by capping the level range.
    if (support.npot) glTexParameteri(out.target, GL_TEXTURE_MAX_LEVEL, GLint(usedLevels - 1));
    out.minFilter = out.mipmapped ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR;
    out.magFilter = GL_LINEAR;
    glTexParameteri(out.target, GL_TEXTURE_MIN_FILTER, GLint(out.minFilter));
    glTexParameteri(out.target, GL_TEXTURE_MAG_FILTER, GLint(out.magFilter));
    out.wrapS = out.wrapT = Wrap::Count;
    out.swizzle = GpuTexture().swizzle;  // a new texture object starts unswizzled
    applyWrap(out, image.isCube() ? Wrap::Clamp : Wrap::Repeat, image.isCube() ? Wrap::Clamp : Wrap::Repeat);
    return true;
}

void applyWrap(GpuTexture& texture, Wrap s, Wrap t) {
    if (texture.clampOnly || texture.target == GL_TEXTURE_CUBE_MAP) s = t = Wrap::Clamp;
    if (s != texture.wrapS) {
        glTexParameteri(texture.target, GL_TEXTURE_WRAP_S, GLint(wrapEnum(s)));
        texture.wrapS = s;
    }
    if (t != texture.wrapT) {
        glTexParameteri(texture.target, GL_TEXTURE_WRAP_T, GLint(wrapEnum(t)));
        texture.wrapT = t;
    }
}

}  // namespace esv

namespace esv {

void filterEnums(const GpuTexture& texture, TextureFilter min, TextureFilter mag, GLenum& glMin, GLenum& glMag) {
    static constexpr GLenum kMipmapped[] = {GL_LINEAR_MIPMAP_LINEAR, GL_NEAREST, GL_LINEAR,
                                            GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST,
                                            GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR};
    static constexpr GLenum kBaseOnly[] = {GL_LINEAR, GL_NEAREST, GL_LINEAR, GL_NEAREST, GL_LINEAR, GL_NEAREST, GL_LINEAR};
    static_assert(sizeof(kMipmapped) / sizeof(kMipmapped[0]) == size_t(TextureFilter::Count), "one per filter");
    static_assert(sizeof(kBaseOnly) / sizeof(kBaseOnly[0]) == size_t(TextureFilter::Count), "one per filter");
    const size_t m = std::min(size_t(min), size_t(TextureFilter::Count) - 1);
    glMin = texture.mipmapped ? kMipmapped[m] : kBaseOnly[m];
    glMag = mag == TextureFilter::Nearest ? GL_NEAREST : GL_LINEAR;
}

bool filterDiffers(const GpuTexture& texture, TextureFilter min, TextureFilter mag) {
    GLenum glMin = 0, glMag = 0;
    filterEnums(texture, min, mag, glMin, glMag);
    return glMin != texture.minFilter || glMag != texture.magFilter;
}

void applyFilter(GpuTexture& texture, TextureFilter min, TextureFilter mag) {
    GLenum glMin = 0, glMag = 0;
    filterEnums(texture, min, mag, glMin, glMag);
    if (glMin != texture.minFilter) {
        glTexParameteri(texture.target, GL_TEXTURE_MIN_FILTER, GLint(glMin));
        texture.minFilter = glMin;
    }
    if (glMag != texture.magFilter) {
        glTexParameteri(texture.target, GL_TEXTURE_MAG_FILTER, GLint(glMag));
        texture.magFilter = glMag;
    }
}

bool wrapDiffers(const GpuTexture& texture, Wrap s, Wrap t) {
    if (texture.clampOnly || texture.target == GL_TEXTURE_CUBE_MAP) s = t = Wrap::Clamp;
    return s != texture.wrapS || t != texture.wrapT;
}

bool swizzleDiffers(const GpuTexture& texture, const TextureSwizzle& swizzle) {
    const TextureSwizzle resolved = resolveSwizzle(swizzle, kUploadedChannels);
    for (int i = 0; i < 4; ++i)
        if (resolved[i] != texture.swizzle[i]) return true;
    return false;
}

void applySwizzle(GpuTexture& texture, const TextureSwizzle& swizzle) {
    static constexpr GLenum kSources[] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA, GL_ZERO, GL_ONE};
    static constexpr GLenum kParameters[] = {GL_TEXTURE_SWIZZLE_R, GL_TEXTURE_SWIZZLE_G, GL_TEXTURE_SWIZZLE_B,
                                             GL_TEXTURE_SWIZZLE_A};
    const TextureSwizzle resolved = resolveSwizzle(swizzle, kUploadedChannels);
    for (int i = 0; i < 4; ++i) {
        if (resolved[i] == texture.swizzle[i]) continue;
        const size_t source = static_cast<size_t>(resolved[i]);
        glTexParameteri(texture.target, kParameters[i], GLint(source < 6 ? kSources[source] : kSources[i]));
        texture.swizzle[i] = resolved[i];
    }
}

bool swizzleImage(const Image& image, const TextureSwizzle& swizzle, Image& out) {
    out = Image();
    if (isCompressed(image.format)) return false;
    const TextureSwizzle resolved = resolveSwizzle(swizzle, kUploadedChannels);
    out = image;
    for (ByteView& surface : out.surfaces) {
        std::vector<uint8_t> bytes(surface.size);
        const uint8_t* src = surface.data;
        for (size_t p = 0; p + 4 <= surface.size; p += 4)
            for (int c = 0; c < 4; ++c) {
                const SwizzleSource from = resolved[c];
                bytes[p + c] = from == SwizzleSource::Zero  ? uint8_t(0)
                               : from == SwizzleSource::One ? uint8_t(255)
                                                            : src[p + static_cast<size_t>(from)];
            }
        surface = makeOwnedBytes(std::move(bytes));
    }
    return true;
}

}  // namespace esv
