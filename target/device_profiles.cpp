// Device profiles (device_profiles.h): each value with the source it comes from. Where no source
// was found for a part, a documented fallback stands in (a sibling part's value or the ES
// specification's minimum) and its "sources" line says so. vertexCache and budgets are esview's own
// figures: a model and guidance, not measurements of the hardware.
#include "target/device_profiles.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include "target/binding_plan.h"

namespace esv {

namespace {

constexpr uint64_t kMiB = 1ull << 20;

// The OpenGL ES minimums (ES 2.0.25 table 6.20; ES 3.0 implementation-dependent state tables).
constexpr DeviceLimits kEs3Minimums{256, 224, 16, 16, 16, 15, 2048};

// Cache models: tile-based PowerVR GPUs reuse transformed vertices within the tiler's primitive
// blocks rather than through a post-transform FIFO, so these sizes are what `esview cost` computes
// ACMR/ATVR with, not a property anyone measured.
constexpr uint32_t kSgxCache = 16;
constexpr uint32_t kRogueCache = 32;

const char* const kSgxCacheSource =
    "vertexCache: a model, not the hardware: a 16-entry FIFO for SGX (Series5/5XT) parts, the figure "
    "esview computes ACMR/ATVR with (PowerVR reuses transformed vertices within the tiler's primitive "
    "blocks, not through a FIFO; no vendor figure)";
const char* const kRogueCacheSource =
    "vertexCache: a model, not the hardware: a 32-entry FIFO for Rogue (Series6 and later) parts, the "
    "figure esview computes ACMR/ATVR with (no vendor figure; PowerVR reuses transformed vertices "
    "within the tiler's primitive blocks)";
const char* const kBudgetsSource =
    "budgets: esview's guidance for a steady frame on this class of part (triangles, draw calls and "
    "resident texture bytes per frame), not a hardware limit and not from an external source";

const char* const kIpad2Report =
    "an iPad 2 webgl-bench report (gist.github.com/benvanik/884365; GL_RENDERER PowerVR SGX 543, "
    "GL_VERSION OpenGL ES 2.0 IMGSGX543-58.6, iOS 4.3)";
const char* const kBlackBerry540 =
    "BlackBerry developer documentation, 'Understand the PowerVR SGX540 platform'";
const char* const kQnx540 =
    "the GL_EXTENSIONS of a PowerVR SGX 540 QNX driver (GL_VERSION OpenGL ES 2.0 build 1.7@788837, "
    "pastebin.com/diff/UBSeqHfK)";
const char* const kImgPvrtc =
    "Imagination's OpenGL ES extension reference, GL_IMG_texture_compression_pvrtc: supported on "
    "Series5, Series5XT, Series6, Series6XE, Series6XT";
const char* const kA7Report =
    "flatlib, a blog post on the iPhone 5s' Apple A7 GPU (wlog.flatlib.jp/2013/09/22/n1644/; GL_VERSION "
    "OpenGL ES "
    "3.0 Apple A7 GPU, the GPU reported as a PowerVR G6430)";
const char* const kEs3Core =
    "uintIndices, halfFloat, vertexArrays, npotTextures, etc2: OpenGL ES 3.0 core (32-bit indices, "
    "half-float attributes, vertex array objects, full non-power-of-two textures, ETC2/EAC formats)";
const char* const kEtc1AsEtc2 =
    "etc1: GL_OES_compressed_ETC1_RGB8_texture not sourced for this part: off; ETC1 data is still "
    "sampled natively, as ETC2 RGB8 (ES 3.0 core), as deviceTargetCaps and the renderer do";
const char* const kNoBc = "bc: off: S3TC/DXT is a desktop format no PowerVR source lists";

std::string cat(std::initializer_list<const char*> parts) {
    std::string s;
    for (const char* p : parts) s += p;
    return s;
}

DeviceProfile base(const char* name, const char* title, const char* family, int esVersion,
                   const DeviceLimits& limits) {
    DeviceProfile d;
    d.name = name;
    d.title = title;
    d.family = family;
    d.esVersion = esVersion;
    d.limits = limits;
    return d;
}

// Rogue parts run ES 3.x: the ES 3.0 core features are theirs whatever the extension lists say.
void setEs3Core(DeviceProfile& d) {
    d.etc2 = d.uintIndices = d.halfFloat = d.vertexArrays = d.npotTextures = true;
}

DeviceProfile sgx530() {
    DeviceProfile d = base("sgx530", "PowerVR SGX 530", "SGX Series5", 20, {128, 64, 8, 8, 0, 8, 2048});
    d.pvrtc = true;
    d.vertexCache = kSgxCache;
    d.budgets = {60000, 100, 32 * kMiB};
    d.sources = {
        cat({"esVersion: ", kBlackBerry540,
             ": the PowerVR SGX platform is designed for OpenGL ES 2.0; the SGX 530 is the same Series5 "
             "generation (no driver report of the 530 itself was found)"}),
        "vertexUniformVectors, vertexAttribs, vertexTextureUnits, varyingVectors: not found for this part; "
        "the OpenGL ES 2.0 specification's minimums (128, 8, 0, 8)",
        cat({"fragmentUniformVectors: not found for this part; the SGX 543's 64 (", kIpad2Report,
             "), the same Series5 driver family"}),
        cat({"textureUnits: not found for this part; the SGX 540's 8 (", kBlackBerry540,
             ": GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS 8, so 8 fragment units, the ES 2.0 minimum)"}),
        cat({"maxTextureSize: not found for this part; the SGX 540's 2048 (", kBlackBerry540,
             ": GL_MAX_TEXTURE_SIZE 2048 x 2048), the same Series5 family"}),
        cat({"pvrtc: Unity scripting reference, MobileTextureSubtarget.PVRTC ('available in devices running "
             "PowerVR SGX530/540 GPU'); ",
             kImgPvrtc}),
        "etc1, etc2, astc, bc, uintIndices, halfFloat, vertexArrays, npotTextures: no extension list of the "
        "SGX 530 was found: off, what the ES 2.0 core gives",
        kSgxCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile sgx540() {
    DeviceProfile d = base("sgx540", "PowerVR SGX 540", "SGX Series5", 20, {128, 64, 8, 8, 0, 8, 2048});
    d.pvrtc = d.etc1 = d.uintIndices = d.halfFloat = d.vertexArrays = true;
    d.vertexCache = kSgxCache;
    d.budgets = {100000, 150, 64 * kMiB};
    d.sources = {
        cat({"esVersion: ", kBlackBerry540, " (the PowerVR SGX platform is designed for OpenGL ES 2.0); ",
             kQnx540}),
        cat({"maxTextureSize, textureUnits: ", kBlackBerry540,
             ": GL_MAX_TEXTURE_SIZE 2048 x 2048 (its ES 1.1 limits table), "
             "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS "
             "8 (its ES 2.0 limits table; so 8 fragment units, the ES 2.0 minimum)"}),
        cat({"fragmentUniformVectors: not found for this part; the SGX 543's 64 (", kIpad2Report,
             "), the same Series5 driver family"}),
        "vertexUniformVectors, vertexAttribs, vertexTextureUnits, varyingVectors: not found for this part "
        "(the rest of the BlackBerry ES 2.0 table was not in the stored copy); the OpenGL ES 2.0 "
        "specification's minimums (128, 8, 0, 8)",
        cat({"pvrtc, etc1, uintIndices, halfFloat, vertexArrays: ", kQnx540,
             ": GL_IMG_texture_compression_pvrtc, GL_OES_compressed_ETC1_RGB8_texture, "
             "GL_OES_element_index_uint, GL_OES_vertex_half_float, GL_OES_vertex_array_object"}),
        "npotTextures: off: the same list has GL_IMG_texture_npot but not GL_OES_texture_npot (NPOT with "
        "repeat wrapping and mipmaps)",
        "etc2, astc, bc: off: not in the same list, and not ES 2.0 core formats",
        kSgxCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile sgx543mp() {
    DeviceProfile d = base("sgx543mp", "PowerVR SGX 543MP (Apple A5, A5X)", "SGX Series5XT", 20,
                           {128, 64, 8, 8, 0, 8, 2048});
    d.pvrtc = true;
    d.vertexCache = kSgxCache;
    d.budgets = {250000, 200, 128 * kMiB};
    d.sources = {
        "esVersion: Apple, 'OpenGL ES Hardware Platform Guide for iOS', OpenGL ES Hardware Processors: the "
        "SGX 543 (iPhone 4S, iPhone 5, iPad 2, iPad 3, iPad mini) supports OpenGL ES 1.1 and 2.0",
        cat({"fragmentUniformVectors, textureUnits: ", kIpad2Report,
             ": MAX_FRAGMENT_UNIFORM_VECTORS 64, MAX_COMBINED_TEXTURE_IMAGE_UNITS 8 (so 8 fragment units)"}),
        "vertexTextureUnits: shaderific.com GLSL ES constants reference: gl_MaxVertexTextureImageUnits is 0 "
        "on all iOS devices (the SGX generation)",
        "vertexUniformVectors, vertexAttribs, varyingVectors: not in the stored part of the iPad 2 report "
        "nor of Apple's per-GPU table; the OpenGL ES 2.0 specification's minimums (128, 8, 8)",
        "maxTextureSize: the 2D limit was not found for this part; 2048, the iPad 2 report's "
        "MAX_CUBE_MAP_TEXTURE_SIZE and the SGX 540's GL_MAX_TEXTURE_SIZE (possibly below the driver's)",
        cat({"pvrtc: ", kImgPvrtc}),
        "etc1, etc2, astc, bc, uintIndices, halfFloat, vertexArrays, npotTextures: no extension list of "
        "this part was found: off, what the ES 2.0 core gives",
        kSgxCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile sgx544mp() {
    DeviceProfile d = base("sgx544mp", "PowerVR SGX 544MP", "SGX Series5XT", 20, {128, 64, 8, 8, 0, 8, 2048});
    d.pvrtc = true;
    d.vertexCache = kSgxCache;
    d.budgets = {250000, 200, 128 * kMiB};
    d.sources = {
        "esVersion: not found for this part; OpenGL ES 2.0 as for its Series5XT sibling the SGX 543 "
        "(Apple, 'OpenGL ES Hardware Platform Guide for iOS')",
        cat({"fragmentUniformVectors, textureUnits: not found for this part; the SGX 543's 64 and 8 (",
             kIpad2Report, "), the same Series5XT family"}),
        "vertexUniformVectors, vertexAttribs, vertexTextureUnits, varyingVectors: not found for this part; "
        "the OpenGL ES 2.0 specification's minimums (128, 8, 0, 8)",
        "maxTextureSize: not found for this part; 2048, the SGX 540's GL_MAX_TEXTURE_SIZE (BlackBerry "
        "SGX540 documentation), held for the Series5 family until a report shows more",
        cat({"pvrtc: ", kImgPvrtc}),
        "etc1, etc2, astc, bc, uintIndices, halfFloat, vertexArrays, npotTextures: no extension list of "
        "this part was found: off, what the ES 2.0 core gives",
        kSgxCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile sgx554mp() {
    DeviceProfile d =
        base("sgx554mp", "PowerVR SGX 554MP (Apple A6X)", "SGX Series5XT", 20, {128, 64, 8, 8, 0, 8, 2048});
    d.pvrtc = true;
    d.vertexCache = kSgxCache;
    d.budgets = {400000, 300, 256 * kMiB};
    d.sources = {
        "esVersion: Apple, 'OpenGL ES Hardware Platform Guide for iOS', OpenGL ES Hardware Processors: the "
        "SGX 554 (iPad 4) supports OpenGL ES 1.1 and 2.0",
        cat({"fragmentUniformVectors, textureUnits: not found for this part; the SGX 543's 64 and 8 (",
             kIpad2Report, "), the same Apple driver family"}),
        "vertexTextureUnits: shaderific.com GLSL ES constants reference: gl_MaxVertexTextureImageUnits is 0 "
        "on all iOS devices (the SGX generation)",
        "vertexUniformVectors, vertexAttribs, varyingVectors: not found for this part; the OpenGL ES 2.0 "
        "specification's minimums (128, 8, 8)",
        "maxTextureSize: not found for this part; 2048, the SGX 543 iPad 2 report's "
        "MAX_CUBE_MAP_TEXTURE_SIZE and the SGX 540's GL_MAX_TEXTURE_SIZE (possibly below the driver's)",
        cat({"pvrtc: ", kImgPvrtc}),
        "etc1, etc2, astc, bc, uintIndices, halfFloat, vertexArrays, npotTextures: no extension list of "
        "this part was found: off, what the ES 2.0 core gives",
        kSgxCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile g6200() {
    DeviceLimits limits = kEs3Minimums;
    limits.maxTextureSize = 4096;
    DeviceProfile d = base("g6200", "PowerVR G6200", "Rogue Series6", 30, limits);
    setEs3Core(d);
    d.pvrtc = true;
    d.vertexCache = kRogueCache;
    d.budgets = {500000, 400, 256 * kMiB};
    d.sources = {
        "esVersion: Electronics Weekly (2013): Imagination among the first to submit PowerVR Series6 "
        "'Rogue' drivers for OpenGL ES 3.0 conformance; 3.0 held (later drivers may expose 3.1)",
        "vertexUniformVectors, fragmentUniformVectors, vertexAttribs, textureUnits, vertexTextureUnits, "
        "varyingVectors: no driver report of this part was found; the OpenGL ES 3.0 specification's "
        "minimums (256, 224, 16, 16, 16, 15)",
        cat({"maxTextureSize: not found for this part; the G6430's 4096 (", kA7Report,
             "), the same Series6 family"}),
        cat({"pvrtc: ", kImgPvrtc}),
        kEs3Core,
        kEtc1AsEtc2,
        "astc: off: Imagination's 'PowerVR Series6XT' page makes ASTC an option of Series6XT configurations "
        "(GX6250 has it, GX6240 not); its extension reference lists Series6 among "
        "GL_KHR_texture_compression_astc_ldr hardware, so a G6200 driver may expose it: unresolved, off as "
        "the safer choice",
        kNoBc,
        kRogueCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile g6430() {
    DeviceProfile d =
        base("g6430", "PowerVR G6430 (Apple A7)", "Rogue Series6", 30, {512, 224, 16, 16, 16, 15, 4096});
    setEs3Core(d);
    d.pvrtc = true;
    d.vertexCache = kRogueCache;
    d.budgets = {800000, 500, 512 * kMiB};
    d.sources = {
        cat({"esVersion, vertexUniformVectors, fragmentUniformVectors, vertexAttribs, varyingVectors, "
             "maxTextureSize: ",
             kA7Report,
             ": GL_MAX_VERTEX_UNIFORM_VECTORS 512, GL_MAX_FRAGMENT_UNIFORM_COMPONENTS 896 (224 vectors), "
             "GL_MAX_VERTEX_ATTRIBS 16, GL_MAX_VARYING_VECTORS 15, GL_MAX_TEXTURE_SIZE 4096"}),
        "textureUnits, vertexTextureUnits: not in the stored part of the same report; the OpenGL ES 3.0 "
        "specification's minimums (16, 16)",
        cat({"pvrtc: the same report: the A7 supports PVRTC (not PVRTC2) and ETC2/EAC; ", kImgPvrtc}),
        kEs3Core,
        kEtc1AsEtc2,
        "astc: off: not named by the same report (which names PVRTC and ETC2/EAC); Imagination's "
        "'PowerVR Series6XT' page makes ASTC a Series6XT option",
        kNoBc,
        kRogueCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile gx6250() {
    DeviceLimits limits = kEs3Minimums;
    limits.maxTextureSize = 4096;
    DeviceProfile d = base("gx6250", "PowerVR GX6250", "Rogue Series6XT", 30, limits);
    setEs3Core(d);
    d.pvrtc = d.etc1 = d.astc = true;
    d.vertexCache = kRogueCache;
    d.budgets = {600000, 400, 384 * kMiB};
    d.sources = {
        "esVersion, pvrtc, etc1, astc: Imagination, 'PowerVR Series6XT' product page: the GX6250 takes "
        "PVRTC1/2, ASTC (LDR + HDR) and ETC1/2 textures, API OpenGL ES 1.x/2.0/3.x (3.0 held: the minor "
        "version is not in the source)",
        "vertexUniformVectors, fragmentUniformVectors, vertexAttribs, textureUnits, vertexTextureUnits, "
        "varyingVectors: no driver report of this part was found; the OpenGL ES 3.0 specification's "
        "minimums (256, 224, 16, 16, 16, 15)",
        cat({"maxTextureSize: not found for this part; the G6430's 4096 (", kA7Report,
             "), the same Rogue architecture"}),
        kEs3Core,
        kNoBc,
        kRogueCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile ge8320() {
    DeviceLimits limits = kEs3Minimums;
    limits.maxTextureSize = 4096;
    DeviceProfile d = base("ge8320", "PowerVR GE8320", "Rogue Series8XE", 32, limits);
    setEs3Core(d);
    d.pvrtc = d.etc1 = d.astc = true;
    d.vertexCache = kRogueCache;
    d.budgets = {500000, 400, 256 * kMiB};
    d.sources = {
        "esVersion: Android Authority, 'Imagination introduces PowerVR Series8XE GPUs, brings OpenGL ES 3.2 "
        "and Vulkan to the ultra-affordable market'; chipguider.com's PowerVR GE8320 page: OpenGL ES 3.2",
        "pvrtc, etc1, astc: chipguider.com's PowerVR GE8320 page (a third-party specification site): "
        "texture compression ETC, ETC2, ASTC, PVRTC",
        "vertexUniformVectors, fragmentUniformVectors, vertexAttribs, textureUnits, vertexTextureUnits, "
        "varyingVectors: no driver report of this part was found; the OpenGL ES 3.0 specification's "
        "minimums (256, 224, 16, 16, 16, 15)",
        cat({"maxTextureSize: not found for this part; the G6430's 4096 (", kA7Report,
             "), the same Rogue architecture"}),
        kEs3Core,
        kNoBc,
        kRogueCacheSource,
        kBudgetsSource,
    };
    return d;
}

DeviceProfile strictEs2() {
    DeviceProfile d =
        base("strict-es2", "Strict ES 2.0 profile (--gles2-strict)", "profile", 20, kStrictLimits);
    d.vertexCache = kSgxCache;
    d.budgets = {100000, 150, 64 * kMiB};
    d.sources = {
        "esVersion, vertexUniformVectors, fragmentUniformVectors, vertexAttribs, textureUnits, "
        "vertexTextureUnits, varyingVectors, maxTextureSize: target/strict_profile.h, kStrictLimits: the "
        "ES 2.0 specification's minimums except GL_MAX_TEXTURE_SIZE 2048 and "
        "GL_MAX_FRAGMENT_UNIFORM_VECTORS 64 (that header says why)",
        "pvrtc, etc1, etc2, astc, bc, uintIndices, halfFloat, vertexArrays, npotTextures: none: "
        "kStrictExtensions is empty, every optional path takes its ES 2.0 core fallback",
        kSgxCacheSource,
        "budgets: esview's guidance, the SGX 540's (not a hardware limit, no external source)",
    };
    return d;
}

DeviceProfile desktop() {
    DeviceProfile d =
        base("desktop", "Desktop-class ES 3.2 GPU", "desktop", 32, {4096, 1024, 16, 16, 16, 32, 16384});
    setEs3Core(d);
    d.etc1 = d.astc = d.bc = true;
    d.vertexCache = kRogueCache;
    d.budgets = {10000000, 5000, 4096 * kMiB};
    d.sources = {
        "esVersion: esview's choice: ES 3.2, what Mesa (llvmpipe) and desktop drivers give an ES context",
        "vertexUniformVectors, fragmentUniformVectors, vertexAttribs, textureUnits, vertexTextureUnits, "
        "varyingVectors, maxTextureSize: esview's choice for a desktop-class GPU, of the order desktop "
        "drivers report (a WebGL 2 report of an AMD Radeon R9 M395: 1024 vertex and fragment uniform "
        "vectors, 16 attributes, 16 and 16 texture units, 32 varying vectors, 16384 texture size; "
        "SwiftShader through ANGLE: 4096 vertex uniform vectors)",
        "etc1, etc2, astc, bc, uintIndices, halfFloat, vertexArrays, npotTextures, pvrtc: ES 3.2 core "
        "(ETC2/EAC, ASTC LDR, 32-bit indices, half floats, vertex array objects, NPOT) plus S3TC, which "
        "desktop drivers expose; pvrtc off (a PowerVR format)",
        "vertexCache: a model: a 32-entry FIFO, the figure esview computes ACMR/ATVR with for a desktop "
        "GPU (no vendor figure)",
        kBudgetsSource,
    };
    return d;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

void setFormats(TargetCaps& caps, std::initializer_list<PixelFormat> formats) {
    for (PixelFormat f : formats) caps.compressedFormats[static_cast<size_t>(f)] = true;
}

}  // namespace

const std::vector<DeviceProfile>& deviceProfiles() {
    static const std::vector<DeviceProfile> profiles = {
        sgx530(), sgx540(), sgx543mp(), sgx544mp(),  sgx554mp(), g6200(),
        g6430(),  gx6250(), ge8320(),   strictEs2(), desktop(),
    };
    return profiles;
}

const DeviceProfile* findDevice(const std::string& name) {
    const std::string wanted = lower(name);
    for (const DeviceProfile& d : deviceProfiles())
        if (d.name == wanted) return &d;
    return nullptr;
}

std::string deviceNameList() {
    std::string list;
    for (const DeviceProfile& d : deviceProfiles()) list += (list.empty() ? "" : ", ") + d.name;
    return list;
}

int devicePaletteCapacity(const DeviceProfile& device) {
    // As the renderer sizes its palettes (gl_renderer.cpp): at most 256 bones per draw.
    return std::min(paletteCapacity(device.limits.vertexUniformVectors, kReservedVertexVectors), 256);
}

TargetCaps deviceTargetCaps(const DeviceProfile& device) {
    TargetCaps caps;
    caps.esVersion = device.esVersion / 10 >= 3 ? 3 : 2;
    caps.paletteCapacity = devicePaletteCapacity(device);
    caps.uintIndices = device.uintIndices;
    caps.npotTextures = device.npotTextures;
    caps.maxTextureSize = device.limits.maxTextureSize;
    caps.fixedAttributes = true;
    if (device.pvrtc)
        setFormats(caps, {PixelFormat::Pvrtc1_2bpp_Rgb, PixelFormat::Pvrtc1_2bpp_Rgba,
                          PixelFormat::Pvrtc1_4bpp_Rgb, PixelFormat::Pvrtc1_4bpp_Rgba});
    // ETC1 data is valid ETC2 RGB8: an ETC2 device samples it too (the renderer uploads it as such).
    if (device.etc1 || device.etc2) setFormats(caps, {PixelFormat::Etc1_Rgb});
    if (device.etc2)
        setFormats(caps, {PixelFormat::Etc2_Rgb, PixelFormat::Etc2_Rgb_A1, PixelFormat::Etc2_Rgba,
                          PixelFormat::Eac_R11, PixelFormat::Eac_R11_Signed, PixelFormat::Eac_Rg11,
                          PixelFormat::Eac_Rg11_Signed});
    if (device.astc) setFormats(caps, {PixelFormat::Astc});
    if (device.bc)
        setFormats(caps, {PixelFormat::Bc1_Rgb, PixelFormat::Bc1_Rgba, PixelFormat::Bc2, PixelFormat::Bc3});
    return caps;
}

bool deviceHasExtension(const DeviceProfile& device, const char* name) {
    const std::string n = name ? name : "";
    if (n == "GL_OES_element_index_uint") return device.uintIndices;
    if (n == "GL_OES_vertex_array_object") return device.vertexArrays;
    if (n == "GL_OES_texture_npot") return device.npotTextures;
    if (n == "GL_OES_vertex_half_float") return device.halfFloat;
    if (n == "GL_IMG_texture_compression_pvrtc") return device.pvrtc;
    if (n == "GL_OES_compressed_ETC1_RGB8_texture") return device.etc1;
    if (n == "GL_KHR_texture_compression_astc_ldr") return device.astc;
    if (n == "GL_EXT_texture_compression_s3tc" || n == "GL_EXT_texture_compression_dxt1" ||
        n == "GL_ANGLE_texture_compression_dxt3" || n == "GL_ANGLE_texture_compression_dxt5")
        return device.bc;
    return false;
}

}  // namespace esv
