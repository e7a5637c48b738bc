#include <algorithm>
// Binding plans are pure functions of the stream layout: tested without a GL context.
#include <cstring>

#include <gtest/gtest.h>

#include "target/binding_plan.h"
#include "renderer/view_settings.h"

using namespace esv;

namespace {

VertexStream streamWith(ComponentType type, uint8_t components, uint32_t offset, uint32_t stride, bool normalized = false) {
    VertexStream s;
    s.stride = stride;
    s.count = 2;
    s.bytes = makeOwnedBytes(std::vector<uint8_t>(size_t(stride) * 2 + 8, 0));
    s.attributes.push_back({Semantic::Position, 0, type, components, normalized, Swizzle::Identity, offset});
    return s;
}

}  // namespace

TEST(BindingPlan, Es2ReadsOnlyTheEs2Types) {
    const VertexCaps es2{false}, es3{true};
    struct Case {
        ComponentType type;
        uint32_t glType;
        bool es2, es3;
    } cases[] = {
        {ComponentType::Float32, 0x1406, true, true},     {ComponentType::Fixed16_16, 0x140C, true, true},
        {ComponentType::Int8, 0x1400, true, true},        {ComponentType::UInt8, 0x1401, true, true},
        {ComponentType::Int16, 0x1402, true, true},       {ComponentType::UInt16, 0x1403, true, true},
        {ComponentType::Float16, 0x140B, false, true},    {ComponentType::Int32, 0x1404, false, true},
        {ComponentType::UInt32, 0x1405, false, true},     {ComponentType::Int2_10_10_10, 0x8D9F, false, true},
        {ComponentType::UInt2_10_10_10, 0x8368, false, true}, {ComponentType::Float64, 0, false, false},
    };
    static_assert(sizeof(cases) / sizeof(cases[0]) == static_cast<size_t>(ComponentType::Count));
    for (const Case& c : cases) {
        const uint8_t comps = isPacked(c.type) ? 3 : 2;
        VertexStream s = streamWith(c.type, comps, 0, 16);
        EXPECT_EQ(glComponentType(c.type), c.glType) << componentTypeName(c.type);
        EXPECT_EQ(planBindings(s, es2).needsConversion, !c.es2) << componentTypeName(c.type);
        EXPECT_EQ(planBindings(s, es3).needsConversion, !c.es3) << componentTypeName(c.type);
    }
}

TEST(BindingPlan, InterleavedOffsetsAndStrideAreKept) {
    VertexStream s;
    s.stride = 28;
    s.count = 1;
    s.bytes = makeOwnedBytes(std::vector<uint8_t>(28));
    s.attributes = {{Semantic::Position, 0, ComponentType::Float32, 3, false, Swizzle::Identity, 0},
                    {Semantic::Normal, 0, ComponentType::Int16, 3, true, Swizzle::Identity, 12},
                    {Semantic::Color, 0, ComponentType::UInt8, 4, true, Swizzle::BGRA, 20},
                    {Semantic::TexCoord, 0, ComponentType::UInt16, 2, true, Swizzle::Identity, 24}};
    BindingPlan plan = planBindings(s, VertexCaps{false});
    EXPECT_FALSE(plan.needsConversion);
    EXPECT_EQ(plan.stride, 28u);
    ASSERT_EQ(plan.attributes.size(), 4u);
    EXPECT_EQ(plan.attributes[1].offset, 12u);
    EXPECT_TRUE(plan.attributes[1].normalized);
    EXPECT_EQ(plan.attributes[1].size, 3);
    EXPECT_EQ(plan.attributes[2].swizzle, Swizzle::BGRA);
    EXPECT_EQ(plan.attributes[3].glType, 0x1403u);
}

TEST(BindingPlan, UnalignedMultiByteAttributesAreConverted) {
    // A float at offset 35 in a 47-byte vertex (seen in real POD exports).
    EXPECT_TRUE(planBindings(streamWith(ComponentType::Float32, 3, 35, 47), VertexCaps{true}).needsConversion);
    EXPECT_TRUE(planBindings(streamWith(ComponentType::Int16, 2, 1, 8), VertexCaps{true}).needsConversion);
    // Bytes have no alignment.
    EXPECT_FALSE(planBindings(streamWith(ComponentType::UInt8, 4, 3, 7), VertexCaps{false}).needsConversion);
}

TEST(BindingPlan, WebGlReadsNoFixedPoint) {
    // WebGL (1 and 2) has no GL_FIXED attributes: 16.16 data is converted there, and only there.
    for (bool es3 : {false, true}) {
        VertexCaps webgl{es3};
        webgl.fixedPoint = false;
        EXPECT_TRUE(planBindings(streamWith(ComponentType::Fixed16_16, 3, 0, 12), webgl).needsConversion);
        EXPECT_FALSE(
            planBindings(streamWith(ComponentType::Fixed16_16, 3, 0, 12), VertexCaps{es3}).needsConversion);
        EXPECT_FALSE(planBindings(streamWith(ComponentType::Int16, 2, 0, 4), webgl).needsConversion);
        EXPECT_FALSE(planBindings(streamWith(ComponentType::Float32, 3, 0, 12), webgl).needsConversion);
    }
}

TEST(BindingPlan, PackedWordsBindFourComponents) {
    BindingPlan plan = planBindings(streamWith(ComponentType::Int2_10_10_10, 3, 0, 4, true), VertexCaps{true});
    ASSERT_EQ(plan.attributes.size(), 1u);
    EXPECT_EQ(plan.attributes[0].size, 4);
}

TEST(BindingPlan, ConversionToFloatDecodesValues) {
    VertexStream s;
    s.stride = 7;  // unaligned on purpose
    s.count = 2;
    std::vector<uint8_t> bytes(14, 0);
    const int16_t a[2] = {32767, -32767};
    std::memcpy(bytes.data() + 1, a, 4);
    const int16_t b[2] = {16384, 0};
    std::memcpy(bytes.data() + 8, b, 4);
    s.bytes = makeOwnedBytes(bytes);
    s.attributes = {{Semantic::TexCoord, 0, ComponentType::Int16, 2, true, Swizzle::Identity, 1}};
    VertexStream f = convertToFloat(s);
    EXPECT_EQ(f.stride, 8u);
    ASSERT_EQ(f.attributes.size(), 1u);
    EXPECT_EQ(f.attributes[0].type, ComponentType::Float32);
    float v[4];
    std::memcpy(v, f.bytes.data, 16);
    EXPECT_FLOAT_EQ(v[0], 1.0f);
    EXPECT_FLOAT_EQ(v[1], -1.0f);
    EXPECT_NEAR(v[2], 16384.0f / 32767.0f, 1e-6);
    EXPECT_FLOAT_EQ(v[3], 0.0f);
    EXPECT_FALSE(planBindings(f, VertexCaps{false}).needsConversion);
}

TEST(BindingPlan, PaletteBudget) {
    EXPECT_EQ(paletteCapacity(128, 16), 28);
    EXPECT_EQ(paletteCapacity(4096, 16), 1020);
    EXPECT_EQ(paletteCapacity(10, 16), 0);
}

// The Batches view tells up to 64 batches apart (a mesh of 15 batches once showed batches 0 and 8
// alike): every pair of the colours differs by 0.18 or more in RGB, the first eight are the ones the
// goldens were drawn with, and batch 64 wraps to batch 0's colour.
TEST(BatchColors, SixtyFourDistinctColours) {
    ASSERT_EQ(kBatchColorCount, 64u);
    float nearest = 1e9f;
    for (size_t a = 0; a < kBatchColorCount; ++a)
        for (size_t b = a + 1; b < kBatchColorCount; ++b)
            nearest = std::min(nearest, glm::length(batchColor(a) - batchColor(b)));
    EXPECT_GE(nearest, 0.18f);
    EXPECT_EQ(batchColor(0), glm::vec3(0.9f, 0.3f, 0.25f));
    EXPECT_EQ(batchColor(7), glm::vec3(0.6f, 0.6f, 0.6f));
    EXPECT_EQ(batchColor(64), batchColor(0));
    for (size_t b = 0; b < kBatchColorCount; ++b)
        for (int c = 0; c < 3; ++c) {
            EXPECT_GE(batchColor(b)[c], 0.0f);
            EXPECT_LE(batchColor(b)[c], 1.0f);
        }
}
