// Which compressed formats the renderer samples natively, from a context's GL_VERSION and
// GL_EXTENSIONS strings (textureFormatSupport): desktop Mesa's names, and WebGL's as Emscripten lists
// them (each WebGL name unprefixed and with a GL_ prefix). No GL context.
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "renderer/textures.h"

using namespace esv;

namespace {

const char* const kMesaEs32 = "OpenGL ES 3.2 Mesa 22.3.6";
const char* const kWebgl2 = "OpenGL ES 3.0 (WebGL 2.0 (OpenGL ES 3.0 Chromium))";
const char* const kWebgl1 = "OpenGL ES 2.0 (WebGL 1.0 (OpenGL ES 2.0 Chromium))";

// The extension string Emscripten's glGetString(GL_EXTENSIONS) gives for these WebGL names.
std::string emscriptenList(std::initializer_list<const char*> names) {
    std::string plain, prefixed;
    for (const char* n : names) {
        plain += std::string(plain.empty() ? "" : " ") + n;
        prefixed += std::string(" GL_") + n;
    }
    return plain + prefixed;
}

const PixelFormat kPvrtc[] = {PixelFormat::Pvrtc1_2bpp_Rgb, PixelFormat::Pvrtc1_2bpp_Rgba,
                              PixelFormat::Pvrtc1_4bpp_Rgb, PixelFormat::Pvrtc1_4bpp_Rgba};
const PixelFormat kEtc2[] = {PixelFormat::Etc2_Rgb,       PixelFormat::Etc2_Rgb_A1,    PixelFormat::Etc2_Rgba,
                             PixelFormat::Eac_R11,        PixelFormat::Eac_R11_Signed, PixelFormat::Eac_Rg11,
                             PixelFormat::Eac_Rg11_Signed};
const PixelFormat kS3tc[] = {PixelFormat::Bc1_Rgb, PixelFormat::Bc1_Rgba, PixelFormat::Bc2, PixelFormat::Bc3};

// One line per format family: what `s` samples natively.
std::string families(const TextureFormatSupport& s) {
    auto all = [&s](const auto& formats) {
        for (PixelFormat f : formats)
            if (!s.supports(f)) return false;
        return true;
    };
    auto none = [&s](const auto& formats) {
        for (PixelFormat f : formats)
            if (s.supports(f)) return false;
        return true;
    };
    std::string out;
    auto family = [&](const char* name, const auto& formats) {
        out += std::string(name) + (all(formats) ? "+ " : none(formats) ? "- " : "? ");
    };
    family("pvrtc", kPvrtc);
    family("etc1", std::initializer_list<PixelFormat>{PixelFormat::Etc1_Rgb});
    family("etc2", kEtc2);
    family("astc", std::initializer_list<PixelFormat>{PixelFormat::Astc});
    family("s3tc", kS3tc);
    return out;
}

}  // namespace

TEST(TextureSupport, MesaEs3HasEtc2InItsCoreAndTheOthersByExtension) {
    const char* ext =
        "GL_OES_compressed_ETC1_RGB8_texture GL_EXT_texture_compression_s3tc "
        "GL_KHR_texture_compression_astc_ldr GL_OES_element_index_uint";
    const TextureFormatSupport es3 = textureFormatSupport(kMesaEs32, ext, true, false);
    EXPECT_EQ(families(es3), "pvrtc- etc1+ etc2+ astc+ s3tc+ ");
    EXPECT_FALSE(es3.etc1AsEtc2) << "the ETC1 extension takes ETC1 as it is";
    // ES2 mode on the same context: no ES3 core format.
    EXPECT_EQ(families(textureFormatSupport(kMesaEs32, ext, false, false)),
              "pvrtc- etc1+ etc2- astc+ s3tc+ ");
    // The strict profile sees no extension.
    EXPECT_EQ(families(textureFormatSupport(kMesaEs32, ext, false, true)), "pvrtc- etc1- etc2- astc- s3tc- ");
    // An ES3 context without the ETC1 extension samples ETC1 as ETC2 RGB8.
    const TextureFormatSupport bare =
        textureFormatSupport("OpenGL ES 3.0 V@1", "GL_IMG_texture_compression_pvrtc", true, false);
    EXPECT_EQ(families(bare), "pvrtc+ etc1+ etc2+ astc- s3tc- ");
    EXPECT_TRUE(bare.etc1AsEtc2);
    // Single S3TC formats by their own extensions.
    const TextureFormatSupport dxt = textureFormatSupport(
        kMesaEs32, "GL_EXT_texture_compression_dxt1 GL_ANGLE_texture_compression_dxt5", false, false);
    EXPECT_TRUE(dxt.supports(PixelFormat::Bc1_Rgb));
    EXPECT_TRUE(dxt.supports(PixelFormat::Bc3));
    EXPECT_FALSE(dxt.supports(PixelFormat::Bc2));
}

TEST(TextureSupport, WebGlNamesTheFormatsByItsOwnExtensions) {
    // What SwiftShader's WebGL 2 in Chromium lists (no PVRTC).
    const std::string swiftShader = emscriptenList(
        {"EXT_color_buffer_float", "EXT_texture_compression_bptc", "WEBGL_compressed_texture_astc",
         "WEBGL_compressed_texture_etc", "WEBGL_compressed_texture_etc1", "WEBGL_compressed_texture_s3tc",
         "WEBGL_compressed_texture_s3tc_srgb", "WEBGL_lose_context"});
    const TextureFormatSupport webgl2 = textureFormatSupport(kWebgl2, swiftShader.c_str(), true, false);
    EXPECT_EQ(families(webgl2), "pvrtc- etc1+ etc2+ astc+ s3tc+ ");
    EXPECT_FALSE(webgl2.etc1AsEtc2);
    EXPECT_EQ(families(textureFormatSupport(kWebgl1, swiftShader.c_str(), false, false)),
              "pvrtc- etc1+ etc2+ astc+ s3tc+ ");
    // A PowerVR device's WebGL.
    EXPECT_EQ(families(textureFormatSupport(
                  kWebgl1, emscriptenList({"WEBGL_compressed_texture_pvrtc"}).c_str(), false, false)),
              "pvrtc+ etc1- etc2- astc- s3tc- ");
    // The browser's own spelling, without Emscripten's GL_ copies.
    EXPECT_EQ(families(textureFormatSupport(kWebgl2, "WEBGL_compressed_texture_s3tc", true, false)),
              "pvrtc- etc1- etc2- astc- s3tc+ ");
}

TEST(TextureSupport, WebGl2HasNoEtc2WithoutItsExtension) {
    // ETC2/EAC are core in ES 3.0 but not in WebGL 2: a desktop browser without the extension
    // decodes them (and ETC1) in software.
    const std::string desktop = emscriptenList({"EXT_color_buffer_float", "WEBGL_compressed_texture_s3tc"});
    const TextureFormatSupport s = textureFormatSupport(kWebgl2, desktop.c_str(), true, false);
    EXPECT_EQ(families(s), "pvrtc- etc1- etc2- astc- s3tc+ ");
    // ETC1 alone: taken as it is; ETC2 alone: ETC1 goes up as ETC2 RGB8.
    const TextureFormatSupport etc1 =
        textureFormatSupport(kWebgl2, emscriptenList({"WEBGL_compressed_texture_etc1"}).c_str(), true, false);
    EXPECT_EQ(families(etc1), "pvrtc- etc1+ etc2- astc- s3tc- ");
    EXPECT_FALSE(etc1.etc1AsEtc2);
    const TextureFormatSupport etc =
        textureFormatSupport(kWebgl2, emscriptenList({"WEBGL_compressed_texture_etc"}).c_str(), true, false);
    EXPECT_EQ(families(etc), "pvrtc- etc1+ etc2+ astc- s3tc- ");
    EXPECT_TRUE(etc.etc1AsEtc2);
    // Whole names only: the sRGB S3TC extension is not S3TC, WEBGL_compressed_texture_etc1 is not _etc.
    EXPECT_EQ(families(textureFormatSupport(kWebgl2, "GL_WEBGL_compressed_texture_s3tc_srgb", true, false)),
              "pvrtc- etc1- etc2- astc- s3tc- ");
    EXPECT_TRUE(textureFormatSupport(kWebgl2, "GL_WEBGL_compressed_texture_etc1", true, false)
                    .supports(PixelFormat::Etc1_Rgb));
    EXPECT_FALSE(textureFormatSupport(kWebgl2, "GL_WEBGL_compressed_texture_etc1", true, false)
                     .supports(PixelFormat::Etc2_Rgb));
    // The strict profile and a missing string.
    EXPECT_EQ(families(textureFormatSupport(kWebgl1, desktop.c_str(), false, true)),
              "pvrtc- etc1- etc2- astc- s3tc- ");
    EXPECT_EQ(families(textureFormatSupport(nullptr, nullptr, true, false)),
              "pvrtc- etc1+ etc2+ astc- s3tc- ");
}
