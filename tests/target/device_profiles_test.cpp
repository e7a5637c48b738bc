// The device profile table (target/device_profiles.h): names, the ES minimums each profile must
// meet, the strict profile's numbers, a source for every value, and what the preparation stage is
// told about each device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "target/binding_plan.h"
#include "target/device_profiles.h"

namespace esv {
namespace {

// The fields a profile's "sources" lines name, the part before the first ": " of a line, split at ", ".
std::set<std::string> sourcedFields(const DeviceProfile& d) {
    std::set<std::string> fields;
    for (const std::string& line : d.sources) {
        const size_t colon = line.find(": ");
        if (colon == std::string::npos) continue;
        const std::string head = line.substr(0, colon);
        size_t start = 0;
        while (start <= head.size()) {
            const size_t comma = head.find(", ", start);
            const size_t end = comma == std::string::npos ? head.size() : comma;
            fields.insert(head.substr(start, end - start));
            if (comma == std::string::npos) break;
            start = comma + 2;
        }
    }
    return fields;
}

// True when a sources line naming `field` mentions `text`.
bool sourceMentions(const DeviceProfile& d, const std::string& field, const std::string& text) {
    for (const std::string& line : d.sources) {
        const size_t colon = line.find(": ");
        if (colon == std::string::npos) continue;
        const std::string head = ", " + line.substr(0, colon) + ",";
        if (head.find(", " + field + ",") != std::string::npos && line.find(text) != std::string::npos)
            return true;
    }
    return false;
}

TEST(DeviceProfiles, RequiredNamesInOrder) {
    const std::vector<std::string> expected = {"sgx530",   "sgx540",     "sgx543mp", "sgx544mp",
                                               "sgx554mp", "g6200",      "g6430",    "gx6250",
                                               "ge8320",   "strict-es2", "desktop"};
    std::vector<std::string> names;
    for (const DeviceProfile& d : deviceProfiles()) names.push_back(d.name);
    EXPECT_EQ(names, expected);
    EXPECT_EQ(
        deviceNameList(),
        "sgx530, sgx540, sgx543mp, sgx544mp, sgx554mp, g6200, g6430, gx6250, ge8320, strict-es2, desktop");
}

TEST(DeviceProfiles, NamesUniqueLowerCaseWithoutSpaces) {
    std::set<std::string> seen;
    for (const DeviceProfile& d : deviceProfiles()) {
        EXPECT_TRUE(seen.insert(d.name).second) << d.name;
        EXPECT_FALSE(d.name.empty());
        for (char c : d.name) {
            EXPECT_FALSE(std::isupper(static_cast<unsigned char>(c))) << d.name;
            EXPECT_FALSE(std::isspace(static_cast<unsigned char>(c))) << d.name;
        }
        EXPECT_FALSE(d.title.empty()) << d.name;
        EXPECT_FALSE(d.family.empty()) << d.name;
    }
}

TEST(DeviceProfiles, FindDeviceAnyCase) {
    for (const DeviceProfile& d : deviceProfiles()) {
        std::string upper = d.name;
        std::transform(upper.begin(), upper.end(), upper.begin(),
                       [](unsigned char c) { return char(std::toupper(c)); });
        EXPECT_EQ(findDevice(d.name), &d);
        EXPECT_EQ(findDevice(upper), &d) << upper;
    }
    ASSERT_NE(findDevice("SgX540"), nullptr);
    EXPECT_EQ(findDevice("SgX540")->name, "sgx540");
    EXPECT_EQ(findDevice("Strict-ES2")->name, "strict-es2");
    EXPECT_EQ(findDevice("sgx999"), nullptr);
    EXPECT_EQ(findDevice(""), nullptr);
}

TEST(DeviceProfiles, EsVersionsAreKnown) {
    for (const DeviceProfile& d : deviceProfiles())
        EXPECT_TRUE(d.esVersion == 20 || d.esVersion == 30 || d.esVersion == 31 || d.esVersion == 32)
            << d.name;
    for (const char* name : {"sgx530", "sgx540", "sgx543mp", "sgx544mp", "sgx554mp", "strict-es2"})
        EXPECT_EQ(findDevice(name)->esVersion, 20) << name;
    for (const char* name : {"g6200", "g6430", "gx6250", "ge8320", "desktop"})
        EXPECT_GE(findDevice(name)->esVersion, 30) << name;
}

// ES 2.0 parts: at least the ES 2.0 minimums (table 6.20, fragment uniforms 16), and no optional
// feature the ES 2.0 core lacks unless a sources line names the extension that gives it.
TEST(DeviceProfiles, Es2DevicesMeetEs2MinimumsAndClaimOnlySourcedExtensions) {
    for (const DeviceProfile& d : deviceProfiles()) {
        if (d.esVersion != 20) continue;
        SCOPED_TRACE(d.name);
        EXPECT_GE(d.limits.vertexUniformVectors, 128);
        EXPECT_GE(d.limits.fragmentUniformVectors, 16);
        EXPECT_GE(d.limits.vertexAttribs, 8);
        EXPECT_GE(d.limits.textureUnits, 8);
        EXPECT_GE(d.limits.vertexTextureUnits, 0);
        EXPECT_GE(d.limits.varyingVectors, 8);
        EXPECT_GE(d.limits.maxTextureSize, 64);
        EXPECT_FALSE(d.etc2);
        EXPECT_FALSE(d.astc);
        EXPECT_FALSE(d.bc);
        const std::vector<std::pair<bool, std::pair<const char*, const char*>>> optional = {
            {d.uintIndices, {"uintIndices", "GL_OES_element_index_uint"}},
            {d.halfFloat, {"halfFloat", "GL_OES_vertex_half_float"}},
            {d.vertexArrays, {"vertexArrays", "GL_OES_vertex_array_object"}},
            {d.npotTextures, {"npotTextures", "GL_OES_texture_npot"}},
            {d.etc1, {"etc1", "GL_OES_compressed_ETC1_RGB8_texture"}},
            {d.pvrtc, {"pvrtc", "GL_IMG_texture_compression_pvrtc"}},
        };
        for (const auto& [on, what] : optional)
            if (on) {
                EXPECT_TRUE(sourceMentions(d, what.first, what.second)) << what.first;
            }
    }
}

// ES 3.x parts: at least the ES 3.0 minimums, and the ES 3.0 core features.
TEST(DeviceProfiles, Es3DevicesMeetEs3Minimums) {
    for (const DeviceProfile& d : deviceProfiles()) {
        if (d.esVersion < 30) continue;
        SCOPED_TRACE(d.name);
        EXPECT_GE(d.limits.vertexUniformVectors, 256);
        EXPECT_GE(d.limits.fragmentUniformVectors, 224);
        EXPECT_GE(d.limits.vertexAttribs, 16);
        EXPECT_GE(d.limits.textureUnits, 16);
        EXPECT_GE(d.limits.vertexTextureUnits, 16);
        EXPECT_GE(d.limits.varyingVectors, 15);
        EXPECT_GE(d.limits.maxTextureSize, 2048);
        EXPECT_TRUE(d.etc2);
        EXPECT_TRUE(d.uintIndices);
        EXPECT_TRUE(d.halfFloat);
        EXPECT_TRUE(d.vertexArrays);
        EXPECT_TRUE(d.npotTextures);
    }
}

TEST(DeviceProfiles, StrictEs2IsTheStrictProfile) {
    const DeviceProfile* d = findDevice("strict-es2");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->esVersion, 20);
    EXPECT_EQ(d->limits.vertexUniformVectors, kStrictLimits.vertexUniformVectors);
    EXPECT_EQ(d->limits.fragmentUniformVectors, kStrictLimits.fragmentUniformVectors);
    EXPECT_EQ(d->limits.vertexAttribs, kStrictLimits.vertexAttribs);
    EXPECT_EQ(d->limits.textureUnits, kStrictLimits.textureUnits);
    EXPECT_EQ(d->limits.vertexTextureUnits, kStrictLimits.vertexTextureUnits);
    EXPECT_EQ(d->limits.varyingVectors, kStrictLimits.varyingVectors);
    EXPECT_EQ(d->limits.maxTextureSize, kStrictLimits.maxTextureSize);
    EXPECT_FALSE(d->pvrtc || d->etc1 || d->etc2 || d->astc || d->bc);
    EXPECT_FALSE(d->uintIndices || d->halfFloat || d->vertexArrays || d->npotTextures);
    EXPECT_EQ(d->vertexCache, 16u);
}

TEST(DeviceProfiles, EveryValueNamesItsSource) {
    const std::vector<std::string> fields = {"esVersion",
                                             "vertexUniformVectors",
                                             "fragmentUniformVectors",
                                             "vertexAttribs",
                                             "textureUnits",
                                             "vertexTextureUnits",
                                             "varyingVectors",
                                             "maxTextureSize",
                                             "pvrtc",
                                             "etc1",
                                             "etc2",
                                             "astc",
                                             "bc",
                                             "uintIndices",
                                             "halfFloat",
                                             "vertexArrays",
                                             "npotTextures",
                                             "vertexCache",
                                             "budgets"};
    for (const DeviceProfile& d : deviceProfiles()) {
        SCOPED_TRACE(d.name);
        for (const std::string& line : d.sources) EXPECT_NE(line.find(": "), std::string::npos) << line;
        const std::set<std::string> named = sourcedFields(d);
        for (const std::string& field : fields) EXPECT_EQ(named.count(field), 1u) << field;
        // The cache and the budgets are esview's own figures and say so.
        EXPECT_TRUE(sourceMentions(d, "vertexCache", "model")) << "vertexCache";
        EXPECT_TRUE(sourceMentions(d, "budgets", "guidance")) << "budgets";
    }
}

TEST(DeviceProfiles, CachesAndBudgetsAreSet) {
    for (const DeviceProfile& d : deviceProfiles()) {
        SCOPED_TRACE(d.name);
        EXPECT_GT(d.vertexCache, 0u);
        EXPECT_GT(d.budgets.triangles, 0u);
        EXPECT_GT(d.budgets.draws, 0u);
        EXPECT_GT(d.budgets.textureBytes, 0u);
        if (d.family.rfind("SGX", 0) == 0) {
            EXPECT_EQ(d.vertexCache, 16u);
        }
        if (d.family.rfind("Rogue", 0) == 0) {
            EXPECT_EQ(d.vertexCache, 32u);
        }
    }
}

TEST(DeviceProfiles, PaletteCapacityIsTheRenderers) {
    EXPECT_EQ(devicePaletteCapacity(*findDevice("strict-es2")), paletteCapacity(128, kReservedVertexVectors));
    EXPECT_EQ(devicePaletteCapacity(*findDevice("sgx540")), paletteCapacity(128, kReservedVertexVectors));
    EXPECT_EQ(devicePaletteCapacity(*findDevice("g6430")), paletteCapacity(512, kReservedVertexVectors));
    EXPECT_EQ(devicePaletteCapacity(*findDevice("desktop")), 256);  // capped, as the renderer does
    for (const DeviceProfile& d : deviceProfiles()) {
        EXPECT_GT(devicePaletteCapacity(d), 0) << d.name;
        EXPECT_LE(devicePaletteCapacity(d), 256) << d.name;
    }
}

TEST(DeviceProfiles, TargetCapsFollowTheFlags) {
    const TargetCaps sgx540 = deviceTargetCaps(*findDevice("sgx540"));
    EXPECT_EQ(sgx540.esVersion, 2);
    EXPECT_EQ(sgx540.paletteCapacity, paletteCapacity(128, kReservedVertexVectors));
    EXPECT_TRUE(sgx540.uintIndices);
    EXPECT_FALSE(sgx540.npotTextures);
    EXPECT_EQ(sgx540.maxTextureSize, 2048);
    EXPECT_TRUE(sgx540.fixedAttributes);
    for (PixelFormat f :
         {PixelFormat::Pvrtc1_2bpp_Rgb, PixelFormat::Pvrtc1_2bpp_Rgba, PixelFormat::Pvrtc1_4bpp_Rgb,
          PixelFormat::Pvrtc1_4bpp_Rgba, PixelFormat::Etc1_Rgb, PixelFormat::Rgba8})
        EXPECT_TRUE(sgx540.supports(f)) << pixelFormatName(f);
    for (PixelFormat f :
         {PixelFormat::Astc, PixelFormat::Etc2_Rgb, PixelFormat::Eac_R11, PixelFormat::Bc1_Rgb})
        EXPECT_FALSE(sgx540.supports(f)) << pixelFormatName(f);

    const TargetCaps ge8320 = deviceTargetCaps(*findDevice("ge8320"));
    EXPECT_EQ(ge8320.esVersion, 3);
    for (PixelFormat f :
         {PixelFormat::Astc, PixelFormat::Etc2_Rgb, PixelFormat::Etc2_Rgb_A1, PixelFormat::Etc2_Rgba,
          PixelFormat::Eac_R11, PixelFormat::Eac_R11_Signed, PixelFormat::Eac_Rg11,
          PixelFormat::Eac_Rg11_Signed, PixelFormat::Etc1_Rgb, PixelFormat::Pvrtc1_4bpp_Rgb})
        EXPECT_TRUE(ge8320.supports(f)) << pixelFormatName(f);
    for (PixelFormat f : {PixelFormat::Bc1_Rgb, PixelFormat::Bc1_Rgba, PixelFormat::Bc2, PixelFormat::Bc3})
        EXPECT_FALSE(ge8320.supports(f)) << pixelFormatName(f);

    // An ETC2 device samples ETC1 data (as ETC2 RGB8) even without the ETC1 extension.
    const DeviceProfile* g6430 = findDevice("g6430");
    EXPECT_FALSE(g6430->etc1);
    EXPECT_TRUE(deviceTargetCaps(*g6430).supports(PixelFormat::Etc1_Rgb));
    EXPECT_FALSE(deviceTargetCaps(*g6430).supports(PixelFormat::Astc));

    const TargetCaps desktop = deviceTargetCaps(*findDevice("desktop"));
    EXPECT_EQ(desktop.esVersion, 3);
    EXPECT_EQ(desktop.maxTextureSize, 16384);
    EXPECT_TRUE(desktop.supports(PixelFormat::Bc3));
    EXPECT_TRUE(desktop.supports(PixelFormat::Astc));
    EXPECT_FALSE(desktop.supports(PixelFormat::Pvrtc1_4bpp_Rgba));

    const TargetCaps strict = deviceTargetCaps(*findDevice("strict-es2"));
    EXPECT_EQ(strict.esVersion, 2);
    EXPECT_FALSE(strict.uintIndices);
    EXPECT_FALSE(strict.npotTextures);
    EXPECT_EQ(strict.maxTextureSize, kStrictLimits.maxTextureSize);
    for (size_t i = 0; i < static_cast<size_t>(PixelFormat::Count); ++i)
        EXPECT_FALSE(strict.compressedFormats[i]);
}

}  // namespace
}  // namespace esv
