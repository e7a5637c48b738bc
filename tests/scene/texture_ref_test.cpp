// Texture references (scene/scene.h): OpenGEX swizzle strings, the identity rules by channel count,
// addressing mode names, and which references need the fragment stage's addressing.
#include <gtest/gtest.h>

#include "scene/scene.h"

namespace esv {
namespace {

TextureSwizzle parsed(const std::string& text) {
    TextureSwizzle s = kIdentitySwizzle;
    EXPECT_TRUE(parseSwizzle(text, s)) << text;
    return s;
}

TEST(TextureSwizzle, ParsesEverySpecCharacterAndRepeatsASingleOne) {
    EXPECT_EQ(swizzleText(parsed("rgba")), "rgba");
    EXPECT_EQ(swizzleText(parsed("xyzw")), "rgba");
    EXPECT_EQ(swizzleText(parsed("bgr1")), "bgr1");
    EXPECT_EQ(swizzleText(parsed("wzyx")), "abgr");
    EXPECT_EQ(swizzleText(parsed("i0i1")), "i0i1");
    EXPECT_EQ(swizzleText(parsed("r")), "rrrr");
    EXPECT_EQ(swizzleText(parsed("1")), "1111");
    EXPECT_EQ(swizzleText(parsed("i")), "iiii");
    EXPECT_EQ(parsed("i"), kIdentitySwizzle);
}

TEST(TextureSwizzle, RejectsOtherLengthsAndCharacters) {
    for (const char* bad : {"", "rg", "rgb", "rgbaa", "rgbq", "RGBA", "2", " rgb"}) {
        TextureSwizzle s = parsed("bgra");
        EXPECT_FALSE(parseSwizzle(bad, s)) << '"' << bad << '"';
        EXPECT_EQ(swizzleText(s), "bgra") << "left untouched by \"" << bad << '"';
    }
}

// "The identity string for a four-channel texture is "rgba", ... three-channel "rgb1", ...
// two-channel "rg01", ... one-channel "r001"."
TEST(TextureSwizzle, IdentityDependsOnTheChannelCount) {
    EXPECT_EQ(swizzleText(resolveSwizzle(kIdentitySwizzle, 4)), "rgba");
    EXPECT_EQ(swizzleText(resolveSwizzle(kIdentitySwizzle, 3)), "rgb1");
    EXPECT_EQ(swizzleText(resolveSwizzle(kIdentitySwizzle, 2)), "rg01");
    EXPECT_EQ(swizzleText(resolveSwizzle(kIdentitySwizzle, 1)), "r001");
    // Only the 'i' positions change; explicit sources stay.
    EXPECT_EQ(swizzleText(resolveSwizzle(parsed("iiri"), 1)), "r0r1");
    EXPECT_EQ(swizzleText(resolveSwizzle(parsed("gi0i"), 4)), "gg0a");
    EXPECT_TRUE(isIdentitySwizzle(parsed("rgba")));
    EXPECT_TRUE(isIdentitySwizzle(parsed("iiii")));
    EXPECT_TRUE(isIdentitySwizzle(parsed("rgb1"), 3));
    EXPECT_FALSE(isIdentitySwizzle(parsed("rgb1"), 4));
    EXPECT_FALSE(isIdentitySwizzle(parsed("bgra")));
}

TEST(TextureRef, ShaderAddressingOnlyForTransformsAndEmulatedModes) {
    TextureRef ref;
    EXPECT_FALSE(ref.needsShaderAddressing());
    for (Wrap w : {Wrap::Repeat, Wrap::Clamp, Wrap::Mirror}) {
        ref.wrapS = ref.wrapT = w;
        EXPECT_FALSE(ref.needsShaderAddressing()) << wrapName(w);
    }
    for (Wrap w : {Wrap::Border, Wrap::MirrorClamp, Wrap::MirrorBorder}) {
        ref.wrapS = Wrap::Repeat;
        ref.wrapT = w;
        EXPECT_TRUE(ref.needsShaderAddressing()) << wrapName(w);
    }
    ref.wrapT = Wrap::Repeat;
    ref.uvTransform = 0;
    EXPECT_TRUE(ref.needsShaderAddressing());
    EXPECT_STREQ(wrapName(Wrap::MirrorBorder), "mirror_border");
    EXPECT_STREQ(wrapName(Wrap::Mirror), "mirror_repeat");
}

TEST(UvTransform, MatrixIsTheProductOfTheElementsInOrder) {
    UvTransform uv;
    TransformElement translate, scale;
    translate.kind = ElementKind::TranslateX;
    translate.value[0] = 0.5f;
    scale.kind = ElementKind::ScaleY;
    scale.value[0] = -2.0f;
    uv.elements = {translate, scale};
    // T(0.5, 0) * S(1, -2): (u, v) -> (u + 0.5, -2 v).
    const glm::vec4 p = uv.matrix() * glm::vec4(0.25f, 0.75f, 0.0f, 1.0f);
    EXPECT_FLOAT_EQ(p.x, 0.75f);
    EXPECT_FLOAT_EQ(p.y, -1.5f);
    EXPECT_EQ(UvTransform().matrix(), glm::mat4(1.0f));
}

}  // namespace
}  // namespace esv
